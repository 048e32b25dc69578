"""Trajectory: replay one trajectory step by step, compare its answer with the expected one, see each
network check at the step where its requests fired, read the raw evidence and re-score it.

The URL holds the view. `run`, `task` and `tab` are bound widgets. `step` is written by the page
itself: a bound slider is a new widget whenever its range changes (another trajectory) and a new
bound widget re-reads the URL, so it would jump back to a stale step.
"""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, NamedTuple

import pandas as pd
import streamlit as st

from pages.common import (
    LAST_TABLE_PATHS,
    current_index,
    current_root,
    escape_markdown,
    inside_root,
    load_frame,
    load_index,
    load_trajectory_cached,
    require_app_shell,
)
from webeval_core.actionlog import Step
from webeval_core.annotations import (
    LABELS,
    Annotation,
    add_annotation,
    annotations_as_rows,
    default_annotations_file,
    read_annotations,
)
from webeval_core.diagnostics import UnreadableError
from webeval_core.folderfiles import read_file
from webeval_core.index import TrajectorySummary, fingerprint
from webeval_core.network import read_har, step_for_time
from webeval_core.overlay import (
    action_label,
    frame_image,
    prefetch_frame,
    prefetch_thumbnail,
    thumbnails,
)
from webeval_core.response import AgentResponse, parse_agent_response
from webeval_core.scoring import (
    NetworkCheckTrace,
    ScoreOutcome,
    score_trajectories,
    score_trajectory,
    summarize,
)
from webeval_core.tasks import Task, load_catalog
from webeval_core.trajectory import Trajectory
from webeval_core.verdicts import read_verdict

require_app_shell()

TABS = ("Replay", "Expected vs actual", "Network", "Evidence", "Re-score", "Annotate")
FILM_SIDE = 4  # thumbnails each side of the current step: 100-step trajectories stay fast
THUMB_WIDTH = 176
LOG_EXCERPT_BYTES = 64 * 1024
_SLIDER = "_step_slider"
_PENDING_JUMP = "_pending_jump"  # a step chosen in the network views, shown on the next run
_RESCORED = "_rescored"
_BATCH = "_batch_rescored"
_WHATIF = "_whatif"
_STATIC_TYPES = {"image", "script", "stylesheet", "font", "media", "manifest", "style"}
Color = Literal["red", "orange", "green", "violet", "gray"]
_STATUS_COLORS: dict[str, Color] = {
    "success": "green",
    "failure": "red",
    "error": "orange",
    "excluded": "gray",
}
_OUTCOME_COLORS: dict[str, Color] = {"answered": "green", "no_answer": "orange", "aborted": "red"}
_VERDICT_FIELDS = (
    "is_success",
    "outcome_success",
    "rubric_is_success",
    "verifier_success",
    "success_criterion",
    "outcome_reasoning",
    "verifier_reasoning",
)


class Frame(NamedTuple):
    """What the replay steps through: agent steps, or bare screenshots when the log has none."""

    number: int  # the step index, or the screenshot's position when there are no steps
    screenshot: str | None
    step: Step | None


# --- cached work ----------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=16)
def _events(folder: str, fp: str) -> pd.DataFrame | str:
    """The HAR entries as rows, each with the step during which it fired, or why the HAR cannot
    be used (kept too, so a broken HAR is not parsed again on every step)."""
    trajectory = load_trajectory_cached(folder, fp)
    if trajectory.har_path is None:
        return "this trajectory has no network.har"
    try:
        har = read_har(trajectory.har_path)
    except UnreadableError as exc:
        return exc.reason
    first = next((e.started for e in har.events if e.started is not None), None)
    rows = [
        {
            "entry": e.har_index,
            "time (UTC)": e.started.astimezone(UTC).strftime("%H:%M:%S.%f")[:-3] if e.started else None,
            "+s": round((e.started - first).total_seconds(), 2) if e.started and first else None,
            "method": e.method,
            "status": e.status,
            "type": e.resource_type or ("document" if e.is_document else None),
            "url": e.url,
            "step": step_for_time(trajectory.steps, e.started),
        }
        for e in har.events
    ]
    frame = pd.DataFrame(rows)
    return frame.astype({"step": "Int64", "status": "Int64"})


@st.cache_data(show_spinner="Scoring with the official evaluator…", max_entries=32)
def _live_outcome(folder: str, fp: str, root: str) -> ScoreOutcome:
    """The verdict the official evaluator gives now (nothing written); cached per folder state."""
    return score_trajectory(load_trajectory_cached(folder, fp), config_root=Path(root), write=False)


def _forget_summaries() -> None:
    """After writing score files, lists and charts must re-read the changed folders."""
    load_index.clear()
    load_frame.clear()


