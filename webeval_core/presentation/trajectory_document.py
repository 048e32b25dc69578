"""One trajectory as a standalone HTML page, for demos and for sharing a failure with anyone.

Whoever receives it needs no tool. The page opens offline in any browser: every frame is
embedded as a data URI and nothing is loaded from anywhere (no script, font or stylesheet).
Everything an agent, a page, a log or a file wrote is escaped and shown as text, never as markup
or a link.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence

from webeval_core.presentation.frames import Frame, frames_of, step_marks
from webeval_core.presentation.html import IMAGE_WIDTH, badge, facts, page, pre, table, text
from webeval_core.presentation.overlay import page_frame
from webeval_core.presentation.tables import assertion_table, stored_result
from webeval_core.presentation.tones import OUTCOME_TONES, STATUS_TONES, verdict_badges
from webeval_core.presentation.trajectory_sections import (
    folder_task,
    judges_section,
    network_explanations,
    official_diff,
)
from webeval_core.presentation.wording import moment, plural
from webeval_core.reading.actionlog import Step
from webeval_core.reading.folderfiles import resolve_inside
from webeval_core.reading.markers import EVAL_RESULT_NAME
from webeval_core.reading.response import parse_agent_response
from webeval_core.reading.task_catalog import Task, load_catalog
from webeval_core.reading.trajectory_reader import Trajectory
from webeval_core.scoring import EvaluatorResult, TaskResult, read_verdict
from webeval_core.support.diagnostics import UnreadableError


def standalone_page(trajectory: Trajectory) -> str:
    """`trajectory_html` with the trajectory's task looked up in the installed catalog."""
    try:
        task = load_catalog().get(trajectory.task_id)
    except UnreadableError:
        task = None  # the page then says the task is not in the catalog, as the app does
    return trajectory_html(trajectory, task)


def trajectory_html(trajectory: Trajectory, task: Task | None, back: str | None = None) -> str:
    """The whole trajectory (header, verdict, answer, every step with its frame) as one HTML page.

    `back` is a relative link to the page that lists it (a run report), shown at the top.
    """
    frames = frames_of(trajectory)
    body = [
        f'<p><a href="{text(back)}">&larr; Run report</a></p>' if back else "",
        _header(trajectory, task),
        _verdict(trajectory),
        judges_section(trajectory),
        _answer(trajectory),
        _expected(trajectory, task),
        _index(frames),
        *(_frame_section(trajectory, frame, len(frames)) for frame in frames),
        _warnings(trajectory),
        f'<p class="caption">Exported by webeval from the folder {text(trajectory.path.name)}.</p>',
    ]
    return page(f"Task {trajectory.task_id} · webeval trajectory", body)


def trajectory_sections(trajectory: Trajectory, task: Task | None) -> tuple[str, ...]:
    """The page's parts above the steps (header, official verdict, judges, answer, expected vs
    actual with the network checks), each an HTML fragment: what a bundle's trajectory page shows
    as the exported page does.
    """
    parts = (
        _header(trajectory, task),
        _verdict(trajectory),
        judges_section(trajectory),
        _answer(trajectory),
        _expected(trajectory, task),
    )
    return tuple(part for part in parts if part)


# --- header, verdict, answer ----------------------------------------------------------------


def _header(trajectory: Trajectory, task: Task | None) -> str:
    if task is not None:
        intent = f'<p class="intent">{text(task.intent)}</p>'
        rows = [
            ("Sites", ", ".join(task.sites)),
            ("Task type", task.task_type),
            ("Start URL", " ".join(task.start_urls)),
        ]
    else:
        # A benchmark other than WebArena-Verified states its task in the folder (task_data.json).
        intent = (
            folder_task(trajectory) or '<p class="muted">Not a task of the WebArena-Verified catalog.</p>'
        )
        rows = []
    rows += [
        ("Layout", f"{trajectory.layout} ({trajectory.log_generation or 'no'} log)"),
        (
            "Steps",
            f"{plural(len(trajectory.steps), 'step')}, {plural(len(trajectory.screenshots), 'screenshot')}",
        ),
    ]
    if trajectory.duration_s is not None:
        rows.append(("Duration", f"{trajectory.duration_s:.0f} s"))
    usage = trajectory.token_usage
    if usage.prompt_tokens or usage.completion_tokens:
        rows.append(("Tokens", f"{usage.prompt_tokens} prompt, {usage.completion_tokens} completion"))
    badges = [badge(trajectory.outcome.replace("_", " "), OUTCOME_TONES.get(trajectory.outcome) or "")]
    badges += [
        badge(shown.text, shown.tone or "")
        for shown in verdict_badges(trajectory.scores, trajectory.eval_result)
    ]
    return (
        f"<header><h1>Task {text(trajectory.task_id)}</h1>{intent}"
        f"<div>{''.join(badges)}</div>{facts(rows)}</header>"
    )


