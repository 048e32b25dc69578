"""The official verdict as badges and tables, shared by the Expected-vs-actual and Re-score tabs;
a judge's response as the Evidence tab shows it.
"""

from __future__ import annotations

from typing import Any, Literal, cast

import streamlit as st

from webeval_core.presentation import (
    MATCH,
    MATCH_TONES,
    MISMATCH,
    STATUS_TONES,
    TONE_COLOURS,
    JudgeVerdict,
    Tone,
    assertion_table,
    cell_style,
    element_tables,
    judge_verdict,
    response_field_table,
    rubric_table_in,
    score_tone,
)
from webeval_core.scoring import ScoreOutcome
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, text_table

Color = Literal["red", "orange", "green", "violet", "gray"]


def tone_color(tone: Tone | None) -> Color:
    """The badge colour of a tone (the core's `TONE_COLOURS`, typed as Streamlit's badges take it)."""
    return cast("Color", TONE_COLOURS[tone])


def score_color(score: float | None) -> Color:
    """The badge colour of a score."""
    return tone_color(score_tone(score))


def style_match(value: object) -> str:
    """Cell style of a match column: good for a match, bad for a mismatch."""
    return cell_style(MATCH_TONES.get(str(value)))


def show_verdict(outcome: ScoreOutcome) -> None:
    """The official status and score with the reason in plain words."""
    with st.container(horizontal=True):
        st.badge(outcome.status, color=tone_color(STATUS_TONES.get(outcome.status)))
        if outcome.score is not None:
            st.badge(f"score {outcome.score:g}", color=score_color(outcome.score))
        if outcome.evaluation is not None:
            engine = outcome.evaluation.engine
            st.caption(f"{engine.name} {engine.version} · evaluator {engine.evaluator_checksum[:12]}")
    if outcome.reason:
        st.text(outcome.reason)
    for note in outcome.notes:
        st.caption(inert(note))


def fields_and_assertions(outcome: ScoreOutcome) -> None:
    """The agent-response fields side by side, then every assertion of the official result."""
    if outcome.evaluation is None:
        return
    table = response_field_table(outcome.evaluation.result, outcome.evaluation.agent_response)
    if table is not None:
        grid(table.style.map(style_match, subset=["match"]), hide_index=True, width="stretch")
    for field, elements in element_tables(outcome.evaluation.result).items():
        st.markdown(f"**{inert(field)}, element by element** (after normalization)")
        grid(elements.style.map(_style_element, subset=["in"]), hide_index=True, width="stretch")
    assertions = assertion_table(outcome.evaluation.result.evaluators_results)
    if not assertions.empty:
        # Messages in full (a grid cell cuts them): the evaluator's own words, wrapped.
        grid(assertions.drop(columns=["messages"]), hide_index=True, width="stretch")
        for row in assertions.itertuples():
            if row.messages:
                st.caption(inert(f"{row.assertion}: {row.messages}"))


def _style_element(value: object) -> str:
    """An element found reads as a match; one missing or unexpected as a mismatch."""
    return style_match(MATCH if value == "found" else MISMATCH)


def judge_detail(response: dict[str, Any], task_data: dict[str, Any] | None) -> None:
    """A judge's response made readable: points, reasoning, failure point, flags, rubric items."""
    verdict = judge_verdict(response, task_data)
    facts = []
    if verdict.points is not None:
        facts.append(f"rubric {verdict.points[0]:g} / {verdict.points[1]:g} points")
    if verdict.success_criterion:
        facts.append(f"decided by: {verdict.success_criterion}")
    if facts:
        st.caption(inert(" · ".join(facts)))
    _judge_texts(verdict)
    rubric = rubric_table_in(response)
    if rubric is not None:
        st.markdown("**Rubric**")
        text_table(rubric)  # st.table wraps long justifications
    if verdict.majority_vote is not None:
        with st.expander("Majority-vote metadata"):
            st.json(verdict.majority_vote, expanded=False)


def _judge_texts(verdict: JudgeVerdict) -> None:
    if verdict.primary_intent:
        st.markdown("**Primary intent** (as the judge understood the task)")
        st.text(verdict.primary_intent)
    if verdict.outcome_reasoning:
        outcome = {True: " · outcome achieved", False: " · outcome not achieved", None: ""}
        st.markdown(f"**Outcome reasoning**{outcome[verdict.outcome_success]}")
        st.text(verdict.outcome_reasoning)
    if verdict.first_point_of_failure:
        st.markdown("**First point of failure**")
        st.text(verdict.first_point_of_failure)
    if verdict.taxonomy:
        st.markdown("**Error taxonomy flags**")
        st.text("\n".join(f"{name}: {value}" for name, value in verdict.taxonomy))
