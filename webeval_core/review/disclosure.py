"""The one gate between a named reviewer and anything that judges a trajectory.

A verdict, score, failure tag, judge's output or another reviewer's label reaches a reviewer only
through `Gate.disclose` (items one by one) or `Gate.rows` (a table of them). The gate

- refuses what judges an item *pending* in the reviewer's blind pass (an item of the blind queue
  they work that they have neither saved nor been shown), and any table or figure made over a set
  that holds one (`Gate.closed`);
- records everything else as shown (`AnnotationStore.note_shown`) *before* it is returned, so a
  later save of that trajectory is stored as informed (review.judging), whatever tab or page the
  save comes from;
- reveals nothing when that record cannot be written (the store is down): blind stays blind.

An item revealed to a reviewer leaves their blind pass: it is done, informed (`blind_pass`), so
the queue can be finished. A viewer or a read-only server records nothing (nobody there may save
a judgement, so nothing can be mislabelled) and is shown what the pages show everyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from pydantic import BaseModel, ConfigDict

from webeval_core.policy.access import Write, acting_as
from webeval_core.review.annotations import Shown, Stage

if TYPE_CHECKING:  # the store (SQLAlchemy) and pandas load only when a reviewer is named
    import pandas as pd

    from webeval_core.review.annotation_db import AnnotationStore

Item = tuple[str, str]

VERDICT_COLUMNS = frozenset(
    {"result", "status", "score", "tags", "value", "counted", "judges_disagree", "verdict_status"}
)
"""Columns of a trajectory table that show a verdict, score or failure tag of some judge."""
OTHERS_COLUMNS = frozenset({"human", "disagree"})
"""Columns of a trajectory table that show other reviewers' labels (their majority, its disagreement)."""


_SHOWS = {Shown.VERDICT: "status", Shown.OTHERS: "human"}
"""The column whose value in a row means that row shows `Shown` (a verdict, others' labels)."""


class Withheld(StrEnum):
    """Why the gate kept something back."""

    BLIND_PASS = "blind pass"
    """It judges an item pending in the reviewer's blind pass."""
    NOT_RECORDED = "not recorded"
    """The store could not record that it was shown (it is down, or refused)."""


class BlindPass(BaseModel):
    """A reviewer's blind pass through a queue: what is still to be judged without verdicts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    queue: str
    """The blind queue worked."""
    pending: frozenset[Item]
    """Its items the reviewer has not saved and of which nothing was shown to them."""
    unknown: bool = False
    """The store could not say which items are done: every item is treated as pending."""

    def holds(self, item: Item) -> bool:
        """Whether `item` must stay blind."""
        return self.unknown or item in self.pending


class Disclosure(BaseModel):
    """What the gate let through of a request, and why it kept the rest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    shown: frozenset[Item]
    """Items whose verdicts (or others' labels) may be shown: recorded as shown when that matters."""
    withheld: frozenset[Item] = frozenset()
    """Items kept back."""
    why: Withheld | None = None
    """Why they were kept back; None when nothing was."""
    detail: str = ""
    """The store's message when recording failed; empty otherwise."""


class RowsShown(NamedTuple):
    """A table as the gate lets it through (`Gate.rows`)."""

    frame: pd.DataFrame
    """The rows: without verdict or others' columns when those were withheld."""
    why: Withheld | None = None
    """Why columns were dropped; None when none were."""
    detail: str = ""
    """The store's message when recording failed; empty otherwise."""


def blind_pass(store: AnnotationStore | None, queue: str, items: Iterable[Item], reviewer: str) -> BlindPass:
    """The reviewer's blind pass through a blind queue's `items`: those neither saved by them (in
    any stage) nor revealed to them are pending. When the store cannot say, all are.
    """
    from webeval_core.review.annotation_db import StoreError

    wanted = frozenset(items)
    if store is None:
        return BlindPass(queue=queue, pending=wanted, unknown=True)
    try:
        done = store.reviewed(reviewer) | store.revealed(reviewer)
    except StoreError:
        return BlindPass(queue=queue, pending=wanted, unknown=True)
    return BlindPass(queue=queue, pending=wanted - done)


