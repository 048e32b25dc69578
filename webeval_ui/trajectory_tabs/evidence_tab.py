"""Evidence tab: every score file, core.log, times, token usage and the raw files.

And the whole trajectory as a standalone HTML page to download.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import streamlit as st

from webeval_core.presentation import (
    cell_style,
    core_log_table,
    download_name,
    redacted_page,
    server_redactor,
    standalone_page,
    token_usage_table,
    utc_moment,
    verdict_field_table,
)
from webeval_core.reading import Trajectory, read_log_excerpt
from webeval_core.scoring import stored_task_result
from webeval_core.support import finite
from webeval_ui.state import Key
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.verdict_tab import judge_detail
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid


def _score_file_view(
    name: str, score: float | None, response: Any, text: str | None, task_data: dict[str, Any] | None
) -> None:
    st.markdown(f"**{inert(name)}** — score {score if score is not None else 'none'}")
    if isinstance(response, dict):
        judge_detail(response, task_data)
        verdict = verdict_field_table(response)
        if verdict is not None:
            grid(verdict, hide_index=True, width="stretch")
        result = stored_task_result(response)
        if result is not None:
            st.text(f"status: {result.status} · score: {result.score}")
        with st.expander("Full response (JSON)"):
            st.json(response, expanded=False)
    elif response is not None:
        st.json(response, expanded=False)
    elif text:
        st.code(text, language=None, wrap_lines=True)


def _core_log(trajectory: Trajectory) -> None:
    if not trajectory.core_log:
        st.caption("No core.log.")
        return
    errors_only = st.toggle(f"Errors only ({len(trajectory.error_lines)})", key=Key.CORE_ERRORS)
    lines = trajectory.error_lines if errors_only else trajectory.core_log
    frame = core_log_table(lines, trajectory.utc_offset_s)
    errors = {r.line for r in trajectory.error_lines}
    grid(
        frame.style.apply(
            lambda row: [cell_style("bad" if row["line"] in errors else None)] * len(row), axis=1
        ),
        hide_index=True,
        width="stretch",
        column_config={"message": st.column_config.TextColumn("message", width="large")},
    )


def _log_excerpt(context: TabContext) -> None:
    excerpt = read_log_excerpt(context.folder)
    if excerpt is None:
        return
    with st.expander("web_surfer.log"):
        shown = f"first {excerpt.limit // 1024} KB shown"
        st.code(
            excerpt.text + (f"\n… ({shown})" if excerpt.truncated else ""), language=None, wrap_lines=True
        )


def render(context: TabContext) -> None:
    """The download, then every score file, core.log, times, token usage and the raw files."""
    trajectory = context.trajectory
    # A callable: the page (every frame embedded, megabytes) is built only when the user clicks.
    st.download_button(
        "Download as a standalone HTML page",
        data=partial(redacted_page, trajectory, standalone_page, server_redactor(), trajectory.task_id),
        file_name=download_name(context.run_key, trajectory.task_id),
        mime="text/html",
        on_click="ignore",
        help="One file that opens offline in any browser: the header, the verdict and every step;"
        " cookies, tokens, passwords and e-mail addresses removed.",
    )
    st.subheader(f"Score files ({len(trajectory.scores)})")
    if not trajectory.scores:
        st.caption("No score files yet: use the Re-score tab.")
    for name, score_file in sorted(trajectory.scores.items()):
        with st.container(border=True):
            _score_file_view(
                name, score_file.score, score_file.response, score_file.response_text, trajectory.task_data
            )
    if trajectory.eval_result is not None:
        st.markdown("**eval_result.json** (the official CLI's verdict)")
        st.json(trajectory.eval_result, expanded=False)
    st.subheader("core.log")
    _core_log(trajectory)
    left, right = st.columns(2)
    with left:
        st.subheader("times.json")
        if trajectory.times is not None:
            st.json(finite(trajectory.times.model_dump(mode="json")))
            moments = {"start": trajectory.times.start_time, "end": trajectory.times.end_time}
            st.caption(" · ".join(f"{name} {utc_moment(value)}" for name, value in moments.items()))
        else:
            st.caption("No times.json.")
    with right:
        st.subheader("Token usage")
        usage = token_usage_table(trajectory)
        if usage is not None:
            grid(usage, width="stretch")
        else:
            st.caption("No token usage recorded.")
    st.subheader("Raw files")
    if trajectory.final_answer is not None:
        with st.expander(inert(trajectory.answer_file or "final answer")):
            st.json(trajectory.final_answer.model_dump(mode="json"), expanded=True)
    elif trajectory.final_answer_text is not None:
        with st.expander("agent_response.json"):
            st.code(trajectory.final_answer_text, language=None, wrap_lines=True)
    _log_excerpt(context)
    if trajectory.task_data is not None:
        with st.expander("task_data.json"):
            st.json(trajectory.task_data, expanded=False)
