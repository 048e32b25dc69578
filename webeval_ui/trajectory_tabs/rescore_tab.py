"""Re-score tab: score this trajectory again, try another answer, or re-score many at once."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from webeval_core.policy import Write
from webeval_core.presentation import before_after, editable_response, outcome_table, plural, stored_result
from webeval_core.runs import score_recorded
from webeval_core.scoring import ScoreOutcome, score_trajectory, summarize_scores
from webeval_ui.loaders import current_index, forget_summaries
from webeval_ui.review_mode import reveal_folders
from webeval_ui.roots import inside_root
from webeval_ui.state import Key, what_if_text_key
from webeval_ui.trajectory_table import last_table_paths
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.verdict_tab import fields_and_assertions, show_verdict
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid
from webeval_ui.write_controls import as_reviewer, blocked


def _rescore_one(context: TabContext) -> None:
    trajectory, folder = context.trajectory, context.folder_text
    st.subheader("This trajectory")
    source, before = stored_result(trajectory)
    st.caption(f"Stored verdict: {inert(source)}" if source else "No stored official verdict yet.")
    if st.button("Re-score with the official evaluator", key=Key.RESCORE_ONE, type="primary"):
        with as_reviewer():
            (outcome,), _ = score_recorded(context.root, [Path(folder)], force=True)
        st.session_state[Key.RESCORED] = {"folder": folder, "before": before, "outcome": outcome}
        forget_summaries()
        st.rerun()  # the header and the evidence re-read the new score file
    done = st.session_state.get(Key.RESCORED)
    if done and done["folder"] == folder:
        outcome = done["outcome"]
        show_verdict(outcome)
        if outcome.score_file is not None:
            written = inert(outcome.score_file.relative_to(Path(folder)).as_posix())
            done_text = "Wrote" if outcome.score_file_changed else "Unchanged (the same verdict):"
            st.caption(f"{done_text} {written}")
        after = outcome.evaluation.result if outcome.evaluation else None
        table = before_after(done["before"], after)
        if not table.empty:
            grid(table, hide_index=True, width="stretch")


def _what_if(context: TabContext) -> None:
    trajectory, task, folder = context.trajectory, context.task, context.folder_text
    st.subheader("What if the agent had answered…")
    if task is None:
        st.caption("Only tasks of the catalog can be scored.")
        return
    st.caption("Edit the response and see the official verdict. Nothing is written.")
    default = editable_response(trajectory.final_answer_text, task.task_type)
    text = st.text_area("Agent response", value=default, key=what_if_text_key(folder), height=200)
    if st.button("Show the verdict", key=Key.WHAT_IF_RUN):
        hypothetical = trajectory.model_copy(update={"final_answer_text": text, "outcome": "answered"})
        st.session_state[Key.WHAT_IF] = {
            "folder": folder,
            "outcome": score_trajectory(hypothetical, config_root=context.root, write=False),
        }
    done = st.session_state.get(Key.WHAT_IF)
    if done and done["folder"] == folder:
        outcome = done["outcome"]
        show_verdict(outcome)
        fields_and_assertions(outcome)


def _rescore_many(context: TabContext) -> None:
    st.subheader("Many trajectories")
    index = current_index()
    run = index.run(context.run_key)
    scopes: dict[str, list[Path]] = {}
    listed = [p for p in map(Path, last_table_paths()) if inside_root(p)]
    if listed:
        scopes[f"the last filtered list ({len(listed)})"] = listed
    if run is not None:
        scopes[f"this run ({len(run.trajectory_dirs)})"] = list(run.trajectory_dirs)
    scopes[f"every run under the root ({sum(len(r.trajectory_dirs) for r in index.runs)})"] = [
        d for r in index.runs for d in r.trajectory_dirs
    ]
    scope = st.radio("Trajectories", list(scopes), key=Key.RESCORE_SCOPE, horizontal=True)
    force = st.checkbox("Recompute even when a score file is up to date", key=Key.RESCORE_FORCE)
    paths = scopes[scope]
    if st.button(f"Re-score {plural(len(paths), 'trajectory', 'trajectories')}", key=Key.RESCORE_MANY):
        bar = st.progress(0.0, text="Scoring…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / total if total else 1.0, text=f"Scored {done} of {total}")

        with as_reviewer():
            outcomes, _ = score_recorded(context.root, paths, force=force, on_progress=progress)
        st.session_state[Key.BATCH_RESCORED] = outcomes
        forget_summaries()
        st.rerun()  # the header re-reads this trajectory's new score file
    finished: list[ScoreOutcome] | None = st.session_state.get(Key.BATCH_RESCORED)
    # Every trajectory's verdict in the batch: recorded as shown first, or not drawn.
    if finished and reveal_folders((o.path, o.task_id) for o in finished):
        tally = summarize_scores(finished).overall
        cols = st.columns(5)
        for col, (label, value) in zip(
            cols,
            (
                ("success", tally.success),
                ("failure", tally.failure),
                ("error", tally.error),
                ("excluded", tally.excluded),
                ("reused", sum(o.reused for o in finished)),
            ),
            strict=True,
        ):
            col.metric(label, value)
        grid(outcome_table(finished), hide_index=True, width="stretch")


NO_EVALUATOR = (
    "No official evaluator for this benchmark: only WebArena-Verified tasks can be scored here. "
    "This trajectory's verdicts come from the judges' score files (see Expected vs actual)."
)


def render(context: TabContext) -> None:
    """Re-score this trajectory, try another answer, or re-score many at once.

    Only offered for tasks the official evaluator knows: other benchmarks have judges instead.
    """
    if context.task is None:
        st.info(NO_EVALUATOR)
        return
    if blocked(Write.SCORE, "re-scoring would write score files, so it is not offered."):
        _what_if(context)  # it scores in memory: it stays
        return
    _rescore_one(context)
    _what_if(context)
    _rescore_many(context)
