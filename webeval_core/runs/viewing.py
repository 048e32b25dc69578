"""Who the index's queries answer: the `Viewer` a verdict-bearing answer needs, and what it lets through.

A verdict, score, failure tag or judge's code is read from the index only through a viewer
(`queries.IndexQueries.seen_by`): the review layer's gate (`review.disclosure.Gate`, which knows
the reviewer, their blind pass and their role, and records in the annotation store what it lets
through *before* the query returns it), or `OUTSIDE_REVIEW` for a process where no reviewer works
(the CLI, an export, a bundle). Without one the queries answer every row with its verdicts left
out, and no rate: a view that forgot to ask shows no verdict instead of leaking one.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final, Protocol

from pydantic import BaseModel, ConfigDict

__all__ = ["OUTSIDE_REVIEW", "Disclosure", "Item", "Viewer", "Withheld"]

Item = tuple[str, str]
"""A trajectory as reviews and judges name it: (run key, task id)."""


class Withheld(StrEnum):
    """Why verdicts were kept back."""

    BLIND_PASS = "blind pass"
    """They judge an item pending in a blind pass of the reviewer's: the queue they work (every
    figure over it closed), or another blind queue theirs to work (those rows only, `detail` names
    the queues)."""
    NOT_RECORDED = "not recorded"
    """The store could not record that they were shown (it is down, or refused)."""
    NO_VIEWER = "no viewer"
    """The query was asked without a viewer (`IndexQueries.seen_by`)."""


class Disclosure(BaseModel):
    """What a viewer let through of a request, and why it kept the rest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    shown: frozenset[Item]
    """Items whose verdicts (or others' labels) may be shown: recorded as shown when that matters."""
    withheld: frozenset[Item] = frozenset()
    """Items kept back."""
    why: Withheld | None = None
    """Why they were kept back; None when nothing was."""
    detail: str = ""
    """The store's message when recording failed; empty otherwise."""


class Viewer(Protocol):
    """Whoever is shown a query's answer: what of verdicts they may see (`review.disclosure.Gate`)."""

    def closed(self) -> str:
        """Why figures made over many trajectories' verdicts (rates, charts, counts by result) are
        closed to this viewer; empty when they are open.
        """
        ...

    def disclose(self, items: Iterable[Item]) -> Disclosure:
        """The verdicts of `items` this viewer may be shown, recorded as shown first where that
        matters; the rest withheld, with why.
        """
        ...

    def holds(self, items: Iterable[Item]) -> frozenset[Item]:
        """Of `items`, those kept back however it is asked (pending in a blind pass), recording
        nothing: for answers that tell a verdict without drawing it (a walk's "next failure").
        """
        ...


class _OutsideReview:
    """The viewer of a process no reviewer works in: shown everything, nothing recorded (nobody
    there saves a judgement, so nothing can be mislabelled blind).
    """

    reviewer = ""
    """Nobody is named: every reviewer's labels are others' (`review.annotation_db.LabelViewer`)."""

    def closed(self) -> str:
        return ""

    def disclose(self, items: Iterable[Item], what: object = None) -> Disclosure:
        # `what` (verdicts, others' labels): all of it, as the annotation store's readers ask.
        return Disclosure(shown=frozenset(items))

    def holds(self, items: Iterable[Item]) -> frozenset[Item]:
        return frozenset()


OUTSIDE_REVIEW: Final = _OutsideReview()
"""The CLI's, an export's and a bundle's viewer: every verdict and every reviewer's label, nothing
recorded (a `Viewer` of the index's queries, a `LabelViewer` of the annotation store)."""
