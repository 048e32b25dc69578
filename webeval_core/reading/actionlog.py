r"""web_surfer.log -> agent steps, for the three generations of Fara / webeval writers.

1. text: `OtherEvent` lines "Thought #N: ...\nAction #N: executing tool '<tool>' with arguments {...}"
   and "Observation#N: ..." (arguments are JSON, sometimes a Python literal, sometimes followed by text);
2. fara-structured: `computer_use` lines (typed OtherEvent, source FaraAgent) with the real action
   in `arguments.action`, usually between the text lines of the same step;
3. solver: `WebSurferEvent` lines from source "WebSurfer", each with a "WebSurfer-SummarizedAction"
   companion (action null, message "Action N: URL=..., tool({python repr})").

The reader keeps going past blank lines, truncated or non-JSON lines (e.g. a Python traceback)
and broken bytes, and reports each as a `Diagnostic` naming the line (`logrecords`: lines ->
records and the writer's generation; this module: records -> steps, and their count).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from json.scanner import make_scanner
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict

from webeval_core.reading.coordinates import Point
from webeval_core.reading.folderfiles import (
    UNDECIDED,
    decode_text,
    fast_loads,
    finite_decoder,
    has_long_number,
    non_finite_diagnostics,
    replace_non_finite,
)
from webeval_core.reading.logrecords import (
    OPENERS,
    SUMMARY_SOURCE,
    Generation,
    Record,
    clip,
    find_text_action,
    generation_of,
    read_records,
    record_message,
    writer_generation,
)
from webeval_core.reading.markers import LOG_NAME
from webeval_core.support.diagnostics import Diagnostic

_OBSERVATION = re.compile(r"\s*Observation ?#(\d{1,9}):\s?(.*)", re.DOTALL)
_SUMMARY = re.compile(r"Action \d+: URL=(\S*), (\w+)\((.*)\)\s*", re.DOTALL)
_SCROLL_UP = {"scroll_up", "page_up"}
_SCROLL_DOWN = {"scroll_down", "page_down"}
_TYPE_ACTIONS = {"type", "input_text"}
_NUMBERS = (int, float)
_DECODER = finite_decoder()  # NaN / Infinity arguments become null, with a warning
# No number hooks, and no Python wrapper: faster where no value is kept.
_SCAN: Callable[[str, int], tuple[Any, int]] = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]
_LITERAL_TRIES = 20  # closing braces tried, from the last, when arguments are not plain JSON


class Step(BaseModel):
    """One agent action.

    The log gives everything but `screenshot`, `point` and `time_utc`, which need the folder's
    screenshots and times.json; the trajectory loader fills them in.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    """1-based position among the agent's actions, one per action in log order."""
    action: str
    """The real action ("left_click", not "computer_use"); aliases such as "click" kept as written."""
    arguments: dict[str, Any]
    """The action's arguments as logged (coordinates in the model's space), without the thoughts."""
    thought: str | None = None
    """The agent's reasoning before the action ("Thought #N" text or `arguments.thoughts`; else, in
    solver logs, the arguments' `state_description` and `reasoning`); None if absent."""
    thought_from_arguments: bool = False
    """Whether `thought` came from the arguments' `reasoning` / `state_description` (none logged)."""
    url: str | None = None
    """The page URL the log gives for the action (structured lines, solver summaries); None in text logs."""
    timestamp: datetime | None = None
    """When the action was logged, as written in web_surfer.log (naive local time); None if absent."""
    time_utc: datetime | None = None
    """`timestamp` moved to UTC with the folder's inferred offset; None without a timestamp or offset."""
    observation: str | None = None
    """What the agent observed after the action ("Observation#N" text); None when none was logged."""
    screenshot: str | None = None
    """Path, relative to the folder, of the screenshot the action was taken on; None when it is missing."""
    point: Point | None = None
    """The logged coordinate in that screenshot's pixels; None without a coordinate or a screenshot."""
    typed_text: str | None = None
    """The text of a type / input_text action (`text` or `text_value`); None for other actions."""
    scroll: Literal["up", "down"] | None = None
    """Which way a scroll action moved the page; None for other actions or an unknown direction."""
    log_line: int | None = None
    """1-based line of web_surfer.log holding the action; None for steps not built from the log."""


