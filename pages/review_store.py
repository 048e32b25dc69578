"""The annotation store as the pages use it, the reviewer, and what was shown to them.

A read-only server, or a reviewer whose role may not annotate (pages/access.py), records nothing
of what was shown.

The store is opened once per location for the whole server (SQLite file or PostgreSQL URL from
`WEBEVAL_ANNOTATIONS`); errors are shown with the password masked. The reviewer is chosen once in
the sidebar and kept in the URL (`?reviewer=`), so a save never clears it.

Whatever reveals a trajectory's verdict or other reviewers' labels to a named reviewer is recorded
in the store (`note_shown`), so that their later save of it is stored as informed (the core
decides: review.judging); what cannot be recorded during an outage waits in the session and is
written before their next save (`flush_shown`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path

import streamlit as st

from pages.access import as_reviewer, refused
from pages.common import current_root, inert
from pages.reviewer import reviewer
from pages.state import Key
from webeval_core.access import Write
from webeval_core.review import Annotation, AnnotationStore, StoreError, open_annotations
from webeval_core.review.annotations import Shown
from webeval_core.review.store import default_location


@st.cache_resource(show_spinner=False, max_entries=4)
def _store(location: str, root: str) -> AnnotationStore:
    store, _problems = open_annotations(location, Path(root))
    return store


def review_store() -> AnnotationStore | None:
    """The annotation store; None (with the reason shown) when it cannot be opened."""
    try:
        return _store(default_location(), str(current_root()))
    except StoreError as exc:
        st.error(f"The annotation store cannot be opened: {inert(str(exc))}")
        return None


def all_annotations(store: AnnotationStore) -> list[Annotation] | None:
    """Every annotation; None (with the reason shown) when the store cannot be read."""
    try:
        return store.annotations()
    except StoreError as exc:
        st.error(f"The annotation store cannot be read: {inert(str(exc))}")
        return None


def review_store_quiet() -> AnnotationStore | None:
    """The annotation store, or None when it cannot be opened (nothing said on the page)."""
    try:
        return _store(default_location(), str(current_root()))
    except StoreError:
        return None


def note_shown(items: Iterable[tuple[str, str]], what: Shown) -> None:
    """Record that `what` of these trajectories was shown to the reviewer (nothing when none is named).

    Each (item, what) is written once per session; during an outage it waits in the session
    (`flush_shown` writes it before the next save).
    """
    me = reviewer()
    if not me or refused(
        Write.SHOWN
    ):  # a read-only server or a viewer records nothing (the store would refuse)
        return
    noted: dict[tuple[str, Shown, str, str], bool] = st.session_state.setdefault(Key.SHOWN_NOTED, {})
    for run, task_id in items:
        noted.setdefault((me, what, run, task_id), False)
    store = review_store_quiet()
    if store is not None:
        with contextlib.suppress(StoreError):  # kept in the session: written before the next save
            flush_shown(store)


def flush_shown(store: AnnotationStore) -> None:
    """Write what waits to be recorded as shown.

    Raises:
        StoreError: When the store cannot be written (what waits is kept).
    """
    noted: dict[tuple[str, Shown, str, str], bool] = st.session_state.setdefault(Key.SHOWN_NOTED, {})
    waiting: dict[tuple[str, Shown], list[tuple[str, str]]] = {}
    for (who, what, run, task_id), written in noted.items():
        if not written:
            waiting.setdefault((who, what), []).append((run, task_id))
    for (who, what), items in waiting.items():
        with as_reviewer(who):
            store.note_shown(items, who, what)
        noted.update({(who, what, run, task_id): True for run, task_id in items})
