"""The server's access policy as the pages see it: whether a control that writes is offered to the
reviewer acting, and the line said in its place (the core refuses the write anyway:
webeval_core.policy.access). Every write a page makes is made `as_reviewer`: acting as its reviewer,
verified when that is the signed-in identity.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from webeval_core.policy import READ_ONLY_TEXT, Write, acting_as, current_policy
from webeval_ui.reviewer import reviewer, signed_in
from webeval_ui.untrusted import inert


def read_only() -> bool:
    """Whether this server writes nothing (`webeval app --read-only`, or bound beyond loopback)."""
    return current_policy().read_only


def refused(write: Write) -> str | None:
    """Why the reviewer acting may not make `write` here (None: they may)."""
    me = reviewer()
    return current_policy().as_user(me, verified=bool(me) and me == signed_in()).refusal(write)


@contextmanager
def as_reviewer(who: str | None = None) -> Iterator[None]:
    """Writes in this block are made by the reviewer (or `who`, a name this session saved under
    before), verified when it is the identity sign-in gave: the core records it and checks its role.
    """
    name = reviewer() if who is None else who
    with acting_as(name, verified=bool(name) and name == signed_in()):
        yield


def blocked(write: Write, read_only_what: str) -> bool:
    """Whether `write` is refused, saying why in one line in place of its control: on a read-only
    server "This server is read-only: `read_only_what`", else the role's reason.
    """
    reason = refused(write)
    if reason is None:
        return False
    st.caption(f"{READ_ONLY_TEXT}: {read_only_what}" if read_only() else inert(reason))  # a typed name
    return True
