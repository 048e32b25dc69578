"""Trajectory: one trajectory in tabs, from its replay to its verdict, evidence and re-scoring.

Replay it step by step, compare its answer with the expected one, see each network check at the
step where its requests fired, read the raw evidence, re-score it and annotate the verdict.

The URL holds the view: `run`, `task` and `tab` are bound widgets; `step` is written by the page
(see trajectory_tabs/navigation.py). Each tab is a module of trajectory_tabs/ whose `render`
takes the one TabContext (trajectory_tabs/context.py) the page builds.
"""

from __future__ import annotations

from collections.abc import Collection

import streamlit as st

from webeval_core.presentation import OUTCOME_TONES, layout_facts, trajectory_choices, verdict_badges
from webeval_core.reading import load_catalog
from webeval_core.review import Withheld
from webeval_core.runs import TrajectorySummary, fingerprint
from webeval_core.support import UnreadableError
from webeval_ui.app_shell import require_app_shell
from webeval_ui.harness_panel import harness_header
from webeval_ui.list_walk import walk_bar
from webeval_ui.loaders import current_index, load_trajectory_cached
from webeval_ui.queue_state import in_blind_review
from webeval_ui.review_mode import seen_trajectory
from webeval_ui.roots import current_root, inside_root
from webeval_ui.state import Key
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.navigation import reset_step, take_pending_jump
from webeval_ui.trajectory_tabs.tab_registry import TAB_REGISTRY, TABS
from webeval_ui.trajectory_tabs.verdict_tab import tone_color
from webeval_ui.untrusted import contained, inert
from webeval_ui.widgets import lazy_expander

require_app_shell()

_HIDDEN_TAB = "Blind review: this tab shows verdicts; it opens once you save your annotation."
_UNRECORDED_TAB = "This tab shows verdicts: hidden until the annotation store can record that you saw them."


def _unknown_link_target(runs: Collection[str], choices: Collection[str]) -> None:
    """A link naming a run or task this root does not hold says so (the pickers then start empty)."""
    wanted_run = st.query_params.get(Key.RUN.value)
    wanted_task = st.query_params.get(Key.TASK.value)
    if wanted_run and wanted_run not in runs:
        st.warning(f"The link names the run {inert(wanted_run)}, which is not under this root folder.")
    elif wanted_run and wanted_task and wanted_task not in choices:
        st.warning(
            f"The link names the task {inert(wanted_task)}, which run {inert(wanted_run)} does not hold."
        )


def _choose() -> TrajectorySummary | None:
    index = current_index()
    runs = {run.key: run for run in index.run_heads}
    wanted_run = st.query_params.get(Key.RUN.value)
    _unknown_link_target(
        runs, trajectory_choices(index.summaries_of(wanted_run)) if wanted_run in runs else {}
    )
    left, right = st.columns([3, 2])
    run_key = left.selectbox(
        "Run",
        list(runs),
        index=None,
        key=Key.RUN,
        bind="query-params",
        on_change=reset_step,
        placeholder="choose a run",
    )
    # Keyed by a name unique in the run: two folders holding one task id can both be opened.
    choices = trajectory_choices(index.summaries_of(run_key))
    chosen = right.selectbox(
        "Task",
        list(choices),
        index=None,
        key=Key.TASK,
        bind="query-params",
        on_change=reset_step,
        placeholder="choose a task" if choices else "choose a run first",
    )
    if run_key in runs and runs[run_key].label != run_key:
        left.caption(inert(runs[run_key].label))
    return choices.get(chosen) if chosen is not None else None


