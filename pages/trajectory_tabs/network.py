"""Network tab: the HAR's requests by step, and each network check with the requests it compared."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.common import inert, load_trajectory_cached
from pages.state import Key, candidates_key
from pages.trajectory_tabs.context import TabContext
from pages.trajectory_tabs.navigation import request_jump
from pages.trajectory_tabs.verdict import Color, style_match
from webeval_core.diagnostics import UnreadableError
from webeval_core.presentation.tables import candidate_field_table, candidate_table, request_table
from webeval_core.reading.network import read_har
from webeval_core.scoring import NetworkCheckTrace

_STATIC_TYPES = {"image", "script", "stylesheet", "font", "media", "manifest", "style"}


@st.cache_data(show_spinner=False, max_entries=16)
def events(folder: str, fp: str) -> pd.DataFrame | str:
    """The HAR entries as rows, each with the step during which it fired, or why the HAR cannot be used.

    The reason is cached too, so a broken HAR is not parsed again on every step.
    """
    trajectory = load_trajectory_cached(folder, fp)
    if trajectory.har_path is None:
        return "this trajectory has no network.har"
    try:
        har = read_har(trajectory.har_path)
    except UnreadableError as exc:
        return exc.reason
    return request_table(har, trajectory.steps)


def _style_candidates(row: pd.Series) -> list[str]:
    if row["matched"] is True and row["kept"]:
        color = "background-color: #d8f3dc"
    elif row["kept"]:
        color = "background-color: #fff3bf"
    else:
        color = ""
    return [color] * len(row)


def _check(trace: NetworkCheckTrace) -> None:
    url = trace.expected_url if isinstance(trace.expected_url, str) else " | ".join(trace.expected_url)
    verdict: dict[bool | None, tuple[str, Color]] = {
        True: ("passed", "green"),
        False: ("failed", "red"),
        None: ("could not be checked", "orange"),
    }
    label, color = verdict[trace.passed]
    with st.container(border=True):
        with st.container(horizontal=True):
            st.badge(f"check {trace.position}: {label}", color=color)
            if trace.should_not_exist:
                st.badge("must not happen", color="violet")
            if trace.last_event_only:
                st.badge("last matching request only", color="gray")
            st.caption(
                f"official status: {trace.official_status or '-'} · {trace.considered} request(s) searched"
            )
        st.code(f"{trace.http_method} {url}", language=None, wrap_lines=True)
        st.text(trace.explanation)
        if trace.limitation:
            st.warning(inert(trace.limitation), icon=":material/warning:")
        elif trace.navigate_last_document_only:
            st.caption(
                "Navigate task with a GET check: the evaluator only looks at the last page navigation "
                "(known upstream limitation)."
            )
        if not trace.candidates:
            return
        picked = st.dataframe(
            candidate_table(trace).style.apply(_style_candidates, axis=1),
            key=candidates_key(trace.position),
            on_select="rerun",
            selection_mode="single-row",
            hide_index=True,
            width="stretch",
        )
        request_jump(picked.selection.rows, [c.step for c in trace.candidates])
        st.caption(
            "Kept requests are highlighted (green when every field matches); select one to see its step."
        )
        for candidate in trace.candidates:
            if not (candidate.kept or candidate.matched) or not candidate.fields:
                continue
            st.markdown(f"**Entry {candidate.har_index}, field by field**")
            diff = candidate_field_table(candidate)
            st.dataframe(diff.style.map(style_match, subset=["match"]), hide_index=True, width="stretch")


def _events_table(requests: pd.DataFrame) -> None:
    left, right = st.columns([3, 1])
    query = left.text_input(
        "Search requests", key=Key.NETWORK_QUERY, placeholder="part of a URL, a method or a status"
    )
    hide_static = right.toggle("Hide static assets", key=Key.HIDE_STATIC, value=True)
    shown = requests
    if hide_static:
        shown = shown[~shown["type"].isin(_STATIC_TYPES)]
    if query:
        needle = query.lower()
        haystack = shown["method"] + " " + shown["status"].astype(str) + " " + shown["url"].str.lower()
        shown = shown[haystack.str.contains(needle, regex=False)]
    st.caption(
        f"{len(shown)} of {len(requests)} requests · select one to jump to the step during which it fired"
    )
    picked = st.dataframe(
        shown,
        key=Key.NETWORK_TABLE,
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        width="stretch",
        column_config={"url": st.column_config.TextColumn("url", width="large")},
    )
    request_jump(picked.selection.rows, [None if pd.isna(s) else int(s) for s in shown["step"]])


def render(context: TabContext) -> None:
    """The HAR's requests, then each network check of the live verdict with what it compared."""
    requests = events(context.folder_text, context.fingerprint)
    outcome = context.live_outcome() if context.task else None
    if context.trajectory.har_path is None:
        st.info("This trajectory has no network.har.")
    elif isinstance(requests, str):
        st.error(f"network.har cannot be used: {inert(requests)}")
    else:
        _events_table(requests)
    traces = outcome.evaluation.network if outcome and outcome.evaluation else ()
    if traces:
        st.subheader(f"Network checks ({len(traces)})")
        for trace in traces:
            _check(trace)
    elif outcome is not None and outcome.evaluation is not None:
        st.caption("This task has no network checks.")
