"""The server's access policy as the pages see it: whether a control that writes is offered to the
reviewer acting, and the line said in its place (the core refuses the write anyway:
webeval_core.access). Every write a page makes is made `acting_as` its reviewer.
"""

from __future__ import annotations

import streamlit as st

from pages.common import inert
from pages.reviewer import reviewer
from webeval_core.access import READ_ONLY_TEXT, Write, current_policy


def read_only() -> bool:
    """Whether this server writes nothing (`webeval app --read-only`, or bound beyond loopback)."""
    return current_policy().read_only


def refused(write: Write) -> str | None:
    """Why the reviewer acting may not make `write` here (None: they may)."""
    return current_policy().as_user(reviewer()).refusal(write)


def blocked(write: Write, read_only_what: str) -> bool:
    """Whether `write` is refused, saying why in one line in place of its control: on a read-only
    server "This server is read-only: `read_only_what`", else the role's reason.
    """
    reason = refused(write)
    if reason is None:
        return False
    st.caption(f"{READ_ONLY_TEXT}: {read_only_what}" if read_only() else inert(reason))  # a typed name
    return True