class ActionLog(BaseModel):
    """What a web_surfer.log says: the steps, which writer produced it, and what was skipped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    steps: tuple[Step, ...] = ()
    """The agent's actions in log order, without screenshots, points or UTC times yet."""
    generation: Generation | None = None
    """Which writer produced the log (text, fara-structured, solver); None when no action was found."""
    first_time: datetime | None = None
    """Timestamp of the first line that has one (naive local time), to infer the UTC offset."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Lines skipped or read with a guess (blank, truncated, non-JSON, not understood), in log order."""


def logged_coordinate(arguments: dict[str, Any]) -> tuple[float, float] | None:
    """The (x, y) an action was aimed at, in the model's space, when it has one."""
    value = arguments.get("coordinate")
    if isinstance(value, list | tuple) and len(value) == 2:
        x, y = value
        if type(x) in _NUMBERS and type(y) in _NUMBERS:  # exact types: True is not a coordinate
            return float(x), float(y)
    return None


def parse_action_log(data: bytes, file: str = LOG_NAME) -> ActionLog:
    """Parse the bytes of a web_surfer.log; never raises on bad content."""
    text, diagnostics = decode_text(data, file)
    records = read_records(text, file, diagnostics, long_numbers=has_long_number(data))
    if not records and not diagnostics:
        diagnostics.append(Diagnostic(file=file, message="is empty: no action was logged"))
    generation = generation_of(records)
    if records and generation is None:
        diagnostics.append(Diagnostic(file=file, message=f"{len(records)} line(s) but no agent action"))
    builder = _StepBuilder(file, generation, diagnostics)
    for record in records:
        builder.add(record)
    steps = builder.finish()
    first_time = next((r.time for r in records if r.time is not None), None)
    return ActionLog(
        steps=steps, generation=generation, first_time=first_time, diagnostics=tuple(diagnostics)
    )


def count_steps(data: bytes) -> int:
    """How many steps `parse_action_log(data)` gives, without building them (for the index).

    The same lines become records and text and structured lines pair the same way; nothing the
    count does not depend on is read (arguments, times, thoughts, summaries, NaN fields).
    """
    events: list[tuple[Any, ...]] = []
    solver = structured = text = False
    for record in _line_records(data):
        action = record.get("action")
        source = record.get("source")
        if type(action) is str and source != SUMMARY_SOURCE:  # `structured_action`, inline
            structured = True
            solver = solver or source == "WebSurfer"
            events.append((_STRUCTURED, _inner_action(action, record)))
            continue
        message = record.get("message")
        if type(message) is not str:
            continue
        match = find_text_action(message) if "executing tool" in message else None
        if match:
            text = True  # a summary line saying "Action #N" names the writer only
            if source != SUMMARY_SOURCE:
                events.append((_TEXT, int(match.group(1)), match.group(2)))
        elif (
            source != SUMMARY_SOURCE
            and "Observation" in message
            and (observed := _OBSERVATION.match(message))
        ):
            events.append((_OBSERVED, int(observed.group(1))))
    return _count(events, writer_generation(solver=solver, structured=structured, text=text))


_STRUCTURED, _TEXT, _OBSERVED = range(3)  # what a line is to the step count


def _inner_action(action: str, record: dict[str, Any]) -> Any:
    """A structured line's real action: `arguments.action` of a "computer_use" line, else `action`."""
    if action != "computer_use":
        return action
    arguments = record.get("arguments")
    inner = arguments.get("action") if type(arguments) is dict else None
    return inner if type(inner) is str else action


def _line_records(data: bytes) -> list[dict[str, Any]]:
    """The JSON object of each line, as `parse_action_log` decodes it (numbers aside: none is counted)."""
    records = []
    loads = orjson.loads
    for raw in data.split(b"\n"):
        if not raw:
            continue
        # A line orjson reads as bytes is valid UTF-8 holding one JSON value between JSON spaces,
        # so its text strips to the same record; any other line takes the text's own way (other
        # spaces, bad bytes, text after the record: `_SCAN`).
        try:
            record = loads(raw)
        except orjson.JSONDecodeError:
            record = _text_record(raw)
        if type(record) is dict:  # a JSON decoder makes plain dicts
            records.append(record)
    return records


