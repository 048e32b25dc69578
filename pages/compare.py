"""Compare runs: two runs task by task, their flips, one task side by side, a tasks x runs matrix.

Whether the difference is more than chance (McNemar's exact test, a paired bootstrap interval,
overall and per site and type), then the pass -> fail / fail -> pass flips are listed, one task's
two trajectories are stepped side by side, and a matrix shows every task's result in each run.
Their error-taxonomy counts (Fara's verifiers, by category or code) stand side by side.

Only results that enter success rates are compared (aborted, unscored or errored tasks are "not
comparable"); a selected flip links to each side's trajectory and opens it side by side.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from webeval_core.presentation import code_counts_table, points_change, statistics_table
from webeval_core.review import figures_in_words
from webeval_core.runs import (
    CHANGES,
    FAIL,
    FAIL_TO_PASS,
    NOT_COMPARABLE,
    ONLY_A,
    ONLY_B,
    PASS,
    PASS_TO_FAIL,
    TEST_NAMES,
    change_counts,
    compare_runs,
    filter_from_params,
    headlines,
    paired_statistics,
    run_labels,
    task_matrix,
)
from webeval_core.scoring import NO_ANSWER
from webeval_ui import compare_pair
from webeval_ui.app_shell import require_app_shell
from webeval_ui.judge_choice import judge_caption, judge_picker
from webeval_ui.loaders import current_queries, index_or_stop
from webeval_ui.page_links import PAGES, trajectory_query
from webeval_ui.published_figures import published_lines
from webeval_ui.review_mode import hide_in_blind_review, reveal
from webeval_ui.state import Key
from webeval_ui.untrusted import contained, inert
from webeval_ui.widgets import lazy_expander, release_focus, selected_rows

require_app_shell()

_COLOURS = {
    PASS: "background-color: #d8f0dc",
    FAIL: "background-color: #f8d9d6",
    NO_ANSWER: "background-color: #f8d9d6",
    PASS_TO_FAIL: "background-color: #f8d9d6",
    FAIL_TO_PASS: "background-color: #d8f0dc",
}
_COLUMNS = {
    "task_id": st.column_config.TextColumn("task"),
    "site": st.column_config.TextColumn("site"),
    "task_type": st.column_config.TextColumn("type"),
    "intent": st.column_config.TextColumn("intent", width="large"),
    "result_a": st.column_config.TextColumn("A"),
    "result_b": st.column_config.TextColumn("B"),
    "change": st.column_config.TextColumn("change"),
}


def _default_pair(tasks: Mapping[str, frozenset[str]], keys: list[str]) -> tuple[int, int]:
    """The first two runs that share a task (runs of different benchmarks have no flips to show);
    else the first two.
    """
    for i, a in enumerate(keys):
        for j in range(i + 1, len(keys)):
            if tasks.get(a, frozenset()) & tasks.get(keys[j], frozenset()):
                return i, j
    return 0, 1


def _styled(table: pd.DataFrame, columns: list[str]) -> pd.io.formats.style.Styler:
    return table.style.map(lambda v: _COLOURS.get(v, ""), subset=columns)


hide_in_blind_review("Compare runs")
st.title("Compare runs")
index = index_or_stop()
keys = [r.key for r in index.run_heads]
if len(keys) < 2:
    st.info(f"Comparing needs two runs; {len(keys)} found under {inert(str(index.root))}.")
    st.stop()

judge = judge_picker(index)
queries = current_queries()
labels = run_labels(index.run_heads)
pick_a, pick_b = st.columns(2)
first, second = _default_pair(queries.run_tasks(), keys)
run_a = pick_a.selectbox(
    "Run A", keys, index=first, format_func=labels.__getitem__, key=Key.RUN_A, bind="query-params"
)
run_b = pick_b.selectbox(
    "Run B", keys, index=second, format_func=labels.__getitem__, key=Key.RUN_B, bind="query-params"
)
if run_a == run_b:
    st.warning("Choose two different runs.")
    st.stop()

# Only the two runs' rows are read from the index. Every table below shows their results:
# recorded for a named reviewer first.
frame = queries.frame(judge, filter_from_params({Key.RUNS: [run_a, run_b]}))
if not reveal(zip(frame["run"].astype(str), frame["task_id"].astype(str), strict=True)):
    st.stop()
heads = headlines(frame)
comparison = compare_runs(frame, run_a, run_b)
counts = change_counts(comparison)

cols = st.columns(6)
rate_a, rate_b = (heads[r].success_rate if r in heads else None for r in (run_a, run_b))
cols[0].metric("Success A", "–" if rate_a is None else f"{rate_a:.1%}")
moved = points_change(rate_a, rate_b)
cols[1].metric(
    "Success B",
    "–" if rate_b is None else f"{rate_b:.1%}",
    delta=moved.text if moved else None,
    delta_arrow="auto" if moved and moved.moved else "off",
    delta_color="normal" if moved and moved.moved else "off",
)
for col, change in zip(cols[2:], CHANGES[:4], strict=True):
    col.metric(change, counts[change])
published = published_lines([run_a, run_b], judge)
sides = (("A", run_a), ("B", run_b))
st.caption(
    " · ".join(f"{side}: {figures_in_words(published[run])}" for side, run in sides if run in published)
)
st.caption(
    f"{judge_caption(judge)} "
    f"{counts[NOT_COMPARABLE]} tasks not comparable (aborted, unscored or scoring error on a side); "
    f"{counts[ONLY_A]} only in A, {counts[ONLY_B]} only in B."
)

st.subheader("Is the difference real?")
statistics = paired_statistics(comparison)
if not statistics:
    st.write("No task was scored in both runs: nothing to test.")
else:
    overall = statistics[0]
    st.caption(
        f"On the {overall.tasks} tasks scored in both runs: {TEST_NAMES[0]}, p = {overall.p_value:.4f} "
        f"on {overall.pass_to_fail + overall.fail_to_pass} flips; {TEST_NAMES[1]}: "
        f"[{overall.ci_low * 100:+.1f}, {overall.ci_high * 100:+.1f}] points. "
        "Then per site and per task type; n is the number of tasks each row tests."
    )
    st.dataframe(statistics_table(statistics), hide_index=True, width="stretch")

st.subheader("Error taxonomy")
_LEVELS = {"category": True, "code": False}
level = st.segmented_control(
    "Count by", list(_LEVELS), default="category", key=Key.TAXONOMY_LEVEL, bind="query-params"
)
by_category = _LEVELS.get(level or "category", True)
code_rows = queries.failure_codes([run_a, run_b], judge, by_category=by_category)
if not code_rows:
    st.caption("No verifier gave either run error-taxonomy codes.")
else:
    st.caption(
        "Trajectories of each run to which a verifier gives each category (or code) of Fara's error"
        " taxonomy; a trajectory counts once per code. The WebArena-Verified failure tags are on the"
        " Overview."
    )
    st.dataframe(
        code_counts_table(code_rows, run_a, run_b, by_category=by_category), hide_index=True, width="stretch"
    )

st.subheader("Flips")
flips = comparison[comparison["change"].isin([PASS_TO_FAIL, FAIL_TO_PASS])]
if flips.empty:
    st.write("No task changes between pass and fail.")
else:
    picked = selected_rows(
        _styled(flips, ["change"]),
        Key.FLIPS,
        column_config=_COLUMNS,
        column_order=["change", "task_id", "site", "task_type", "intent", "result_a", "result_b"],
    )
    if picked:
        task = str(flips.iloc[picked[0]]["task_id"])
        if st.session_state.get(Key.PAIR_FLIP) != task:  # a newly selected flip opens side by side
            st.session_state[Key.PAIR_FLIP] = st.session_state[Key.PAIR] = task
            st.session_state[Key.PAIR_STEP] = 1
            st.session_state[Key.PAIR_PICKED] = True
        link_a, link_b = st.columns(2)
        for col, run, side in ((link_a, run_a, "A"), (link_b, run_b, "B")):
            col.page_link(
                PAGES["trajectory"],
                label=f"Open task {inert(task)} in run {side}",
                icon=":material/movie:",
                query_params=trajectory_query(run, task),
            )
    else:
        st.caption("Select a flip to open either side's trajectory.")

st.subheader("Side by side")
both = comparison[~comparison["change"].isin([ONLY_A, ONLY_B])]
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


@contained("The side-by-side view")
def _side_by_side(row: pd.Series, task: str) -> None:
    summaries = {(s.run_key, s.task_id): s for run in (run_a, run_b) for s in index.summaries_of(run)}
    compare_pair.render(
        [
            (f"A: {labels[run_a]}", str(row["result_a"]), summaries[(run_a, task)]),
            (f"B: {labels[run_b]}", str(row["result_b"]), summaries[(run_b, task)]),
        ]
    )


if pair_task is not None:
    row = both[both["task_id"].astype(str) == pair_task].iloc[0]
    st.caption(inert(str(row["change"])))
    _side_by_side(row, pair_task)
    if st.session_state.pop(Key.PAIR_PICKED, False):
        release_focus()  # arrow keys step both sides right after the pick

st.subheader("Tasks x runs")
shown_changes = st.pills(
    "Show", CHANGES, selection_mode="multi", default=[], key=Key.CHANGE, bind="query-params"
)
matrix = comparison[comparison["change"].isin(shown_changes)] if shown_changes else comparison
st.dataframe(
    _styled(matrix, ["result_a", "result_b", "change"]),
    key=Key.MATRIX,
    hide_index=True,
    column_config={**_COLUMNS, "result_a": labels[run_a], "result_b": labels[run_b]},
    width="stretch",
)
if len(keys) > 2 and (box := lazy_expander(f"All {len(keys)} runs", key=Key.ALL_RUNS_BOX)) is not None:
    with box:  # every run's rows: read (and recorded as shown) only while it is open
        every_run = queries.frame(judge)
        if reveal(zip(every_run["run"].astype(str), every_run["task_id"].astype(str), strict=True)):
            everything = task_matrix(every_run, keys).rename(columns=labels)
            st.dataframe(
                _styled(everything.reset_index(), list(everything.columns)), hide_index=True, width="stretch"
            )
