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
from html import escape

from webeval_core.diagnostics import UnreadableError
from webeval_core.presentation.frames import Frame, frames_of, step_marks
from webeval_core.presentation.overlay import render_overlay
from webeval_core.presentation.tables import assertion_table, stored_result
from webeval_core.presentation.tones import OUTCOME_TONES, STATUS_TONES, score_tone
from webeval_core.reading.actionlog import Step
from webeval_core.reading.folderfiles import resolve_inside
from webeval_core.reading.tasks import Task, load_catalog
from webeval_core.reading.trajectory import Trajectory
from webeval_core.scoring import TaskResult, read_verdict

# Defence in depth: should an unescaped value ever slip through, the browser still runs no script
# and fetches nothing; only inline styles and embedded images are allowed.
_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

_STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f;
       max-width: 1180px; margin: 0 auto; padding: 1.5rem; background: #fafafa; }
h1 { margin: 0 0 .3rem; } h2 { margin: 0 0 .6rem; font-size: 1.2rem; }
section, article { background: #fff; border: 1px solid #ddd; border-radius: 8px;
                   padding: 1rem 1.2rem; margin: 1rem 0; }
.intent { font-size: 1.1rem; margin: .2rem 0 .8rem; }
.muted, figcaption, .caption { color: #666; font-size: .85rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .6rem 0; }
dt { font-weight: 600; color: #444; } dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font: 13px/1.4 ui-monospace, monospace;
      background: #f4f4f6; padding: .5rem .6rem; border-radius: 4px; }
.badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .85rem;
         margin: 0 .3rem .3rem 0; background: #e9e9ee; color: #333; }
.good { background: #d8f3dc; color: #1b5e20; } .bad { background: #ffd6d6; color: #8b0000; }
.partial { background: #ffe8c2; color: #7a4a00; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid #eee; padding: .3rem .4rem; }
ol.index { columns: 4 13rem; margin: 0; padding-left: 2.2rem; font-size: .9rem; }
figure { margin: 0 0 .6rem; } img { max-width: 100%; height: auto; border: 1px solid #ccc; }
.missing { background: #fff4e5; border: 1px dashed #e0a040; padding: 1.5rem; border-radius: 4px; }
"""


def standalone_page(trajectory: Trajectory) -> str:
    """`trajectory_html` with the trajectory's task looked up in the installed catalog."""
    try:
        task = load_catalog().get(trajectory.task_id)
    except UnreadableError:
        task = None  # the page then says the task is not in the catalog, as the app does
    return trajectory_html(trajectory, task)


def trajectory_html(trajectory: Trajectory, task: Task | None) -> str:
    """The whole trajectory (header, verdict, answer, every step with its frame) as one HTML page."""
    frames = frames_of(trajectory)
    body = [
        _header(trajectory, task),
        _verdict(trajectory),
        _answer(trajectory),
        _index(frames),
        *(_frame_section(trajectory, frame, len(frames)) for frame in frames),
        _warnings(trajectory),
        f'<p class="caption">Exported by webeval from the folder {_text(trajectory.path.name)}.</p>',
    ]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>Task {_text(trajectory.task_id)} · webeval trajectory</title>",
            f"<style>{_STYLE}</style>",
            "</head><body>",
            *(part for part in body if part),
            "</body></html>",
            "",
        ]
    )


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def _badge(label: str, css: str = "") -> str:
    return f'<span class="{f"badge {css}" if css else "badge"}">{_text(label)}</span>'


def _facts(rows: Sequence[tuple[str, str]]) -> str:
    return "<dl>" + "".join(f"<dt>{_text(k)}</dt><dd>{_text(v)}</dd>" for k, v in rows) + "</dl>"


def _pre(text: str) -> str:
    return f"<pre>{_text(text)}</pre>"


# --- header, verdict, answer ----------------------------------------------------------------


def _header(trajectory: Trajectory, task: Task | None) -> str:
    if task is not None:
        intent = f'<p class="intent">{_text(task.intent)}</p>'
        facts = [
            ("Sites", ", ".join(task.sites)),
            ("Task type", task.task_type),
            ("Start URL", " ".join(task.start_urls)),
        ]
    else:
        intent = '<p class="muted">Not a task of the WebArena-Verified catalog.</p>'
        facts = []
    facts += [
        ("Layout", f"{trajectory.layout} ({trajectory.log_generation or 'no'} log)"),
        ("Steps", f"{len(trajectory.steps)} steps, {len(trajectory.screenshots)} screenshots"),
    ]
    if trajectory.duration_s is not None:
        facts.append(("Duration", f"{trajectory.duration_s:.0f} s"))
    usage = trajectory.token_usage
    if usage.prompt_tokens or usage.completion_tokens:
        facts.append(("Tokens", f"{usage.prompt_tokens} prompt, {usage.completion_tokens} completion"))
    badges = [_badge(trajectory.outcome.replace("_", " "), OUTCOME_TONES.get(trajectory.outcome) or "")]
    for name, score_file in sorted(trajectory.scores.items()):
        shown = "no score" if score_file.score is None else f"{score_file.score:g}"
        badges.append(_badge(f"{name}: {shown}", score_tone(score_file.score) or ""))
    if not trajectory.scores:
        badges.append(_badge("not scored"))
    return (
        f"<header><h1>Task {_text(trajectory.task_id)}</h1>{intent}"
        f"<div>{''.join(badges)}</div>{_facts(facts)}</header>"
    )


def _verdict(trajectory: Trajectory) -> str:
    """The official verdict stored on disk (never re-scored here) and the assertions that failed."""
    verdict = read_verdict(trajectory.scores, trajectory.eval_result)
    if verdict is None:
        return ""
    status = verdict.status or "unknown"
    parts = [
        "<section><h2>Official verdict</h2>",
        _badge(status, STATUS_TONES.get(status) or ""),
        _badge(f"score {verdict.score:g}" if verdict.score is not None else "no score"),
        *(_badge(tag, "bad") for tag in verdict.tags),
        f'<p class="caption">from {_text(verdict.source)}</p>',
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
        f"<tr><td>{_text(r.evaluator)}</td><td>{_text(r.assertion)}</td><td>{_text(r.status)}</td>"
        f"<td>{_pre(str(r.messages)) if r.messages else ''}</td></tr>"
        for r in failed.itertuples()
    )
    return (
        "<h3>Failed assertions</h3><table><tr><th>evaluator</th><th>assertion</th><th>status</th>"
        f"<th>messages</th></tr>{rows}</table>"
    )


def _answer(trajectory: Trajectory) -> str:
    return f"<section><h2>Final answer</h2>{_pre(trajectory.final_answer_text or '(no answer)')}</section>"


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
        f'<li value="{f.number}"><a href="#step-{f.number}">{_text(_link_label(f))}</a></li>' for f in frames
    )
    heading = "Steps" if frames[0].step is not None else "Screenshots"
    return f'<nav><section><h2>{heading}</h2><ol class="index">{items}</ol></section></nav>'


def _image(trajectory: Trajectory, frame: Frame) -> str:
    """The frame as an embedded JPEG, or what prevents showing it, in its place."""
    name = frame.screenshot
    if not name:
        return '<p class="missing">No screenshot for this step.</p>'
    path = resolve_inside(trajectory.path, name)
    if path is None:
        return f'<p class="missing">Screenshot {_text(name)} lies outside the trajectory folder.</p>'
    try:
        # Not the memoized frame_image: a one-off export of 100 frames would push the replay's
        # cached frames out of its memo.
        jpeg = render_overlay(path, **step_marks(frame.step), fmt="JPEG")
    except UnreadableError as exc:
        return f'<p class="missing">Screenshot {_text(name)}: {_text(exc.reason)}</p>'
    data = base64.b64encode(jpeg).decode("ascii")
    # Lazy decoding keeps a 100-frame page responsive while it opens.
    return (
        f'<figure><img src="data:image/jpeg;base64,{data}" alt="{_text(name)}" loading="lazy">'
        f"<figcaption>{_text(name)}</figcaption></figure>"
    )


def _step_facts(trajectory: Trajectory, step: Step) -> str:
    rows = [("Action", step.action)]
    if step.url:
        rows.append(("URL", step.url))
    if step.time_utc is not None:
        first = trajectory.steps[0].time_utc
        since = f" (+{(step.time_utc - first).total_seconds():.1f} s)" if first else ""
        rows.append(("Time", f"{step.time_utc:%Y-%m-%d %H:%M:%S} UTC{since}"))
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
    return _facts(rows) + "".join(f"<h3>{label}</h3>{_pre(text)}" for label, text in blocks)


def _frame_section(trajectory: Trajectory, frame: Frame, total: int) -> str:
    details = (
        _step_facts(trajectory, frame.step)
        if frame.step is not None
        else '<p class="muted">The log has no steps; screenshots are shown in order without actions.</p>'
    )
    return (
        f'<article id="step-{frame.number}"><h2>{_text(_title(frame, total))}</h2>'
        f"{_image(trajectory, frame)}{details}</article>"
    )


def _warnings(trajectory: Trajectory) -> str:
    if not trajectory.warnings:
        return ""
    lines = "\n".join(str(w) for w in trajectory.warnings)
    return (
        f"<section><details><summary>{len(trajectory.warnings)} warning(s) while reading this folder"
        f"</summary>{_pre(lines)}</details></section>"
    )
