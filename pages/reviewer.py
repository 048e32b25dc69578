"""The reviewer: named once in the sidebar, kept in the URL (`?reviewer=`) and the session.

A save never clears it, and a page switch that drops it from the URL gets it back. Light on
purpose: every page draws the sidebar, none should import the annotation store for it.
"""

from __future__ import annotations

import streamlit as st

from pages.common import inert, lazy_expander
from pages.state import Key


def reviewer() -> str:
    """The reviewer's name, stripped; empty when none was given."""
    name = st.query_params.get(Key.REVIEWER.value) or st.session_state.get(Key.REVIEWER_KEPT) or ""
    return str(name).strip()


def reviewer_picker() -> None:
    """The sidebar's reviewer: kept in the URL (`?reviewer=`) and the session, never cleared by a save.

    Its text box is drawn only when the expander is opened, like the root folder's: a text box
    costs every page load about 0.2 s of the browser's time.
    """
    name = st.query_params.get(Key.REVIEWER.value) or st.session_state.get(Key.REVIEWER_KEPT) or ""
    st.session_state[Key.REVIEWER_KEPT] = name
    if name and st.query_params.get(Key.REVIEWER.value) != name:
        st.query_params[Key.REVIEWER.value] = name  # a page switch dropped it: put it back
    with st.sidebar:
        box = lazy_expander(f"Reviewer: {inert(name) if name else '(not named)'}", key=Key.REVIEWER_BOX)
        if box is not None:
            with box:
                st.text_input(
                    "Your name",
                    value=name,
                    key=Key.REVIEWER_TYPED,
                    max_chars=80,
                    placeholder="stored with each of your annotations",
                    on_change=_take_name,
                )


def _take_name() -> None:
    name = str(st.session_state.get(Key.REVIEWER_TYPED) or "").strip()
    st.session_state[Key.REVIEWER_KEPT] = name
    if name:
        st.query_params[Key.REVIEWER.value] = name
    else:
        st.query_params.pop(Key.REVIEWER.value, None)