def _frame_path(folder: Path, name: str | None) -> Path | None:
    """A screenshot of the trajectory, only when it lies inside the browsed root."""
    return inside_root(folder / name) if name else None


# --- navigation -----------------------------------------------------------------------------


def _go(index: int) -> None:
    st.query_params["step"] = str(index)


def _slid() -> None:
    _go(st.session_state[_SLIDER])


def _reset_step() -> None:
    st.query_params.pop("step", None)


def _request_jump(rows: list[int], steps: list[int | None]) -> None:
    """A selected request opens the replay at its step. Tabs can only be switched before they are
    drawn, so the jump is parked and the page reruns (see the top of the page)."""
    if rows and rows[0] < len(steps) and steps[rows[0]] is not None:
        st.session_state[_PENDING_JUMP] = steps[rows[0]]
        st.rerun()


def _take_pending_jump() -> None:
    step = st.session_state.pop(_PENDING_JUMP, None)
    if step is not None:
        _go(step)
        st.session_state["tab"] = TABS[0]


def _position(indices: list[int]) -> int:
    """Position of the URL's step among `indices` (the first step when absent or unknown)."""
    try:
        wanted = int(st.query_params.get("step", ""))
    except ValueError:
        return 0
    return indices.index(wanted) if wanted in indices else 0


def _choose() -> TrajectorySummary | None:
    index = current_index()
    runs = {run.key: run for run in index.runs}
    left, right = st.columns([3, 2])
    run_key = left.selectbox(
        "Run",
        list(runs),
        index=None,
        key="run",
        bind="query-params",
        on_change=_reset_step,
        placeholder="choose a run",
    )
    members = [s for s in index.summaries if s.run_key == run_key]
    task_id = right.selectbox(
        "Task",
        [s.task_id for s in members],
        index=None,
        key="task",
        bind="query-params",
        on_change=_reset_step,
        placeholder="choose a task" if members else "choose a run first",
    )
    if run_key in runs and runs[run_key].label != run_key:
        left.caption(escape_markdown(runs[run_key].label))
    return next((s for s in members if s.task_id == task_id), None)


# --- header ---------------------------------------------------------------------------------


def _score_color(score: float | None) -> Color:
    if score is None:
        return "gray"
    return "green" if score >= 1 else "red" if score <= 0 else "orange"


def _header(trajectory: Trajectory, task: Task | None) -> None:
    st.title(f"Task {escape_markdown(trajectory.task_id)}")
    if task is not None:
        st.text(task.intent)
        facts = [
            f"sites: {', '.join(task.sites)}",
            f"type: {task.task_type}",
            f"start: {' '.join(task.start_urls)}",
        ]
    else:
        facts = ["not a task of the WebArena-Verified catalog"]
    facts += [
        f"layout: {trajectory.layout}",
        f"log: {trajectory.log_generation or 'none'}",
        f"{len(trajectory.steps)} steps",
        f"{len(trajectory.screenshots)} screenshots",
    ]
    if trajectory.duration_s is not None:
        facts.append(f"{trajectory.duration_s:.0f} s")
    st.caption(escape_markdown(" · ".join(facts)))
    with st.container(horizontal=True):
        st.badge(trajectory.outcome.replace("_", " "), color=_OUTCOME_COLORS.get(trajectory.outcome, "gray"))
        for name, score_file in sorted(trajectory.scores.items()):
            shown = "no score" if score_file.score is None else f"{score_file.score:g}"
            st.badge(escape_markdown(f"{name}: {shown}"), color=_score_color(score_file.score))
        if not trajectory.scores:
            st.badge("not scored", color="gray")
    if trajectory.warnings:
        with st.expander(f"⚠️ {len(trajectory.warnings)} warning(s) while reading this folder"):
            st.code("\n".join(str(w) for w in trajectory.warnings), language=None, wrap_lines=True)


# --- replay ---------------------------------------------------------------------------------


def _frames(trajectory: Trajectory) -> list[Frame]:
    if trajectory.steps:
        return [Frame(s.index, s.screenshot, s) for s in trajectory.steps]
    return [Frame(i, name, None) for i, name in enumerate(trajectory.screenshots, start=1)]


def _point(step: Step | None) -> tuple[float, float] | None:
    return (step.point.x, step.point.y) if step is not None and step.point is not None else None


def _marks(step: Step | None) -> dict[str, Any]:
    """What the overlay draws for a step: its point, the typed text or scroll, the scroll arrow."""
    if step is None:
        return {}
    return {
        "point": _point(step),
        "label": action_label(step.action, step.typed_text, step.scroll, step.arguments),
        "scroll": step.scroll,
    }


