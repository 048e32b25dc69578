"""The gate of this session: what its viewer (the reviewer named, their blind pass, their role)
may be shown of verdicts, and the index's queries as they answer that viewer.

The queue worked is webeval_ui/queue_state.py's, below this module. While the queue is blind,
nothing the reviewer can reach shows a verdict, score, failure tag or another reviewer's label of
an item still pending in their pass: the core's gate decides (`gate`, webeval_core.review.disclosure).
Verdicts come from the index only through `gated_queries()` (the queries seen by the gate: what
they return is recorded as shown first, or comes without verdicts), so a page that forgets to ask
shows none (`loaders.current_queries` answers no verdict). Pages made of verdicts also say why they
are closed (`hide_in_blind_review`); a trajectory read from its folder reaches a view only as
`seen_trajectory` gives it (its score files, eval_result.json and harness reward left out unless
the gate lets them through); what else files hold is let through by `reveal`, and when the record
cannot be written, the page shows no verdict.

The annotation store (SQLAlchemy) is imported only when a reviewer is named or a queue worked: the
other pages' first loads do not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from webeval_ui.loaders import current_queries
from webeval_ui.queue_state import WorkedQueue, current_queue, in_blind_review, items_of, leave, worked_queue
from webeval_ui.reviewer import reviewer, signed_in
from webeval_ui.roots import current_root
from webeval_ui.state import Key
from webeval_ui.untrusted import inert

if TYPE_CHECKING:
    from webeval_core.reading import Trajectory
    from webeval_core.review import AnnotationStore, Gate, SeenTrajectory, Shown
    from webeval_core.runs import IndexQueries


def review_mode_bar() -> None:
    """The sidebar's line for the queue worked (with the way out); keeps the queue in the URL."""
    worked = worked_queue()
    if worked is None:
        return
    if st.query_params.get(Key.QUEUE.value) != worked.name:
        st.query_params[Key.QUEUE.value] = worked.name  # a page switch dropped it: put it back
    with st.sidebar:
        mode = "blind: verdicts hidden" if worked.blind else "informed"
        st.info(f"Review mode · queue **{inert(worked.name)}** ({mode})", icon=":material/rate_review:")
        st.button("Leave review mode", key=Key.LEAVE_REVIEW, on_click=leave, width="stretch")


def gate() -> Gate:
    """What this session's reviewer may be shown of verdicts and others' labels: the core's one
    gate (webeval_core.review.disclosure), with their blind pass when they work a blind queue.

    Made once per script run (a page's, or a fragment's) and again whenever the store was written
    since (a save, a queue made, a release: by this session or another of the server): the page's
    twenty-odd askers read the store's queues and judged items once, not each time.
    Nobody named and no queue worked: an open gate, and the annotation store is not imported.
    """
    from webeval_core.review import Gate

    me = reviewer()
    worked = worked_queue()
    if not me and worked is None:
        return Gate(None, "")
    from webeval_ui.review_store import review_store_quiet

    store = review_store_quiet()
    run, who = _script_run(), (me, worked, signed_in())
    kept: _Made | None = st.session_state.get(Key.GATE_MADE)
    if kept is not None and kept.fits(run, store, who):
        return kept.gate
    made = _gate(store, me, worked)
    if run is not None:
        st.session_state[Key.GATE_MADE] = _Made(run, store, _writes(store), who, made)
    return made


@dataclass(frozen=True, eq=False)
class _Made:
    """A gate, and what it was made for."""

    run: object
    """The script run it was made in (`_script_run`)."""
    store: AnnotationStore | None
    """The store it read."""
    writes: int
    """The store's writes then (`AnnotationStore.writes`)."""
    who: tuple[str, WorkedQueue | None, str]
    """The reviewer named, the queue worked and who signed in."""
    gate: Gate
    """The gate made."""

    def fits(
        self, run: object | None, store: AnnotationStore | None, who: tuple[str, WorkedQueue | None, str]
    ) -> bool:
        """Whether it still holds: the same run, store and people, and nothing written since."""
        same_objects = run is not None and self.run is run and self.store is store
        return same_objects and self.writes == _writes(store) and self.who == who


def _writes(store: AnnotationStore | None) -> int:
    return store.writes if store is not None else 0


def _script_run() -> object | None:
    """What stands for the script run under way: its element cursors, made anew by every run of the
    page or of a fragment (kept by reference, so never mistaken for a later run's); None outside a
    run (bare mode), when nothing is kept.
    """
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.cursors


def _gate(store: AnnotationStore | None, me: str, worked: WorkedQueue | None) -> Gate:
    from webeval_core.review import Gate, blind_pass, blind_passes

    blind = None
    if worked is not None and worked.blind:
        queue = current_queue(store) if store is not None else None
        items = items_of(queue) if queue is not None else []
        blind = blind_pass(store if queue is not None else None, worked.name, items, me)
    elsewhere = blind_passes(store, _blind_queues_of(store, me), me) if me else ()
    return Gate(store, me, verified=bool(me) and me == signed_in(), blind=blind, elsewhere=elsewhere)


