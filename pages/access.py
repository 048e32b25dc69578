"""The server's access policy as the pages see it: whether it is read-only, and the line said instead
of a button that would write (the core refuses the write anyway: webeval_core.access).
"""

from __future__ import annotations

import streamlit as st

from webeval_core.access import READ_ONLY_TEXT, current_policy


def read_only() -> bool:
    """Whether this server writes nothing (`webeval app --read-only`, or bound beyond loopback)."""
    return current_policy().read_only


def read_only_note(what: str) -> None:
    """One line in place of a control that would write: "This server is read-only: `what`"."""
    st.caption(f"{READ_ONLY_TEXT}: {what}")