def _verdict(trajectory: Trajectory) -> str:
    """The official verdict stored on disk (never re-scored here) and the assertions that failed."""
    verdict = read_verdict(trajectory.scores, trajectory.eval_result)
    if verdict is None:
        return ""
    status = verdict.status or "unknown"
    source = "the official CLI's eval_result.json" if verdict.source == EVAL_RESULT_NAME else verdict.source
    parts = [
        "<section><h2>Official verdict</h2>",
        badge(status, STATUS_TONES.get(status) or ""),
        badge(f"score {verdict.score:g}" if verdict.score is not None else "no score"),
        *(badge(tag, "bad") for tag in verdict.tags),
        f'<p class="caption">The official WebArena-Verified evaluator, from {text(source)}.</p>',
        official_diff(trajectory),
        _failed_assertions(stored_result(trajectory)[1]),
        "</section>",
    ]
    return "".join(parts)


def _failed_assertions(result: TaskResult | None) -> str:
    table = assertion_table(result.evaluators_results if result is not None else ())
    failed = table[table["status"] != "success"]
    if failed.empty:
        return ""
    rows = "".join(
        f"<tr><td>{text(r.evaluator)}</td><td>{text(r.assertion)}</td><td>{text(r.status)}</td>"
        f"<td>{pre(str(r.messages)) if r.messages else ''}</td></tr>"
        for r in failed.itertuples()
    )
    return (
        "<h3>Failed assertions</h3><table><tr><th>evaluator</th><th>assertion</th><th>status</th>"
        f"<th>messages</th></tr>{rows}</table>"
    )


def _answer(trajectory: Trajectory) -> str:
    return f"<section><h2>Final answer</h2>{pre(trajectory.final_answer_text or '(no answer)')}</section>"


def _expected(trajectory: Trajectory, task: Task | None) -> str:
    """What the task expects beside what the agent answered, then each network check's outcome."""
    if task is None:
        return ""
    answer = trajectory.final_answer_text
    response = parse_agent_response(answer) if answer else None
    if response is None:
        actual = "(no answer)"
    elif response.parsed is not None:
        actual = json.dumps(response.parsed, ensure_ascii=False, indent=2)
    else:
        actual = f"(no structured response: {response.parse_error})"
    expected = json.dumps(task.expected.model_dump(mode="json"), ensure_ascii=False, indent=2)
    rows = [(pre(expected), pre(actual))]
    return (
        "<section><h2>Expected vs actual</h2>"
        + table(("Expected (task catalog)", "Agent's response"), rows)
        + _network_checks(trajectory, task)
        + "</section>"
    )


def _network_checks(trajectory: Trajectory, task: Task) -> str:
    """Each network check the task makes: the request it wants and how the stored result judged it."""
    if not task.network_checks:
        return ""
    result = stored_result(trajectory)[1]
    outcomes = result.evaluators_results if result is not None else ()
    # The evaluator's own sentence ("product[price] differs ...") where the score file recorded
    # one; the raw assertion messages only for eval_result.json, which records none.
    explained = network_explanations(trajectory)
    rows = []
    for check in task.network_checks:
        judged = outcomes[check.position] if check.position < len(outcomes) else None
        url = " | ".join(check.url) if isinstance(check.url, tuple) else check.url
        wanted = f"{check.http_method} {url} -> {check.response_status}"
        if check.should_not_exist:
            wanted = f"no {wanted}"
        if check.last_event_only:
            wanted += " (only the last matching navigation counts)"
        status = judged.status.value if judged else "not scored"
        seen = text(explained[check.position]) if check.position in explained else _seen(judged)
        rows.append((text(wanted), badge(status, STATUS_TONES.get(status) or ""), seen))
    return "<h3>Network checks</h3>" + table(("Expected request", "Result", "What the evaluator saw"), rows)


