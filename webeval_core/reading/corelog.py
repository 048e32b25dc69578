"""core.log: the per-task webeval.core log (execution and evaluation lifecycle, errors).

Lines follow `%(asctime)s [%(levelname)s] %(name)s - %(message)s`. Several passes (the solve,
later re-evaluations) append to one file; multi-line messages such as tracebacks continue on
lines without that prefix and belong to the record above them.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import decode_text
from webeval_core.reading.markers import CORE_LOG_NAME
from webeval_core.support.diagnostics import Diagnostic

_RECORD = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) \[(\w+)\] (\S+) - ?(.*)")
_ERROR_LEVELS = {"ERROR", "CRITICAL", "FATAL"}
_ERROR_MARKS = tuple(f"[{level}]".encode() for level in sorted(_ERROR_LEVELS))


class CoreLogLine(BaseModel):
    """One core.log record; `message` includes its continuation lines."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int
    """1-based line of core.log where the record starts."""
    time: datetime | None = None
    """The record's time to the millisecond, naive local time as written; None when it is not a date."""
    level: str | None = None
    """The logging level in brackets (INFO, ERROR...); None for text before the first record."""
    logger: str | None = None
    """The logger's name (e.g. "webeval.core.<id>"); None for text before the first record."""
    message: str
    """The text after " - ", with its continuation lines (a traceback) joined by newlines."""

    @property
    def is_error(self) -> bool:
        """Whether the record was logged at ERROR level or above."""
        return self.level in _ERROR_LEVELS


def parse_core_log(
    data: bytes, file: str = CORE_LOG_NAME
) -> tuple[tuple[CoreLogLine, ...], list[Diagnostic]]:
    """Records of a core.log; text before the first record is kept as a record without a level."""
    text, diagnostics = decode_text(data, file)
    blocks: list[tuple[int, re.Match[str] | None, list[str]]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        match = _RECORD.fullmatch(line) if line[:2].isdigit() else None
        if match is not None:
            blocks.append((number, match, [match.group(5)]))
        elif blocks:
            blocks[-1][2].append(line)
        else:
            blocks.append((number, None, [line]))
    records: list[CoreLogLine] = []
    for start, head, parts in blocks:
        message = "\n".join(parts).rstrip()
        if head is not None:
            records.append(
                CoreLogLine(
                    line=start,
                    time=_time(head.group(1), head.group(2)),
                    level=head.group(3),
                    logger=head.group(4),
                    message=message,
                )
            )
        elif message.strip():
            records.append(CoreLogLine(line=start, message=message))
            diagnostics.append(
                Diagnostic(file=file, line=start, message="text before the first log record kept as is")
            )
    return tuple(records), diagnostics


def last_error_message(data: bytes) -> str | None:
    """The message of the last record logged at ERROR level or above (as `parse_core_log` reads
    it); None when there is none. A log without an error level in brackets is not parsed at all.
    """
    if not any(mark in data for mark in _ERROR_MARKS):
        return None
    errors = [record for record in parse_core_log(data)[0] if record.is_error]
    return errors[-1].message if errors else None


def _time(seconds: str, millis: str) -> datetime | None:
    try:
        return datetime.fromisoformat(f"{seconds}.{millis}")
    except ValueError:  # digits in the right places but not a date, e.g. month 13
        return None
