"""core.log parsing: records, continuation lines (tracebacks), errors, damaged text."""

from __future__ import annotations

from datetime import datetime

from webeval_core.reading.corelog import parse_core_log

CORE_LOG = """\
2025-11-10 13:14:35,184 [INFO] webeval.core.alltrails_find_23 - [Execution alltrails_find_23] Start
2025-11-10 13:14:36,002 [INFO] webeval.core.alltrails_find_23 - Initializing BrowserBase session...
2025-11-10 13:15:01,500 [ERROR] webeval.core.alltrails_find_23 - Error running task: Timeout
Traceback (most recent call last):
  File "/src/webeval/core.py", line 90, in run_single_task

playwright._impl._errors.TimeoutError: Timeout 30000ms exceeded.
2025-11-10 13:15:02,000 [WARNING] webeval.core.alltrails_find_23 - Trajectory is not complete. Reexecuting...
2026-03-26 09:00:00,000 [INFO] webeval.core.t - [Evaluation t] Completed: score=1, duration=12.5
"""


def test_records_and_continuations() -> None:
    lines, problems = parse_core_log(CORE_LOG.encode())
    assert problems == []
    assert [(r.line, r.level) for r in lines] == [
        (1, "INFO"),
        (2, "INFO"),
        (3, "ERROR"),
        (8, "WARNING"),
        (9, "INFO"),
    ]
    first = lines[0]
    assert first.time == datetime(2025, 11, 10, 13, 14, 35, 184000)
    assert first.logger == "webeval.core.alltrails_find_23"
    assert first.message == "[Execution alltrails_find_23] Start"
    error = lines[2]
    assert error.is_error
    assert error.message.splitlines()[0] == "Error running task: Timeout"
    assert (
        error.message.splitlines()[-1] == "playwright._impl._errors.TimeoutError: Timeout 30000ms exceeded."
    )
    assert len(error.message.splitlines()) == 5
    assert [r.is_error for r in lines] == [False, False, True, False, False]
    assert lines[-1].message.endswith("score=1, duration=12.5")


def test_text_before_the_first_record_is_kept_and_reported() -> None:
    lines, problems = parse_core_log(b"\nstray output\n" + CORE_LOG.encode())
    assert lines[0].level is None
    assert lines[0].message == "\nstray output"
    assert [(p.file, p.line, p.message) for p in problems] == [
        ("core.log", 1, "text before the first log record kept as is")
    ]
    assert len(lines) == 6


def test_non_utf8_and_impossible_dates() -> None:
    data = (
        CORE_LOG.encode().replace(b"Initializing", b"Initi\xffalizing").replace(b"2026-03-26", b"2026-13-26")
    )
    lines, problems = parse_core_log(data)
    assert [(p.line, p.message) for p in problems] == [
        (2, "invalid UTF-8 bytes on 1 line(s) replaced with U+FFFD")
    ]
    assert lines[1].message == "Initi\ufffdalizing BrowserBase session..."
    assert lines[-1].time is None
    assert lines[-1].level == "INFO"


def test_empty_core_log() -> None:
    assert parse_core_log(b"") == ((), [])
