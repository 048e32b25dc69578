"""Query: one read-only SELECT over the root's index, for questions no chart answers.

The statement lives in the URL (a query can be linked); `runs.sqlquery` runs it read-only, one
statement, within a time and a row limit. A statement that reads a verdict column reveals the
verdicts of the trajectories its rows name: the core's gate records that before they are drawn.
The rows are a table with a CSV download; when they
name trajectories (a `rel` or `key` column, or `run_key` and `task_id`), selecting a row opens it,
and the Trajectory page walks the rows' trajectories in the query's order (webeval_ui/list_walk.py).
"""

from __future__ import annotations

import csv
import io

import pandas as pd
import streamlit as st

from webeval_core.runs import (
    DEFAULT_MAX_ROWS,
    DEFAULT_TIMEOUT_S,
    INDEX_TABLES,
    QueryError,
    QueryResult,
    TrajectoryRef,
    revealed_items,
    run_query,
    trajectory_refs,
)
from webeval_ui.app_shell import require_app_shell
from webeval_ui.list_walk import keys_list_params
from webeval_ui.loaders import index_or_stop, load_index
from webeval_ui.page_links import open_trajectory
from webeval_ui.review_mode import hide_in_blind_review, reveal
from webeval_ui.state import Key
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, selected_rows

require_app_shell()

EXAMPLE = (
    "SELECT t.rel, t.run_key, t.task_id, t.site, s.judge, s.score\n"
    "FROM trajectories t JOIN scores s USING (key)\n"
    "WHERE s.score < 1\nORDER BY t.run_key, t.task_id"
)


def _tables_help() -> None:
    with st.expander("Tables and columns"):
        for name, columns in INDEX_TABLES.items():
            st.markdown(f"**{name}**")
            frame = pd.DataFrame({"column": list(columns), "holds": list(columns.values())})
            grid(frame, hide_index=True, width="stretch")


def _csv(result: QueryResult) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows(result.rows)
    return out.getvalue()


def _results(result: QueryResult, refs: tuple[TrajectoryRef | None, ...]) -> None:
    cut = f" (the first {len(result.rows)}: the row limit)" if result.truncated else ""
    st.caption(f"{len(result.rows)} rows{cut} in {result.elapsed_s:.3f} s.")
    frame = pd.DataFrame(list(result.rows), columns=list(result.columns))
    opens = any(refs)
    if not opens:
        grid(frame, key=Key.SQL_TABLE, hide_index=True, width="stretch")
    st.download_button(
        "Download these rows (CSV)",
        _csv(result),
        file_name="query.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
    )
    if opens:
        _opening_table(frame, refs)


def _opening_table(frame: pd.DataFrame, refs: tuple[TrajectoryRef | None, ...]) -> None:
    """The rows as a table where selecting one that names a trajectory opens it."""
    st.caption("The rows name trajectories: select one to open it; its page then steps through them.")
    picked = selected_rows(frame, Key.SQL_TABLE)
    chosen = refs[picked[0]] if picked else None
    if chosen is not None:
        # The trajectory opened walks the rows' trajectories (previous / next), in the query's order.
        keys = list(dict.fromkeys(ref.key for ref in refs if ref is not None and ref.key))
        open_trajectory(chosen.run_key, chosen.task_id, chosen.path or None, keys_list_params(keys))


def main() -> None:
    """The page: the statement box, the tables' description, the result or why there is none."""
    # The index holds every verdict and score: a blind reviewer must not read them here either.
    hide_in_blind_review("Query the index")
    index = index_or_stop()
    st.title("Query the index")
    st.caption(
        "One read-only SELECT (or WITH … SELECT) over this root's index: writes are refused by the"
        f" database, a query stops after {DEFAULT_TIMEOUT_S:g} s, and at most {DEFAULT_MAX_ROWS} rows"
        " are shown."
    )
    _tables_help()
    if Key.SQL not in st.session_state and Key.SQL.value not in st.query_params:
        st.session_state[Key.SQL] = EXAMPLE
    sql = st.text_area("SELECT statement", key=Key.SQL, bind="query-params", height=140)
    if not sql.strip():
        return
    store = load_index(str(index.root))
    try:
        result = run_query(store, sql)
    except QueryError as exc:
        st.error(inert(str(exc)))
        return
    # Rows that read a verdict show it: recorded for a named reviewer before they are drawn.
    if result.reads_verdicts and not reveal(revealed_items(store, result)):
        return
    _results(result, trajectory_refs(store, result))


main()
