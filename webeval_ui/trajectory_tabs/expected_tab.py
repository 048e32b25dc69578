"""Expected-vs-actual tab: the catalog's expected answer beside the agent's, field by field.

For tasks of other benchmarks (no official evaluator), the judges' verdicts in full, as the Judges
tab shows them (hidden in blind review).
"""

from __future__ import annotations

import streamlit as st

from webeval_core.reading import parse_agent_response
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.verdict_tab import fields_and_assertions, show_verdict
from webeval_ui.untrusted import inert


def render(context: TabContext) -> None:
    """The verdict, the expected answer beside the agent's, and the evaluator's field matches."""
    trajectory, task = context.trajectory, context.task
    if task is None:
        st.info(
            "No official evaluator for this benchmark: the task is not in the WebArena-Verified catalog. "
            "The judges' verdicts found in the folder are shown instead (and in the Judges tab, with the"
            " run's report)."
        )
        st.markdown("**Agent's answer**")
        st.code(trajectory.final_answer_text or "(no answer)", language=None, wrap_lines=True)
        if trajectory.judged:  # seen without its verdicts, it has none to show
            from webeval_ui.trajectory_tabs.judges_tab import verifier_views

            verifier_views(trajectory)
        return
    outcome = context.live_outcome()  # None while this viewer may not see its verdicts
    if outcome is not None:
        show_verdict(outcome)
    evaluation = outcome.evaluation if outcome is not None else None
    text = trajectory.final_answer_text
    response = evaluation.agent_response if evaluation else (parse_agent_response(text) if text else None)
    left, right = st.columns(2)
    with left:
        st.markdown("**Expected**")
        st.json(task.expected.model_dump(mode="json"))
    with right:
        st.markdown("**Agent's response**")
        if response is None:
            st.info("The agent gave no answer.")
        else:
            if response.parsed is not None:
                st.json(response.parsed)
            st.caption(
                f"Naming: {response.naming}"
                + (f" · found in the {response.extracted_from}" if response.extracted_from else "")
            )
            with st.expander("Raw answer text"):
                st.code(response.raw_text, language=None, wrap_lines=True)
    if response is not None:
        if response.naming == "action/results":
            st.info(
                "The answer uses the published schema's `action`/`results` naming; the evaluator only reads "
                "`task_type`/`retrieved_data`, so it was mapped before scoring."
            )
        if response.parse_error:
            st.error(f"No structured response found: {inert(response.parse_error)}")
        if response.findings and context.seen.disclosed:  # the "schema violations" failure tag
            st.markdown(f"**Schema findings ({len(response.findings)})** — reported, never scored")
            st.text("\n".join(f"• {finding}" for finding in response.findings))
    if outcome is not None and evaluation is not None:
        st.markdown("**Field by field** (match as decided by the evaluator's assertions)")
        fields_and_assertions(outcome)
        if evaluation.network:
            passed = sum(1 for n in evaluation.network if n.passed)
            st.caption(
                f"This task also has {len(evaluation.network)} network check(s), {passed} passed: "
                "see the Network tab."
            )
        with st.expander("Official result (JSON)"):
            st.json(evaluation.result.model_dump(mode="json"), expanded=False)
