"""Saving a reviewer's judgement: the stage it is stored in, once, under the reviewer's one name.

The form says which stage it was filled in (blind in a blind queue), but the stage stored is
decided here, from the store, so every face (app, import of a live session, tests) gets the same
rule: a judgement is blind only when nothing of the trajectory had been revealed to the reviewer
(no verdict, score, tag or other reviewer's label, by any page) and it is their first save of it.
Any later save is an informed revision; it never replaces the blind row. A save repeated within
`REPEAT_WINDOW` with the same labels and text (a double key press, a retried click) is not stored
twice: the earlier row is returned and `Saved.added` says so.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, ConfigDict

from webeval_core.review.annotation_db import AnnotationStore, own_labels
from webeval_core.review.annotations import (
    Annotation,
    Draft,
    Revealed,
    Shown,
    Stage,
)

REPEAT_WINDOW = timedelta(seconds=30)
"""A save identical to the reviewer's previous one of the item within this time is a repeat."""


class Saved(BaseModel):
    """What a save did."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    annotation: Annotation
    """The row stored (or, for a repeat, the row stored by the first save)."""
    added: bool
    """False when this save repeated the previous one and nothing was added."""


def save_judgement(store: AnnotationStore, draft: Draft, now: datetime | None = None) -> Saved:
    """Store one judgement with its decided stage and what was revealed; a repeat is not stored.

    Raises:
        StoreError: When the store cannot be read or written (nothing is stored).
    """
    moment = now or datetime.now(UTC)
    name = store.reviewer_name(draft.reviewer)
    earlier = store.annotations_of(draft.run, draft.task_id, own_labels(name))  # nobody else's
    shown = store.shown(draft.run, draft.task_id, name)
    if earlier:
        shown.add(Shown.VERDICT)  # the app reveals the verdicts once an item is saved
    blind = draft.stage == Stage.BLIND and not earlier and not shown
    annotation = Annotation.model_validate(
        draft.model_dump(exclude={"stage", "reviewer"})
        | {
            "reviewer": name,
            "stage": Stage.BLIND if blind else Stage.INFORMED,
            "revealed": Revealed.NONE if blind else Revealed.of(shown | _implied(draft)),
            "created": moment,
        }
    )
    if earlier and _repeats(earlier[-1], annotation):
        return Saved(annotation=earlier[-1], added=False)
    store.add(annotation)
    return Saved(annotation=annotation, added=True)


def _implied(draft: Draft) -> set[Shown]:
    """An informed form shows the verdict in force, whether or not the page recorded it."""
    return {Shown.VERDICT} if draft.stage == Stage.INFORMED else set()


def _repeats(previous: Annotation, annotation: Annotation) -> bool:
    same = previous.model_dump(include=_COMPARED) == annotation.model_dump(include=_COMPARED)
    return same and annotation.created - previous.created <= REPEAT_WINDOW


_COMPARED = {
    *("outcome", "process", "task", "environment_problem", "justification"),
    *("failing_steps", "error_codes", "task_codes"),
}
