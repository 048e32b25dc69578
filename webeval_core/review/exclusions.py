"""Exclusions: a trajectory, or a task across every run, left out of the published figures with a
reason and who decided it; and the proposals the data makes for them, each accepted or dismissed.

An excluded trajectory still counts *as scored*: the published figure leaves it out, and every
figure says how many it left out. Exclusions are records of the annotation store, like verdict
edits; withdrawing one is another record, so the history is complete. Proposals come from the
data, never decided by it: a task the Universal Verifier found invalid (`is_invalid` with its
codes), a task a reviewer proposed infeasible (a task correction), a trajectory whose core.log
ends in an environment error. A person accepts one (it becomes an exclusion) or dismisses it (a
record too, so the proposal is not offered again).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from webeval_core.policy.access import Write
from webeval_core.review.annotation_db import AnnotationStore
from webeval_core.review.annotations import Said
from webeval_core.review.corrections import CorrectionKind, TaskCorrection, read_corrections
from webeval_core.runs import IndexQueries

EXCLUSION_RECORD = "exclusion"
"""The kind of the store's records that hold exclusions and their withdrawals."""
DISMISSAL_RECORD = "exclusion_dismissal"
"""The kind of the store's records that hold dismissed proposals."""


INVALID_TASK_CATEGORY = "8"
"""The error taxonomy's category of invalid tasks (a verifier's `invalid_task_codes`, 8.x)."""
ENVIRONMENT_ERRORS = (
    "TimeoutError",
    "TargetClosedError",
    "RateLimitError",
    "APIConnectionError",
    "ConnectionError",
    "Worker process died",
    "Network trace file not found",
)
"""core.log error types (or their start) that the environment caused, not the agent: a page or
browser that stopped answering, the model's API refusing calls, a worker killed, a trace the
harness did not save. An agent's own bug (a KeyError in its action parsing) is not one."""


class ExclusionAction(StrEnum):
    """What one exclusion row does."""

    EXCLUDE = "exclude"
    """Leave the trajectory (or the task in every run) out of the published figures."""
    WITHDRAW = "withdraw"
    """Count it again."""


class Exclusion(BaseModel):
    """One row of an exclusion's history: a trajectory (`run` set) or a task in every run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    """The task id."""
    run: str | None = None
    """The run key of the one trajectory excluded; None: the task in every run."""
    action: ExclusionAction = ExclusionAction.EXCLUDE
    """Exclude, or withdraw an earlier exclusion of the same scope."""
    reason: Said
    """Why, in the author's words; never blank."""
    author: Said
    """Who decided it; never blank."""
    proposal: str | None = None
    """The proposal it accepts (`ExclusionProposal.key`); None when a person started it."""
    created: datetime = Field(default_factory=lambda: datetime.now(UTC))
    """When it was written (UTC)."""

    @property
    def scope(self) -> tuple[str | None, str]:
        """(run or None, task id): what it excludes."""
        return self.run, self.task_id

    def describe(self) -> str:
        """What it leaves out, in words: the task in every run, or the task of one run."""
        where = "in every run" if self.run is None else f"of {self.run}"
        return f"task {self.task_id} {where}"


class ProposalSource(StrEnum):
    """Where a proposal to exclude comes from."""

    INVALID_TASK = "verifier: invalid task"
    """A Universal Verifier's task verification found the task invalid."""
    INFEASIBLE = "correction: infeasible"
    """A reviewer proposed the task infeasible (a task correction)."""
    ENVIRONMENT = "core.log: environment error"
    """The trajectory's core.log ends in an error of the environment, not the agent."""


