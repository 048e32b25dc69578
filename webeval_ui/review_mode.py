"""Review mode: while a reviewer works a queue the app follows it, and a blind queue locks every view.

A queue is worked from the moment it is chosen on the Review page (or a link names it, `?queue=`)
until "Leave review mode" in the sidebar. The mode lives in the session and the URL, never in the
store's answers: a store outage cannot turn it off. While the queue is blind, nothing the
reviewer can reach shows a verdict, score, failure tag or another reviewer's label of an item
still pending in their pass: the core's gate decides (`gate`, webeval_core.review.disclosure), and
every page asks it before drawing: the Trajectories list loses those columns, filters and
downloads; Overview, Tasks, Compare runs, Query and Agreement show only the way out; the Trajectory
page hides them until the item is saved. Outside a blind pass the gate records what a page is
about to show a named reviewer (`reveal`), and when it cannot, the page shows no verdict.

The annotation store (SQLAlchemy) is imported only when a link names a queue: the other pages'
first loads do not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

import streamlit as st

from webeval_ui.reviewer import reviewer, signed_in
from webeval_ui.state import Key
from webeval_ui.untrusted import inert

if TYPE_CHECKING:
    from webeval_core.review import Gate, Shown


class WorkedQueue(NamedTuple):
    """The queue a session works."""

    name: str
    """The queue's name (as the store keeps it)."""
    blind: bool
    """Whether verdicts stay hidden; True too when the store could not say (hide rather than reveal)."""


def worked_queue() -> WorkedQueue | None:
    """The queue this session works: kept since it was entered, or the one a link names."""
    kept: WorkedQueue | None = st.session_state.get(Key.REVIEW_MODE)
    named = st.query_params.get(Key.QUEUE.value)
    if kept is not None and named in (None, kept.name):
        return kept
    if named is None:
        return None
    return _enter_named(str(named))


def in_blind_review() -> bool:
    """Whether the session works a blind queue (every verdict hidden)."""
    worked = worked_queue()
    return worked is not None and worked.blind


def enter(name: str, blind: bool) -> None:
    """Work a queue from now on (callbacks and the Review page)."""
    st.session_state[Key.REVIEW_MODE] = WorkedQueue(name, blind)
    st.query_params[Key.QUEUE.value] = name


def leave() -> None:
    """Stop working the queue: verdicts show again."""
    st.session_state.pop(Key.REVIEW_MODE, None)
    # Set, not removed: a removed widget state leaves the browser showing the queue as chosen.
    st.session_state[Key.QUEUE_PICK] = None
    st.query_params.pop(Key.QUEUE.value, None)


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

    Nobody named and no queue worked: an open gate, and the annotation store is not imported.
    """
    from webeval_core.review import Gate, blind_pass

    me = reviewer()
    worked = worked_queue()
    if not me and worked is None:
        return Gate(None, "")
    from webeval_ui.review_store import review_store_quiet

    store = review_store_quiet()
    blind = None
    if worked is not None and worked.blind:
        from webeval_ui.review_queue import current_queue, items_of

        queue = current_queue(store) if store is not None else None
        items = items_of(queue) if queue is not None else []
        blind = blind_pass(store if queue is not None else None, worked.name, items, me)
    return Gate(store, me, verified=bool(me) and me == signed_in(), blind=blind)


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
    return disclosed.why is None


def withheld_text(detail: str) -> str:
    """What a page says in place of verdicts the store could not record as shown."""
    return (
        "Verdicts are hidden: the annotation store cannot record that you saw them, so a later save"
        f" would be taken as blind ({inert(detail)}). They show again once the store answers."
    )


def _enter_named(name: str) -> WorkedQueue | None:
    """Enter the queue a link names; None (said on the page) when the store has no such queue."""
    from webeval_core.review import StoreError, queues_on, read_queues
    from webeval_ui.review_store import review_store_quiet
    from webeval_ui.roots import chosen_root

    store = review_store_quiet()
    try:
        queues = queues_on(read_queues(store), chosen_root()) if store is not None else None
    except StoreError:
        queues = None
    if queues is not None and name not in queues:
        st.warning(
            f"The link names the review queue {inert(name)}, which the annotation store does not hold"
            " for this root."
        )
        st.query_params.pop(Key.QUEUE.value, None)
        return None
    # The store unreachable: the queue's mode is unknown, so it is worked blind until it answers.
    blind = queues is None or queues[name].stage == "blind"
    enter(name, blind)
    return WorkedQueue(name, blind)
