"""web_surfer.log's lines -> JSON records, and which writer generation (text, fara-structured,
solver) wrote them; what `actionlog` builds steps from and `count_steps` counts them by.

Blank lines, lines that are not JSON (a Python traceback), truncated last lines, text after a
record and timestamps not understood become `Diagnostic`s naming the line; nothing raises.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any, Literal, NamedTuple

from webeval_core.reading.folderfiles import (
    UNDECIDED,
    fast_loads,
    finite_decoder,
    non_finite_diagnostics,
    replace_non_finite,
)
from webeval_core.support.diagnostics import Diagnostic

Generation = Literal["text", "fara-structured", "solver"]
"""Which writer wrote a log: text lines, FaraAgent's structured lines, or the solver's."""

SUMMARY_SOURCE = "WebSurfer-SummarizedAction"
"""The source of the solver's companion lines ("Action N: URL=..., tool(...)"), which are no action."""
OPENERS = ("{", "[")
"""How a JSON record line starts."""
_TEXT_ACTION = re.compile(r"Action #(\d{1,9}): executing tool '([^']*)' with arguments\s*")
_DECODER = finite_decoder()  # NaN / Infinity arguments become null, with a warning


class Record(NamedTuple):
    """One JSON line of the log."""

    line: int
    """1-based line number in web_surfer.log."""
    data: dict[str, Any]
    """The decoded JSON object."""
    time: datetime | None
    """Its `timestamp` parsed (naive local time); None when absent or not understood."""
    action: str | None
    """The `action` of a structured line; None on text lines and summarized companions."""


def read_records(
    text: str, file: str, diagnostics: list[Diagnostic], *, long_numbers: bool = True
) -> list[Record]:
    """The JSON object lines of a log's text; every other line is reported to `diagnostics`."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    last = len(lines) - 1  # the last non-blank line, where a crash leaves a truncated record
    while last >= 0 and not lines[last].strip():
        last -= 1
    records: list[Record] = []
    blank: list[int] = []
    junk: list[int] = []  # a run of consecutive non-JSON lines, reported as one

    def flush_junk() -> None:
        if junk:
            diagnostics.append(_junk_diagnostic(file, junk, lines))
            junk.clear()

    for i, raw in enumerate(lines):
        stripped = raw.strip()
        if not stripped:
            blank.append(i + 1)
            continue
        if stripped[0] not in "{[":
            junk.append(i + 1)
            continue
        flush_junk()
        decoded = _decode_line(stripped, long_numbers, file, i + 1, i == last, diagnostics)
        if decoded is None:
            continue
        obj, end = decoded
        if end < len(stripped):
            diagnostics.append(
                Diagnostic(
                    file=file,
                    line=i + 1,
                    message=f"text after the JSON object ignored: {clip(stripped[end:])!r}",
                )
            )
        if not isinstance(obj, dict):
            diagnostics.append(
                Diagnostic(file=file, line=i + 1, message="is JSON but not an object; skipped")
            )
            continue
        time = _time_of(obj, file, i + 1, diagnostics)
        records.append(Record(i + 1, obj, time, structured_action(obj)))
    flush_junk()
    if blank:
        diagnostics.append(
            Diagnostic(file=file, line=blank[0], message=f"{len(blank)} blank line(s) skipped")
        )
    return records


def _decode_line(
    stripped: str, long_numbers: bool, file: str, line: int, is_last: bool, diagnostics: list[Diagnostic]
) -> tuple[Any, int] | None:
    """A line's JSON value (non-finite numbers as null, with a warning) and where it ended; None
    (with the reason) when it is not JSON.
    """
    fast = fast_loads(stripped, long_numbers=long_numbers)
    if fast is not UNDECIDED:
        return fast, len(stripped)
    try:  # json says what is wrong with the line, or reads it with a warning
        obj, end = _DECODER.raw_decode(stripped)
    except (ValueError, RecursionError) as exc:
        diagnostics.append(Diagnostic(file=file, line=line, message=_undecodable(exc, is_last)))
        return None
    obj, fields = replace_non_finite(obj)
    diagnostics.extend(non_finite_diagnostics(file, fields, line))
    return obj, end


def _undecodable(exc: Exception, is_last: bool) -> str:
    if not isinstance(exc, json.JSONDecodeError | RecursionError):
        return "holds a number too long to read (or another value JSON readers refuse); skipped"
    if is_last:
        return "last line is truncated (the writer probably stopped mid-line); skipped"
    return "is not valid JSON; skipped"


def _junk_diagnostic(file: str, numbers: list[int], lines: list[str]) -> Diagnostic:
    first, final = numbers[0], numbers[-1]
    span = f"line {first}" if first == final else f"lines {first}-{final}"
    head = lines[first - 1].strip()
    if head.startswith("Traceback"):
        what = f"a Python traceback ending {clip(lines[final - 1].strip())!r}"
    else:
        what = f"text that is not JSON: {clip(head)!r}"
    return Diagnostic(file=file, line=first, message=f"{span}: {what}; skipped")


def _time_of(obj: dict[str, Any], file: str, line: int, diagnostics: list[Diagnostic]) -> datetime | None:
    value = obj.get("timestamp")
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        diagnostics.append(
            Diagnostic(file=file, line=line, message=f"timestamp {clip(str(value))!r} not understood")
        )
        return None


def structured_action(data: dict[str, Any]) -> str | None:
    """The `action` of a structured line; None for text lines and the solver's summary companions."""
    action = data.get("action")
    if isinstance(action, str) and data.get("source") != SUMMARY_SOURCE:
        return action
    return None


def record_message(record: Record) -> str:
    """The record's `message` text ("" when it has none)."""
    message = record.data.get("message")
    return message if isinstance(message, str) else ""


def generation_of(records: list[Record]) -> Generation | None:
    """Which writer wrote these records (`writer_generation`); None when none is an agent action."""
    structured = [r for r in records if r.action is not None]
    messages = (record_message(r) for r in records)
    return writer_generation(
        solver=any(r.data.get("source") == "WebSurfer" for r in structured),
        structured=bool(structured),
        text=not structured and any(find_text_action(m) for m in messages if "executing tool" in m),
    )


def writer_generation(*, solver: bool, structured: bool, text: bool) -> Generation | None:
    """The generation of a log that has a "WebSurfer" structured line, else any structured line,
    else any text action line.
    """
    if solver:
        return "solver"
    if structured:
        return "fara-structured"
    return "text" if text else None


def find_text_action(message: str) -> re.Match[str] | None:
    """The "Action #N: executing tool '...' with arguments" of a text line, or None."""
    # str.find then an anchored match: much cheaper than a regex search over long thoughts
    at = message.find("Action #")
    while at >= 0:
        match = _TEXT_ACTION.match(message, at)
        if match:
            return match
        at = message.find("Action #", at + 1)
    return None


def clip(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters with an ellipsis (for messages quoting the log)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