class ExclusionProposal(BaseModel):
    """What the data proposes to exclude, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: ProposalSource
    """What found it."""
    task_id: str
    """The task id."""
    run: str | None = None
    """The run of the one trajectory; None for the task in every run."""
    evidence: str
    """What the source says (codes, the reviewer's reason, the error type)."""

    @property
    def key(self) -> str:
        """Stable identity of the proposal, kept by an acceptance or a dismissal."""
        return f"{self.source.name}:{self.run or '*'}:{self.task_id}"


class Dismissal(BaseModel):
    """A proposal a person decided not to follow."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    proposal: str
    """The proposal's key."""
    reason: Said
    """Why not; never blank."""
    author: Said
    """Who dismissed it; never blank."""
    created: datetime = Field(default_factory=lambda: datetime.now(UTC))
    """When (UTC)."""


def save_exclusion(store: AnnotationStore, exclusion: Exclusion) -> None:
    """Store one exclusion row (adjudicators and operators only).

    Raises:
        StoreError: When the store refuses it (read-only server, role, identity).
    """
    store.add_record(EXCLUSION_RECORD, exclusion.model_dump_json(), Write.EXCLUSION, exclusion.author)


def read_exclusions(store: AnnotationStore) -> list[Exclusion]:
    """Every exclusion row, oldest first."""
    return [Exclusion.model_validate_json(body) for body in store.records(EXCLUSION_RECORD)]


def dismiss(store: AnnotationStore, dismissal: Dismissal) -> None:
    """Store a dismissed proposal (adjudicators and operators only)."""
    store.add_record(DISMISSAL_RECORD, dismissal.model_dump_json(), Write.EXCLUSION, dismissal.author)


def read_dismissals(store: AnnotationStore) -> list[Dismissal]:
    """Every dismissal, oldest first."""
    return [Dismissal.model_validate_json(body) for body in store.records(DISMISSAL_RECORD)]


def exclusions_in_force(exclusions: Iterable[Exclusion]) -> dict[tuple[str | None, str], Exclusion]:
    """Per scope, the exclusion in force (the latest exclude not withdrawn since)."""
    found: dict[tuple[str | None, str], Exclusion] = {}
    for row in sorted(exclusions, key=lambda e: e.created):
        if row.action == ExclusionAction.EXCLUDE:
            found[row.scope] = row
        else:
            found.pop(row.scope, None)
    return found


def excluded_by(
    in_force: dict[tuple[str | None, str], Exclusion], run: str, task_id: str
) -> Exclusion | None:
    """The exclusion that leaves out the trajectory (run, task): its own, else its task's."""
    return in_force.get((run, task_id)) or in_force.get((None, task_id))


def open_proposals(
    proposals: Iterable[ExclusionProposal], exclusions: Iterable[Exclusion], dismissals: Iterable[Dismissal]
) -> list[ExclusionProposal]:
    """The proposals nobody decided yet: neither accepted (an exclusion names it, even withdrawn
    since) nor dismissed, nor already covered by an exclusion in force of the same scope.
    """
    exclusions = list(exclusions)
    decided = {e.proposal for e in exclusions if e.proposal} | {d.proposal for d in dismissals}
    covered = set(exclusions_in_force(exclusions))
    unique = {p.key: p for p in proposals}
    return [
        p
        for key, p in sorted(unique.items())
        if key not in decided and (p.run, p.task_id) not in covered and (None, p.task_id) not in covered
    ]


def proposals_from(queries: IndexQueries, corrections: Iterable[TaskCorrection]) -> list[ExclusionProposal]:
    """What the data proposes to exclude: tasks a verifier found invalid (taxonomy codes 8.x) and
    tasks a reviewer proposed infeasible, in every run; trajectories whose core.log ends in an
    environment error, one by one.
    """
    invalid: dict[str, list[str]] = {}
    for _, task_id, judge, code in queries.coded(INVALID_TASK_CATEGORY):
        invalid.setdefault(task_id, []).append(f"{judge}: {code}")
    found = [
        ExclusionProposal(
            source=ProposalSource.INVALID_TASK, task_id=task, evidence=", ".join(sorted(set(said)))
        )
        for task, said in invalid.items()
    ]
    found += [
        ExclusionProposal(
            source=ProposalSource.INFEASIBLE, task_id=str(c.task_id), evidence=f"{c.reviewer}: {c.reason}"
        )
        for c in corrections
        if c.kind == CorrectionKind.INFEASIBLE
    ]
    found += [
        ExclusionProposal(
            source=ProposalSource.ENVIRONMENT, task_id=row.task_id, run=row.run, evidence=row.core_error
        )
        for row in queries.page(None).rows
        if row.core_error and row.core_error.startswith(ENVIRONMENT_ERRORS)
    ]
    return found


def undecided_proposals(queries: IndexQueries, store: AnnotationStore) -> list[ExclusionProposal]:
    """The proposals the data makes for a root that nobody accepted or dismissed yet (what the
    Results page and `webeval verdicts list` offer).
    """
    made = proposals_from(queries, read_corrections(store))
    return open_proposals(made, read_exclusions(store), read_dismissals(store))
