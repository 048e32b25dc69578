"""Re-judge tab: judge this trajectory again with an LLM judge on an endpoint profile (before and
after side by side), judge an edited answer without writing anything, or re-judge a filtered set
(the estimate first, then progress; Cancel stops it, the verdicts decided so far kept).

Profiles are the server's (`$WEBEVAL_JUDGE_PROFILES`, set by its operator): a page never shows a
key, only each profile's name and model. Only who may write score files sees the controls.
"""

from __future__ import annotations

import time
from pathlib import Path

import streamlit as st

from webeval_core.llm_judging import (
    JUDGE_METHODS,
    METHOD_WORDS,
    ChatTransport,
    EndpointProfile,
    JudgeOutcome,
    JudgeSession,
    ReplyCache,
    estimate_run,
    judged_flips,
    load_material,
    load_profiles,
    make_judge,
    outcome_line,
    outcome_rows,
    profiles_path,
    run_totals,
    verdicts_of,
)
from webeval_core.policy import Write
from webeval_core.presentation import plural
from webeval_core.support import UnreadableError
from webeval_ui.list_walk import listed_items
from webeval_ui.loaders import current_index, forget_summaries
from webeval_ui.review_mode import reveal, reveal_folders
from webeval_ui.roots import inside_root
from webeval_ui.state import Key, rejudge_text_key
from webeval_ui.trajectory_table import last_table_paths
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid
from webeval_ui.write_controls import as_reviewer, blocked

NO_PROFILES = (
    "No judge endpoints here: the server's operator names a profiles file in WEBEVAL_JUDGE_PROFILES "
    "(see the README, “Judging again with a model”)."
)


def _session(profiles: dict[str, EndpointProfile]) -> JudgeSession:
    method = st.selectbox(
        "Judge", list(JUDGE_METHODS), format_func=lambda name: METHOD_WORDS[name], key=Key.REJUDGE_METHOD
    )
    chosen = st.selectbox(
        "Endpoint",
        sorted(profiles),
        format_func=lambda name: f"{name} ({profiles[name].model})",
        key=Key.REJUDGE_PROFILE,
    )
    profile = profiles[chosen]
    session = JudgeSession(make_judge(method), profile, ChatTransport(profile, cache=ReplyCache()))
    st.caption(f"Verdicts are written to scores/{session.judge_id}.json, beside the other judges'.")
    return session


def _verdict_table(lines: list[dict[str, str]]) -> None:
    if lines:
        grid(lines, hide_index=True, width="stretch")
    else:
        st.caption("No judge's verdict yet.")


def _show_outcome(outcome: JudgeOutcome) -> None:
    line = outcome_line(outcome)
    st.markdown(f"**{inert(line.judge)}**: {inert(line.verdict)}")
    if outcome.decision is not None:
        st.text(outcome.decision.response_text[:4000])
        points = outcome.decision.details.get("key_points")
        if points:
            st.caption("Key points")
            st.text(str(points))
        scores = outcome.decision.details.get("image_scores")
        if scores:
            grid(scores, hide_index=True)
    cost = outcome.cost
    st.caption(
        f"{plural(cost.calls, 'request')} ({cost.cached_calls} from the cache), "
        f"{cost.prompt_tokens + cost.completion_tokens:,} tokens, {cost.seconds:.1f} s"
    )


def _one(context: TabContext, session: JudgeSession) -> None:
    folder = context.folder_text
    st.subheader("This trajectory")
    if st.button("Re-judge", key=Key.REJUDGE_ONE, type="primary"):
        # The judges' verdicts before, read from the folder: only what this viewer may see.
        before = [line.model_dump() for line in verdicts_of(context.folder)] if context.seen.disclosed else []
        with as_reviewer():
            outcome = session.judge_folder(context.folder, again=True)
        st.session_state[Key.REJUDGED] = {"folder": folder, "before": before, "outcome": outcome}
        forget_summaries()
        st.rerun()  # the header and the Judges tab re-read the new score file
    done = st.session_state.get(Key.REJUDGED)
    if done and done["folder"] == folder and _may_show(context):
        left, right = st.columns(2)
        with left:
            st.markdown("**Before**")
            _verdict_table(done["before"])
        with right:
            st.markdown("**After**")
            _show_outcome(done["outcome"])


def _may_show(context: TabContext) -> bool:
    """Whether this trajectory's new verdict may be drawn: disclosed with the page, else (nothing
    judged it when the page was drawn) recorded as shown now.
    """
    return context.seen.disclosed or reveal([context.seen.item])


def _what_if(context: TabContext, session: JudgeSession) -> None:
    folder = context.folder_text
    st.subheader("What if the agent had answered…")
    st.caption("Edit the final answer and see this judge's verdict. Nothing is written.")
    answer = context.trajectory.final_answer_text or ""
    text = st.text_area("Final answer", value=answer, key=rejudge_text_key(folder), height=150)
    if st.button("Judge this answer", key=Key.REJUDGE_WHAT_IF_RUN):
        try:
            material = load_material(context.folder).with_answer(text)
        except UnreadableError as exc:
            st.error(inert(exc.reason))
            return
        st.session_state[Key.REJUDGE_WHAT_IF] = {"folder": folder, "outcome": session.decide(material)}
    done = st.session_state.get(Key.REJUDGE_WHAT_IF)
    if done and done["folder"] == folder:
        _show_outcome(done["outcome"])


