"""The trajectory table of every list: its columns (the core's `runs.list_columns`, drawn by kind,
and the review columns), pages of 500 rows from the index's SQL, the row that opens a
trajectory, and the folders of the last list drawn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import streamlit as st

from webeval_core.runs import BarChoice, Column, TrajectoryFilter, Withheld, list_columns, page_frame
from webeval_ui.page_links import open_trajectory
from webeval_ui.review_mode import gated_queries, held_text, withheld_text
from webeval_ui.state import Key, table_page_key
from webeval_ui.widgets import selected_rows

# pandas (most of a second to import) is imported where a table is made: the trajectory page
# draws its screenshot before it needs any.
if TYPE_CHECKING:
    import pandas as pd


_REVIEW_COLUMNS = {
    "mine": st.column_config.CheckboxColumn("mine", help="Annotated by you"),
    "reviewers": st.column_config.NumberColumn("reviewers", help="Reviewers who annotated it"),
    "human": st.column_config.TextColumn("human", help="The reviewers' majority outcome"),
    "disagree": st.column_config.CheckboxColumn("disagree", help="Human majority vs the evaluator"),
}
"""The review columns a list gets in the app (`review_queue.review_rows`), after the core's."""


def _config(column: Column) -> Any:
    """A list column of the core (`runs.list_columns`) as Streamlit draws it: by its kind."""
    spec = column.spec
    if column.kind == "number":
        return st.column_config.NumberColumn(column.label, help=spec.help, format=spec.number_format)
    if column.kind == "flag":
        return st.column_config.CheckboxColumn(column.label, help=spec.help)
    return st.column_config.TextColumn(column.label, help=spec.help, width=spec.width)


def table_columns() -> dict[str, Any]:
    """The table's columns in order, each with its Streamlit config: the core's shown list
    columns, then the review columns.
    """
    return {column.name: _config(column) for column in list_columns() if column.spec.shown} | _REVIEW_COLUMNS


TABLE_PAGE_ROWS = 500
"""Rows a trajectory table sends at once: 50,000 rows would cost the browser seconds to draw."""


def _table_page(rows: pd.DataFrame, key: str) -> pd.DataFrame:
    """The rows of the table's page chosen under it (all of them when they fit one page)."""
    start = (_page_number(len(rows), key) - 1) * TABLE_PAGE_ROWS
    return rows.iloc[start : start + TABLE_PAGE_ROWS]


def trajectory_table(
    rows: pd.DataFrame, run_labels: Mapping[str, str], key: str, listed: Mapping[str, list[str]] | None = None
) -> None:
    """Trajectories as a table (agent text shown as plain text); selecting a row opens it.

    `listed`: the query parameters naming this list (webeval_ui/list_walk.list_params): the trajectory opened
    gets previous / next through it. Long lists are paged (`TABLE_PAGE_ROWS`).
    """
    st.session_state[Key.LAST_TABLE_PATHS] = rows["path"].tolist()
    _draw_table(_table_page(rows, key), run_labels, key, listed)


def _draw_table(
    rows: pd.DataFrame, run_labels: Mapping[str, str], key: str, listed: Mapping[str, list[str]] | None
) -> None:
    view = rows.assign(run=rows["run"].map(run_labels))
    if "tags" in view:
        view = view.assign(tags=view["tags"].map(", ".join))
    config = table_columns()
    picked = selected_rows(view[[column for column in config if column in view]], key, column_config=config)
    if picked:
        chosen = rows.iloc[picked[0]]
        open_trajectory(str(chosen["run"]), str(chosen["task_id"]), str(chosen["path"]), listed)


def _page_number(total: int, key: str) -> int:
    """The table page chosen under a list of `total` rows (1 when they fit one page)."""
    if total <= TABLE_PAGE_ROWS:
        return 1
    pages = -(-total // TABLE_PAGE_ROWS)
    page_key = table_page_key(key)
    if st.session_state.get(page_key, 1) > pages:  # fewer rows since (another filter): the last page
        st.session_state[page_key] = pages
    left, right = st.columns([1, 4], vertical_alignment="bottom")
    number = int(left.number_input("Page", min_value=1, max_value=pages, step=1, key=page_key))
    start = (number - 1) * TABLE_PAGE_ROWS
    right.caption(f"Rows {start + 1}–{min(start + TABLE_PAGE_ROWS, total)} of {total}.")
    return number


def query_table(
    judge: str | None,
    criteria: TrajectoryFilter,
    run_labels: Mapping[str, str],
    *,
    key: str,
    listed: Mapping[str, list[str]] | None = None,
    bars: list[list[BarChoice]] | None = None,
    columns: Callable[[pd.DataFrame], pd.DataFrame] | None = None,
) -> int:
    """The trajectories `criteria` and clicked `bars` keep, a page at a time from the index (SQL).

    `columns`: what the page's rows get before they are drawn (review columns). Returns how many
    the list holds. Selecting a row opens it, as `trajectory_table` does. Its verdicts are the
    gate's (`gated_queries`): recorded as shown before the rows are drawn, or left out.
    """
    queries = gated_queries()
    chosen = bars or []
    wanted = max(1, int(st.session_state.get(table_page_key(key), 1)))
    page = queries.page(judge, criteria, chosen, offset=(wanted - 1) * TABLE_PAGE_ROWS, limit=TABLE_PAGE_ROWS)
    number = _page_number(page.total, key)
    if number != wanted:  # the list shrank under the page chosen: its last page
        page = queries.page(
            judge, criteria, chosen, offset=(number - 1) * TABLE_PAGE_ROWS, limit=TABLE_PAGE_ROWS
        )
    # The whole list's folders are read only when asked for (re-scoring "the last filtered list").
    st.session_state[Key.LAST_TABLE_PATHS] = functools.partial(queries.paths, judge, criteria, chosen)
    if page.withheld == Withheld.NOT_RECORDED:
        st.warning(withheld_text(page.detail), icon=":material/visibility_off:")
    elif page.held:
        st.caption(held_text(page.held, page.detail))
    rows = page_frame(page)
    _draw_table(columns(rows) if columns is not None else rows, run_labels, key, listed)
    return page.total


def last_table_paths() -> list[str]:
    """The folders of the last trajectory table drawn (a list kept, or its query run now)."""
    kept = st.session_state.get(Key.LAST_TABLE_PATHS, [])
    return list(kept() if callable(kept) else kept)
