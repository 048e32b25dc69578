"""Another harness's record on the trajectory page: its facts and notes under the header, each
step's reward, error, model messages and page text in the replay, the subagents' steps under the
header and beside the step that delegated (`presentation.harness_view` decides what is said; this
module lays it out).
"""

from __future__ import annotations

import streamlit as st

from webeval_core.presentation import SubagentView, harness_step_view, harness_view
from webeval_core.reading import Trajectory
from webeval_ui.state import Key
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, lazy_expander


def harness_header(trajectory: Trajectory) -> None:
    """The harness's facts and notes; its error, log and statistics in a box drawn when opened."""
    if trajectory.harness is None:
        return
    view = harness_view(trajectory.harness)
    st.caption(inert(" · ".join(view.facts)))
    for note in view.notes:
        st.info(inert(note))
    if view.error:
        st.error(inert(view.error.splitlines()[0]))
    if view.subagents:
        _subagents_box(
            view.subagents, f"Subagents ({len(view.subagents)}): their steps", Key.HARNESS_SUBAGENTS
        )
    box = lazy_expander("The harness's record: error, log, statistics", key=Key.HARNESS_BOX)
    if box is None:
        return
    with box:
        if view.error:
            st.code(view.error, language=None, wrap_lines=True)
        if view.log_excerpt:
            st.code(view.log_excerpt, language=None, wrap_lines=True)
        if view.stats:
            grid(
                {"statistic": [k for k, _ in view.stats], "value": [v for _, v in view.stats]},
                hide_index=True,
            )


def harness_step(trajectory: Trajectory, index: int) -> None:
    """Step `index`'s reward, error, model messages and page text, when the harness kept them."""
    view = harness_step_view(trajectory.harness, index)
    if view is None:
        return
    if view.facts:
        st.caption(inert(" · ".join(view.facts)))
    if view.error:
        st.warning(inert(f"The action failed: {view.error}"))
    if view.messages:
        box = lazy_expander(
            f"The model's messages at this step ({len(view.messages)})", key=Key.HARNESS_MESSAGES
        )
        if box is not None:
            with box:
                for message in view.messages:
                    st.markdown(f"**{inert(message.role)}**")
                    st.text(message.text)
    if view.page_text:
        box = lazy_expander("The page as the agent read it", key=Key.HARNESS_PAGE)
        if box is not None:
            with box:
                st.text(view.page_text)
    if view.delegated:
        label = f"Subagents this step delegated to ({len(view.delegated)}): their steps"
        _subagents_box(view.delegated, label, Key.HARNESS_DELEGATED)


def _subagents_box(subagents: tuple[SubagentView, ...], label: str, key: str) -> None:
    """Each subagent's task, steps (a table) and answer, in a box drawn when opened."""
    box = lazy_expander(inert(label), key=key)
    if box is None:
        return
    with box:
        for sub in subagents:
            st.markdown(f"**{inert(sub.title)}**")
            st.caption(inert(f"read from {sub.source}" + (f" · asked: {sub.task}" if sub.task else "")))
            if sub.steps:
                grid(
                    {
                        "step": [row.step for row in sub.steps],
                        "action": [row.action for row in sub.steps],
                        "arguments": [row.arguments for row in sub.steps],
                        "thought": [row.thought for row in sub.steps],
                        "observation": [row.observation for row in sub.steps],
                    },
                    hide_index=True,
                )
            if sub.answer:
                st.text(f"Its answer: {sub.answer}")