def _scopes(context: TabContext) -> dict[str, list[Path]]:
    scopes: dict[str, list[Path]] = {}
    opened_from_list = bool(st.query_params.get_all(Key.LIST.value))
    walked = [context.root / item.key for item in listed_items()] if opened_from_list else []
    if walked:
        scopes[f"the list this trajectory was opened from ({len(walked)})"] = walked
    listed = [p for p in map(Path, last_table_paths()) if inside_root(p)]
    if listed:
        scopes[f"the last filtered list ({len(listed)})"] = listed
    run = current_index().run(context.run_key)
    if run is not None:
        scopes[f"this run ({len(run.trajectory_dirs)})"] = list(run.trajectory_dirs)
    return scopes


def _many(context: TabContext, session: JudgeSession) -> None:
    st.subheader("Many trajectories")
    scopes = _scopes(context)
    if not scopes:
        return
    scope = st.radio("Trajectories", list(scopes), key=Key.REJUDGE_SCOPE, horizontal=True)
    paths = scopes[scope]
    chosen = (session.judge_id, scope)
    if st.button("Estimate first", key=Key.REJUDGE_ESTIMATE):
        st.session_state[Key.REJUDGE_ESTIMATED] = {"chosen": chosen, "estimate": estimate_run(session, paths)}
    estimated = st.session_state.get(Key.REJUDGE_ESTIMATED)
    if estimated and estimated["chosen"] == chosen:
        st.info(inert(estimated["estimate"].summary()))
        if st.button(f"Re-judge {plural(len(paths), 'trajectory', 'trajectories')}", key=Key.REJUDGE_MANY):
            _run_many(context, session, paths)
    _show_batch(session)


class _Batch:
    """A batch re-judge, kept in the session as one object changed in place: a click on Cancel (any
    rerun) stops its run while a new run of the page draws at once, and what the stopped run then
    writes into the session is dropped; what it sets here is not.
    """

    def __init__(self, judge: str, total: int) -> None:
        self.judge = judge
        """The judge's id."""
        self.total = total
        """Trajectories asked for."""
        self.done: list[JudgeOutcome] = []
        """Their outcomes so far, in the order they ended."""
        self.said: list[str] = []
        """What the page says of it once it is over (totals and flips, or how far it got)."""
        self.over = False
        """Its run has ended (finished, or stopped by a click)."""


def _run_many(context: TabContext, session: JudgeSession, paths: list[Path]) -> None:
    # A click on Cancel reruns the page: Streamlit stops this script at its next call, the run's
    # Ctrl-C path (requests in flight end, their verdicts are written, nothing else starts).
    st.button("Cancel", key=Key.REJUDGE_CANCEL)
    bar = st.progress(0.0, text="Judging…")
    batch = _Batch(session.judge_id, len(paths))
    st.session_state[Key.BATCH_REJUDGED] = batch

    def progress(outcome: JudgeOutcome) -> None:
        batch.done.append(outcome)
        bar.progress(len(batch.done) / len(paths), text=f"Judged {len(batch.done)} of {len(paths)}")

    started = time.monotonic()
    try:
        with as_reviewer():
            outcomes = session.judge_folders(paths, on_outcome=progress)
    except BaseException:  # Cancel (Streamlit stopping the script): say how far it got, then stop
        batch.said = [f"Cancelled after {len(batch.done)} of {len(paths)}: the verdicts decided are written."]
        raise
    finally:
        forget_summaries()  # also when cancelled: the verdicts written so far are read
        batch.over = True
    totals = run_totals(outcomes, session.transport.counts(), session.profile, time.monotonic() - started)
    batch.said = [totals.summary(), judged_flips(outcomes, root=context.root).summary()]
    st.rerun()


def _show_batch(session: JudgeSession) -> None:
    batch: _Batch | None = st.session_state.get(Key.BATCH_REJUDGED)
    if batch is None or batch.judge != session.judge_id:
        return
    if not batch.over:
        _stopping(batch)
        return
    # Every trajectory's verdict in the batch: recorded as shown first, or not drawn.
    if not reveal_folders((o.folder, o.task_id) for o in batch.done):
        return
    for line in batch.said:
        st.caption(inert(line))
    grid([row.model_dump() for row in outcome_rows(batch.done)], hide_index=True, width="stretch")


@st.fragment(run_every=1.0)
def _stopping(batch: _Batch) -> None:
    """While the run a click stopped ends its requests in flight: how far it is, then the page."""
    if batch.over:
        st.rerun()  # the whole page: its lists and the batch's outcome
    st.info(
        f"Stopping: {len(batch.done)} of {batch.total} judged; the requests in flight end and"
        " their verdicts are written, nothing else starts.",
        icon=":material/hourglass_top:",
    )


def render(context: TabContext) -> None:
    """Re-judge this trajectory, judge an edited answer, or re-judge many at once."""
    if blocked(Write.SCORE, "re-judging writes score files (and costs model calls), so it is not offered."):
        return
    try:
        profiles = load_profiles()
    except UnreadableError as exc:
        st.info(NO_PROFILES if not profiles_path().exists() else inert(str(exc)))
        return
    session = _session(profiles)
    _one(context, session)
    _what_if(context, session)
    _many(context, session)