def done_in(store: AnnotationStore, reviewer: str, stage: Stage) -> set[Item]:
    """The items a reviewer is done with in a queue of `stage`: saved in that stage; in a blind
    queue also saved informed, or revealed (done, informed: their blind judgement cannot be made).

    Raises:
        StoreError: When the store cannot be read.
    """
    if stage == Stage.INFORMED:
        return store.reviewed(reviewer, Stage.INFORMED)
    return store.reviewed(reviewer) | store.revealed(reviewer)


class Gate:
    """What one reviewer may be shown, decided once per page run; see the module's docstring."""

    def __init__(
        self,
        store: AnnotationStore | None,
        reviewer: str,
        *,
        verified: bool = False,
        blind: BlindPass | None = None,
    ) -> None:
        self.store = store
        """Where what was shown is recorded; None when it cannot be opened."""
        self.reviewer = reviewer.strip()
        """The reviewer named (typed, or signed in); empty when nobody is named."""
        self.verified = verified
        """`reviewer` is the identity sign-in verified."""
        self.blind = blind
        """The reviewer's blind pass, when they work a blind queue."""

    @property
    def records(self) -> bool:
        """Whether what is shown must be recorded: a reviewer is named who may save judgements."""
        if not self.reviewer:
            return False
        policy = self.store.policy if self.store is not None else None
        if policy is None:
            return True  # the store is down: whether it would refuse is unknown, so it must record
        return policy.as_user(self.reviewer, verified=self.verified).refusal(Write.SHOWN) is None

    def closed(self) -> str:
        """Why views made over many trajectories' verdicts (rates, charts, matrices, queries of
        verdict columns) are closed to this reviewer; empty when they are open.
        """
        if self.blind is None or not (self.blind.unknown or self.blind.pending):
            return ""
        return (
            f"You are working the blind queue {self.blind.queue}: this page shows verdicts, so it stays"
            " closed until you leave review mode (sidebar)."
        )

    def disclose(self, items: Iterable[Item], what: Shown = Shown.VERDICT) -> Disclosure:
        """Let `what` of `items` through: the pending ones are withheld, the rest recorded as shown
        first; when the record fails, every item is withheld.
        """
        wanted = frozenset(items)
        held = frozenset(i for i in wanted if self.blind is not None and self.blind.holds(i))
        allowed = wanted - held
        if allowed and self.records:
            failure = self._record(allowed, what)
            if failure is not None:
                why = Withheld.NOT_RECORDED
                return Disclosure(shown=frozenset(), withheld=wanted, why=why, detail=failure)
        return Disclosure(shown=allowed, withheld=held, why=Withheld.BLIND_PASS if held else None)

    def rows(self, frame: pd.DataFrame) -> RowsShown:
        """A trajectory table (`run` and `task_id` columns) as this reviewer may see it: in a blind
        pass without the verdict and others' columns; otherwise whole, once each row's shown
        verdict (and others' labels) is recorded, and without those columns when it cannot be.
        """
        if self.closed():
            return RowsShown(_without(frame, VERDICT_COLUMNS | OTHERS_COLUMNS), Withheld.BLIND_PASS)
        for what, column in _SHOWS.items():
            items = _items_showing(frame, column)
            disclosed = self.disclose(items, what) if items else None
            if disclosed is not None and disclosed.why is not None:
                return RowsShown(
                    frame=_without(frame, VERDICT_COLUMNS | OTHERS_COLUMNS),
                    why=disclosed.why,
                    detail=disclosed.detail,
                )
        return RowsShown(frame=frame)

    def _record(self, items: frozenset[Item], what: Shown) -> str | None:
        """Record `items` as shown; the store's message when it cannot (None once recorded)."""
        from webeval_core.review.annotation_db import StoreError

        if self.store is None:
            return "the annotation store cannot be opened"
        try:
            with acting_as(self.reviewer, verified=self.verified):
                self.store.note_shown(sorted(items), self.reviewer, what)
        except StoreError as exc:
            return str(exc)
        return None


def _items_showing(frame: pd.DataFrame, column: str) -> list[Item]:
    """The (run, task_id) of the rows with a value in `column`."""
    if column not in frame or frame.empty:
        return []
    rows = frame[frame[column].notna() & (frame[column].astype(str) != "")]
    return list(zip(rows["run"].astype(str), rows["task_id"].astype(str), strict=True))


def _without(frame: pd.DataFrame, columns: frozenset[str]) -> pd.DataFrame:
    return frame.drop(columns=[c for c in columns if c in frame])
