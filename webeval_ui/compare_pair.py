"""Side by side: one task's trajectories in two runs, stepped in sync.

Step k of A beside step k of B, to see where two agents (or two versions of one) part ways.
"""

from __future__ import annotations

import streamlit as st

from webeval_core.presentation import (
    Frame,
    check_notes,
    element_tables,
    frames_of,
    network_results,
    official_evaluation,
    plural,
    response_field_table,
    verdict_badges,
)
from webeval_core.reading import Trajectory, parse_agent_response
from webeval_core.runs import TrajectorySummary, fingerprint
from webeval_core.scoring import read_verdict_with_result
from webeval_ui.loaders import load_trajectory_cached
from webeval_ui.review_mode import seen_trajectory
from webeval_ui.roots import inside_root
from webeval_ui.state import Key
from webeval_ui.trajectory_tabs.replay_tab import show_frame
from webeval_ui.trajectory_tabs.verdict_tab import style_match, tone_color
from webeval_ui.untrusted import contained, inert
from webeval_ui.widgets import grid


def _move(delta: int, last: int) -> None:
    st.session_state[Key.PAIR_STEP] = min(max(1, st.session_state.get(Key.PAIR_STEP, 1) + delta), last)


def _load(summary: TrajectorySummary) -> tuple[Trajectory, list[Frame]] | str:
    """The trajectory and its frames, or why it cannot be shown."""
    if summary.unreadable:
        return f"This folder cannot be read: {summary.unreadable}"
    folder = inside_root(summary.path)
    if folder is None:
        return "This trajectory folder is not inside the browsed root."
    try:
        read = load_trajectory_cached(str(folder), fingerprint(folder))
    except Exception as exc:  # one unreadable side must leave the other one shown
        return f"This folder cannot be read: {type(exc).__name__}: {exc}"
    # Each side's verdicts come from its own files: drawn only as the gate lets them through.
    trajectory = seen_trajectory(read, (summary.run_key, read.task_id)).trajectory
    return trajectory, frames_of(trajectory)


@contained("This side")
def _side(label: str, result: str, loaded: tuple[Trajectory, list[Frame]] | str, number: int) -> None:
    st.markdown(f"**{inert(label)}** · {inert(result)}")
    if isinstance(loaded, str):
        st.warning(inert(loaded))
        return
    trajectory, frames = loaded
    if number:  # 0: neither side has anything to step through
        _step(trajectory, frames, number)
    if number >= len(frames):  # the end of this side: what it answered, and how it was judged
        _answer_and_verdict(trajectory)


def _step(trajectory: Trajectory, frames: list[Frame], number: int) -> None:
    """Step `number` of this side, or where it ended."""
    if number <= len(frames):
        frame = frames[number - 1]
        kind, action = ("Screenshot", "") if frame.step is None else ("Step", f" · {frame.step.action}")
        st.markdown(inert(f"{kind} {number} of {len(frames)}{action}"))
        show_frame(trajectory.path, frame.screenshot, frame.step, frame.screenshot or "no screenshot")
        if frame.step is not None:
            if frame.step.url:
                st.text(frame.step.url)
            st.text(frame.step.thought or "(no thought logged)")
    elif frames:
        ending = trajectory.outcome.replace("_", " ")
        st.info(f"This trajectory ended after {plural(len(frames), 'step')} ({ending}).")
    else:
        st.info("Nothing to replay: no logged steps and no screenshots.")


def _answer_and_verdict(trajectory: Trajectory) -> None:
    """The side's answer and its official verdict's reasons: the response field by field (a list
    element by element) and each network check (our score file explains which request it kept; the
    official CLI's eval_result.json gives its assertions).
    """
    st.markdown("**Final answer**")
    st.text(trajectory.final_answer_text or "(no answer)")
    found = read_verdict_with_result(trajectory.scores, trajectory.eval_result)
    if found is None:
        return
    for shown in verdict_badges(trajectory.scores, trajectory.eval_result):
        st.badge(inert(shown.text), color=tone_color(shown.tone) if shown.tone else "gray")
    _, result = found
    text = trajectory.final_answer_text
    fields = response_field_table(result, parse_agent_response(text) if text else None)
    if fields is not None and not fields.empty:
        grid(fields.style.map(style_match, subset=["match"]), hide_index=True, width="stretch")
    for field, elements in element_tables(result).items():
        st.caption(inert(f"{field}, element by element"))
        grid(elements, hide_index=True, width="stretch")
    evaluation = official_evaluation(trajectory)
    for check in evaluation.network if evaluation is not None else ():
        st.markdown(f"**Network check {check.position}**")
        st.text(check.explanation)
        for note in check_notes(check):
            st.caption(inert(note))
    if evaluation is None:
        for line in network_results(result):
            st.text(line)


@st.fragment
@contained("The side-by-side view")  # inside the fragment: its own reruns are contained too
def render(sides: list[tuple[str, str, TrajectorySummary]]) -> None:
    """Both runs' trajectories of one task, `(run label, result, summary)` each.

    Only this part reruns when stepping.
    """
    loaded = [_load(summary) for _, _, summary in sides]
    last = max((len(x[1]) for x in loaded if not isinstance(x, str)), default=0)
    if last == 0:  # agent logs (WebArena-Verified's): nothing to step through, answers to compare
        st.caption("Neither trajectory has steps or screenshots to replay: their answers and verdicts.")
        for column, (label, result, _), side in zip(st.columns(len(sides)), sides, loaded, strict=True):
            with column:
                _side(label, result, side, 0)
        return
    if st.session_state.get(Key.PAIR_STEP, 1) > last:
        st.session_state[Key.PAIR_STEP] = last
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button("◀ Previous", key=Key.PAIR_PREVIOUS, on_click=_move, args=(-1, last), shortcut="Left")
        st.button("Next ▶", key=Key.PAIR_NEXT, on_click=_move, args=(1, last), shortcut="Right")
        if last > 1:
            st.slider(
                "Step of both", 1, last, key=Key.PAIR_STEP, bind="query-params", label_visibility="collapsed"
            )
    number = int(st.session_state.get(Key.PAIR_STEP, 1))
    for column, (label, result, _), side in zip(st.columns(len(sides)), sides, loaded, strict=True):
        with column:
            _side(label, result, side, number)
