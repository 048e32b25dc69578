"""Live: a run while it runs. Progress of the tasks expected, the success rate so far among
finished tasks with its interval, the pace and the finish it points to, the stalled tasks with
their silence and last step, core.log's errors as they arrive. The page's own fragment looks again
every two seconds (runs/run_watch.py reads only the folders that changed); when tasks finish it
asks the index for the rate. Every line is worded by webeval_core/presentation/live_words.py.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from webeval_core.presentation import (
    choice_of,
    moment,
    pace_line,
    progress_line,
    rate_line,
    silence,
    watched_line,
)
from webeval_core.reading import RUNNING_WINDOW_S
from webeval_core.runs import LiveProgress, Run, default_judge
from webeval_core.support import percent
from webeval_ui.app_shell import require_app_shell
from webeval_ui.loaders import current_index, index_or_stop, load_index, load_queries
from webeval_ui.page_links import PAGES
from webeval_ui.review_mode import gate, hide_in_blind_review
from webeval_ui.run_watches import look_at
from webeval_ui.state import Key, trajectory_link
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid

require_app_shell()

_LOOK_EVERY_S = 2.0


def _run_picker(runs: tuple[Run, ...], root: str) -> Run:
    """The run watched: the URL's, else the first with unfinished tasks, else the first."""
    by_key = {run.key: run for run in runs}
    if st.session_state.get(Key.LIVE_RUN) not in by_key:
        asked = st.query_params.get(Key.LIVE_RUN.value)
        heads = load_queries(root, load_index(root).generation()).seen_by(gate()).headlines(None, None)
        going = [key for key, head in heads.items() if head.unfinished]
        st.session_state[Key.LIVE_RUN] = asked if asked in by_key else (going or list(by_key))[0]
    key = st.selectbox("Run", list(by_key), format_func=lambda k: by_key[k].label, key=Key.LIVE_RUN)
    st.query_params[Key.LIVE_RUN.value] = key
    return by_key[key]


def _settings() -> tuple[int | None, float]:
    """Expected tasks (None: the folders seen) and the running window in seconds."""
    left, right = st.columns(2)
    expected = left.number_input("Tasks expected (0: the folders seen)", min_value=0, key=Key.LIVE_EXPECTED)
    minutes = right.number_input(
        "Stalled after this many silent minutes",
        min_value=0.1,
        value=RUNNING_WINDOW_S / 60,
        step=1.0,
        format="%.1f",
        key=Key.LIVE_WINDOW,
    )
    return (int(expected) or None), float(minutes) * 60


@st.fragment(run_every=_LOOK_EVERY_S)
def _live(root: str, run: Run, expected: int | None, window_s: float) -> None:
    progress = look_at(root, run.key, run.path, expected, window_s)
    judge = default_judge(load_index(root).judges())  # the core's one rule, as every page's
    head = (
        load_queries(root, load_index(root).generation())
        .seen_by(gate())
        .headlines([run.key], judge)
        .get(run.key)
    )
    done = min(progress.over / progress.expected, 1.0) if progress.expected else 0.0
    st.progress(done, text=progress_line(progress))
    with st.container(horizontal=True, gap="medium"):
        st.metric("Finished", progress.finished, help="Answered, or out of budget.", width="content")
        st.metric(
            "Aborted",
            progress.aborted,
            help=f"Over without a usable answer ({progress.crashed} crashed: the task raised, as its"
            " harness or core.log says); left out of the rate.",
            width="content",
        )
        st.metric("Running", progress.running, width="content")
        st.metric("Stalled", progress.stalled, help=f"Silent over {silence(window_s)}.", width="content")
        rate = percent(None if head is None else head.success_rate)
        st.metric("Success so far", rate, help="Among finished tasks with a verdict.", width="content")
    st.caption(rate_line(head, judge))
    st.caption(pace_line(progress))
    _unfinished(run.key, progress)
    _errors(progress)


def _unfinished(run_key: str, progress: LiveProgress) -> None:
    """The stalled tasks, then the running ones, each with a link that follows it."""
    if not progress.unfinished_tasks:
        st.caption("No task is running.")
        return
    # A watched task is its folder; the Trajectory page picks by task id (an AgentLab or cube-harness
    # episode's folder is named otherwise), so each link names the picker's choice of that folder.
    members = current_index().summaries_of(run_key)
    choices = {s.path.name: choice_of(s, members) for s in members}
    for title, tasks in (("Stalled", progress.stalled_tasks), ("Running", progress.running_tasks)):
        if not tasks:
            continue
        st.subheader(f"{title} ({len(tasks)})")
        for task in tasks:
            st.page_link(
                PAGES["trajectory"],
                label=inert(watched_line(task)),
                query_params=trajectory_link(run_key, choices.get(task.task_id, task.task_id)),
                icon=":material/play_circle:",
            )


def _errors(progress: LiveProgress) -> None:
    """core.log's errors, the newest first."""
    st.subheader(f"core.log errors ({len(progress.errors)})")
    if not progress.errors:
        st.caption("None logged.")
        return
    rows = [
        {"time": moment(e.time), "task": e.task_id, "error": e.message} for e in reversed(progress.errors)
    ]
    grid(pd.DataFrame(rows), hide_index=True, width="stretch")


index = index_or_stop()
root = str(index.root)
st.title("Live")
hide_in_blind_review("Live")  # the rate so far is made of verdicts
run = _run_picker(index.run_heads, root)
expected, window_s = _settings()
st.caption(inert(f"Watching {Path(run.path)}"))
_live(root, run, expected, window_s)