def _prefetch(folder: Path, frames: list[Frame], position: int) -> None:
    """Start drawing what the next step shows (its frame, the thumbnail entering the filmstrip)
    on the overlay workers, while the user looks at this one."""
    if position + 1 >= len(frames):
        return
    upcoming = frames[position + 1]
    path = _frame_path(folder, upcoming.screenshot)
    if path is not None:
        with contextlib.suppress(UnreadableError):
            prefetch_frame(path, **_marks(upcoming.step))
    entering = _film_window(frames, position + 1)[-1]
    path = _frame_path(folder, entering.screenshot)
    if path is not None:
        prefetch_thumbnail(path, THUMB_WIDTH, _point(entering.step))


def _show_frame(folder: Path, name: str | None, step: Step | None, caption: str) -> None:
    path = _frame_path(folder, name)
    if path is None:
        st.info(
            "No screenshot for this step."
            if not name
            else f"Screenshot {escape_markdown(name)} is not inside the root."
        )
        return
    try:
        image = frame_image(path, **_marks(step))
    except UnreadableError as exc:
        st.warning(escape_markdown(f"{name}: {exc.reason}"))
        return
    # JPEG (frame_image's default): encoding a full frame as PNG takes most of a step's budget.
    st.image(image, width="stretch", output_format="JPEG")
    st.caption(escape_markdown(caption))


def _after_frame(trajectory: Trajectory, name: str | None) -> str | None:
    """The screenshot taken after the one the action was drawn on (the page the action led to)."""
    if name not in trajectory.screenshots:
        return None
    position = trajectory.screenshots.index(name)
    return trajectory.screenshots[position + 1] if position + 1 < len(trajectory.screenshots) else None


def _step_details(trajectory: Trajectory, frame: Frame, total: int) -> None:
    step = frame.step
    if step is None:
        st.markdown(f"**Screenshot {frame.number} of {total}**")
        st.caption("The log has no steps; screenshots are shown in order without actions.")
        return
    st.markdown(f"**Step {step.index} of {total}** · {escape_markdown(step.action)}")
    if step.time_utc is not None:
        first = trajectory.steps[0].time_utc
        since = f" (+{(step.time_utc - first).total_seconds():.1f} s)" if first else ""
        st.caption(f"{step.time_utc.strftime('%Y-%m-%d %H:%M:%S')} UTC{since}")
    if step.url:
        st.code(step.url, language=None, wrap_lines=True)
    st.markdown("**Thought**")
    st.text(step.thought or "(none logged)")
    st.markdown("**Arguments**")
    st.code(json.dumps(step.arguments, ensure_ascii=False), language="json", wrap_lines=True)
    if step.point is not None:
        scaling = f" ({trajectory.coordinate_scaling})" if trajectory.coordinate_scaling else ""
        st.caption(f"Drawn at ({step.point.x:.0f}, {step.point.y:.0f}) in screenshot pixels{scaling}")
    st.markdown("**Observation**")
    st.text(step.observation or "(none logged)")
    if step.log_line is not None:
        st.caption(f"web_surfer.log line {step.log_line}")


def _step_requests(folder: str, fp: str, index: int) -> None:
    events = _events(folder, fp)
    if isinstance(events, str):
        return  # the Network tab says why
    during = events[events["step"] == index]
    with st.expander(f"Requests during this step ({len(during)})"):
        st.dataframe(during, hide_index=True, width="stretch")


def _film_window(frames: list[Frame], position: int) -> list[Frame]:
    start = max(0, min(position - FILM_SIDE, len(frames) - (2 * FILM_SIDE + 1)))
    return frames[start : start + 2 * FILM_SIDE + 1]


def _filmstrip(folder: Path, frames: list[Frame], position: int) -> None:
    window = _film_window(frames, position)
    paths = [_frame_path(folder, frame.screenshot) for frame in window]
    drawn = iter(
        thumbnails([(p, _point(f.step)) for p, f in zip(paths, window, strict=True) if p], THUMB_WIDTH)
    )
    for column, frame, path in zip(st.columns(2 * FILM_SIDE + 1), window, paths, strict=False):
        with column:
            image = next(drawn) if path is not None else None
            if isinstance(image, bytes):
                st.image(image, width="stretch", output_format="PNG")
            else:
                st.caption("unreadable" if path is not None else "no screenshot")
            current = frame is frames[position]
            st.button(
                str(frame.number),
                key=f"_film_{frame.number}",
                on_click=_go,
                args=(frame.number,),
                type="primary" if current else "secondary",
                width="stretch",
                help=escape_markdown(frame.step.action) if frame.step else None,
            )