def _text_record(raw: bytes) -> Any:
    """The record of one line read as text (`parse_action_log`'s way); None when it holds none."""
    stripped = raw.decode("utf-8", errors="replace").strip()
    if stripped[:1] not in OPENERS:
        return None
    record = fast_loads(stripped, long_numbers=False)
    if record is UNDECIDED:
        try:
            record = _SCAN(stripped, 0)[0]  # raw_decode's scanner: accepts exactly what _DECODER does
        except (StopIteration, ValueError, RecursionError):
            return None
    return record


def _count(events: list[tuple[Any, ...]], generation: Generation | None) -> int:
    """`_StepBuilder`'s pairing of text and structured lines, counting the steps it would build."""
    steps = 0
    pending: tuple[Any, ...] | None = None  # a text action (kind, number, tool) awaiting its structured line
    for event in events:
        if event[0] == _STRUCTURED:
            steps += 1 + (pending is not None and pending[2] != event[1])
            pending = None
        elif event[0] == _TEXT:
            if generation == "text":
                steps += 1
            else:
                steps += pending is not None
                pending = event
        elif pending is not None and pending[1] == event[1]:
            steps += 1
            pending = None
    return steps + (pending is not None)


@dataclass
class _Draft:
    """A step while its lines are still being read (observations and summaries arrive later)."""

    line: int
    """1-based log line of the action (becomes `Step.log_line`)."""
    action: str
    """The real action name, as in `Step.action`."""
    arguments: dict[str, Any]
    """The action's arguments; a later summary line may add missing keys."""
    thought: str | None
    """The agent's reasoning, as in `Step.thought`."""
    url: str | None
    """The page URL; a later summary line may fill it in."""
    timestamp: datetime | None
    """When the action was logged (naive local time)."""
    number: int | None = None
    """The writer's own "#N", used to match the observation; None for structured-only steps."""
    observation: str | None = None
    """The "Observation#N" text, once its line has been read."""
    summarized: bool = False
    """Whether a "WebSurfer-SummarizedAction" line has been merged into (or refused for) this step."""


@dataclass
class _TextAction:
    """A "Thought #N / Action #N" line, parsed only if it becomes a step or its thought is needed."""

    line: int
    """1-based log line of the message."""
    number: int
    """The N of "Action #N"."""
    tool: str
    """The tool named in "executing tool '<tool>'"."""
    message: str
    """The whole log message, thought and arguments included."""
    action_at: int
    """Where "Action #N" starts in the message."""
    arguments_at: int
    """Where the arguments start in the message (just after "with arguments")."""
    timestamp: datetime | None
    """When the line was logged (naive local time)."""


