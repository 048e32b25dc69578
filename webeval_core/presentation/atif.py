"""A trajectory in the Agent Trajectory Interchange Format (ATIF, Harbor's RFC 0001), for the tools
that read it.

One ATIF document per trajectory: a user step with the task (and the page the first action was
taken on, an image part by relative path), then an agent step per action of web_surfer.log (the
model's thought as `reasoning_content`, the action as one tool call with its arguments, the page it
led to as the observation: its text and the screenshot the next action was taken on), then the
final answer. Token counts go in `final_metrics`; the run, the outcome and
every judge's verdict in `extra.webeval`. The models below follow the RFC's field tables (v1.6:
image parts by path); Harbor's own models need Python 3.12, so tests/core/presentation check these
documents against a JSON schema written from the RFC.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.presentation.redaction import Redactor, redact_trajectory
from webeval_core.reading.actionlog import Step
from webeval_core.reading.embedded_images import container_of
from webeval_core.reading.screenshots import frame_bytes
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory
from webeval_core.runs.discovery import Run
from webeval_core.runs.summary import RootIndex, TrajectorySummary
from webeval_core.support.diagnostics import UnreadableError

__all__ = ["ATIF_VERSION", "AtifTrajectory", "atif_of", "write_atif_folder"]

ATIF_VERSION = "ATIF-v1.6"
"""The RFC version written."""
_NOT_KNOWN = "unknown"  # the RFC requires an agent version; a run's folder does not name one


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AtifAgent(_Model):
    """The agent system that ran the trajectory."""

    name: str
    """The agent system, e.g. "WebSurfer-fara-100-max_n_images-3" (the run's system folder)."""
    version: str
    """Its version; "unknown" when the run does not say."""
    model_name: str | None = None
    """The model, e.g. "fara-7b" (the run's model folder)."""


class AtifImageSource(_Model):
    """Where an image part's bytes are."""

    media_type: str
    """The image's type, e.g. "image/png"."""
    path: str
    """The image file, relative to the ATIF document."""


class AtifContentPart(_Model):
    """One part of a message or an observation: text, or an image by path."""

    type: Literal["text", "image"]
    """Which kind of part."""
    text: str | None = None
    """A text part's text."""
    source: AtifImageSource | None = None
    """An image part's file."""


class AtifObservationResult(_Model):
    """What one action led to."""

    source_call_id: str | None = None
    """The tool call it answers."""
    content: str | list[AtifContentPart] | None = None
    """The page after the action: the agent's observation text and the screenshot."""


class AtifObservation(_Model):
    """The environment's feedback after a step's actions."""

    results: list[AtifObservationResult]
    """One result per action."""


class AtifToolCall(_Model):
    """One action of the agent."""

    tool_call_id: str
    """Its id, answered by the observation's `source_call_id`."""
    function_name: str
    """The action, e.g. "left_click"."""
    arguments: dict[str, Any]
    """The action's arguments as logged."""


class AtifStep(_Model):
    """One turn: the task (user), or an action or the answer (agent)."""

    step_id: int
    """1, 2, 3..."""
    timestamp: str | None = None
    """When it happened, ISO 8601 in UTC; None when the log gives no time."""
    source: Literal["system", "user", "agent"]
    """Who spoke."""
    model_name: str | None = None
    """The model, on agent steps."""
    message: str | list[AtifContentPart]
    """The task (with the start page as an image part), the answer, or "" for an action."""
    reasoning_content: str | None = None
    """The agent's thought before the action."""
    tool_calls: list[AtifToolCall] | None = None
    """The action, as a tool call."""
    observation: AtifObservation | None = None
    """What the action led to."""
    extra: dict[str, Any] | None = None
    """The page's URL and the web_surfer.log line of the action."""


class AtifFinalMetrics(_Model):
    """The trajectory's totals."""

    total_prompt_tokens: int | None = None
    """Prompt tokens over the run (the answer file's token usage)."""
    total_completion_tokens: int | None = None
    """Completion tokens over the run."""
    total_steps: int
    """Steps of this document."""


class AtifTrajectory(_Model):
    """One trajectory as ATIF."""

    schema_version: str = ATIF_VERSION
    """The RFC version."""
    session_id: str
    """The run's key and the task id: unique under a root."""
    agent: AtifAgent
    """The agent system."""
    steps: list[AtifStep]
    """The task, the actions, the answer."""
    notes: str | None = None
    """How this document was made."""
    final_metrics: AtifFinalMetrics | None = None
    """Token totals."""
    extra: dict[str, Any] | None = None
    """`webeval`: run, task, outcome, every judge's verdict."""


def atif_of(
    trajectory: Trajectory,
    run: Run,
    task_text: str | None,
    verdicts: dict[str, Any],
    images: dict[str, str],
) -> AtifTrajectory:
    """The ATIF document of a (redacted) trajectory. `images` maps each screenshot of the folder to
    its path beside the document; `verdicts` is what `extra.webeval.verdicts` says.
    """
    model = run.model
    task = task_text or f"task {trajectory.task_id}"
    start = trajectory.steps[0].screenshot if trajectory.steps else None
    opening = _parts(task, start, images)
    steps = [AtifStep(step_id=1, source="user", message=opening if len(opening) > 1 else task)]
    # The page an action led to is the one the next action was taken on (the last: the final page).
    led_to = [*(s.screenshot for s in trajectory.steps[1:]), trajectory.final_page][: len(trajectory.steps)]
    for step, after in zip(trajectory.steps, led_to, strict=True):
        steps.append(_action(step, len(steps) + 1, model, _parts(step.observation, after, images)))
    if trajectory.final_answer_text:
        steps.append(
            AtifStep(
                step_id=len(steps) + 1, source="agent", model_name=model, message=trajectory.final_answer_text
            )
        )
    usage = trajectory.token_usage
    counted = trajectory.final_answer is not None and bool(trajectory.final_answer.token_usage)
    return AtifTrajectory(
        session_id=f"{run.key}/{trajectory.task_id}",
        agent=AtifAgent(name=run.system or trajectory.layout, version=_NOT_KNOWN, model_name=model),
        steps=steps,
        notes="Written by webeval from the run's folder: web_surfer.log's actions, screenshots by path.",
        final_metrics=AtifFinalMetrics(
            total_prompt_tokens=usage.prompt_tokens if counted else None,
            total_completion_tokens=usage.completion_tokens if counted else None,
            total_steps=len(steps),
        ),
        extra={
            "webeval": {
                "run": run.key,
                "task_id": trajectory.task_id,
                "layout": trajectory.layout,
                "outcome": trajectory.outcome,
                "verdicts": verdicts,
            }
        },
    )


def _parts(text: str | None, screenshot: str | None, images: dict[str, str]) -> list[AtifContentPart]:
    """A text and a screenshot as content parts (an image only where it is written beside the
    document), each left out when there is none.
    """
    parts: list[AtifContentPart] = []
    if text:
        parts.append(AtifContentPart(type="text", text=text))
    if screenshot and screenshot in images:
        source = AtifImageSource(media_type=_media_type(images[screenshot]), path=images[screenshot])
        parts.append(AtifContentPart(type="image", source=source))
    return parts


def _action(step: Step, step_id: int, model: str | None, parts: list[AtifContentPart]) -> AtifStep:
    call = f"call_{step.index}"
    when = step.time_utc
    return AtifStep(
        step_id=step_id,
        timestamp=when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        if isinstance(when, datetime)
        else None,
        source="agent",
        model_name=model,
        message="",
        reasoning_content=step.thought,
        tool_calls=[
            AtifToolCall(tool_call_id=call, function_name=step.action, arguments=dict(step.arguments))
        ],
        observation=AtifObservation(
            results=[AtifObservationResult(source_call_id=call, content=parts or None)]
        ),
        extra={"url": step.url, "log_line": step.log_line},
    )


def _media_type(name: str) -> str:
    suffix = name.rsplit(".", 1)[-1].lower()
    return {"jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp"}.get(suffix, "image/png")


_JPEG = b"\xff\xd8"  # a JPEG's first bytes (an embedded frame is a PNG otherwise)
DOCUMENT = "trajectory.json"
"""Each trajectory's ATIF document, in its own folder beside its screenshots."""


def write_atif_folder(
    index: RootIndex,
    folder: Path,
    redactor: Redactor,
    runs: frozenset[str] = frozenset(),
    on_progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """An ATIF document per readable trajectory of the index (of `runs`, when given), each at
    `<run key>/<task folder>/trajectory.json` with its screenshots beside it (hard links where the
    file system allows, else copies), every text passed through `redactor`. The documents written.
    """
    chosen = [s for s in index.summaries if not s.unreadable and (not runs or s.run_key in runs)]
    written: list[Path] = []
    for done, summary in enumerate(chosen, start=1):
        run = index.run(summary.run_key)
        if run is None:
            continue
        try:
            trajectory = load_trajectory(summary.path)
        except UnreadableError:
            continue
        where = f"{summary.run_key} · {summary.task_id}"
        target = folder / summary.run_key / summary.path.name
        written.append(_write_document(redact_trajectory(trajectory, redactor, where), run, summary, target))
        if on_progress is not None:
            on_progress(done, len(chosen))
    return written


def _write_document(trajectory: Trajectory, run: Run, summary: TrajectorySummary, target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    images = {}
    for name in trajectory.screenshots:
        copied = _frame_copy(trajectory.path / name, target)
        if copied is not None:
            images[name] = copied
    verdicts: dict[str, Any] = dict(sorted(summary.scores.items()))
    if summary.verdict is not None:
        verdicts["official"] = {"status": summary.verdict.status, "score": summary.verdict.score}
    document = atif_of(trajectory, run, summary.task_text or trajectory.task_id, verdicts, images)
    path = target / DOCUMENT
    path.write_text(document.model_dump_json(indent=2, exclude_none=True), encoding="utf-8")
    return path


def _frame_copy(source: Path, target: Path) -> str | None:
    """The name of a frame's copy beside the document: its file linked (or copied); an image kept
    inside a step file (`reading.embedded_images`) written out as a file of its own, the export
    being ours to write; None when it cannot be read.
    """
    held = container_of(source)
    if held is None:
        copy = target / source.name
        if source.is_file() and not copy.exists():
            _link_or_copy(source, copy)
        return copy.name
    try:
        data = frame_bytes(source)
    except OSError:
        return None
    suffix = "jpg" if data.startswith(_JPEG) else "png"
    copy = target / f"{held[0].name.split('.', 1)[0]}-{held[1]}.{suffix}"  # 002_obs-0.png
    if not copy.exists():
        copy.write_bytes(data)
    return copy.name


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system, or links refused: a copy
        shutil.copyfile(source, target)