def _seen(judged: EvaluatorResult | None) -> str:
    """The assertion messages of a network check and the requests it compared, as recorded."""
    if judged is None:
        return ""
    messages = [m for a in judged.all_assertions for m in a.messages]
    if judged.error_msg:
        messages.append(judged.error_msg)
    compared = judged.actual_normalized if judged.actual_normalized is not None else judged.actual
    if compared is not None:
        messages.append("compared: " + json.dumps(compared, ensure_ascii=False, default=str))
    return pre("\n".join(messages)) if messages else ""


# --- steps ----------------------------------------------------------------------------------


def _title(frame: Frame, total: int) -> str:
    if frame.step is None:
        return f"Screenshot {frame.number} of {total}"
    return f"Step {frame.number} of {total} · {frame.step.action}"


def _link_label(frame: Frame) -> str:
    return frame.step.action if frame.step is not None else frame.screenshot or "screenshot"


def _index(frames: Sequence[Frame]) -> str:
    if not frames:
        return '<section><p class="muted">No steps and no screenshots to show.</p></section>'
    items = "".join(
        f'<li value="{f.number}"><a href="#step-{f.number}">{text(_link_label(f))}</a></li>' for f in frames
    )
    heading = "Steps" if frames[0].step is not None else "Screenshots"
    return f'<nav><section><h2>{heading}</h2><ol class="index">{items}</ol></section></nav>'


def _image(trajectory: Trajectory, frame: Frame) -> str:
    """The frame embedded at the size the page shows it (`overlay.page_frame`), or what prevents
    showing it, in its place.
    """
    name = frame.screenshot
    if not name:
        return '<p class="missing">No screenshot for this step.</p>'
    path = resolve_inside(trajectory.path, name)
    if path is None:
        return f'<p class="missing">Screenshot {text(name)} lies outside the trajectory folder.</p>'
    try:
        # Not the memoized frame_image: a one-off export of 100 frames would push the replay's
        # cached frames out of its memo.
        image, mime = page_frame(path, IMAGE_WIDTH, **step_marks(frame.step))
    except UnreadableError as exc:
        return f'<p class="missing">Screenshot {text(name)}: {text(exc.reason)}</p>'
    data = base64.b64encode(image).decode("ascii")
    # Lazy decoding keeps a 100-frame page responsive while it opens.
    return (
        f'<figure><img src="data:{mime};base64,{data}" alt="{text(name)}" loading="lazy">'
        f"<figcaption>{text(name)}</figcaption></figure>"
    )


def _stepfacts(trajectory: Trajectory, step: Step) -> str:
    rows = [("Action", step.action)]
    if step.url:
        rows.append(("URL", step.url))
    if step.time_utc is not None:
        first = trajectory.steps[0].time_utc
        since = f" (+{(step.time_utc - first).total_seconds():.1f} s)" if first else ""
        rows.append(("Time", f"{moment(step.time_utc)}{since}"))
    if step.point is not None:
        scaling = f" ({trajectory.coordinate_scaling})" if trajectory.coordinate_scaling else ""
        rows.append(("Drawn at", f"({step.point.x:.0f}, {step.point.y:.0f}) in screenshot pixels{scaling}"))
    if step.log_line is not None:
        rows.append(("Log line", f"web_surfer.log line {step.log_line}"))
    blocks = [
        ("Arguments", json.dumps(step.arguments, ensure_ascii=False)),
        ("Thought", step.thought or "(none logged)"),
        ("Observation", step.observation or "(none logged)"),
    ]
    return facts(rows) + "".join(f"<h3>{label}</h3>{pre(text)}" for label, text in blocks)


def _frame_section(trajectory: Trajectory, frame: Frame, total: int) -> str:
    details = (
        _stepfacts(trajectory, frame.step)
        if frame.step is not None
        else '<p class="muted">The log has no steps; screenshots are shown in order without actions.</p>'
    )
    return (
        f'<article id="step-{frame.number}"><h2>{text(_title(frame, total))}</h2>'
        f"{_image(trajectory, frame)}{details}</article>"
    )


def _warnings(trajectory: Trajectory) -> str:
    if not trajectory.warnings:
        return ""
    lines = "\n".join(str(w) for w in trajectory.warnings)
    return (
        f"<section><details><summary>{len(trajectory.warnings)} warning(s) while reading this folder"
        f"</summary>{pre(lines)}</details></section>"
    )
