"""Streamlit widgets the pages share, made cheaper or single-purpose: an expander drawn only when
open, a grid whose row is picked; every grid and table of the app, each writing the one word for a
missing value (`UNKNOWN`) where Streamlit would write "None".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from webeval_core.presentation import UNKNOWN
from webeval_ui.untrusted import inert

if TYPE_CHECKING:
    import pandas as pd


def grid(data: Any, **options: Any) -> Any:
    """`st.dataframe(data, **options)` with `UNKNOWN` in every cell without a value: THE grid of the
    app (Streamlit's own placeholder is "None"). Returns what st.dataframe returns.
    """
    return st.dataframe(data, placeholder=UNKNOWN, **options)


def text_table(frame: pd.DataFrame) -> None:
    """A table of long texts, wrapped (st.table renders Markdown: every text shown inert, a cell
    without a value as `UNKNOWN`).
    """
    import pandas as pd

    def cell(value: Any) -> Any:
        if isinstance(value, str):
            return inert(value)
        return UNKNOWN if value is None or (isinstance(value, float) and pd.isna(value)) else value

    st.table(frame.map(cell), hide_index=True)


def lazy_expander(label: str, key: str) -> DeltaGenerator | None:
    """An expander whose content is drawn only while it is open (the container, else None).

    A closed st.expander still sends and draws its content; a table or code block in it slows
    every page load down for nothing. Opening it reruns the page, and the state stays by `key`.
    """
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def selected_rows(data: Any, key: str, **options: Any) -> list[int]:
    """A full-width grid of `data` (a frame, or its Styler) whose rows are selected one at a time,
    the selection kept under `key`; the selected row's position in a list (empty: none selected).

    `options`: more of `st.dataframe`'s (column_config, column_order).
    """
    event = grid(
        data,
        key=key,
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        width="stretch",
        **options,
    )
    return list(event.selection.rows)


_BLUR = "<script>document.activeElement && document.activeElement.blur()</script>"
"""Static, no data of a trajectory in it: the one script the app runs in the page."""


def release_focus() -> None:
    """Give the keyboard back to the page's shortcuts: a select box keeps the focus after a choice,
    and the arrow keys then move inside it instead of pressing the buttons bound to them.
    """
    st.html(_BLUR, unsafe_allow_javascript=True, width="content")