@st.fragment
def _replay(folder_text: str, fp: str) -> None:
    """Only this part reruns when stepping; the frame after this one is rendered ahead meanwhile."""
    trajectory = load_trajectory_cached(folder_text, fp)
    folder = Path(folder_text)
    frames = _frames(trajectory)
    if not frames:
        st.info(
            "Nothing to replay: this trajectory has no logged steps and no screenshots"
            + (
                " (the WebArena-Verified layout keeps only the answer and the HAR)."
                if trajectory.layout == "webarena-verified"
                else "."
            )
        )
        return
    indices = [f.number for f in frames]
    position = _position(indices)
    frame = frames[position]
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button(
            "◀ Previous",
            key="_prev",
            on_click=_go,
            args=(indices[max(0, position - 1)],),
            disabled=position == 0,
            shortcut="Left",
        )
        st.button(
            "Next ▶",
            key="_next",
            on_click=_go,
            args=(indices[min(len(indices) - 1, position + 1)],),
            disabled=position == len(indices) - 1,
            shortcut="Right",
        )
        if len(indices) > 1:
            st.session_state[_SLIDER] = frame.number
            st.select_slider("Step", indices, key=_SLIDER, on_change=_slid, label_visibility="collapsed")
    after = st.toggle("Also show the page after this action", key="_show_after") and frame.step is not None
    image_col, detail_col = st.columns([3, 2])
    with image_col:
        name = frame.screenshot or "no screenshot"
        if after:
            before_col, after_col = st.columns(2)
            with before_col:
                _show_frame(folder, frame.screenshot, frame.step, f"{name}: the action")
            with after_col:
                following = _after_frame(trajectory, frame.screenshot)
                _show_frame(folder, following, None, f"{following or 'no later screenshot'}: after it")
        else:
            _show_frame(folder, frame.screenshot, frame.step, name)
    with detail_col:
        _step_details(trajectory, frame, len(frames))
        _step_requests(folder_text, fp, frame.number)
    _filmstrip(folder, frames, position)
    _prefetch(folder, frames, position)  # last: this step's elements are already on their way


# --- expected vs actual ---------------------------------------------------------------------


def _json_cell(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str) if value is not None else ""


def _style_match(value: object) -> str:
    colors = {"✓": "background-color: #d8f3dc", "✗": "background-color: #ffd6d6"}
    return colors.get(str(value), "")


def _agent_fields(result: dict[str, Any], response: AgentResponse | None) -> dict[str, Any]:
    """The agent's fields under the evaluator's names (its `actual` is the raw text when given text)."""
    actual = result.get("actual")
    if isinstance(actual, dict):
        return actual
    if response is not None and isinstance(response.engine_input, dict):
        return response.engine_input
    return response.parsed if response is not None and response.parsed is not None else {}


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _field_table(result: dict[str, Any], actual: dict[str, Any]) -> pd.DataFrame:
    """Expected vs actual vs normalized, per response field; a field is wrong when a failed
    assertion names it (the evaluator's own verdict, not a re-comparison). An unparseable answer
    has no normalized fields, only its assertion."""
    expected = _mapping(result.get("expected"))
    normalized = _mapping(result.get("actual_normalized"))
    fields = list(dict.fromkeys([*expected, *normalized, *actual]))
    failed = [
        str(a.get("assertion_name")) for a in result.get("assertions") or [] if a.get("status") != "success"
    ]
    unattributed = any(not any(f in name for f in fields) for name in failed)
    rows = []
    for field in fields:
        if any(field in name for name in failed):
            match = "✗"
        elif unattributed:
            match = "?"
        else:
            match = "✓"
        rows.append(
            {
                "field": field,
                "match": match,
                "expected": _json_cell(expected.get(field)),
                "agent, normalized": _json_cell(normalized.get(field)),
                "agent": _json_cell(actual.get(field)),
            }
        )
    return pd.DataFrame(rows, columns=["field", "match", "expected", "agent, normalized", "agent"])


def _assertion_table(results: list[dict[str, Any]]) -> pd.DataFrame:
    rows = [
        {
            "evaluator": f"{position}: {result.get('evaluator_name')}",
            "assertion": a.get("assertion_name"),
            "status": a.get("status"),
            "messages": "\n".join(a.get("assertion_msgs") or []) or a.get("error_msg") or "",
        }
        for position, result in enumerate(results)
        for a in result.get("assertions") or []
    ]
    return pd.DataFrame(rows, columns=["evaluator", "assertion", "status", "messages"])


def _verdict(outcome: ScoreOutcome) -> None:
    """The official status and score with the reason in plain words."""
    with st.container(horizontal=True):
        st.badge(outcome.status, color=_STATUS_COLORS.get(outcome.status, "gray"))
        if outcome.score is not None:
            st.badge(f"score {outcome.score:g}", color=_score_color(outcome.score))
        if outcome.evaluation is not None:
            engine = outcome.evaluation.engine
            st.caption(f"{engine.name} {engine.version} · evaluator {engine.evaluator_checksum[:12]}")
    if outcome.reason:
        st.text(outcome.reason)
    for note in outcome.notes:
        st.caption(escape_markdown(note))


