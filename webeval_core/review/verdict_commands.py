"""What `webeval verdicts set | confirm | exclude | withdraw | dismiss | list` does
(`cli/verdicts_command.py` parses the arguments, opens the root's index and the store, and acts as
the author named).

A write is one `VerdictRequest` applied to the store (`apply_request`: a verdict edit, an exclusion
or a dismissed proposal), said back in one line; `listing` is what is in force (edits, exclusions,
the data's open proposals) as lines or one JSON document (`listing_lines`, `listing_document`),
with every row written when asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.review.exclusions import (
    Dismissal,
    Exclusion,
    ExclusionAction,
    ExclusionProposal,
    dismiss,
    exclusions_in_force,
    read_exclusions,
    save_exclusion,
    undecided_proposals,
)
from webeval_core.review.publication import (
    PublishedTrajectory,
    by_item,
    published_root,
    published_runs,
    write_edit,
)
from webeval_core.review.verdict_edits import EditAction, read_edits

if TYPE_CHECKING:
    from webeval_core.review.annotation_db import AnnotationStore
    from webeval_core.runs.listing.queries import IndexQueries

Write = Literal["set", "confirm", "exclude", "withdraw", "dismiss"]


class VerdictRequest(BaseModel):
    """One decision on the published figures, as the command line gives it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Write
    """What is decided."""
    author: str
    """Who decides (the name or identity recorded)."""
    reason: str
    """Why, in a sentence (recorded)."""
    task: str = ""
    """The task id (all but `dismiss`)."""
    run: str | None = None
    """The run key, or a part of it naming one run; an exclusion without one is of every run."""
    verdict: Literal["success", "failure"] | None = None
    """The verdict `set` publishes."""
    score: float | None = None
    """The score `set` publishes (default: 1 for success, 0 for failure)."""
    proposal: str | None = None
    """The proposal an exclusion accepts, or the one `dismiss` dismisses."""
    exclusion: bool = False
    """`withdraw` withdraws the exclusion, not the edit."""


def apply_request(queries: IndexQueries, store: AnnotationStore, request: VerdictRequest) -> str:
    """Write one decision; what was done, in one line. A request naming no run, several, or a
    trajectory the run does not hold is a `ValueError` saying so.
    """
    if request.action == "dismiss":
        proposal = request.proposal or ""
        dismiss(store, Dismissal(proposal=proposal, reason=request.reason, author=request.author))
        return f"Dismissed {proposal}"
    if request.action == "exclude" or (request.action == "withdraw" and request.exclusion):
        return _exclude(queries, store, request)
    trajectory = _trajectory(queries, store, request)
    chosen = {"set": EditAction.SET, "confirm": EditAction.CONFIRM}.get(request.action, EditAction.WITHDRAW)
    status = request.verdict if chosen == EditAction.SET else None
    edit = write_edit(
        store, trajectory, chosen, request.reason, request.author, status=status, score=request.score
    )
    return f"{edit.action.value}: task {edit.task_id} of {edit.run} (was {edit.replaced.describe()})"


def _exclude(queries: IndexQueries, store: AnnotationStore, request: VerdictRequest) -> str:
    action = ExclusionAction.EXCLUDE if request.action == "exclude" else ExclusionAction.WITHDRAW
    row = Exclusion(
        task_id=request.task,
        run=run_named(queries, request.run) if request.run else None,
        action=action,
        reason=request.reason,
        author=request.author,
        proposal=request.proposal,
    )
    save_exclusion(store, row)
    return f"{'Excluded' if action == ExclusionAction.EXCLUDE else 'Counted again'}: {row.describe()}"


def run_named(queries: IndexQueries, given: str) -> str:
    """The run key `given` names: itself, else the one run whose key contains it."""
    runs = sorted(queries.run_tasks())
    if given in runs:
        return given
    found = [run for run in runs if given in run]
    if len(found) != 1:
        said = "no run" if not found else f"{len(found)} runs ({', '.join(found)})"
        raise ValueError(f"--run {given!r} names {said}; give one of: {', '.join(runs)}")
    return found[0]


def _trajectory(
    queries: IndexQueries, store: AnnotationStore, request: VerdictRequest
) -> PublishedTrajectory:
    if not request.run:
        raise ValueError("an edit is of one trajectory: give --run")
    item = (run_named(queries, request.run), request.task)
    found = by_item(published_runs(queries, None, store, [item[0]])).get(item)
    if found is None:
        raise ValueError(f"run {item[0]} has no task {item[1]!r}")
    return found


def listing_document(queries: IndexQueries, store: AnnotationStore, *, history: bool) -> dict[str, object]:
    """The edits and exclusions in force and the data's open proposals as one JSON document (with
    `history`, every row written too).
    """
    edits, exclusions = read_edits(store), read_exclusions(store)
    document: dict[str, object] = {
        "edits": [t.edit.model_dump(mode="json") for t in _edited(queries, store) if t.edit is not None],
        "exclusions": [e.model_dump(mode="json") for e in exclusions_in_force(exclusions).values()],
        "proposals": [
            p.model_dump(mode="json") | {"key": p.key} for p in undecided_proposals(queries, store)
        ],
    }
    if history:
        document |= {
            "edit_history": [e.model_dump(mode="json") for e in edits],
            "exclusion_history": [e.model_dump(mode="json") for e in exclusions],
        }
    return document


def listing_lines(queries: IndexQueries, store: AnnotationStore, *, history: bool) -> list[str]:
    """The same as lines for a terminal (with `history`, every row written, oldest first)."""
    edits, exclusions = read_edits(store), read_exclusions(store)
    kept = list(exclusions_in_force(exclusions).values())
    lines = _in_force_lines(_edited(queries, store), kept, undecided_proposals(queries, store))
    if history:
        lines += ["", "History (oldest first):"]
        for edit in sorted(edits, key=lambda e: e.created):
            said = f"{edit.action.value} {edit.status or ''}".strip()
            when = f"{edit.created:%Y-%m-%d %H:%M} UTC"
            lines.append(f"  {when}  {edit.author}: {said} {edit.run} {edit.task_id} ({edit.reason})")
        for row in sorted(exclusions, key=lambda e: e.created):
            when = f"{row.created:%Y-%m-%d %H:%M} UTC"
            lines.append(f"  {when}  {row.author}: {row.action.value} {row.describe()} ({row.reason})")
    return lines


def _edited(queries: IndexQueries, store: AnnotationStore) -> list[PublishedTrajectory]:
    return [t for t in published_root(queries, None, store) if t.edit is not None]


def _in_force_lines(
    in_force: list[PublishedTrajectory], kept: list[Exclusion], proposals: list[ExclusionProposal]
) -> list[str]:
    lines = [f"Verdict edits in force: {len(in_force)}"]
    for item in in_force:
        if item.edit is None:
            continue
        edit = item.edit.edit
        recheck = (
            "  TO RE-CHECK: the verdict in force is now " + item.machine.describe()
            if item.edit.recheck
            else ""
        )
        lines.append(f"  {edit.run} {edit.task_id}: {edit.status} by {edit.author} ({edit.reason}){recheck}")
    lines.append(f"Exclusions in force: {len(kept)}")
    lines += [f"  {row.describe()} by {row.author} ({row.reason})" for row in kept]
    lines.append(f"Open proposals to exclude: {len(proposals)}")
    for proposal in proposals:
        where = proposal.run or "every run"
        said = f"{proposal.source.value} · {proposal.evidence}"
        lines.append(f"  {proposal.key}: task {proposal.task_id} in {where} · {said}")
    return lines
