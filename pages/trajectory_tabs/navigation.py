"""Which step the page shows, and jumps to it from the other tabs.

`step` is written by the page itself, not bound: a bound slider is a new widget whenever its
range changes (another trajectory) and a new bound widget re-reads the URL, so it would jump
back to a stale step.
"""

from __future__ import annotations

import streamlit as st

TABS = ("Replay", "Expected vs actual", "Network", "Evidence", "Re-score", "Annotate")
_PENDING_JUMP = "_pending_jump"  # a step chosen in the network views, shown on the next run


def go(index: int) -> None:
    st.query_params["step"] = str(index)


def reset_step() -> None:
    st.query_params.pop("step", None)


def position(indices: list[int]) -> int:
    """Position of the URL's step among `indices` (the first step when absent or unknown)."""
    try:
        wanted = int(st.query_params.get("step", ""))
    except ValueError:
        return 0
    return indices.index(wanted) if wanted in indices else 0


def request_jump(rows: list[int], steps: list[int | None]) -> None:
    """A selected request opens the replay at its step. Tabs can only be switched before they are
    drawn, so the jump is parked and the page reruns (see `take_pending_jump`).
    """
    if rows and rows[0] < len(steps) and steps[rows[0]] is not None:
        st.session_state[_PENDING_JUMP] = steps[rows[0]]
        st.rerun()


def take_pending_jump() -> None:
    """Called by the page before it draws the tabs."""
    step = st.session_state.pop(_PENDING_JUMP, None)
    if step is not None:
        go(step)
        st.session_state["tab"] = TABS[0]
