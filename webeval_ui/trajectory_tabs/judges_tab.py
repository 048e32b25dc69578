"""Judges tab: Online-Mind2Web's own judges of the task (its evaluation script's output, in
full: verdict, final reply, key points, each screenshot's score), every rubric verifier's score
file in full, and the run's verify_report.jsonl.

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

from webeval_core.llm_judging import judge_replies
from webeval_core.presentation import (
    FAILURE_COLUMNS,
    ReportDifference,
    autoeval_verdict,
    critical_point_text,
    failure_points_table,
    image_judgements_table,
    report_differences,
    report_rows_table,
    rubric_items_table,
    score_text,
    task_verification_table,
    verdicts_table,
)
from webeval_core.reading import (
    AutoEvalRecord,
    Trajectory,
    VerifierOutput,
    VerifyReport,
    read_verify_report,
    verifier_outputs,
)
from webeval_core.support import Diagnostic
from webeval_ui.state import failure_table_key
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.navigation import request_jump
from webeval_ui.trajectory_tabs.verdict_tab import score_color
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, selected_rows, text_table

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
    text_table(verdicts_table(output))
    point = critical_point_text(output)
    if point is not None:
        st.markdown(f"**Critical point** {'⚠️' if output.cp_violation else ''}")
        st.text(point)
    _failures(output)
    checks = task_verification_table(output)
    if checks is not None:
        st.markdown("**Task verification**")
        text_table(checks)
    rubric = rubric_items_table(output)
    if rubric is not None:
        st.markdown("**Rubric**")
        text_table(rubric)


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
            text_table(accounts)


def _run_reports(context: TabContext, outputs: tuple[VerifierOutput, ...]) -> None:
    """Every verify_report.jsonl above the trajectory: its rows here, differences, error rows."""
    for path in context.verify_reports():  # none while this viewer may not see its verdicts
        label = str(path.relative_to(context.root)) if path.is_relative_to(context.root) else str(path)
        report, problems = _report(str(path), path.stat().st_mtime_ns, label)
        # The path under a short heading: a run's folder names are long, a heading of them wraps.
        st.subheader("Run report", anchor=False)
        st.caption(inert(f"The verifier's verify_report.jsonl for the run: {label}"))
        mine = report.rows_of(context.folder, context.trajectory.task_id)
        if mine:
            st.markdown("**This trajectory's rows**")
            grid(report_rows_table(mine), hide_index=True, width="stretch")
        else:
            st.caption("The report has no row for this trajectory.")
        differences = [d for row in mine for d in report_differences(row, outputs)]
        if differences:
            st.warning(f"The report disagrees with the score file on {len(differences)} field(s).")
            text_table(_differences_frame(differences))
        elif mine and outputs:
            st.caption("The report agrees with the score files on every field both give.")
        errors = context.report_errors(report)
        if errors.only_this:
            st.markdown(f"**Error rows of the report about this trajectory** ({len(errors.rows)})")
            st.caption(
                "Another trajectory's error rows are on its page: you are named, so what you see is recorded."
            )
        else:
            st.markdown(f"**Error rows of the report** ({len(errors.rows)} of {len(report.rows)})")
        if errors.rows:
            grid(report_rows_table(list(errors.rows)), hide_index=True, width="stretch")
        if problems:
            st.caption(inert("\n".join(str(p) for p in problems)))


def _differences_frame(differences: list[ReportDifference]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(differences, columns=["judge", "field", "report says", "score file says"])


def verifier_views(trajectory: Trajectory, shown: frozenset[str] = frozenset()) -> tuple[VerifierOutput, ...]:
    """Each verifier's output in full (and what was malformed in their files), then the judges
    that reply in words but those `shown` in full elsewhere; returns the outputs.
    """
    outputs, problems = verifier_outputs(trajectory.scores)
    replies = [r for r in judge_replies(trajectory.scores, trajectory.harness) if r.judge not in shown]
    if not outputs and not replies and not shown:
        st.info(NO_VERIFIER)
    for output in outputs:
        with st.container(border=True):
            _judge(output)
    for reply in replies:  # judges that answer in words (WebVoyager's, WebJudge, an outcome judge)
        with st.container(border=True):
            with st.container(horizontal=True):
                st.badge(inert(reply.judge), color=score_color(reply.score))
                st.badge(inert(reply.verdict), color="gray")
            st.text(reply.reply)
    if problems:
        with st.expander(f"⚠️ {len(problems)} problem(s) in the judges' files"):
            st.text("\n".join(str(p) for p in problems))
    return outputs


def _online_mind2web(record: AutoEvalRecord) -> None:
    """Online-Mind2Web's own judge of the task: its verdict, key points and screenshot scores."""
    with st.container(horizontal=True):
        st.badge(inert(record.judge), color=score_color(record.score))
        st.badge(inert(autoeval_verdict(record)), color="gray")
        st.badge("Online-Mind2Web's evaluation script", color="gray")
    where = f"{record.file}, line {record.line}"
    st.caption(inert(f"{record.mode} · {record.model} · threshold {record.threshold} · {where}"))
    if record.response:
        st.markdown("**Final judgement**")
        st.text(record.response)
    if record.key_points:
        st.markdown("**Key points**")
        st.text(record.key_points)
    if record.images:
        shown = sum(1 for i in record.images if i.score is not None and i.score >= record.threshold)
        st.markdown(f"**Screenshots scored** ({shown} of {len(record.images)} shown to the final judgement)")
        text_table(image_judgements_table(record))
    if record.input_text or record.system_msg:
        with st.expander("The final prompt"):
            st.text("\n\n".join(t for t in (record.system_msg, record.input_text) if t))


def render(context: TabContext) -> None:
    """Online-Mind2Web's own judges, each verifier's output in full, then the run's report."""
    records, problems = context.judge_records()  # none while this viewer may not see its verdicts
    for record in records:
        with st.container(border=True):
            _online_mind2web(record)
    if problems:
        with st.expander(f"⚠️ {len(problems)} problem(s) in Online-Mind2Web's evaluation output"):
            st.text("\n".join(str(p) for p in problems))
    _run_reports(context, verifier_views(context.trajectory, frozenset(r.judge for r in records)))
