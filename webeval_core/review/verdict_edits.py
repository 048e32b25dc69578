"""Verdict edits: a person overrules the verdict in force of one trajectory, on the record.

An edit sets the published verdict (success or failure, an optional score) with a reason, and keeps
the machine verdict it replaced (judge, status, score). It is a record of the annotation store,
never a score file: a re-score writes its files as before and the edit stays. When the verdict in
force is no longer the one an edit replaced (a re-score under a new eval hash, another judge), the
edit is *to re-check* until someone confirms it against the new verdict or withdraws it. Withdrawing
and confirming are edits too, so a trajectory's history is every row ever written, oldest first.
Adjudicators and operators may edit (`Write.VERDICT_EDIT`); viewers and reviewers are refused by the
store, whatever page or command asks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from webeval_core.policy.access import Write
from webeval_core.review.annotation_db import AnnotationStore
from webeval_core.review.annotations import Said

VERDICT_EDIT_RECORD = "verdict_edit"
"""The kind of the store's records that hold verdict edits."""

PublishedStatus = Literal["success", "failure"]
"""What an edit may publish: a person decides pass or fail, never a scoring error."""


class EditAction(StrEnum):
    """What one row of a trajectory's history does."""

    SET = "set"
    """Publish this verdict instead of the machine's."""
    CONFIRM = "confirm"
    """Keep the edit in force against the verdict in force now (ends *to re-check*)."""
    WITHDRAW = "withdraw"
    """End the edit in force: the machine verdict is published again."""


class MachineVerdict(BaseModel):
    """The verdict in force a judge gave a trajectory, as an edit saw it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str | None
    """The judge whose verdict is in force (`runs.judges`: official, gpt_eval, ...); None when none
    scored it."""
    source: str | None = None
    """Where the official verdict was read: a score file's stem (its eval hash) or eval_result.json;
    None for other judges (their name is their file)."""
    status: str | None
    """Its status (success | failure | error | ...); None when the judge gives only a score."""
    score: float | None
    """Its score; None when it has none."""

    def describe(self) -> str:
        """One line: "failure (score 0) by 9ad529fe…"."""
        if self.judge is None:
            return "not scored"
        said = self.status or ("score " + format(self.score, "g") if self.score is not None else "no verdict")
        if self.status and self.score is not None:
            said += f" (score {self.score:g})"
        return f"{said} by {self.judge}" + (f" ({self.source})" if self.source else "")


class VerdictEdit(BaseModel):
    """One row of a trajectory's edit history."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run: str
    """The run key of the trajectory."""
    task_id: str
    """The task id of the trajectory within its run."""
    action: EditAction
    """Set, confirm or withdraw."""
    status: PublishedStatus | None = None
    """The published verdict (a set); None for a confirm or a withdraw."""
    score: float | None = None
    """The published score (a set, optional); None: 1 for a success, 0 for a failure."""
    reason: Said
    """Why, in the author's words; never blank."""
    author: Said
    """Who wrote it (the signed-in identity when the server signs its users in); never blank."""
    replaced: MachineVerdict
    """The machine verdict in force when it was written."""
    created: datetime = Field(default_factory=lambda: datetime.now(UTC))
    """When it was written (UTC)."""

    @model_validator(mode="after")
    def _set_has_a_verdict(self) -> VerdictEdit:
        if (self.action == EditAction.SET) != (self.status is not None):
            raise ValueError("a set publishes a status; a confirm or a withdraw does not")
        if self.score is not None and not 0.0 <= self.score <= 1.0:
            raise ValueError("a published score lies between 0 and 1")
        return self

    @property
    def item(self) -> tuple[str, str]:
        """(run, task id) of the trajectory."""
        return self.run, self.task_id

    @property
    def value(self) -> float:
        """What the published verdict adds to a success rate."""
        if self.score is not None:
            return self.score
        return 1.0 if self.status == "success" else 0.0


class EditInForce(BaseModel):
    """The edit that decides a trajectory's published verdict, and whether it needs a look."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    edit: VerdictEdit
    """The set in force (the latest set not withdrawn since)."""
    checked_against: MachineVerdict
    """The machine verdict it was last written or confirmed against."""
    recheck: bool
    """The verdict in force now is not `checked_against`: someone should confirm or withdraw it."""


def save_edit(store: AnnotationStore, edit: VerdictEdit) -> None:
    """Store one row of history (the policy refuses viewers and reviewers, and a signed-in user
    writing under another name).

    Raises:
        StoreError: When the store refuses it (read-only server, role, identity).
    """
    store.add_record(VERDICT_EDIT_RECORD, edit.model_dump_json(), Write.VERDICT_EDIT, edit.author)


def read_edits(store: AnnotationStore) -> list[VerdictEdit]:
    """Every row of every trajectory's history, oldest first."""
    return [VerdictEdit.model_validate_json(body) for body in store.records(VERDICT_EDIT_RECORD)]


def history(edits: Iterable[VerdictEdit], item: tuple[str, str]) -> list[VerdictEdit]:
    """One trajectory's rows, oldest first."""
    return sorted((e for e in edits if e.item == item), key=lambda e: e.created)


def in_force(
    edits: Iterable[VerdictEdit], machine: Mapping[tuple[str, str], MachineVerdict]
) -> dict[tuple[str, str], EditInForce]:
    """Per trajectory, the edit in force (none once withdrawn), held against `machine`, the verdict
    in force now of each trajectory (a trajectory missing from it has no machine verdict).
    """
    found: dict[tuple[str, str], EditInForce] = {}
    for edit in sorted(edits, key=lambda e: e.created):
        current = found.get(edit.item)
        if edit.action == EditAction.SET:
            current = EditInForce(edit=edit, checked_against=edit.replaced, recheck=False)
        elif edit.action == EditAction.WITHDRAW:
            current = None
        elif current is not None:  # a confirm of the edit in force
            current = current.model_copy(update={"checked_against": edit.replaced})
        if current is None:
            found.pop(edit.item, None)
        else:
            found[edit.item] = current
    nobody = MachineVerdict(judge=None, status=None, score=None)
    return {
        item: e.model_copy(update={"recheck": machine.get(item, nobody) != e.checked_against})
        for item, e in found.items()
    }