def _header(context: TabContext) -> None:
    trajectory, task = context.trajectory, context.task
    st.title(f"Task {inert(trajectory.task_id)}")
    if task is not None:
        st.text(task.intent)
        facts = [
            f"sites: {', '.join(task.sites)}",
            f"type: {task.task_type}",
            f"start: {' '.join(task.start_urls)}",
        ]
    elif trajectory.task_text is not None:
        st.text(trajectory.task_text.text)
        facts = [f"task from {trajectory.task_text.source}", "not a task of the WebArena-Verified catalog"]
    else:
        facts = ["task text not found in the folder", "not a task of the WebArena-Verified catalog"]
    facts += layout_facts(trajectory)
    if trajectory.duration_s is not None:
        facts.append(f"{trajectory.duration_s:.0f} s")
    st.caption(inert(" · ".join(facts)))
    harness_header(trajectory)
    with st.container(horizontal=True):
        st.badge(
            trajectory.outcome.replace("_", " "), color=tone_color(OUTCOME_TONES.get(trajectory.outcome))
        )
        if context.seen.withheld == Withheld.NOT_RECORDED:
            st.badge("verdicts hidden: not recorded as shown", color="violet")
        elif context.blind and in_blind_review():
            st.badge("blind review: verdicts hidden until you save", color="violet")
        elif context.blind:
            st.badge("verdicts hidden: still to be judged blind", color="violet")
        # The trajectory as its viewer may see it has no verdict to badge when withheld, and
        # "not scored" would not be true then: no badge at all.
        for shown in () if context.blind else verdict_badges(trajectory.scores, trajectory.eval_result):
            st.badge(inert(shown.text), color=tone_color(shown.tone) if shown.tone else "gray")
    if trajectory.warnings:
        label = f"⚠️ {len(trajectory.warnings)} warning(s) while reading this folder"
        warnings_box = lazy_expander(label, key=Key.WARNINGS_BOX)
        if warnings_box is not None:
            with warnings_box:
                st.code("\n".join(str(w) for w in trajectory.warnings), language=None, wrap_lines=True)


def _context() -> TabContext:
    """The chosen trajectory, read; the page stops with the reason when there is none to show."""
    summary = _choose()
    if summary is None:
        st.info("Choose a run and a task, or open a trajectory from the Trajectories or Tasks page.")
        st.stop()
    annotating = st.session_state.get(Key.TAB, st.query_params.get(Key.TAB.value)) == "Annotate"
    # The Annotate tab's keys (S, F, U, ...) win while it is open: the list's keys are then off.
    walk_bar(summary.key, keys=not annotating, failures=not in_blind_review())
    if summary.unreadable:
        st.error(inert(f"This folder cannot be read: {summary.unreadable}"))
        st.stop()
    folder = inside_root(summary.path)
    if folder is None:
        st.error("This trajectory folder is not inside the browsed root.")
        st.stop()
    folder_print = fingerprint(folder)
    try:
        trajectory = load_trajectory_cached(str(folder), folder_print)
    except UnreadableError as exc:
        st.error(inert(f"This folder cannot be read: {exc.reason}"))
        st.stop()
    except Exception as exc:  # anything else a hostile folder provokes: this page only says so
        st.error(inert(f"This folder cannot be read: {type(exc).__name__}: {exc}"))
        st.stop()
    try:
        task = load_catalog().get(trajectory.task_id)
    except UnreadableError:
        task = None
    item = (summary.run_key, trajectory.task_id)
    # The tabs get the trajectory only as the gate lets it through: its verdicts recorded as shown
    # first, or left out. A task of the catalog is judged live by the evaluator, so it is asked too.
    return TabContext(
        seen=seen_trajectory(trajectory, item, evaluable=task is not None),
        task=task,
        run_key=summary.run_key,
        folder=folder,
        fingerprint=folder_print,
        root=current_root(),
        key=summary.key,
    )


def _page() -> None:
    context = _context()
    contained("The trajectory's header")(_header)(context)
    take_pending_jump()
    # Lazy tabs: only the open one is drawn.
    tabs = st.tabs(list(TABS), key=Key.TAB, bind="query-params")
    for entry, tab in zip(TAB_REGISTRY, tabs, strict=True):
        if tab.open:
            with tab:
                if context.blind and entry.verdicts:
                    unrecorded = context.seen.withheld == Withheld.NOT_RECORDED
                    st.info(_UNRECORDED_TAB if unrecorded else _HIDDEN_TAB)
                else:
                    contained(f"The {entry.label} tab")(entry.render())(context)


_page()
