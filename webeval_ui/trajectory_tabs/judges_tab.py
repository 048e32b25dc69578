"""Judges tab: every rubric verifier's score file in full, and the run's verify_report.jsonl.

For each judge: the score and the verdict that decided it, the outcome and rubric verdicts side by
side, the critical point, the failure points (selecting one opens the replay at its first step),
the task's verification and the rubric; then the run report's rows for this trajectory, where they
disagree with the score files, and the report's error rows. Every generation of the file shows
what it holds (webeval_core.reading.verifier); codes are named by webeval_core.reading.taxonomy.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from webeval_core.presentation import (
    FAILURE_COLUMNS,
    ReportDifference,
    critical_point_text,
    failure_points_table,
    report_differences,
    report_rows_table,
    rubric_items_table,
    score_text,
    task_verification_table,
    verdicts_table,
)
from webeval_core.reading import (
    Trajectory,
    VerifierOutput,
    VerifyReport,
    find_verify_reports,
    read_verify_report,
    verifier_outputs,
)
from webeval_core.support import Diagnostic
from webeval_ui.state import failure_table_key
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.navigation import request_jump
from webeval_ui.trajectory_tabs.verdict_tab import score_color
from webeval_ui.untrusted import inert
from webeval_ui.widgets import selected_rows

if TYPE_CHECKING:
    import pandas as pd

NO_VERIFIER = (
    "No rubric verifier's score file in this folder (a `scores/*.json` whose response holds verdicts,"
    " such as Fara's `mmrubric_<threshold>-<images>-<keypoints>.json`)."
)


# The failure points' short columns go in the selectable grid, their paragraphs below it.
_ACCOUNT_COLUMNS = ("agent reasoning", "evidence", "impact")
_GRID_COLUMNS = tuple(column for column in FAILURE_COLUMNS if column not in _ACCOUNT_COLUMNS)


@st.cache_data(show_spinner=False, max_entries=16)
def _report(path: str, mtime_ns: int, label: str) -> tuple[VerifyReport, list[Diagnostic]]:
    """A run report, read once per version of the file (a run's trajectories share it)."""
    return read_verify_report(Path(path), label)


def _table(frame: pd.DataFrame) -> None:
    """A table of long texts, wrapped (st.table renders Markdown: every cell shown inert)."""
    st.table(frame.map(lambda v: inert(v) if isinstance(v, str) else v), hide_index=True)


def _judge(output: VerifierOutput) -> None:
    with st.container(horizontal=True):
        st.badge(inert(output.judge), color=score_color(output.score))
        st.badge(
            "no score" if output.score is None else f"score {output.score:g}", color=score_color(output.score)
        )
        st.badge("Universal Verifier" if output.is_universal else "earlier generation", color="gray")
    st.caption(inert(f"{score_text(output)} · {output.file}"))
    if output.outcome_primary_intent:
        st.markdown("**Primary intent** (as the judge understood the task)")
        st.text(output.outcome_primary_intent)
    st.markdown("**Verdicts**")
    _table(verdicts_table(output))
    point = critical_point_text(output)
    if point is not None:
        st.markdown(f"**Critical point** {'⚠️' if output.cp_violation else ''}")
        st.text(point)
    _failures(output)
    checks = task_verification_table(output)
    if checks is not None:
        st.markdown("**Task verification**")
        _table(checks)
    rubric = rubric_items_table(output)
    if rubric is not None:
        st.markdown("**Rubric**")
        _table(rubric)


def _failures(output: VerifierOutput) -> None:
    failure = output.failure
    if failure is None:
        return
    found = {True: " · a failure was found", False: " · no failure found", None: ""}[failure.has_failure]
    st.markdown(f"**First point of failure**{found}")
    if failure.reasoning:
        st.text(failure.reasoning)
    if not failure.failure_points:
        return
    table = failure_points_table(output)
    picked = selected_rows(
        table[list(_GRID_COLUMNS)],  # a grid: cells are drawn as text, never as Markdown
        failure_table_key(output.judge),
        column_config={
            "step": st.column_config.NumberColumn("opens step", help="The replay opens at this step."),
            "what happened": st.column_config.TextColumn(width="large"),
        },
    )
    st.caption("Select a failure point to open the replay at its first step.")
    request_jump(picked, [p.first_step for p in output.failure_points])
    accounts = table[["steps", *_ACCOUNT_COLUMNS]]
    if (accounts[list(_ACCOUNT_COLUMNS)] != "").any(axis=None):
        # Paragraphs, wrapped: in the grid they would make it scroll sideways.
        with st.expander("The agent's reasoning, the evidence and the impact of each failure point"):
            _table(accounts)


def _run_reports(context: TabContext, outputs: tuple[VerifierOutput, ...]) -> None:
    """Every verify_report.jsonl above the trajectory: its rows here, differences, error rows."""
    for path in find_verify_reports(context.folder, context.root):
        label = str(path.relative_to(context.root)) if path.is_relative_to(context.root) else str(path)
        report, problems = _report(str(path), path.stat().st_mtime_ns, label)
        # The path under a short heading: a run's folder names are long, a heading of them wraps.
        st.subheader("Run report", anchor=False)
        st.caption(inert(f"The verifier's verify_report.jsonl for the run: {label}"))
        mine = report.rows_of(context.folder, context.trajectory.task_id)
        if mine:
            st.markdown("**This trajectory's rows**")
            st.dataframe(report_rows_table(mine), hide_index=True, width="stretch")
        else:
            st.caption("The report has no row for this trajectory.")
        differences = [d for row in mine for d in report_differences(row, outputs)]
        if differences:
            st.warning(f"The report disagrees with the score file on {len(differences)} field(s).")
            _table(_differences_frame(differences))
        elif mine and outputs:
            st.caption("The report agrees with the score files on every field both give.")
        errors = [row for row in report.rows if row.is_error]
        st.markdown(f"**Error rows of the report** ({len(errors)} of {len(report.rows)})")
        if errors:
            st.dataframe(report_rows_table(errors), hide_index=True, width="stretch")
        if problems:
            st.caption(inert("\n".join(str(p) for p in problems)))


def _differences_frame(differences: list[ReportDifference]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(differences, columns=["judge", "field", "report says", "score file says"])


def verifier_views(trajectory: Trajectory) -> tuple[VerifierOutput, ...]:
    """Each verifier's output in full (and what was malformed in their files); returns the outputs."""
    outputs, problems = verifier_outputs(trajectory.scores)
    if not outputs:
        st.info(NO_VERIFIER)
    for output in outputs:
        with st.container(border=True):
            _judge(output)
    if problems:
        with st.expander(f"⚠️ {len(problems)} problem(s) in the judges' files"):
            st.text("\n".join(str(p) for p in problems))
    return outputs


def render(context: TabContext) -> None:
    """Each verifier's output in full, then the run's report."""
    _run_reports(context, verifier_views(context.trajectory))
