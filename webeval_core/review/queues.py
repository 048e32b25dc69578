"""Review queues: a saved filter of the trajectory list plus a mode (blind or informed), and who
it is assigned to.

A queue is stored in the annotation store (so a team shares it) as a JSON record. Its name is
taken once per store: a second queue of a taken name is refused, so a queue's settings never change
under its reviewers (only `reassign_queues` saves a queue again, when a reviewer is renamed). Its
items are the matching trajectories, an informed queue's failures first by default. A blind queue
selects and orders by nothing a verdict decides (its reviewers would learn the verdicts from it):
its criteria use no verdict, and its order is the list's (run, then task). A reviewer's progress
is the items they annotated in the queue's stage (in a blind queue, any stage: an item once revealed
is done, informed), and the next item is the first they are not done with. A queue assigned to
reviewers is theirs to work (`queue_progress` follows each); one assigned to nobody is anyone's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd
from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from webeval_core.policy.access import Write
from webeval_core.review.annotation_db import AnnotationStore
from webeval_core.review.annotations import Annotation, ReviewMark, Stage, reviewer_key
from webeval_core.runs.metrics import filter_frame
from webeval_core.runs.trajectory_filter import PASS, TrajectoryFilter

QUEUE_RECORD = "queue"
Item = tuple[str, str]


class ReviewQueue(BaseModel):
    """A named, shared set of trajectories to review and how to review them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """The queue's name, unique in a store (any case); never blank."""
    stage: Stage
    """Blind: verdicts, scores and failure tags hidden until the annotation is saved; or informed."""
    criteria: TrajectoryFilter = TrajectoryFilter()
    """Which trajectories of the list it holds (run, site, type, outcome, verdict, failure tag)."""
    judges: frozenset[str] = frozenset()
    """Keep trajectories judged by any of these judges (see review.judges); empty keeps all."""
    failures_first: bool = True
    """Whether trajectories the judges failed come first; always False in a blind queue."""
    reviewers: tuple[str, ...] = ()
    """Who it is assigned to: reviewer names or signed-in identities, each once (names differing
    only in case are one reviewer), in the order given; empty: anyone who reviews."""
    root: str | None = None
    """The root it was made on (a folder, or a store URL, as the app names it): its runs and counts
    mean something there only. None: made before queues had roots, so listed on every root."""

    @field_validator("name")
    @classmethod
    def _named(cls, value: str) -> str:
        """A queue is found by its name."""
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()

    @model_validator(mode="before")
    @classmethod
    def _blind_order(cls, values: object) -> object:
        """A blind queue's order says nothing of verdicts (queues saved before this rule included)."""
        if isinstance(values, dict) and values.get("stage") in (Stage.BLIND, Stage.BLIND.value):
            return {**values, "failures_first": False}
        return values

    @field_validator("reviewers")
    @classmethod
    def _each_once(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Names as reviewers compare: stripped, blanks dropped, each reviewer once (first spelling)."""
        named: dict[str, str] = {}
        for name in value:
            if name.strip():
                named.setdefault(reviewer_key(name), name.strip())
        return tuple(named.values())

    def assigned_to(self, reviewer: str) -> bool:
        """Whether the queue is `reviewer`'s to work (any case): named in it, or it names nobody."""
        return not self.reviewers or reviewer_key(reviewer) in {reviewer_key(n) for n in self.reviewers}


class ReviewerProgress(BaseModel):
    """How far one reviewer has worked a queue."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reviewer: str
    """The reviewer, as the queue names them (or as they first named themselves, when it does not)."""
    assigned: bool
    """Whether the queue is assigned to them (False: they annotated some of its items anyway)."""
    done: int
    """The queue's items they annotated in its stage."""


class QueueRefusedError(ValueError):
    """A queue that may not be saved (its name is taken, or a blind queue selects by verdict)."""


def save_queue(store: AnnotationStore, queue: ReviewQueue, *, replacing: bool = False) -> None:
    """Store a new queue. A queue assigned to nobody is stored without `reviewers`, as before
    assignment existed, so older readers still read it. `replacing`: the queue of that name is
    saved again (`reassign_queues` only).

    Raises:
        QueueRefusedError: When the name is taken (any case) or a blind queue's criteria use verdicts.
        StoreError: When the store cannot be read or written.
    """
    if queue.stage == Stage.BLIND and queue.criteria.uses_verdicts:
        raise QueueRefusedError(
            f"Queue {queue.name!r} is blind, so it cannot select by verdict, result, failure tag or"
            " judges' disagreement: its reviewers would know the verdicts. Choose other criteria, or"
            " make it informed."
        )
    taken = {name.casefold() for name in read_queues(store)}
    if not replacing and queue.name.casefold() in taken:
        raise QueueRefusedError(
            f"A queue named {queue.name!r} exists already: choose another name (a queue's settings"
            " never change under its reviewers)."
        )
    # What is unset is left out, so a webeval from before the field existed still reads the record.
    unset = {name for name in ("reviewers", "root") if not getattr(queue, name)}
    body = queue.model_dump_json(exclude=unset or None)
    store.add_record(QUEUE_RECORD, body, Write.QUEUE)


def read_queues(store: AnnotationStore) -> dict[str, ReviewQueue]:
    """The queues of a store by name, in name order. A name is taken by its first queue (any case):
    a later record of it is a rename's reassignment (kept: its settings are the first's but for
    who works it), or a second queue saved by a webeval from before names were unique (dropped).
    """
    found: dict[str, ReviewQueue] = {}
    for queue in (ReviewQueue.model_validate_json(body) for body in store.records(QUEUE_RECORD)):
        first = found.setdefault(queue.name.casefold(), queue)
        if _reassigned(first, queue):
            found[queue.name.casefold()] = queue
    return {q.name: q for q in sorted(found.values(), key=lambda q: q.name)}


def queues_on(queues: Mapping[str, ReviewQueue], root: str) -> dict[str, ReviewQueue]:
    """The queues that belong to `root` (those made on it, and those made before queues had a
    root); a queue of another root is not listed there, its counts would mean nothing.
    """
    return {name: queue for name, queue in queues.items() if queue.root in (None, root)}


def _reassigned(first: ReviewQueue, later: ReviewQueue) -> bool:
    """Whether `later` is `first` with only its reviewers changed."""
    exclude = {"reviewers"}
    return later is not first and first.model_dump(exclude=exclude) == later.model_dump(exclude=exclude)


def reassign_queues(store: AnnotationStore, old: str, new: str) -> list[str]:
    """Save again each queue assigned to `old` (any case), assigned to `new` in its place (a
    reviewer renamed, `AnnotationStore.rename_reviewer`); the names of the queues changed.
    """
    changed = []
    for queue in read_queues(store).values():
        keys = [reviewer_key(name) for name in queue.reviewers]
        if reviewer_key(old) in keys:
            names = [
                new if key == reviewer_key(old) else name
                for key, name in zip(keys, queue.reviewers, strict=True)
            ]
            renamed = ReviewQueue.model_validate({**queue.model_dump(), "reviewers": names})
            save_queue(store, renamed, replacing=True)
            changed.append(queue.name)
    return changed


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


def queue_progress(
    queue: ReviewQueue, items: Iterable[Item], annotations: Iterable[Annotation | ReviewMark]
) -> list[ReviewerProgress]:
    """Each assigned reviewer's progress through the queue's `items`, in the queue's order, then
    that of every other reviewer who annotated some of them in its stage, or in a blind queue in
    any (an informed save of a revealed item ends its blind pass), most done first.
    """
    wanted = set(items)
    done: dict[str, set[Item]] = {}
    names: dict[str, str] = {}
    for a in annotations:
        if queue.stage in (Stage.BLIND, a.stage) and a.item in wanted:
            done.setdefault(a.reviewer_key, set()).add(a.item)
            names.setdefault(a.reviewer_key, a.reviewer)
    assigned = [
        ReviewerProgress(reviewer=name, assigned=True, done=len(done.pop(reviewer_key(name), ())))
        for name in queue.reviewers
    ]
    others = [
        ReviewerProgress(reviewer=names[key], assigned=False, done=len(found)) for key, found in done.items()
    ]
    return assigned + sorted(others, key=lambda p: (-p.done, p.reviewer.casefold()))


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