def _fields_and_assertions(outcome: ScoreOutcome) -> None:
    """The agent-response fields side by side, then every assertion of the official result."""
    if outcome.evaluation is None:
        return
    results = outcome.evaluation.result.get("evaluators_results") or []
    result = next((r for r in results if r.get("evaluator_name") == "AgentResponseEvaluator"), None)
    if result is not None:
        table = _field_table(result, _agent_fields(result, outcome.evaluation.agent_response))
        st.dataframe(table.style.map(_style_match, subset=["match"]), hide_index=True, width="stretch")
    assertions = _assertion_table(results)
    if not assertions.empty:
        st.dataframe(assertions, hide_index=True, width="stretch")


def _expected_vs_actual(trajectory: Trajectory, task: Task | None, outcome: ScoreOutcome) -> None:
    if task is None:
        st.warning(
            f"Task {escape_markdown(trajectory.task_id)} is not in the task catalog: nothing to compare."
        )
        st.code(trajectory.final_answer_text or "(no answer)", language=None, wrap_lines=True)
        return
    _verdict(outcome)
    evaluation = outcome.evaluation
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
            st.error(f"No structured response found: {escape_markdown(response.parse_error)}")
        if response.findings:
            st.markdown(f"**Schema findings ({len(response.findings)})** — reported, never scored")
            st.text("\n".join(f"• {finding}" for finding in response.findings))
    if evaluation is not None:
        st.markdown("**Field by field** (match as decided by the evaluator's assertions)")
        _fields_and_assertions(outcome)
        if evaluation.network:
            passed = sum(1 for n in evaluation.network if n.passed)
            st.caption(
                f"This task also has {len(evaluation.network)} network check(s), {passed} passed: "
                "see the Network tab."
            )
        with st.expander("Official result (JSON)"):
            st.json(evaluation.result, expanded=False)


# --- network --------------------------------------------------------------------------------


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
            st.warning(escape_markdown(trace.limitation), icon="⚠️")
        elif trace.navigate_last_document_only:
            st.caption(
                "Navigate task with a GET check: the evaluator only looks at the last page navigation "
                "(known upstream limitation)."
            )
        if not trace.candidates:
            return
        rows = pd.DataFrame(
            [
                {
                    "entry": c.har_index,
                    "step": c.step,
                    "method": c.method,
                    "status": c.status,
                    "url": c.url,
                    "page load": c.is_document,
                    "kept": c.kept,
                    "matched": c.matched,
                }
                for c in trace.candidates
            ]
        ).astype({"step": "Int64", "entry": "Int64", "status": "Int64"})
        picked = st.dataframe(
            rows.style.apply(_style_candidates, axis=1),
            key=f"_candidates_{trace.position}",
            on_select="rerun",
            selection_mode="single-row",
            hide_index=True,
            width="stretch",
        )
        _request_jump(picked.selection.rows, [c.step for c in trace.candidates])
        st.caption(
            "Kept requests are highlighted (green when every field matches); select one to see its step."
        )
        for candidate in trace.candidates:
            if not (candidate.kept or candidate.matched) or not candidate.fields:
                continue
            st.markdown(f"**Entry {candidate.har_index}, field by field**")
            diff = pd.DataFrame(
                [
                    {
                        "field": f.field,
                        "match": "✓" if f.matches else "✗",
                        "expected": _json_cell(f.expected),
                        "actual": _json_cell(f.actual),
                        "message": f.message or "",
                    }
                    for f in candidate.fields
                ]
            )
            st.dataframe(diff.style.map(_style_match, subset=["match"]), hide_index=True, width="stretch")


def _network(trajectory: Trajectory, folder: str, fp: str, outcome: ScoreOutcome | None) -> None:
    events = _events(folder, fp)
    if trajectory.har_path is None:
        st.info("This trajectory has no network.har.")
    elif isinstance(events, str):
        st.error(f"network.har cannot be used: {escape_markdown(events)}")
    else:
        _events_table(events)
    traces = outcome.evaluation.network if outcome and outcome.evaluation else ()
    if traces:
        st.subheader(f"Network checks ({len(traces)})")
        for trace in traces:
            _check(trace)
    elif outcome is not None and outcome.evaluation is not None:
        st.caption("This task has no network checks.")


def _events_table(events: pd.DataFrame) -> None:
    left, right = st.columns([3, 1])
    query = left.text_input(
        "Search requests", key="_net_q", placeholder="part of a URL, a method or a status"
    )
    hide_static = right.toggle("Hide static assets", key="_net_static", value=True)
    shown = events
    if hide_static:
        shown = shown[~shown["type"].isin(_STATIC_TYPES)]
    if query:
        needle = query.lower()
        haystack = shown["method"] + " " + shown["status"].astype(str) + " " + shown["url"].str.lower()
        shown = shown[haystack.str.contains(needle, regex=False)]
    st.caption(
        f"{len(shown)} of {len(events)} requests · select one to jump to the step during which it fired"
    )
    picked = st.dataframe(
        shown,
        key="_network_table",
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        width="stretch",
        column_config={"url": st.column_config.TextColumn("url", width="large")},
    )
    _request_jump(picked.selection.rows, [None if pd.isna(s) else int(s) for s in shown["step"]])


