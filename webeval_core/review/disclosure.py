"""The one gate between a named reviewer and anything that judges a trajectory.

A verdict, score, failure tag, judge's output or another reviewer's label reaches a reviewer only
through `Gate.disclose` (items one by one) or `Gate.rows` (a table of them), which the index's
queries call themselves: they answer verdicts only to a viewer (`IndexQueries.seen_by(gate)`,
runs.viewing), and without one answer rows without verdicts and no rate. The gate

- refuses what judges an item *pending* in the reviewer's blind pass (an item of the blind queue
  they work that they have neither saved nor been shown), and any table or figure made over a set
  that holds one (`Gate.closed`);
- refuses too, row by row, what judges an item pending in any other blind queue of the root that is
  theirs to work (`Gate.elsewhere`): a list they land on (the Overview after signing in) shows the
  others' verdicts and keeps those blank, so looking around never spends a blind judgement. Only
  `Gate.release` (the reviewer asks for that one trajectory's verdicts) lets one through;
- records everything else as shown (`AnnotationStore.note_shown`) *before* it is returned, so a
  later save of that trajectory is stored as informed (review.judging), whatever tab or page the
  save comes from;
- reveals nothing when that record cannot be written (the store is down): blind stays blind.

An item revealed to a reviewer leaves their blind pass: it is done, informed (`blind_pass`), so
the queue can be finished. A viewer or a read-only server records nothing (nobody there may save
a judgement, so nothing can be mislabelled) and is shown what the pages show everyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from pydantic import BaseModel, ConfigDict

from webeval_core.policy.access import Write, acting_as
from webeval_core.review.annotations import Shown, Stage
from webeval_core.runs.listing.list_columns import verdict_columns
from webeval_core.runs.viewing import Disclosure, Item, Viewer, Withheld

if TYPE_CHECKING:  # the store (SQLAlchemy) and pandas load only when a reviewer is named
    import pandas as pd

    from webeval_core.review.annotation_db import AnnotationStore

VERDICT_COLUMNS = verdict_columns() | {"verdict_status"}
"""Columns of a trajectory table that show a verdict, score or failure tag of some judge: the list
columns that bear one (`runs.listing.list_columns`), and the index's own verdict column."""
OTHERS_COLUMNS = frozenset({"human", "disagree"})
"""Columns of a trajectory table that show other reviewers' labels (their majority, its disagreement)."""


_SHOWS = {Shown.VERDICT: ("judge", "status", "score"), Shown.OTHERS: ("human",)}
"""The columns a value in which means that row shows `Shown` (a verdict of any judge, others' labels)."""


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


