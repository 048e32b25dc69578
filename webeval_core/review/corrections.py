"""Task corrections: an annotator proposes a corrected expected response, or marks a task ambiguous
or infeasible, with a reason; the proposal is checked by the official task model and tried at once.

A proposal is stored in the annotation store (a record, like queues). Its corrected task is the
catalog's task object with the AgentResponseEvaluator's `expected` replaced and `revision` raised
by one: the official dataset's shape, ready to send upstream. Trying it writes that task into a
copy of the dataset file in a temporary folder (never in the runs) and scores every attempt of the
task with it, nothing written, to count the verdicts that would flip.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from webeval_core.policy.access import Write
from webeval_core.reading.task_catalog import TaskCatalog
from webeval_core.reading.trajectory_reader import Trajectory
from webeval_core.review.annotation_db import AnnotationStore
from webeval_core.review.annotations import Said
from webeval_core.scoring import RESPONSE_EVALUATOR, score_trajectory, task_problem

CORRECTION_RECORD = "task_correction"


class CorrectionKind(StrEnum):
    """What the proposal says about the task."""

    CORRECTED = "corrected"
    AMBIGUOUS = "ambiguous"
    INFEASIBLE = "infeasible"


class TaskCorrection(BaseModel):
    """One annotator's proposal about one task of the catalog."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: int
    """The task of the catalog it is about."""
    kind: CorrectionKind
    """A corrected expected response, or the task marked ambiguous or infeasible."""
    expected: dict[str, Any] | None = None
    """The proposed `expected` of the AgentResponseEvaluator; None to keep the catalog's."""
    reason: Said
    """Why (plain text); never blank."""
    reviewer: Said
    """Who proposes it; never blank."""
    created: datetime = Field(default_factory=lambda: datetime.now(UTC))
    """When it was proposed."""


class Flip(BaseModel):
    """One attempt of the task scored with the catalog's expected answer and with the proposal."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run: str
    """The run key of the attempt."""
    before: str
    """Its status with the catalog's task (success | failure | error | excluded)."""
    after: str
    """Its status with the proposed task."""

    @property
    def flipped(self) -> bool:
        """Whether the proposal changes the verdict."""
        return self.before != self.after


def raw_task(catalog: TaskCatalog, task_id: int) -> dict[str, Any]:
    """The task object exactly as the dataset file holds it."""
    for item in json.loads(catalog.path.read_bytes()):
        if isinstance(item, dict) and item.get("task_id") == task_id:
            return item
    raise KeyError(f"task {task_id} is not in {catalog.path.name}")


def corrected_task(catalog: TaskCatalog, correction: TaskCorrection) -> dict[str, Any]:
    """The task in the official dataset's shape with the proposal applied and `revision` raised by one.

    Raises:
        ValueError: When the official task model refuses the result (the reason says which field).
    """
    task = copy.deepcopy(raw_task(catalog, correction.task_id))
    if correction.expected is not None:
        evaluators = [e for e in task.get("eval", []) if e.get("evaluator") == RESPONSE_EVALUATOR]
        if not evaluators:
            raise ValueError(f"task {correction.task_id} has no {RESPONSE_EVALUATOR} to correct")
        evaluators[0]["expected"] = copy.deepcopy(correction.expected)
    task["revision"] = int(task.get("revision", 1)) + 1
    problem = task_problem(task)
    if problem is not None:
        raise ValueError(f"the official task model refuses it: {problem}")
    return task


def try_correction(
    catalog: TaskCatalog,
    correction: TaskCorrection,
    attempts: Sequence[tuple[str, Trajectory]],
    config_root: Path | None = None,
) -> list[Flip]:
    """Every attempt (run key, trajectory) scored with the catalog and with the proposal; nothing written."""
    task = corrected_task(catalog, correction)
    items = json.loads(catalog.path.read_bytes())
    items = [task if isinstance(i, dict) and i.get("task_id") == task["task_id"] else i for i in items]
    with tempfile.TemporaryDirectory(prefix="webeval-correction-") as folder:
        dataset = Path(folder) / catalog.path.name
        dataset.write_text(json.dumps(items), encoding="utf-8")
        flips = []
        for run, trajectory in attempts:
            before = score_trajectory(trajectory, catalog=catalog, config_root=config_root, write=False)
            after = score_trajectory(trajectory, catalog=dataset, config_root=config_root, write=False)
            flips.append(Flip(run=run, before=before.status, after=after.status))
    return flips


def save_correction(store: AnnotationStore, correction: TaskCorrection) -> None:
    """Store a proposal (a new record; the same proposal twice is stored once)."""
    store.add_record(CORRECTION_RECORD, correction.model_dump_json(), Write.CORRECTION, correction.reviewer)


def read_corrections(store: AnnotationStore) -> list[TaskCorrection]:
    """Every proposal of a store, oldest first."""
    return [TaskCorrection.model_validate_json(body) for body in store.records(CORRECTION_RECORD)]


class Proposal(BaseModel):
    """One proposal as exported beside the dataset file: every proposal, whoever made it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: int
    """The task it is about."""
    kind: CorrectionKind
    """Corrected, ambiguous or infeasible."""
    reason: str
    """Why, as the reviewer wrote it."""
    reviewer: str
    """Who proposed it."""
    created: datetime
    """When."""
    expected: dict[str, Any] | None
    """The proposed `expected` (corrected proposals); None otherwise."""
    in_dataset_file: bool
    """Whether this proposal is the one the dataset-shaped file holds for its task."""


def chosen_corrections(corrections: Iterable[TaskCorrection]) -> dict[int, TaskCorrection]:
    """Per task, the proposal the dataset-shaped file holds: the newest *corrected* one.

    Ambiguous and infeasible proposals change no expected answer, so they never displace one.
    """
    ordered = sorted(corrections, key=lambda c: c.created)
    return {c.task_id: c for c in ordered if c.kind == CorrectionKind.CORRECTED}


def corrections_as_tasks(catalog: TaskCatalog, corrections: Iterable[TaskCorrection]) -> list[dict[str, Any]]:
    """The corrected tasks as task objects of the official dataset (`chosen_corrections`), by id."""
    chosen = chosen_corrections(corrections)
    return [corrected_task(catalog, chosen[task_id]) for task_id in sorted(chosen)]


def proposals(corrections: Iterable[TaskCorrection]) -> list[Proposal]:
    """Every proposal, by task then time, each saying whether the dataset-shaped file holds it."""
    every = sorted(corrections, key=lambda c: (c.task_id, c.created))
    chosen = {id(c) for c in chosen_corrections(every).values()}
    return [
        Proposal(
            task_id=c.task_id,
            kind=c.kind,
            reason=c.reason,
            reviewer=c.reviewer,
            created=c.created,
            expected=c.expected,
            in_dataset_file=id(c) in chosen,
        )
        for c in every
    ]