@dataclass
class _StepBuilder:
    """Turns records into steps, pairing the lines that belong to one action."""

    file: str
    """The log's name, for diagnostics."""
    generation: Generation | None
    """The log's writer, which decides whether a text action line is a step or an announcement."""
    diagnostics: list[Diagnostic]
    """Where problems are reported (shared with the line reader)."""
    drafts: list[_Draft] = field(default_factory=list)
    """Steps so far, in log order."""
    pending_text: _TextAction | None = None
    """A text action waiting for its structured line."""
    pending_summary: tuple[int, str, str, dict[str, Any]] | None = None
    """A summary (line, url, tool, arguments) read before the action it summarizes."""

    def add(self, record: Record) -> None:
        if record.action is not None:
            self._add_structured(record, record.action)
            return
        message = record_message(record)
        if record.data.get("source") == SUMMARY_SOURCE:
            self._add_summary(record.line, message)
        elif "executing tool" in message and (match := find_text_action(message)):
            self._add_text_action(record, message, match)
        elif "Observation" in message and (obs := _OBSERVATION.match(message)):
            self._add_observation(record.line, int(obs.group(1)), obs.group(2).strip())

    def finish(self) -> tuple[Step, ...]:
        self._recover_pending_text()
        if self.pending_summary is not None:
            self._warn(self.pending_summary[0], "summarized action follows no action; skipped")
        return tuple(
            Step(
                index=i,
                action=d.action,
                arguments=d.arguments,
                thought=d.thought if d.thought is not None else _argument_thought(d.arguments),
                thought_from_arguments=d.thought is None and _argument_thought(d.arguments) is not None,
                url=d.url,
                timestamp=d.timestamp,
                observation=d.observation,
                typed_text=_typed_text(d.action, d.arguments),
                scroll=_scroll(d.action, d.arguments),
                log_line=d.line,
            )
            for i, d in enumerate(self.drafts, start=1)
        )

    def _warn(self, line: int, message: str) -> None:
        self.diagnostics.append(Diagnostic(file=self.file, line=line, message=message))

    def _add_structured(self, record: Record, top: str) -> None:
        data = record.data
        raw_args = data.get("arguments")
        if raw_args is not None and not isinstance(raw_args, dict):
            self._warn(record.line, "arguments are not an object; ignored")
        arguments = dict(raw_args) if isinstance(raw_args, dict) else {}
        action = top
        if top == "computer_use":
            inner = arguments.get("action")
            if isinstance(inner, str):
                action = inner
            else:
                self._warn(record.line, "computer_use line has no arguments.action; kept as 'computer_use'")
        thought = _thought_text(arguments.pop("thoughts", None))
        text = self.pending_text
        if text is not None and text.tool != action:
            self._recover_pending_text()
            text = None
        self.pending_text = None
        url = data.get("url")
        self._append(
            _Draft(
                line=record.line,
                action=action,
                arguments=arguments,
                thought=thought if thought is not None or text is None else _text_thought(text),
                url=url if isinstance(url, str) else None,
                timestamp=record.time,
                number=text.number if text else None,
            )
        )

    def _add_text_action(self, record: Record, message: str, match: re.Match[str]) -> None:
        text = _TextAction(
            line=record.line,
            number=int(match.group(1)),
            tool=match.group(2),
            message=message,
            action_at=match.start(),
            arguments_at=match.end(),
            timestamp=record.time,
        )
        if self.generation == "text":
            self._append_text(text)
            return
        # In structured logs this line announces the structured line that follows it.
        self._recover_pending_text()
        self.pending_text = text

    def _text_arguments(self, line: int, text: str) -> dict[str, Any]:
        start = text.find("{")
        if start < 0:
            self._warn(line, "action has no arguments object; kept with no arguments")
            return {}
        body = text[start:]
        try:
            value, end = _DECODER.raw_decode(body)
            value, fields = replace_non_finite(value)
            self.diagnostics.extend(non_finite_diagnostics(self.file, fields, line))
        except (ValueError, RecursionError):
            value, end = _python_literal(body)
            if value is None:
                self._warn(
                    line, "action arguments are neither JSON nor a Python literal; kept with no arguments"
                )
                return {}
            self._warn(line, "action arguments are a Python literal, not JSON; read with ast.literal_eval")
        if body[end:].strip():
            self._warn(line, f"text after the action arguments ignored: {clip(body[end:].strip())!r}")
        if not isinstance(value, dict):
            self._warn(line, "action arguments are not an object; kept with no arguments")
            return {}
        return value

    def _recover_pending_text(self) -> None:
        text = self.pending_text
        if text is None:
            return
        self.pending_text = None
        self._warn(
            text.line, f"action #{text.number} has no structured line; step rebuilt from this text line"
        )
        self._append_text(text)

    def _append_text(self, text: _TextAction) -> None:
        arguments = self._text_arguments(text.line, text.message[text.arguments_at :])
        action = arguments.get("action")
        thoughts = arguments.pop("thoughts", None)
        thought = _text_thought(text)
        self._append(
            _Draft(
                line=text.line,
                action=action if isinstance(action, str) else text.tool,
                arguments=arguments,
                thought=thought if thought is not None else _thought_text(thoughts),
                url=None,
                timestamp=text.timestamp,
                number=text.number,
            )
        )

    def _append(self, draft: _Draft) -> None:
        self.drafts.append(draft)
        if self.pending_summary is not None:
            summary, self.pending_summary = self.pending_summary, None
            self._merge_summary(draft, *summary)

    def _add_observation(self, line: int, number: int, text: str) -> None:
        if self.pending_text is not None and self.pending_text.number == number:
            self._recover_pending_text()  # the observation follows the structured line, so none came
        # An observation follows its action within a few lines; looking further back is never right.
        target = next((d for d in reversed(self.drafts[-3:]) if d.number == number), None)
        if target is None and self.drafts and self.drafts[-1].observation is None:
            target = self.drafts[-1]
        if target is None:
            self._warn(line, f"observation #{number} belongs to no logged action; skipped")
            return
        target.observation = text

    def _add_summary(self, line: int, message: str) -> None:
        match = _SUMMARY.fullmatch(message)
        if match is None:
            self._warn(line, "summarized action not understood; skipped")
            return
        url, tool, inner = match.group(1), match.group(2), match.group(3).strip()
        arguments = _python_literal(inner)[0] if inner else {}
        if not isinstance(arguments, dict):
            self._warn(line, "summarized action arguments not understood; only its URL is used")
            arguments = {}
        last = self.drafts[-1] if self.drafts else None
        if last is not None and not last.summarized:
            self._merge_summary(last, line, url, tool, arguments)
        else:
            self.pending_summary = (line, url, tool, arguments)

    def _merge_summary(
        self, draft: _Draft, line: int, url: str, tool: str, arguments: dict[str, Any]
    ) -> None:
        draft.summarized = True
        if tool != draft.action:
            self._warn(
                line, f"summarized action '{tool}' does not match the action '{draft.action}'; not merged"
            )
            return
        if draft.url is None and url:
            draft.url = url
        for key, value in arguments.items():
            draft.arguments.setdefault(key, value)