def blind_passes(
    store: AnnotationStore | None, queues: Mapping[str, Iterable[Item]], reviewer: str
) -> tuple[BlindPass, ...]:
    """The reviewer's passes through several blind queues (name -> its items), read from the store
    once; when the store cannot say, every item of each is pending (those items only: their queues
    are known, unlike a worked queue's when the store is down).
    """
    from webeval_core.review.annotation_db import StoreError

    done: set[Item] | None = None
    if store is not None:
        try:
            done = store.reviewed(reviewer) | store.revealed(reviewer)
        except StoreError:
            done = None
    return tuple(
        BlindPass(queue=name, pending=frozenset(items) - (done or set())) for name, items in queues.items()
    )


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
    """What one reviewer may be shown, decided once per page run; see the module's docstring.

    The `runs.viewing.Viewer` the index's queries answer (`IndexQueries.seen_by(gate)`).
    """

    def __init__(
        self,
        store: AnnotationStore | None,
        reviewer: str,
        *,
        verified: bool = False,
        blind: BlindPass | None = None,
        elsewhere: tuple[BlindPass, ...] = (),
    ) -> None:
        self.store = store
        """Where what was shown is recorded; None when it cannot be opened."""
        self.reviewer = reviewer.strip()
        """The reviewer named (typed, or signed in); empty when nobody is named."""
        self.verified = verified
        """`reviewer` is the identity sign-in verified."""
        self.blind = blind
        """The reviewer's blind pass, when they work a blind queue."""
        self.elsewhere = tuple(p for p in elsewhere if blind is None or p.queue != blind.queue)
        """Their passes through the root's other blind queues theirs to work: held row by row.
        None for a gate that records nothing (a viewer saves no judgement to keep blind)."""
        if not self.records:
            self.elsewhere = ()

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
        """Let `what` of `items` through: the pending ones (of any blind pass) are withheld, the
        rest recorded as shown first; when the record fails, every item is withheld.
        """
        wanted = frozenset(items)
        passes = self._passes()
        held = self.holds(wanted)
        allowed = wanted - held
        if allowed and self.records:
            failure = self._record(allowed, what)
            if failure is not None:
                why = Withheld.NOT_RECORDED
                return Disclosure(shown=frozenset(), withheld=wanted, why=why, detail=failure)
        if not held:
            return Disclosure(shown=allowed)
        queues = sorted({p.queue for p in passes for i in held if p.holds(i)})
        named = ", ".join(f'"{q}"' for q in queues)
        detail = f"pending in your blind queue{'s' if len(queues) > 1 else ''} {named}"
        return Disclosure(shown=allowed, withheld=held, why=Withheld.BLIND_PASS, detail=detail)

    def holds(self, items: Iterable[Item]) -> frozenset[Item]:
        """Of `items`, those pending in a blind pass of the reviewer's (worked, or elsewhere)."""
        passes = self._passes()
        return frozenset(i for i in items if any(p.holds(i) for p in passes))

    def _passes(self) -> tuple[BlindPass, ...]:
        return self.elsewhere if self.blind is None else (self.blind, *self.elsewhere)

    def release(self, item: Item) -> Disclosure:
        """Show `item`'s verdicts although it is pending in one of the root's other blind queues:
        the reviewer asked for them. Recorded as shown first, so it leaves those passes done,
        informed; never an item of the blind pass worked, which is judged before it is shown.
        """
        if self.blind is not None and self.blind.holds(item):
            return self.disclose([item])
        return Gate(self.store, self.reviewer, verified=self.verified).disclose([item])

    def figures(self) -> Viewer:
        """This gate as the viewer of figures made over many trajectories' verdicts (a rate, the
        published figures): closed when the gate is, else shown them without recording any item
        (a rate tells no trajectory's verdict).
        """
        return _Figures(self)

    def rows(self, frame: pd.DataFrame) -> RowsShown:
        """A trajectory table (`run` and `task_id` columns) as this reviewer may see it: in a blind
        pass without the verdict and others' columns; otherwise whole, once each row's shown
        verdict (and others' labels) is recorded, and without those columns when it cannot be.
        """
        if self.closed():
            return RowsShown(_without(frame, VERDICT_COLUMNS | OTHERS_COLUMNS), Withheld.BLIND_PASS)
        for what, columns in _SHOWS.items():
            items = _items_showing(frame, columns)
            disclosed = self.disclose(items, what) if items else None
            if disclosed is None or disclosed.why is None:
                continue
            if disclosed.why == Withheld.BLIND_PASS:  # held elsewhere: those rows only go blank
                frame = _blank(frame, disclosed.withheld)
                continue
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


class _Figures:
    """`Gate.figures`: a gate's viewer for figures, not rows."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate

    def closed(self) -> str:
        return self.gate.closed()

    def disclose(self, items: Iterable[Item]) -> Disclosure:
        wanted = frozenset(items)
        if self.gate.closed():
            return Disclosure(shown=frozenset(), withheld=wanted, why=Withheld.BLIND_PASS)
        return Disclosure(shown=wanted)

    def holds(self, items: Iterable[Item]) -> frozenset[Item]:
        return self.gate.holds(items)


class _FigureLabels:
    """`figure_labels`: a gate's reader of others' labels for figures, not rows."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate

    @property
    def reviewer(self) -> str:
        return self.gate.reviewer

    def disclose(self, items: Iterable[Item], what: Shown = Shown.OTHERS) -> Disclosure:
        wanted = frozenset(items)
        if self.gate.closed():
            return Disclosure(shown=frozenset(), withheld=wanted, why=Withheld.BLIND_PASS)
        return Disclosure(shown=wanted)


def figure_labels(gate: Gate) -> _FigureLabels:
    """`gate` as the reader of others' labels for figures made of many (agreement, a queue's
    progress, the reviewers' majority of a matrix, the list's review columns that `Gate.rows` then
    records): closed as the gate is, else every label, no item recorded as shown (as `Gate.figures`).
    """
    return _FigureLabels(gate)


def _items_showing(frame: pd.DataFrame, columns: tuple[str, ...]) -> list[Item]:
    """The (run, task_id) of the rows with a value in any of `columns`."""
    held = [c for c in columns if c in frame]
    if not held or frame.empty:
        return []
    filled = (frame[held].notna() & (frame[held].astype(str) != "")).any(axis=1)
    rows = frame[filled]
    return list(zip(rows["run"].astype(str), rows["task_id"].astype(str), strict=True))


def _blank(frame: pd.DataFrame, items: frozenset[Item]) -> pd.DataFrame:
    """`frame` with the verdict and others' cells of `items`' rows emptied."""
    held = [(str(r), str(t)) in items for r, t in zip(frame["run"], frame["task_id"], strict=True)]
    blanked = frame.copy()
    columns = [c for c in VERDICT_COLUMNS | OTHERS_COLUMNS if c in frame]
    blanked.loc[held, columns] = None
    return blanked


def _without(frame: pd.DataFrame, columns: frozenset[str]) -> pd.DataFrame:
    return frame.drop(columns=[c for c in columns if c in frame])