# --- evidence -------------------------------------------------------------------------------


def _score_file_view(name: str, score: float | None, response: Any, text: str | None) -> None:
    st.markdown(f"**{escape_markdown(name)}** — score {score if score is not None else 'none'}")
    if isinstance(response, dict):
        if isinstance(response.get("rubric_items"), list):
            st.dataframe(pd.DataFrame(response["rubric_items"]), hide_index=True, width="stretch")
        verdict = {k: response[k] for k in _VERDICT_FIELDS if k in response}
        if verdict:
            st.dataframe(
                pd.DataFrame({"field": list(verdict), "value": [_json_cell(v) for v in verdict.values()]}),
                hide_index=True,
                width="stretch",
            )
        if isinstance(response.get("result"), dict):
            result = response["result"]
            st.text(f"status: {result.get('status')} · score: {result.get('score')}")
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
    errors_only = st.toggle(f"Errors only ({len(trajectory.error_lines)})", key="_core_errors")
    lines = trajectory.error_lines if errors_only else trajectory.core_log
    frame = pd.DataFrame(
        [
            {
                "line": r.line,
                "time": r.time.strftime("%Y-%m-%d %H:%M:%S") if r.time else None,
                "level": r.level,
                "logger": r.logger,
                "message": r.message,
            }
            for r in lines
        ],
        columns=["line", "time", "level", "logger", "message"],
    )
    errors = {r.line for r in trajectory.error_lines}
    st.dataframe(
        frame.style.apply(
            lambda row: ["background-color: #ffd6d6" if row["line"] in errors else ""] * len(row), axis=1
        ),
        hide_index=True,
        width="stretch",
        column_config={"message": st.column_config.TextColumn("message", width="large")},
    )


def _log_excerpt(folder: Path) -> str | None:
    path = inside_root(folder / "web_surfer.log")
    if path is None or not path.is_file():
        return None
    try:
        data = read_file(path, LOG_EXCERPT_BYTES + 1)
    except OSError:
        return None
    text = data[:LOG_EXCERPT_BYTES].decode("utf-8", errors="replace")
    return text + ("\n… (first 64 KB shown)" if len(data) > LOG_EXCERPT_BYTES else "")


def _evidence(trajectory: Trajectory, folder: Path) -> None:
    st.subheader(f"Score files ({len(trajectory.scores)})")
    if not trajectory.scores:
        st.caption("No score files yet: use the Re-score tab.")
    for name, score_file in sorted(trajectory.scores.items()):
        with st.container(border=True):
            _score_file_view(name, score_file.score, score_file.response, score_file.response_text)
    if trajectory.eval_result is not None:
        st.markdown("**eval_result.json** (the official CLI's verdict)")
        st.json(trajectory.eval_result, expanded=False)
    st.subheader("core.log")
    _core_log(trajectory)
    left, right = st.columns(2)
    with left:
        st.subheader("times.json")
        if trajectory.times is not None:
            st.json(trajectory.times.model_dump(mode="json"))
            moments = {"start": trajectory.times.start_time, "end": trajectory.times.end_time}
            st.caption(
                " · ".join(
                    f"{name} {datetime.fromtimestamp(value, UTC):%Y-%m-%d %H:%M:%S} UTC"
                    for name, value in moments.items()
                    if value is not None
                )
            )
        else:
            st.caption("No times.json.")
    with right:
        st.subheader("Token usage")
        usage = trajectory.final_answer.token_usage if trajectory.final_answer else {}
        if usage:
            rows = {name: u.model_dump(exclude_none=True) for name, u in usage.items()}
            rows["total"] = trajectory.token_usage.model_dump(exclude_none=True)
            st.dataframe(pd.DataFrame.from_dict(rows, orient="index"), width="stretch")
        else:
            st.caption("No token usage recorded.")
    st.subheader("Raw files")
    if trajectory.final_answer is not None:
        with st.expander(trajectory.answer_file or "final answer"):
            st.json(trajectory.final_answer.model_dump(mode="json"), expanded=True)
    elif trajectory.final_answer_text is not None:
        with st.expander("agent_response.json"):
            st.code(trajectory.final_answer_text, language=None, wrap_lines=True)
    excerpt = _log_excerpt(folder)
    if excerpt is not None:
        with st.expander("web_surfer.log"):
            st.code(excerpt, language=None, wrap_lines=True)
    if trajectory.task_data is not None:
        with st.expander("task_data.json"):
            st.json(trajectory.task_data, expanded=False)