def _text_thought(text: _TextAction) -> str | None:
    """What follows "Thought #N:" up to the action, as upstream's regex reads it."""
    start = text.message.find("Thought #", 0, text.action_at)
    colon = text.message.find(":", start, text.action_at) if start >= 0 else -1
    return text.message[colon + 1 : text.action_at].strip() if colon >= 0 else None


def _python_literal(text: str) -> tuple[Any, int]:
    """The Python literal at the start of `text` ending at one of its last closing braces."""
    end = len(text)
    for _ in range(_LITERAL_TRIES):
        end = text.rfind("}", 0, end)
        if end < 0:
            break
        try:
            return ast.literal_eval(text[: end + 1]), end + 1
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None, 0


def _thought_text(value: object) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


_REASONING_ARGUMENTS = ("state_description", "reasoning")  # solver actions carry their reasoning here


def _argument_thought(arguments: dict[str, Any]) -> str | None:
    """The reasoning a solver action keeps in its arguments, labelled when there are several parts."""
    parts = [
        (k, arguments[k])
        for k in _REASONING_ARGUMENTS
        if isinstance(arguments.get(k), str) and arguments[k].strip()
    ]
    if len(parts) == 1:
        return str(parts[0][1])
    return "\n\n".join(f"{key}: {value}" for key, value in parts) or None


def _typed_text(action: str, arguments: dict[str, Any]) -> str | None:
    if action not in _TYPE_ACTIONS:
        return None
    value = arguments.get("text", arguments.get("text_value"))
    return None if value is None else str(value)


def _scroll(action: str, arguments: dict[str, Any]) -> Literal["up", "down"] | None:
    if action in _SCROLL_UP:
        return "up"
    if action in _SCROLL_DOWN:
        return "down"
    if action != "scroll":
        return None
    direction = arguments.get("direction")
    if direction in ("up", "down"):
        return "up" if direction == "up" else "down"
    pixels = arguments.get("pixels")
    if isinstance(pixels, int | float) and pixels:
        return "up" if pixels > 0 else "down"  # Fara: positive pixels scroll up
    return None
