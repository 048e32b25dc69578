"""Review queues: a saved filter of the trajectory list plus a mode (blind or informed).

A queue is stored in the annotation store (so a team shares it) as a JSON record; saving a queue
under a name already used is a new record, and the newest one wins. Its items are the matching
trajectories, failures first by default; a reviewer's progress is the items they annotated in the
queue's stage, and the next item is the first they have not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd
from pydantic import BaseModel, ConfigDict, field_validator

from webeval_core.access import Write
from webeval_core.review.annotations import Annotation, Stage
from webeval_core.review.store import AnnotationStore
from webeval_core.runs.metrics import PASS, TrajectoryFilter, filter_frame

QUEUE_RECORD = "queue"
Item = tuple[str, str]


class ReviewQueue(BaseModel):
    """A named, shared set of trajectories to review and how to review them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """The queue's name, unique in a store (the newest queue of a name wins); never blank."""
    stage: Stage
    """Blind: verdicts, scores and failure tags hidden until the annotation is saved; or informed."""
    criteria: TrajectoryFilter = TrajectoryFilter()
    """Which trajectories of the list it holds (run, site, type, outcome, verdict, failure tag)."""
    judges: frozenset[str] = frozenset()
    """Keep trajectories judged by any of these judges (see review.judges); empty keeps all."""
    failures_first: bool = True
    """Whether trajectories the judges failed come first."""

    @field_validator("name")
    @classmethod
    def _named(cls, value: str) -> str:
        """A queue is found by its name."""
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()


def save_queue(store: AnnotationStore, queue: ReviewQueue) -> None:
    """Store a queue (a new record; an unchanged queue is stored once)."""
    store.add_record(QUEUE_RECORD, queue.model_dump_json(), Write.QUEUE)


def read_queues(store: AnnotationStore) -> dict[str, ReviewQueue]:
    """The queues of a store by name, newest version of each, in name order."""
    found = {
        q.name: q for q in (ReviewQueue.model_validate_json(body) for body in store.records(QUEUE_RECORD))
    }
    return dict(sorted(found.items()))


def queue_items(
    frame: pd.DataFrame, queue: ReviewQueue, judged: Mapping[Item, Mapping[str, object]]
) -> list[Item]:
    """The trajectories of a queue, in review order, from a trajectory frame (`trajectory_frame`)."""
    rows = filter_frame(frame, queue.criteria)
    passed = {
        (str(run), str(task)): result == PASS
        for run, task, result in zip(rows["run"], rows["task_id"], rows["result"], strict=True)
    }
    items = list(passed)
    if queue.judges:
        items = [item for item in items if not queue.judges.isdisjoint(judged.get(item, {}))]
    if queue.failures_first:
        items.sort(key=passed.__getitem__)  # stable: the list's order within each group
    return items


def reviewed(annotations: Iterable[Annotation], reviewer: str, stage: Stage) -> set[Item]:
    """The trajectories a reviewer annotated in a stage."""
    return {a.item for a in annotations if a.reviewer == reviewer and a.stage == stage}


def next_item(items: list[Item], done: set[Item], after: Item | None = None) -> Item | None:
    """The first item not done (after `after`, wrapping around); None when all are done."""
    start = items.index(after) + 1 if after in items else 0
    for item in items[start:] + items[:start]:
        if item not in done:
            return item
    return None
