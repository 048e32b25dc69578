"""Network tab: the HAR's requests by step, and each network check with the requests it compared."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from webeval_core.presentation import (
    CHECK_TONES,
    Tone,
    candidate_field_table,
    candidate_table,
    cell_style,
    check_notes,
    compared_candidates,
    evaluator_limits,
    expected_checks_table,
    no_trace_text,
    official_caption,
    pairs_table,
    request_list,
    request_summary,
    search_requests,
)
from webeval_core.reading import Har, NetworkEvent, Step, Task, read_har
from webeval_core.scoring import NetworkCheckTrace
from webeval_core.support import UnreadableError
from webeval_ui.state import Key, candidates_key
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.navigation import request_jump
from webeval_ui.trajectory_tabs.verdict_tab import style_match, tone_color
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, selected_rows

# pandas (most of a second to import) is imported where a table is made: a page that draws
# none of these tables does not load it.
if TYPE_CHECKING:
    import pandas as pd


@st.cache_resource(show_spinner=False, max_entries=8)
def trace(har_path: str | None, fp: str) -> Har | str:
    """The trajectory's network trace (HAR or Playwright) at folder state `fp`, or why it cannot be used.

    The reason is cached too, so a broken trace is not parsed again on every step.
    """
    if har_path is None:
        return "this trajectory has no network trace"
    try:
        return read_har(Path(har_path))
    except UnreadableError as exc:
        return exc.reason


@st.cache_data(show_spinner=False, max_entries=16)
def _events(har_path: str | None, fp: str, _steps: tuple[Step, ...]) -> pd.DataFrame | str:
    har = trace(har_path, fp)
    if isinstance(har, str):
        return har
    return request_list(har, _steps)


def events(context: TabContext) -> pd.DataFrame | str:
    """The trace's requests as rows (with the step during which each fired, when steps have times),
    cached per folder state (`fp` stands for the steps, which are not hashed on every rerun).
    """
    return _events(_har_path(context), context.fingerprint, context.trajectory.steps)


def _har_path(context: TabContext) -> str | None:
    path = context.trajectory.har_path
    return str(path) if path is not None else None


def _style_candidates(row: pd.Series) -> list[str]:
    kept: Tone | None = ("good" if row["matched"] is True else "partial") if row["kept"] else None
    return [cell_style(kept)] * len(row)


def _check(trace: NetworkCheckTrace) -> None:
    url = trace.expected_url if isinstance(trace.expected_url, str) else " | ".join(trace.expected_url)
    label = {True: "passed", False: "failed", None: "could not be checked"}[trace.passed]
    color = tone_color(CHECK_TONES[trace.passed])
    with st.container(border=True):
        with st.container(horizontal=True):
            st.badge(f"check {trace.position}: {label}", color=color)
            if trace.should_not_exist:
                st.badge("must not happen", color="violet")
            if trace.last_event_only:
                st.badge("last matching request only", color="gray")
            st.caption(inert(official_caption(trace)))
        st.code(f"{trace.http_method} {url}", language=None, wrap_lines=True)
        st.text(trace.explanation)
        for note in check_notes(trace):
            st.warning(inert(note), icon=":material/warning:")
        if not trace.candidates:
            return
        picked = selected_rows(
            candidate_table(trace).style.apply(_style_candidates, axis=1), candidates_key(trace.position)
        )
        request_jump(picked, [c.step for c in trace.candidates])
        st.caption(
            "Kept requests are highlighted (green when every field matches); select one to see its step."
        )
        for candidate in compared_candidates(trace):
            st.markdown(f"**Entry {candidate.har_index}, field by field**")
            diff = candidate_field_table(candidate)
            grid(diff.style.map(style_match, subset=["match"]), hide_index=True, width="stretch")


def _events_table(requests: pd.DataFrame, har: Har) -> None:
    import pandas as pd

    left, right = st.columns([3, 1])
    query = left.text_input(
        "Search requests", key=Key.NETWORK_QUERY, placeholder="words of a method, status, type or URL"
    )
    hide_static = right.toggle("Hide static assets", key=Key.HIDE_STATIC, value=True)
    shown = search_requests(requests, query, hide_static=hide_static)
    placed = "step" in requests.columns
    where = "the step during which it fired" if placed else "+s: seconds from the first request"
    st.caption(f"{len(shown)} of {len(requests)} requests · select one to see its detail · {where}")
    rows = selected_rows(
        shown, Key.NETWORK_TABLE, column_config={"url": st.column_config.TextColumn("url", width="large")}
    )
    if rows and rows[0] < len(shown):
        row = shown.iloc[rows[0]]
        step = None if not placed or pd.isna(row["step"]) else int(row["step"])
        _detail(har.events[int(row["entry"])], har, step)


def _detail(event: NetworkEvent, har: Har, step: int | None) -> None:
    """One request: summary, headers, query, post data and the beginning of the response."""
    first = min((e.started for e in har.events if e.started is not None), default=None)
    with st.container(border=True, key=Key.REQUEST_DETAIL):
        st.subheader(f"Request {event.har_index}", anchor=False)
        grid(request_summary(event, first, step), hide_index=True, width="stretch")
        if step is not None and st.button(f"Show step {step} in the replay", key=Key.REQUEST_STEP):
            request_jump([0], [step])
        _pairs("Request headers", event.request_headers)
        _pairs("Query parameters", event.query)
        if event.post_data is not None:
            st.markdown(f"**Post data** ({inert(event.post_mime or 'no MIME type')})")
            if event.post_data_attached:
                st.caption(
                    "Kept in a separate file of the Playwright trace: the official evaluator does not see it."
                )
            st.code(event.post_data or "(empty)", language=None, wrap_lines=True)
        _pairs("Response headers", event.response_headers)
        st.markdown("**Response body** (beginning, as text)")
        if event.response_preview is None:
            st.caption("Not recorded, or not text.")
        else:
            st.code(event.response_preview, language=None, wrap_lines=True)


def _pairs(title: str, pairs: tuple[tuple[str, str], ...]) -> None:
    st.markdown(f"**{title}** ({len(pairs)})")
    if pairs:
        grid(pairs_table(pairs), hide_index=True, width="stretch")


def render(context: TabContext) -> None:
    """The trace's requests and one's detail, then each network check of the live verdict; in a
    blind pass the evidence only: the requests and the task's checks as it states them.
    """
    har = trace(_har_path(context), context.fingerprint)
    requests = events(context)
    outcome = context.live_outcome()  # None while this viewer may not see its verdicts
    if outcome is None and context.blind:
        _requests(context, har, requests)
        _expected_checks(context.task)
        return
    checks = outcome.evaluation.network if outcome and outcome.evaluation else ()
    limits = evaluator_limits(
        har if isinstance(har, Har) else None,
        context.task,
        evaluator_error=outcome is not None and outcome.status == "error",
        failed_checks=[c.position for c in checks if c.passed is not True],
    )
    for limit in limits:
        st.warning(limit, icon=":material/warning:")
    _requests(context, har, requests)
    traces = outcome.evaluation.network if outcome and outcome.evaluation else ()
    if traces:
        st.subheader(f"Network checks ({len(traces)})")
        for check_trace in traces:
            _check(check_trace)
    elif outcome is not None and outcome.evaluation is not None:
        st.caption("This task has no network checks.")


def _requests(context: TabContext, har: Har | str, requests: pd.DataFrame | str) -> None:
    """The trace's requests, searchable, and the one selected in detail (or why there are none)."""
    if context.trajectory.har_path is None:
        st.info(inert(no_trace_text(context.trajectory.harness)))
    elif isinstance(har, str) or isinstance(requests, str):
        reason = har if isinstance(har, str) else str(requests)
        st.error(f"{inert(context.trajectory.har_path.name)} cannot be used: {inert(reason)}")
    else:
        _events_table(requests, har)


def _expected_checks(task: Task | None) -> None:
    """The task's network checks as it states them, for a blind reviewer: no match marks, no verdict."""
    table = expected_checks_table(task) if task is not None else None
    if table is None:
        return
    st.subheader(f"What the task checks in the trace ({len(table)})")
    st.caption(
        "As the task states them; which request the evaluator compared, and its verdict, show once"
        " you save your annotation."
    )
    grid(table, hide_index=True, width="stretch")
