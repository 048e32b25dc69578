"""Shared by the Streamlit pages: the chosen root, cached core objects, guards and the trajectory table.

Everything here is a thin cache or guard around webeval_core; no page reads files directly.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from webeval_core.presentation.picks import choice_of
from webeval_core.reading.tasks import installed_catalog
from webeval_core.reading.trajectory import Trajectory, load_trajectory
from webeval_core.runs.background import BackgroundRefresh
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.judges import judge_label, order_judges
from webeval_core.runs.metrics import TrajectoryFilter, stored_frame
from webeval_core.runs.queries import BarChoice, IndexQueries, ListedTrajectory
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.view import IndexView
from webeval_core.server import ROOT_ENV, allowed_roots, root_refusal
from webeval_ui import remote_root
from webeval_ui.state import KEPT_ACROSS_ROOTS, Key, table_page_key, trajectory_link

# pandas (most of a second to import) is imported where a table is made: the trajectory page
# draws its screenshot before it needs any.
if TYPE_CHECKING:
    import pandas as pd

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO / "sample_runs"
PAGES = {
    "overview": "pages/overview.py",
    "trajectories": "pages/trajectories.py",
    "trajectory": "pages/trajectory.py",
    "compare": "pages/compare.py",
    "tasks": "pages/tasks.py",
    "review": "pages/review.py",
    "agreement": "pages/agreement.py",
    "disagreements": "pages/disagreements.py",
    "query": "pages/query.py",
}


def current_root() -> Path:
    """The folder the app browses: chosen in the sidebar or a link, else `WEBEVAL_ROOT`, else sample_runs/.

    A store URL is browsed through its local mirror (webeval_ui/remote_root.py).
    """
    chosen = _chosen()
    if remote_root.is_remote(chosen):
        return remote_root.remote_folder(chosen, inert)
    return Path(chosen).resolve()


def _chosen() -> str:
    """The root as chosen (a folder or a store URL): the session's, else the server's, else the sample."""
    return str(st.session_state.get(Key.ROOT) or os.environ.get(ROOT_ENV) or DEFAULT_ROOT)


def _chosen_url() -> str | None:
    chosen = _chosen()
    return chosen if remote_root.is_remote(chosen) else None


def refusal(candidate: str) -> str | None:
    """Why the app will not open `candidate`, a folder or a store URL (None: it may).

    Folders: webeval_core.server.root_refusal. A store URL only when it is the one the server was
    started on: a shared link must not make the server fetch from any store its credentials reach.
    """
    if remote_root.is_remote(candidate):
        if candidate == os.environ.get(ROOT_ENV):
            return None
        return f"{candidate} is not the store this server was started on"
    return root_refusal(Path(candidate), allowed_roots(os.environ, DEFAULT_ROOT))


def root_picker() -> None:
    """The root in the URL and the sidebar: a link's root is opened when allowed, the URL names the root.

    A root the server may not open (webeval_core.server.allowed_roots) is refused with the reason,
    and the root browsed so far is kept.
    """
    _follow_link()
    root = current_root()
    url = _chosen_url()
    st.query_params[Key.ROOT_IN_URL] = url or str(root)  # every page's URL names its root: links share it
    with st.sidebar:
        if url is not None:
            remote_root.show_remote_problems(url, inert)
        # Drawn only when opened: a text box costs every page load about 0.2 s of the browser's
        # time (its widget code loads and runs), and the root changes rarely.
        box = lazy_expander(f"Root folder: {inert(root.name or str(root))}", key=Key.ROOT_BOX)
        if box is not None:
            with box:
                _root_input(root, url)
        if st.button("Reload from disk", help="Re-read folders changed since the last load."):
            forget_loaded_data()
            st.rerun()


def _follow_link() -> None:
    """Open the root the URL names (a shared link, the browser's address bar) when it differs."""
    wanted = st.query_params.get(Key.ROOT_IN_URL)
    if not wanted or wanted == _chosen_url():
        return
    local = not remote_root.is_remote(wanted)
    if local and Path(wanted).resolve() == current_root():
        return
    why = refusal(wanted)
    if why is not None:
        st.error(inert(f"The link's root folder was not opened: {why}"))
        return
    _forget_root_state()
    st.session_state[Key.ROOT] = str(Path(wanted).resolve()) if local else wanted


def _root_input(root: Path, url: str | None) -> None:
    typed = st.text_input(
        "Root folder",
        value=url or str(root),
        key=Key.ROOT_TYPED,
        help="Any folder holding trajectory folders, or a store URL (az://, s3://, gs://).",
    )
    if remote_root.is_remote(typed):
        if typed != url:
            if (why := refusal(typed)) is not None:
                st.error(inert(why))
                return
            remote_root.remote_folder(typed, inert)  # unreachable: says so and stops, root kept
            _browse(typed)
        return
    candidate = Path(typed).expanduser().resolve() if typed else root
    if candidate == root:
        return
    if not candidate.is_dir():
        st.error(f"Not a folder: {inert(typed)}")
    elif (why := refusal(str(candidate))) is not None:
        st.error(inert(why))
    else:
        _browse(str(candidate))


def _forget_root_state() -> None:
    """Drop what was chosen in the old root: its runs, tasks and filters name nothing in another."""
    for key in list(st.session_state):
        if key not in KEPT_ACROSS_ROOTS:
            del st.session_state[key]


def _browse(root: str) -> None:
    """Open the overview of another root with a clean slate.

    Runs, tasks and filters chosen in the old root (widget state and the URL's query) name
    nothing in the new one, and a run picker keeping them would show an empty page.
    """
    _forget_root_state()
    st.session_state[Key.ROOT] = root
    # An explicit query naming the new root: without one, switch_page calls
    # st.query_params.clear(), which refuses while parameters bound to widgets are in the URL.
    st.switch_page(PAGES["overview"], query_params={Key.ROOT_IN_URL.value: root})


def forget_loaded_data() -> None:
    """Drop every cached read so the next render sees the disk (e.g. after writing score files)."""
    st.cache_data.clear()
    load_index.clear()
    remote_root.mirrored_root.clear()  # a remote root is listed again
    load_frame.clear()
    load_queries.clear()


# One background refresh per root for the server's life (a thread, the refresh in a child process).
_REFRESHERS: dict[str, BackgroundRefresh] = {}
_FIRST_WAIT_S = 15.0  # an index never filled: how long a page waits for its first rows
_POLL_BUSY_S, _POLL_IDLE_S = 1.0, 30.0
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
        _REFRESHERS[root] = BackgroundRefresh(Path(root), min_interval_s=_POLL_IDLE_S, first_delay_s=delay)
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
            st.info(
                f"No trajectory folders found under {inert(str(index.root))}."
                " Choose another root folder in the sidebar."
            )
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
    service.request()  # at most one refresh per _POLL_IDLE_S: new folders appear without a restart
    status = service.status()
    if status.running and status.total:
        st.progress(
            status.done / status.total, text=f"Reading {status.done} of {status.total} changed folders…"
        )
    elif status.running:
        st.caption("Looking for changed folders…")
    elif status.error:
        st.caption(f"The index could not be refreshed: {inert(status.error)}")
    elif notice := (status.last.notice if status.last is not None else None) or load_index(root).notice:
        st.caption(inert(notice))  # the index file was rebuilt (another version, unreadable)
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


def inside_root(path: Path, root: Path | None = None) -> Path | None:
    """`path` resolved, or None when it lies outside the root: files are served only from inside it."""
    base = (root or current_root()).resolve()
    try:
        resolved = path.resolve()
    except OSError:
        return None
    return resolved if resolved == base or base in resolved.parents else None


def lazy_expander(label: str, key: str) -> DeltaGenerator | None:
    """An expander whose content is drawn only while it is open (the container, else None).

    A closed st.expander still sends and draws its content; a table or code block in it slows
    every page load down for nothing. Opening it reruns the page, and the state stays by `key`.
    """
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


# Every ASCII punctuation character that Markdown, GitHub's extensions (tables, strikethrough,
# autolinks: `www.` and `http:` stop matching once a dot or colon is escaped), HTML (`<`, `&`) or
# Streamlit's own syntax (`:color[...]`, `:material/icon:`, `$math$`) gives a meaning to.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:=&])")


def inert(text: str) -> str:
    """`text` escaped so Streamlit's Markdown shows it literally: no link, image, HTML or styling.

    Every text that did not come from our own code (file, folder, run and reviewer names, task
    ids, agent text, messages quoting them) goes through here before it reaches a place that
    renders Markdown: labels, captions, titles, tabs, expanders, badges, help, st.markdown.
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


P = ParamSpec("P")


def contained(what: str) -> Callable[[Callable[P, None]], Callable[P, None]]:
    """A view that, should it raise, shows an error box naming `what` and lets the page go on.

    One hostile trajectory must not take a page down; st.stop and st.rerun are BaseExceptions
    and pass through.
    """

    def wrap(view: Callable[P, None]) -> Callable[P, None]:
        @functools.wraps(view)
        def run(*args: P.args, **kwargs: P.kwargs) -> None:
            try:
                view(*args, **kwargs)
            except Exception as exc:
                st.error(inert(f"{what} cannot be shown: {type(exc).__name__}: {exc}"))

        return run

    return wrap


# A resource: the frame is shared read-only by every session; cache_data would copy it per rerun.
@st.cache_resource(show_spinner=False, max_entries=3)
def load_frame(root: str, judge: str | None = None, generation: int = 0) -> pd.DataFrame:
    """metrics.stored_frame of a root, by one judge, at one index generation: a row per trajectory."""
    return stored_frame(load_index(root), installed_catalog(), judge)


@st.cache_resource(show_spinner=False, max_entries=4)
def load_queries(root: str, generation: int = 0) -> IndexQueries:
    """The SQL queries on a root's index at one generation (lists, counts and charts)."""
    return IndexQueries(load_index(root), installed_catalog())


def current_queries() -> IndexQueries:
    """The queries on the index of the root the app browses, as it is now."""
    index = current_index()
    return load_queries(str(index.root), index.generation)


def current_frame(judge: str | None = None) -> pd.DataFrame:
    """The metrics frame of the root the app browses, by `judge` (None: the official verdict)."""
    index = current_index()
    return load_frame(str(index.root), judge, index.generation)


def judge_picker(index: IndexView) -> str | None:
    """The judge whose verdicts a page's rates use; a choice only when the root has several.

    Rates never mix judges: every row of the frame takes this one judge's score.
    """
    judges = order_judges(index.store.judges())
    if len(judges) <= 1:
        return default_judge(index)
    return st.selectbox(
        "Judge",
        judges,
        format_func=judge_label,
        key=Key.JUDGE,
        bind="query-params",
        help="Whose verdicts the success rates and results use; judges are never averaged together.",
    )


def default_judge(index: IndexView) -> str | None:
    """The judge a page's rates use until one is picked: the official evaluator, else the first by name."""
    judges = order_judges(index.store.judges())
    return judges[0] if judges else None


def judge_caption(judge: str | None) -> str:
    """Names the judge behind a page's rates, for a caption (inert: judge names are file names)."""
    return "No verdicts yet." if judge is None else f"Verdicts of the {inert(judge_label(judge))}."


def trajectory_query(run_key: str, task_id: str, path: str | None = None) -> dict[str, str]:
    """The Trajectory page's query parameters for one run's trajectory of a task.

    `path` names the folder, for a task held by several folders of the run (else the first).
    """
    members = current_index().summaries_of(run_key)
    chosen = [s for s in members if s.task_id == task_id and (path is None or str(s.path) == path)]
    if not chosen:
        return trajectory_link(run_key, task_id)
    return trajectory_link(run_key, choice_of(chosen[0], members))


def open_trajectory(
    run_key: str, task_id: str, path: str | None = None, listed: Mapping[str, list[str]] | None = None
) -> None:
    """Switch to the Trajectory page showing one run's trajectory of a task (its folder: `path`).

    `listed`: the list it was chosen from, as query parameters (pages/walk.list_params), so the
    page can walk it.
    """
    params: dict[str, str | list[str]] = {**trajectory_query(run_key, task_id, path), **(listed or {})}
    st.switch_page(PAGES["trajectory"], query_params=params)


_TABLE_COLUMNS = {
    "run": st.column_config.TextColumn("run", width="medium"),
    "task_id": st.column_config.TextColumn("task", width="medium"),  # named ids: alltrails_find_23
    "result": st.column_config.TextColumn("result", help="As counted in success rates"),
    "site": st.column_config.TextColumn("site"),
    "task_type": st.column_config.TextColumn("type"),
    "intent": st.column_config.TextColumn("intent", width="large"),
    "outcome": st.column_config.TextColumn("outcome"),
    "status": st.column_config.TextColumn("status", help="WebArena-Verified verdict"),
    "score": st.column_config.NumberColumn("score", format="%.2f"),
    "steps": st.column_config.NumberColumn("steps"),
    "duration_s": st.column_config.NumberColumn("duration (s)", format="%.0f"),
    "tokens": st.column_config.NumberColumn("tokens"),
    "tags": st.column_config.TextColumn("failure tags"),
    "answer": st.column_config.TextColumn("answer", width="medium"),
    "mine": st.column_config.CheckboxColumn("mine", help="Annotated by you"),
    "reviewers": st.column_config.NumberColumn("reviewers", help="Reviewers who annotated it"),
    "human": st.column_config.TextColumn("human", help="The reviewers' majority outcome"),
    "disagree": st.column_config.CheckboxColumn("disagree", help="Human majority vs the evaluator"),
}


TABLE_PAGE_ROWS = 500
"""Rows a trajectory table sends at once: 50,000 rows would cost the browser seconds to draw."""


def _table_page(rows: pd.DataFrame, key: str) -> pd.DataFrame:
    """The rows of the table's page chosen under it (all of them when they fit one page)."""
    start = (_page_number(len(rows), key) - 1) * TABLE_PAGE_ROWS
    return rows.iloc[start : start + TABLE_PAGE_ROWS]


def trajectory_table(
    rows: pd.DataFrame, run_labels: Mapping[str, str], key: str, listed: Mapping[str, list[str]] | None = None
) -> None:
    """Trajectories as a table (agent text shown as plain text); selecting a row opens it.

    `listed`: the query parameters naming this list (pages/walk.list_params): the trajectory opened
    gets previous / next through it. Long lists are paged (`TABLE_PAGE_ROWS`).
    """
    st.session_state[Key.LAST_TABLE_PATHS] = rows["path"].tolist()
    _draw_table(_table_page(rows, key), run_labels, key, listed)


def selected_rows(data: Any, key: str, **options: Any) -> list[int]:
    """A full-width grid of `data` (a frame, or its Styler) whose rows are selected one at a time,
    the selection kept under `key`; the selected row's position in a list (empty: none selected).

    `options`: more of `st.dataframe`'s (column_config, column_order).
    """
    event = st.dataframe(
        data,
        key=key,
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        width="stretch",
        **options,
    )
    return list(event.selection.rows)


def _draw_table(
    rows: pd.DataFrame, run_labels: Mapping[str, str], key: str, listed: Mapping[str, list[str]] | None
) -> None:
    view = rows.assign(run=rows["run"].map(run_labels))
    if "tags" in view:
        view = view.assign(tags=view["tags"].map(", ".join))
    picked = selected_rows(
        view[[column for column in _TABLE_COLUMNS if column in view]], key, column_config=_TABLE_COLUMNS
    )
    if picked:
        chosen = rows.iloc[picked[0]]
        open_trajectory(str(chosen["run"]), str(chosen["task_id"]), str(chosen["path"]), listed)


def listed_frame(rows: tuple[ListedTrajectory, ...]) -> pd.DataFrame:
    """One page of listed trajectories as a table's frame (the columns `_TABLE_COLUMNS` names)."""
    import pandas as pd

    return pd.DataFrame(
        [row.model_dump() for row in rows], columns=list(ListedTrajectory.model_fields)
    ).astype({"score": "float64", "duration_s": "float64", "value": "float64"})


def _page_number(total: int, key: str) -> int:
    """The table page chosen under a list of `total` rows (1 when they fit one page)."""
    if total <= TABLE_PAGE_ROWS:
        return 1
    pages = -(-total // TABLE_PAGE_ROWS)
    page_key = table_page_key(key)
    if st.session_state.get(page_key, 1) > pages:  # fewer rows since (another filter): the last page
        st.session_state[page_key] = pages
    left, right = st.columns([1, 4], vertical_alignment="bottom")
    number = int(left.number_input("Page", min_value=1, max_value=pages, step=1, key=page_key))
    start = (number - 1) * TABLE_PAGE_ROWS
    right.caption(f"Rows {start + 1}–{min(start + TABLE_PAGE_ROWS, total)} of {total}.")
    return number


def query_table(
    judge: str | None,
    criteria: TrajectoryFilter,
    run_labels: Mapping[str, str],
    *,
    key: str,
    listed: Mapping[str, list[str]] | None = None,
    bars: list[list[BarChoice]] | None = None,
    columns: Callable[[pd.DataFrame], pd.DataFrame] | None = None,
) -> int:
    """The trajectories `criteria` and clicked `bars` keep, a page at a time from the index (SQL).

    `columns`: what the page's rows get before they are drawn (review columns). Returns how many
    the list holds. Selecting a row opens it, as `trajectory_table` does.
    """
    queries = current_queries()
    chosen = bars or []
    wanted = max(1, int(st.session_state.get(table_page_key(key), 1)))
    page = queries.page(judge, criteria, chosen, offset=(wanted - 1) * TABLE_PAGE_ROWS, limit=TABLE_PAGE_ROWS)
    number = _page_number(page.total, key)
    if number != wanted:  # the list shrank under the page chosen: its last page
        page = queries.page(
            judge, criteria, chosen, offset=(number - 1) * TABLE_PAGE_ROWS, limit=TABLE_PAGE_ROWS
        )
    # The whole list's folders are read only when asked for (re-scoring "the last filtered list").
    st.session_state[Key.LAST_TABLE_PATHS] = functools.partial(queries.paths, judge, criteria, chosen)
    rows = listed_frame(page.rows)
    _draw_table(columns(rows) if columns is not None else rows, run_labels, key, listed)
    return page.total


def last_table_paths() -> list[str]:
    """The folders of the last trajectory table drawn (a list kept, or its query run now)."""
    kept = st.session_state.get(Key.LAST_TABLE_PATHS, [])
    return list(kept() if callable(kept) else kept)
