"""Shared state of the Streamlit pages: the chosen root, cached core objects, safe file access.

Everything here is a thin cache or guard around webeval_core; no page reads files directly.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from webeval_core.index import RootIndex, build_index
from webeval_core.trajectory import Trajectory, load_trajectory

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO / "sample_runs"
PAGES = {
    "overview": "pages/overview.py",
    "trajectories": "pages/trajectories.py",
    "trajectory": "pages/trajectory.py",
    "compare": "pages/compare.py",
    "tasks": "pages/tasks.py",
}
_ROOT_KEY = "webeval_root"


def current_root() -> Path:
    """The folder the app browses: chosen in the sidebar, else `WEBEVAL_ROOT`, else sample_runs/."""
    chosen = st.session_state.get(_ROOT_KEY)
    return Path(chosen or os.environ.get("WEBEVAL_ROOT") or DEFAULT_ROOT).resolve()


def root_picker() -> None:
    """Sidebar control to browse another root; a bad path is reported, the old root kept."""
    root = current_root()
    with st.sidebar:
        typed = st.text_input("Root folder", value=str(root), help="Any folder holding trajectory folders.")
        if typed and Path(typed).resolve() != root:
            candidate = Path(typed).expanduser().resolve()
            if candidate.is_dir():
                st.session_state[_ROOT_KEY] = str(candidate)
                st.rerun()
            else:
                st.error(f"Not a folder: {typed}")
        if st.button("Reload from disk", help="Re-read folders changed since the last load."):
            st.cache_data.clear()
            st.rerun()


@st.cache_data(show_spinner="Reading trajectories…", max_entries=4)
def load_index(root: str) -> RootIndex:
    return build_index(Path(root))


def current_index() -> RootIndex:
    return load_index(str(current_root()))


@st.cache_data(show_spinner=False, max_entries=64)
def load_trajectory_cached(path: str, _fingerprint: str = "") -> Trajectory:
    return load_trajectory(Path(path))


def inside_root(path: Path, root: Path | None = None) -> Path | None:
    """`path` resolved, or None when it lies outside the root: files are served only from inside it."""
    base = (root or current_root()).resolve()
    try:
        resolved = path.resolve()
    except OSError:
        return None
    return resolved if resolved == base or base in resolved.parents else None
