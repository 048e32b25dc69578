"""The watches of runs in progress, one per run folder and settings for the server's life: every
viewer of a run (the Live page, the Overview's counts) shares its watch and what it has read.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from webeval_core.reading import RUNNING_WINDOW_S
from webeval_core.runs import LiveProgress, RunWatch
from webeval_ui.loaders import load_index, refresher
from webeval_ui.state import Key


@st.cache_resource(show_spinner=False, max_entries=32)
def run_watch(run_dir: str, expected: int | None, window_s: float) -> RunWatch:
    """The watch of one run folder (file system events followed while the server runs)."""
    return RunWatch(Path(run_dir), expected=expected, window_s=window_s)


def look_at(
    root: str,
    run_key: str,
    run_dir: Path | str,
    expected: int | None = None,
    window_s: float = RUNNING_WINDOW_S,
) -> LiveProgress:
    """Where a run of the root stands now. When tasks ended since this session's last look, the
    index is asked for them at once (their verdicts enter the rate).
    """
    progress = run_watch(str(run_dir), expected, window_s).look()
    seen: dict[str, int] = st.session_state.setdefault(Key.LIVE_SEEN_OVER, {})
    if seen.get(run_key) != progress.over:
        seen[run_key] = progress.over
        refresher(root).request(force=True)
    return progress


def rerun_when_indexed(root: str, shown_generation: int) -> None:
    """Draw the whole page again once the index holds more than the page shows (a fragment's call)."""
    if load_index(root).generation() != shown_generation:
        st.rerun(scope="app")
