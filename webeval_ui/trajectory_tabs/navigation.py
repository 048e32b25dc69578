"""Which step the page shows, and jumps to it from the other tabs.

`step` is written by the page itself, not bound: a bound slider is a new widget whenever its
range changes (another trajectory) and a new bound widget re-reads the URL, so it would jump
back to a stale step.
"""

from __future__ import annotations

import streamlit as st

from webeval_ui.state import Key
from webeval_ui.trajectory_tabs.tab_registry import TABS


def go(index: int) -> None:
    """Show step `index` (on this run when called back by a widget, else on the next)."""
    st.query_params[Key.STEP] = str(index)


def reset_step() -> None:
    """Back to the first step (another trajectory was chosen)."""
    st.query_params.pop(Key.STEP, None)


def position(indices: list[int]) -> int:
    """Position of the URL's step among `indices` (the first step when absent or unknown)."""
    try:
        wanted = int(st.query_params.get(Key.STEP, ""))
    except ValueError:
        return 0
    return indices.index(wanted) if wanted in indices else 0


def request_jump(rows: list[int], steps: list[int | None]) -> None:
    """A selected request opens the replay at its step.

    Tabs can only be switched before they are drawn, so the jump is parked and the page reruns
    (see `take_pending_jump`).
    """
    if rows and rows[0] < len(steps) and steps[rows[0]] is not None:
        st.session_state[Key.PENDING_JUMP] = steps[rows[0]]
        st.rerun()


def take_pending_jump() -> None:
    """Called by the page before it draws the tabs."""
    step = st.session_state.pop(Key.PENDING_JUMP, None)
    if step is not None:
        go(step)
        st.session_state[Key.TAB] = TABS[0]
