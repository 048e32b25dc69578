"""The queue a session works, below the gate: which queue (session + URL), entering and leaving
it, its items in review order, and each judge's outcome per trajectory its order may read.

A queue is worked from the moment it is chosen on the Review page (or a link names it, `?queue=`)
until "Leave review mode" in the sidebar. The mode lives in the session and the URL, never in the
store's answers: a store outage cannot turn it off. What a reviewer may be shown while they work
it is the gate's (webeval_ui/review_mode.py), which stands on this module; nothing here shows a
verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import streamlit as st

from webeval_ui.loaders import current_index, current_queries
from webeval_ui.roots import current_root
from webeval_ui.state import Key
from webeval_ui.untrusted import inert

if TYPE_CHECKING:  # the annotation store (SQLAlchemy) is imported only while a queue is worked
    from webeval_core.review import AnnotationStore, Outcome, ReviewQueue
    from webeval_core.runs import IndexView


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


@st.cache_resource(show_spinner=False, max_entries=4)
def _judged(_index: IndexView, index_id: int) -> dict[tuple[str, str], dict[str, Outcome]]:
    from webeval_core.review import judge_verdicts

    return judge_verdicts(_index.root_index(run.key for run in _index.run_heads))


def judged() -> dict[tuple[str, str], dict[str, Outcome]]:
    """Each judge's outcome per trajectory of the current root (computed once per loaded index)."""
    index = current_index()
    return _judged(index, id(index))


def current_queue(store: AnnotationStore) -> ReviewQueue | None:
    """The queue the session works, when the store has it (None too while the store is down)."""
    from webeval_core.review import StoreError, read_queues

    worked = worked_queue()
    if worked is None:
        return None
    try:
        return read_queues(store).get(worked.name)
    except StoreError:
        return None


@st.cache_data(show_spinner=False, max_entries=16)
def _items(root: str, queue_json: str) -> list[tuple[str, str]]:
    from webeval_core.review import ReviewQueue, queue_items
    from webeval_core.runs import OUTSIDE_REVIEW

    queue = ReviewQueue.model_validate_json(queue_json)
    # Only the rows the queue's criteria keep are read from the index. Its verdicts order an informed
    # queue ("failures first") and are shown to nobody here: a blind queue reads none (save_queue).
    rows = current_queries().seen_by(OUTSIDE_REVIEW).frame(None, queue.criteria)
    return queue_items(rows, queue, judged())


def items_of(queue: ReviewQueue) -> list[tuple[str, str]]:
    """The queue's trajectories in review order (cached per root and queue)."""
    return _items(str(current_root()), queue.model_dump_json())


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
