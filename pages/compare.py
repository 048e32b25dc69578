"""Compare runs: two runs task by task, their flips, one task side by side, a tasks x runs matrix.

Whether the difference is more than chance (McNemar's exact test, a paired bootstrap interval,
overall and per site and type), then the pass -> fail / fail -> pass flips are listed, one task's
two trajectories are stepped side by side, and a matrix shows every task's result in each run.
Their error-taxonomy counts (Fara's verifiers, by category or code) stand side by side.

Only results that enter success rates are compared (aborted, unscored or errored tasks are "not
comparable"); a selected flip links to each side's trajectory and opens it side by side.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from webeval_core.presentation import (
    code_counts_table,
    default_pair,
    flips,
    in_both,
    matrix_rows,
    pair_figures,
    result_style,
    statistics_caption,
    statistics_table,
)
from webeval_core.review import figures_in_words
from webeval_core.runs import (
    CHANGES,
    IndexQueries,
    IndexView,
    compare_runs,
    filter_from_params,
    headlines,
    paired_statistics,
    run_labels,
    task_matrix,
)
from webeval_ui import compare_pair
from webeval_ui.app_shell import require_app_shell
from webeval_ui.judge_choice import judge_caption, judge_picker
from webeval_ui.loaders import index_or_stop
from webeval_ui.page_links import PAGES, trajectory_query
from webeval_ui.published_figures import published_lines
from webeval_ui.review_mode import gated_queries, hide_in_blind_review
from webeval_ui.state import Key
from webeval_ui.untrusted import contained, inert
from webeval_ui.widgets import grid, lazy_expander, release_focus, selected_rows

require_app_shell()

_COLUMNS = {
    "task_id": st.column_config.TextColumn("task"),
    "site": st.column_config.TextColumn("site"),
    "task_type": st.column_config.TextColumn("type"),
    "intent": st.column_config.TextColumn("intent", width="large"),
    "result_a": st.column_config.TextColumn("A"),
    "result_b": st.column_config.TextColumn("B"),
    "change": st.column_config.TextColumn("change"),
}
_LEVELS = {"category": True, "code": False}


def _styled(table: pd.DataFrame, columns: list[str]) -> pd.io.formats.style.Styler:
    return table.style.map(result_style, subset=columns)


def _pick_runs(keys: list[str], queries: IndexQueries, labels: dict[str, str]) -> tuple[str, str]:
    """The two runs compared (bound to the URL); the page stops when they are one."""
    pick_a, pick_b = st.columns(2)
    first, second = default_pair(queries.run_tasks(), keys)
    run_a = pick_a.selectbox(
        "Run A", keys, index=first, format_func=labels.__getitem__, key=Key.RUN_A, bind="query-params"
    )
    run_b = pick_b.selectbox(
        "Run B", keys, index=second, format_func=labels.__getitem__, key=Key.RUN_B, bind="query-params"
    )
    if run_a == run_b:
        st.warning("Choose two different runs.")
        st.stop()
    return str(run_a), str(run_b)


def _headline(
    frame: pd.DataFrame, comparison: pd.DataFrame, runs: tuple[str, str], judge: str | None
) -> None:
    figures = pair_figures(headlines(frame), comparison, *runs)
    cols = st.columns(6)
    cols[0].metric("Success A", figures.success_a)
    moved = figures.moved
    cols[1].metric(
        "Success B",
        figures.success_b,
        delta=moved.text if moved else None,
        delta_arrow="auto" if moved and moved.moved else "off",
        delta_color="normal" if moved and moved.moved else "off",
    )
    for col, (change, count) in zip(cols[2:], figures.shown_changes, strict=True):
        col.metric(change, count)
    published = published_lines(list(runs), judge)
    sides = zip(("A", "B"), runs, strict=True)
    st.caption(
        " · ".join(f"{side}: {figures_in_words(published[run])}" for side, run in sides if run in published)
    )
    st.caption(f"{judge_caption(judge)} {figures.left_out}")


def _statistics(comparison: pd.DataFrame) -> None:
    st.subheader("Is the difference real?")
    statistics = paired_statistics(comparison)
    if not statistics:
        st.write("No task was scored in both runs: nothing to test.")
        return
    st.caption(statistics_caption(statistics[0]))
    grid(statistics_table(statistics), hide_index=True, width="stretch")


def _taxonomy(queries: IndexQueries, runs: tuple[str, str], judge: str | None) -> None:
    st.subheader("Error taxonomy")
    level = st.segmented_control(
        "Count by", list(_LEVELS), default="category", key=Key.TAXONOMY_LEVEL, bind="query-params"
    )
    by_category = _LEVELS.get(level or "category", True)
    code_rows = queries.failure_codes(list(runs), judge, by_category=by_category)
    if not code_rows:
        st.caption("No verifier gave either run error-taxonomy codes.")
        return
    st.caption(
        "Trajectories of each run to which a verifier gives each category (or code) of Fara's error"
        " taxonomy; a trajectory counts once per code. The WebArena-Verified failure tags are on the"
        " Overview."
    )
    grid(code_counts_table(code_rows, *runs, by_category=by_category), hide_index=True, width="stretch")


def _flips(comparison: pd.DataFrame, runs: tuple[str, str]) -> None:
    st.subheader("Flips")
    flipped = flips(comparison)
    if flipped.empty:
        st.write("No task changes between pass and fail.")
        return
    picked = selected_rows(
        _styled(flipped, ["change"]),
        Key.FLIPS,
        column_config=_COLUMNS,
        column_order=["change", "task_id", "site", "task_type", "intent", "result_a", "result_b"],
    )
    if not picked:
        st.caption("Select a flip to open either side's trajectory.")
        return
    task = str(flipped.iloc[picked[0]]["task_id"])
    if st.session_state.get(Key.PAIR_FLIP) != task:  # a newly selected flip opens side by side
        st.session_state[Key.PAIR_FLIP] = st.session_state[Key.PAIR] = task
        st.session_state[Key.PAIR_STEP] = 1
        st.session_state[Key.PAIR_PICKED] = True
    for col, run, side in zip(st.columns(2), runs, ("A", "B"), strict=True):
        col.page_link(
            PAGES["trajectory"],
            label=f"Open task {inert(task)} in run {side}",
            icon=":material/movie:",
            query_params=trajectory_query(run, task),
        )


@contained("The side-by-side view")
def _pair_view(
    index: IndexView, row: pd.Series, task: str, runs: tuple[str, str], labels: dict[str, str]
) -> None:
    run_a, run_b = runs
    summaries = {(s.run_key, s.task_id): s for run in runs for s in index.summaries_of(run)}
    compare_pair.render(
        [
            (f"A: {labels[run_a]}", str(row["result_a"]), summaries[(run_a, task)]),
            (f"B: {labels[run_b]}", str(row["result_b"]), summaries[(run_b, task)]),
        ]
    )


def _side_by_side(
    index: IndexView, comparison: pd.DataFrame, runs: tuple[str, str], labels: dict[str, str]
) -> None:
    st.subheader("Side by side")
    both = in_both(comparison)
    # No format_func: a bound selectbox puts the shown text in the URL, and the task id is the link.
    pair_task = st.selectbox(
        "Task in both runs",
        list(both["task_id"].astype(str)),
        index=None,
        key=Key.PAIR,
        bind="query-params",
        on_change=lambda: st.session_state.update({Key.PAIR_STEP: 1, Key.PAIR_PICKED: True}),
        placeholder="choose a task, or select a flip above",
    )
    if pair_task is None:
        return
    row = both[both["task_id"].astype(str) == pair_task].iloc[0]
    st.caption(inert(str(row["change"])))
    _pair_view(index, row, pair_task, runs, labels)
    if st.session_state.pop(Key.PAIR_PICKED, False):
        release_focus()  # arrow keys step both sides right after the pick


def _matrix(comparison: pd.DataFrame, runs: tuple[str, str], labels: dict[str, str]) -> None:
    st.subheader("Tasks x runs")
    shown = st.pills("Show", CHANGES, selection_mode="multi", default=[], key=Key.CHANGE, bind="query-params")
    grid(
        _styled(matrix_rows(comparison, shown), ["result_a", "result_b", "change"]),
        key=Key.MATRIX,
        hide_index=True,
        column_config={**_COLUMNS, "result_a": labels[runs[0]], "result_b": labels[runs[1]]},
        width="stretch",
    )


def _all_runs(queries: IndexQueries, keys: list[str], judge: str | None, labels: dict[str, str]) -> None:
    if len(keys) <= 2 or (box := lazy_expander(f"All {len(keys)} runs", key=Key.ALL_RUNS_BOX)) is None:
        return
    with box:  # every run's rows: read (and recorded as shown) only while it is open
        every_run = queries.frame(judge)  # the gate's rows: recorded as shown, or without verdicts
        everything = task_matrix(every_run, keys).rename(columns=labels)
        grid(_styled(everything.reset_index(), list(everything.columns)), hide_index=True, width="stretch")


def _page() -> None:
    hide_in_blind_review("Compare runs")
    st.title("Compare runs")
    index = index_or_stop()
    keys = [r.key for r in index.run_heads]
    if len(keys) < 2:
        st.info(f"Comparing needs two runs; {len(keys)} found under {inert(str(index.root))}.")
        st.stop()
    judge = judge_picker(index)
    queries = gated_queries()
    labels = run_labels(index.run_heads)
    runs = _pick_runs(keys, queries, labels)
    # Only the two runs' rows are read from the index. Every table below shows their results, as
    # the gate answered them (recorded as shown for a named reviewer first, or without verdicts).
    frame = queries.frame(judge, filter_from_params({Key.RUNS: list(runs)}))
    comparison = compare_runs(frame, *runs)
    _headline(frame, comparison, runs, judge)
    _statistics(comparison)
    _taxonomy(queries, runs, judge)
    _flips(comparison, runs)
    _side_by_side(index, comparison, runs, labels)
    _matrix(comparison, runs, labels)
    _all_runs(queries, keys, judge, labels)


_page()