# --- re-scoring -----------------------------------------------------------------------------


def _evaluator_rows(result: dict[str, Any] | None) -> dict[str, tuple[Any, Any]]:
    if not result:
        return {}
    rows = {"task": (result.get("status"), result.get("score"))}
    for position, r in enumerate(result.get("evaluators_results") or []):
        rows[f"{position}: {r.get('evaluator_name')}"] = (r.get("status"), r.get("score"))
    return rows


def _stored_result(trajectory: Trajectory) -> tuple[str | None, dict[str, Any] | None]:
    """The newest official verdict already on disk: its source and the official result."""
    verdict = read_verdict(trajectory.scores, trajectory.eval_result)
    if verdict is None:
        return None, None
    stored = trajectory.scores.get(verdict.source)
    if stored is not None and isinstance(stored.response, dict):
        return verdict.source, stored.response.get("result")
    return verdict.source, trajectory.eval_result


def _before_after(before: dict[str, Any] | None, after: dict[str, Any] | None) -> pd.DataFrame:
    old, new = _evaluator_rows(before), _evaluator_rows(after)
    rows = []
    for name in dict.fromkeys([*new, *old]):
        was, now = old.get(name, (None, None)), new.get(name, (None, None))
        rows.append(
            {
                "evaluator": name,
                "before": was[0],
                "before score": was[1],
                "after": now[0],
                "after score": now[1],
                "changed": was != now,
            }
        )
    return pd.DataFrame(
        rows, columns=["evaluator", "before", "before score", "after", "after score", "changed"]
    )


def _rescore_one(trajectory: Trajectory, folder: str) -> None:
    st.subheader("This trajectory")
    source, before = _stored_result(trajectory)
    st.caption(f"Stored verdict: {escape_markdown(source)}" if source else "No stored official verdict yet.")
    if st.button("Re-score with the official evaluator", key="_rescore_one", type="primary"):
        outcome = score_trajectory(Path(folder), config_root=current_root(), force=True)
        st.session_state[_RESCORED] = {"folder": folder, "before": before, "outcome": outcome}
        _forget_summaries()
        st.rerun()  # the header and the evidence re-read the new score file
    done = st.session_state.get(_RESCORED)
    if done and done["folder"] == folder:
        outcome = done["outcome"]
        _verdict(outcome)
        if outcome.score_file is not None:
            st.caption(f"Wrote {escape_markdown(outcome.score_file.relative_to(Path(folder)).as_posix())}")
        after = outcome.evaluation.result if outcome.evaluation else None
        table = _before_after(done["before"], after)
        if not table.empty:
            st.dataframe(table, hide_index=True, width="stretch")


def _rescore_many(run_key: str) -> None:
    st.subheader("Many trajectories")
    index = current_index()
    run = index.run(run_key)
    scopes: dict[str, list[Path]] = {}
    listed = [p for p in map(Path, st.session_state.get(LAST_TABLE_PATHS, [])) if inside_root(p)]
    if listed:
        scopes[f"the last filtered list ({len(listed)})"] = listed
    if run is not None:
        scopes[f"this run ({len(run.trajectory_dirs)})"] = list(run.trajectory_dirs)
    scopes[f"every run under the root ({sum(len(r.trajectory_dirs) for r in index.runs)})"] = [
        d for r in index.runs for d in r.trajectory_dirs
    ]
    scope = st.radio("Trajectories", list(scopes), key="_rescore_scope", horizontal=True)
    force = st.checkbox("Recompute even when a score file is up to date", key="_rescore_force")
    paths = scopes[scope]
    if st.button(f"Re-score {len(paths)} trajectories", key="_rescore_many"):
        bar = st.progress(0.0, text="Scoring…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / total if total else 1.0, text=f"Scored {done} of {total}")

        outcomes = score_trajectories(paths, config_root=current_root(), force=force, on_progress=progress)
        st.session_state[_BATCH] = outcomes
        _forget_summaries()
        st.rerun()  # the header re-reads this trajectory's new score file
    finished: list[ScoreOutcome] | None = st.session_state.get(_BATCH)
    if finished:
        tally = summarize(finished).overall
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
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "task": o.task_id,
                        "status": o.status,
                        "score": o.score,
                        "reused": o.reused,
                        "reason": o.reason,
                    }
                    for o in finished
                ]
            ),
            hide_index=True,
            width="stretch",
        )


