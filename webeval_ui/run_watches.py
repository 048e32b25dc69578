"""The watches of runs in progress, one per run folder and settings for the server's life: every
viewer of a run (the Live page, the Overview's counts) shares its watch and what it has read.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from webeval_core.runs import LiveProgress, RunWatch


@st.cache_resource(show_spinner=False, max_entries=32)
def run_watch(run_dir: str, expected: int | None, window_s: float) -> RunWatch:
    """The watch of one run folder (file system events followed while the server runs)."""
    return RunWatch(Path(run_dir), expected=expected, window_s=window_s)


def look_at(run_dir: Path | str, expected: int | None = None, window_s: float = 600.0) -> LiveProgress:
    """Where the run in `run_dir` stands now."""
    return run_watch(str(run_dir), expected, window_s).look()