def _blind_queues_of(store: AnnotationStore | None, me: str) -> dict[str, list[tuple[str, str]]]:
    """The root's blind queues `me` is to work (named in them, or they name nobody), with their
    items: what they have not judged yet there stays blank on every list (`Gate.elsewhere`).
    """
    from webeval_core.review import Stage, StoreError, queues_on, read_queues
    from webeval_ui.roots import chosen_root

    if store is None:
        return {}
    try:
        queues = queues_on(read_queues(store), chosen_root())
    except StoreError:
        return {}  # the store is down: the gate records nothing, so it shows nothing either
    mine = (q for q in queues.values() if q.stage == Stage.BLIND and q.assigned_to(me))
    return {q.name: items_of(q) for q in mine}


def gated_queries() -> IndexQueries:
    """The index's queries as this session's viewer is answered (`gate`): the one way a view reads
    verdicts, scores, tags or rates from the index.
    """
    return current_queries().seen_by(gate())


def figure_queries() -> IndexQueries:
    """The index's queries for figures made over many trajectories (rates, the published lines):
    closed as the gate is, and recording no trajectory as shown (`Gate.figures`).
    """
    return current_queries().seen_by(gate().figures())


def seen_trajectory(
    trajectory: Trajectory, item: tuple[str, str], *, evaluable: bool = False
) -> SeenTrajectory:
    """A trajectory read from its folder as this session's viewer may see it (the core's
    `trajectory_seen_by` with `gate()`): the one way a view gets a trajectory's own verdicts (the
    trajectory page's tabs, Compare's pair, a task's attempts). When their being shown cannot be
    recorded, the page says so; one held by another blind queue of the reviewer's says so too,
    with the way to show it anyway.
    """
    from webeval_core.review import Withheld, trajectory_seen_by

    seen = trajectory_seen_by(gate(), trajectory, item, evaluable=evaluable)
    if seen.withheld == Withheld.NOT_RECORDED:
        st.warning(withheld_text(seen.detail), icon=":material/visibility_off:")
    elif seen.withheld == Withheld.BLIND_PASS and not in_blind_review() and seen.detail:
        st.info(
            f"Verdicts hidden: this trajectory is {inert(seen.detail)}, still to be judged blind."
            " Judge it there first, or show them now: it then counts as judged informed.",
            icon=":material/visibility_off:",
        )
        st.button("Show its verdicts", key=Key.RELEASE, on_click=_release, args=(item,))
    return seen


def hide_in_blind_review(title: str) -> None:
    """On a page made of verdicts: while the reviewer's blind pass has items pending, say why it
    is empty and stop.
    """
    closed = gate().closed()
    if not closed:
        return
    st.title(title)
    st.info(inert(closed))
    st.stop()


def reveal(items: Iterable[tuple[str, str]], what: Shown | None = None) -> bool:
    """Whether `what` (default: verdicts) of `items` may be drawn now; recorded as shown first.

    When it may not, the reason is said on the page (a blind pass says it in its own places).
    """
    from webeval_core.review import Shown, Withheld

    disclosed = gate().disclose(items, what or Shown.VERDICT)
    if disclosed.why == Withheld.NOT_RECORDED:
        st.warning(withheld_text(disclosed.detail), icon=":material/visibility_off:")
    elif disclosed.why == Withheld.BLIND_PASS and not in_blind_review():
        st.caption(held_text(len(disclosed.withheld), disclosed.detail))
    return disclosed.why is None


def _release(item: tuple[str, str]) -> None:
    gate().release(item)


def held_text(held: int, detail: str) -> str:
    """What a list says of the rows it shows without verdicts (`TrajectoryPage.held`)."""
    rows = "trajectory shows" if held == 1 else "trajectories show"
    return f"{held} {rows} no verdict: {inert(detail)}, still to be judged blind."


def reveal_runs(runs: Iterable[str]) -> bool:
    """Whether every verdict of `runs` (a run's report, a bundle: each trajectory's, all judges')
    may be drawn now; recorded as shown first, as `reveal`.
    """
    from webeval_core.runs import filter_from_params

    rows = current_queries().page(None, filter_from_params({Key.RUNS: sorted(runs)})).rows
    return reveal((row.run, row.task_id) for row in rows)


def reveal_folders(found: Iterable[tuple[Path, str]]) -> bool:
    """Whether the verdicts of the trajectories (folder, task id) a batch re-scored or re-judged
    may be drawn now; recorded as shown first, as `reveal` (a folder the index lacks yet is named
    by nothing a later save could be about).
    """
    from webeval_core.runs import trajectory_key

    queries, root = current_queries(), current_root()
    runs = ((queries.run_of(trajectory_key(root, Path(folder))), task) for folder, task in found)
    return reveal((run, task) for run, task in runs if run is not None)


def withheld_text(detail: str) -> str:
    """What a page says in place of verdicts the store could not record as shown."""
    return (
        "Verdicts are hidden: the annotation store cannot record that you saw them, so a later save"
        f" would be taken as blind ({inert(detail)}). They show again once the store answers."
    )