def _what_if(trajectory: Trajectory, task: Task | None, folder: str) -> None:
    st.subheader("What if the agent had answered…")
    if task is None:
        st.caption("Only tasks of the catalog can be scored.")
        return
    st.caption("Edit the response and see the official verdict. Nothing is written.")
    text = trajectory.final_answer_text
    response = parse_agent_response(text) if text else None
    if response is not None and response.extracted_from == "text":
        default = json.dumps(response.parsed, indent=2, ensure_ascii=False)  # easier to edit
    else:
        default = text or json.dumps(
            {"task_type": task.task_type.upper(), "status": "SUCCESS", "retrieved_data": None}, indent=2
        )
    text = st.text_area("Agent response", value=default, key=f"_whatif_text:{folder}", height=200)
    if st.button("Show the verdict", key="_whatif_run"):
        hypothetical = trajectory.model_copy(update={"final_answer_text": text, "outcome": "answered"})
        st.session_state[_WHATIF] = {
            "folder": folder,
            "outcome": score_trajectory(hypothetical, config_root=current_root(), write=False),
        }
    done = st.session_state.get(_WHATIF)
    if done and done["folder"] == folder:
        outcome = done["outcome"]
        _verdict(outcome)
        _fields_and_assertions(outcome)


# --- annotate -------------------------------------------------------------------------------


def _annotate(run_key: str, trajectory: Trajectory) -> None:
    """Record what a reviewer decides about this verdict; earlier decisions stay listed."""
    file = default_annotations_file(current_root())
    verdict = read_verdict(trajectory.scores, trajectory.eval_result)
    st.caption(
        "Judging the verdict "
        + (f"**{verdict.status}** from `{verdict.source}`" if verdict else "(none: not scored yet)")
        + f". Annotations are kept in `{file}`, never inside the runs."
    )
    with st.form("annotate", clear_on_submit=True, border=False):
        label = st.radio("Decision", LABELS, horizontal=True, key="_annotation_label")
        note = st.text_area("Note", placeholder="Why? (shown as plain text)", key="_annotation_note")
        annotator = st.text_input("Your name", key="_annotator")
        if st.form_submit_button("Save annotation", type="primary"):
            add_annotation(
                file,
                Annotation(
                    run_key=run_key,
                    task_id=trajectory.task_id,
                    label=label,
                    note=note,
                    annotator=annotator,
                    verdict_source=verdict.source if verdict else None,
                    verdict_status=verdict.status if verdict else None,
                ),
            )
            st.toast("Annotation saved")
    annotations, problems = read_annotations(file)
    for problem in problems:
        st.warning(str(problem))
    mine = [a for a in annotations if (a.run_key, a.task_id) == (run_key, trajectory.task_id)]
    if mine:
        rows = pd.DataFrame(annotations_as_rows(reversed(mine)))
        rows["judged current verdict"] = rows["verdict_source"] == (verdict.source if verdict else None)
        st.dataframe(rows.drop(columns=["run_key", "task_id"]), hide_index=True, width="stretch")
    if annotations:
        st.download_button(
            f"Download all {len(annotations)} annotations of this root (CSV)",
            pd.DataFrame(annotations_as_rows(annotations)).to_csv(index=False),
            file_name="annotations.csv",
            mime="text/csv",
        )


# --- the page -------------------------------------------------------------------------------


summary = _choose()
if summary is None:
    st.info("Choose a run and a task, or open a trajectory from the Trajectories or Tasks page.")
    st.stop()
if summary.unreadable:
    st.error(f"This folder cannot be read: {escape_markdown(summary.unreadable)}")
    st.stop()
folder_path = inside_root(summary.path)
if folder_path is None:
    st.error("This trajectory folder is not inside the browsed root.")
    st.stop()
folder_print = fingerprint(folder_path)
try:
    trajectory = load_trajectory_cached(str(folder_path), folder_print)
except UnreadableError as exc:
    st.error(f"This folder cannot be read: {escape_markdown(exc.reason)}")
    st.stop()
try:
    task = load_catalog().get(trajectory.task_id)
except UnreadableError:
    task = None

_header(trajectory, task)
_take_pending_jump()
replay_tab, expected_tab, network_tab, evidence_tab, rescore_tab, annotate_tab = st.tabs(
    list(TABS), key="tab", bind="query-params"
)
if replay_tab.open:
    with replay_tab:
        _replay(str(folder_path), folder_print)
if expected_tab.open:
    with expected_tab:
        _expected_vs_actual(
            trajectory, task, _live_outcome(str(folder_path), folder_print, str(current_root()))
        )
if network_tab.open:
    with network_tab:
        live = _live_outcome(str(folder_path), folder_print, str(current_root())) if task else None
        _network(trajectory, str(folder_path), folder_print, live)
if evidence_tab.open:
    with evidence_tab:
        _evidence(trajectory, folder_path)
if rescore_tab.open:
    with rescore_tab:
        _rescore_one(trajectory, str(folder_path))
        _what_if(trajectory, task, str(folder_path))
        _rescore_many(summary.run_key)
if annotate_tab.open:
    with annotate_tab:
        _annotate(summary.run_key, trajectory)
