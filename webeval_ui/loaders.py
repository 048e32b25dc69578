"""The core objects of the browsed root, cached for the server's life: its index (refreshed in the
background, its progress in the sidebar), the index's queries and frame, a trajectory; and the one
way to forget them all after a write.
"""

from __future__ import annotations

import time
from pathlib import Path

import streamlit as st

from webeval_core.presentation import moment
from webeval_core.reading import Trajectory, installed_catalog, layouts, load_trajectory
from webeval_core.runs import (
    BackgroundRefresh,
    IndexQueries,
    IndexStore,
    IndexView,
    refresh_index,
)
from webeval_core.support import cache_folder
from webeval_ui import remote_root
from webeval_ui.roots import another_root, current_root
from webeval_ui.untrusted import inert


def forget_summaries() -> None:
    """After this process wrote score files: lists and charts re-read the folders that changed.

    The remote listing is kept (scores are written into the mirror), and so are loaded
    trajectories (their cache key holds the folder's fingerprint, which the write changed).
    """
    load_index.clear()
    load_queries.clear()


def forget_loaded_data() -> None:
    """Drop every cached read so the next render sees the disk ("Reload from disk")."""
    st.cache_data.clear()
    remote_root.mirrored_root.clear()  # a remote root is listed again
    forget_summaries()


# One background refresh per root for the server's life (a thread, the refresh in a child process).
_REFRESHERS: dict[str, BackgroundRefresh] = {}


_FIRST_WAIT_S = 15.0  # an index never filled: how long a page waits for its first rows


# How often the sidebar looks at the refresh (its progress, a new generation to draw): a few seconds
# when idle, so score files written by another process show within the Live page's refresh.
_POLL_BUSY_S, _POLL_IDLE_S = 1.0, 3.0
_REFRESH_EVERY_S = 30.0  # a full look for changed folders at most this often (new score files: at once)


_FIRST_REFRESH_DELAY_S = 5.0


@st.cache_resource(show_spinner="Reading changed folders…", max_entries=4)
def load_index(root: str) -> IndexStore:
    """The index file of a root, opened once per server process, refreshed in the background.

    Made again after `.clear()` (score files written, "Reload from disk"): then the folders that
    changed are read here first, so the page that wrote them shows them.
    """
    store = IndexStore(Path(root))
    if root in _REFRESHERS:
        refresh_index(store, workers=1)  # in-process: forking a server's threads is unsafe
    else:
        # An index with rows is shown first and refreshed a moment later, off the first paint's CPU.
        delay = _FIRST_REFRESH_DELAY_S if store.counts().trajectories else 0.0
        _REFRESHERS[root] = BackgroundRefresh(
            Path(root), min_interval_s=_REFRESH_EVERY_S, first_delay_s=delay
        )
    _REFRESHERS[root].request()
    return store


def refresher(root: str) -> BackgroundRefresh:
    """The background refresh of a root's index."""
    load_index(root)
    return _REFRESHERS[root]


@st.cache_resource(show_spinner=False, max_entries=4)
def _view(root: str, generation: int) -> IndexView:
    """What the index holds at one generation (runs; summaries read a run at a time)."""
    return IndexView(load_index(root))


def current_index() -> IndexView:
    """The index of the root the app browses, as it is now: a refresh is never waited for, but an
    index never filled is, for a while, until its first rows are in (a small root's whole index).
    """
    root = str(current_root())
    view = _view(root, load_index(root).generation())
    service = refresher(root)
    deadline = time.monotonic() + _FIRST_WAIT_S
    while not view.run_heads and not service.status().finished and time.monotonic() < deadline:
        time.sleep(0.1)
        view = _view(root, load_index(root).generation())
    return view


def index_or_stop() -> IndexView:
    """The current index; when the root holds no trajectories (or cannot be read), say so and stop."""
    root = str(current_root())
    try:
        index = current_index()
    except Exception as exc:  # the page says what broke instead of dying with a traceback
        st.error(inert(f"The root folder cannot be read: {type(exc).__name__}: {exc}"))
        st.stop()
    with st.sidebar:
        index_status(root, index.generation, bool(index.run_heads))
    if not index.run_heads:
        if not refresher(root).status().finished:  # the first refresh has not finished yet
            st.info(f"Reading the trajectory folders under {inert(str(index.root))} for the first time…")
        else:
            st.info(inert(f"No trajectory folders found under {index.root}: {layouts()}."))
            another_root(index.root)
        st.stop()
    return index


def index_status(root: str, shown_generation: int, showing_rows: bool) -> None:
    """The background refresh's progress; the page is drawn again once it brought something new."""
    busy = refresher(root).status().running
    st.fragment(run_every=_POLL_BUSY_S if busy else _POLL_IDLE_S)(_index_status)(
        root, shown_generation, showing_rows
    )


def _index_status(root: str, shown_generation: int, showing_rows: bool) -> None:
    service = refresher(root)
    service.request()  # at most one refresh per _REFRESH_EVERY_S: new folders appear without a restart
    status = service.status()
    if status.running and status.for_scores:
        st.caption("New score files were written: the figures are being updated…")
    elif status.running and status.total:
        st.progress(
            status.done / status.total, text=f"Reading {status.done} of {status.total} changed folders…"
        )
    elif status.running:
        st.caption("Looking for changed folders…")
    elif status.error:
        st.caption(f"The index could not be refreshed: {inert(status.error)}")
    elif notice := (status.last.notice if status.last is not None else None) or load_index(root).notice:
        st.caption(inert(notice))  # the index file was rebuilt (another version, unreadable)
    if status.scores_read_at is not None:
        st.caption(f"Figures changed: new score files read at {moment(status.scores_read_at)}.")
    if cache_notice := cache_folder().notice:
        st.caption(inert(cache_notice))
    if not status.running and status.last is not None and status.last.misnamed_notice:
        st.warning(inert(status.last.misnamed_notice), icon=":material/folder_off:")
    changed = load_index(root).generation() != shown_generation
    # While a large root is read, the page is drawn again for its first rows and when it is done.
    if changed and (not status.running or not showing_rows):
        st.rerun(scope="app")


@st.cache_data(show_spinner=False, max_entries=64)
def load_trajectory_cached(path: str, fingerprint: str = "") -> Trajectory:
    """The trajectory of a folder, read again when its `fingerprint` changes."""
    # `fingerprint` (refresh.fingerprint of the folder) is part of the cache key, so a folder changed
    # on disk (e.g. a new score file) is read again; a leading underscore would exclude it.
    return load_trajectory(Path(path))


@st.cache_resource(show_spinner=False, max_entries=4)
def load_queries(root: str, generation: int = 0) -> IndexQueries:
    """The SQL queries on a root's index at one generation (lists, counts and charts)."""
    return IndexQueries(load_index(root), installed_catalog())


def current_queries() -> IndexQueries:
    """The queries on the index of the root the app browses, as it is now."""
    index = current_index()
    return load_queries(str(index.root), index.generation)
