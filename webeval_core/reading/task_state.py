"""Where a task of a run stands while the run is going: finished, crashed, running or stalled.

One rule, from the files the harnesses write (Fara's `webeval/core.py`; the WebArena-Verified
agent's harness):
- finished: `times.json` (Fara writes it once the task's answer is in), an answer file (written
  just before it), `agent_response.json` (a WebArena-Verified agent log) or `eval_result.json`
  (the official CLI judged it);
- crashed: not finished, and core.log's last attempt logged `Error running task`;
- running: not finished, and a file of the folder changed within the window (10 minutes unless
  said otherwise);
- stalled: not finished and silent for longer.
A task resumed by a re-run (its folder emptied but for core.log, then started again) is *restarted*:
core.log holds more than one `[Execution <id>] Start`, the last one the attempt in progress.

The readers ask the same rule (`ending_without_answer`) what a folder without an answer is:
aborted once its task is over (crashed, or finished without an answer), else unfinished, which no
rate counts, neither as a failure nor as aborted.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Collection
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.corelog import parse_core_log
from webeval_core.reading.markers import ANSWER_SUFFIX

RUNNING_WINDOW_S = 600.0
"""How long a task may stay silent and still count as running (seconds)."""
FINISHED_MARKERS = ("times.json", "agent_response.json", "eval_result.json")
"""Files whose presence says the task's run is over (whatever its outcome)."""
_START = "] Start"
_CRASH = b"Error running task"
# The last attempt's start line; what follows it is the attempt in progress (or the last one).
_LAST_START = re.compile(rb"\[Execution [^\]\n]*\] Start[ \t\r]*$", re.MULTILINE)


class TaskState(StrEnum):
    """Where one task of a run stands."""

    FINISHED = "finished"
    CRASHED = "crashed"
    RUNNING = "running"
    STALLED = "stalled"

    @property
    def unfinished(self) -> bool:
        """Still going (running or stalled): never counted as a failure nor as aborted."""
        return self in (TaskState.RUNNING, TaskState.STALLED)


class TaskProgress(BaseModel):
    """A task folder's state, and what it was decided from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    state: TaskState
    """Finished, crashed, running or stalled."""
    last_change: float | None
    """When a file of the folder last changed (seconds since the epoch); None for an empty folder."""
    attempts: int
    """How many times core.log says the task was started (a resumed task: more than one)."""
    restarted_at: datetime | None = None
    """When the attempt in progress started, as core.log writes it (the writer's local time, no
    zone); None unless the task was started more than once."""

    @property
    def restarted(self) -> bool:
        """Whether the folder was emptied by a resume and the task started again."""
        return self.attempts > 1


def is_finished(names: Collection[str]) -> bool:
    """Whether a folder holding these file names is a task whose run is over."""
    return any(name in FINISHED_MARKERS or name.endswith(ANSWER_SUFFIX) for name in names)


def last_attempt_crashed(core_log: bytes | None) -> bool:
    """Whether core.log says the task's last attempt raised (`Error running task` after its last
    `[Execution <id>] Start`; anywhere when it logs no start).
    """
    if not core_log or _CRASH not in core_log:
        return False
    starts = list(_LAST_START.finditer(core_log))
    return core_log.find(_CRASH, starts[-1].end() if starts else 0) >= 0


def ending_without_answer(names: Collection[str], core_log: bytes | None) -> Literal["aborted", "unfinished"]:
    """What a folder without a usable answer is: aborted when its task is over (it crashed, or
    finished without an answer), else unfinished (still running, or silent since).
    """
    return "aborted" if is_finished(names) or last_attempt_crashed(core_log) else "unfinished"


def silent_state(last_change: float | None, now: float, window_s: float) -> TaskState:
    """An unfinished task's state at `now`: running while a file of it changed within the window,
    stalled after.
    """
    return TaskState.RUNNING if now - (last_change or 0.0) <= window_s else TaskState.STALLED


def task_progress(folder: Path, now: float | None = None, window_s: float = RUNNING_WINDOW_S) -> TaskProgress:
    """The state of one task folder at `now` (default: the current time)."""
    names, last_change = _listing(folder)
    attempts, crashed, started = _core_log(folder / "core.log") if "core.log" in names else (0, False, None)
    restarted_at = started if attempts > 1 else None
    if is_finished(names):
        state = TaskState.FINISHED
    elif crashed:
        state = TaskState.CRASHED
    else:
        state = silent_state(last_change, time.time() if now is None else now, window_s)
    return TaskProgress(state=state, last_change=last_change, attempts=attempts, restarted_at=restarted_at)


def _listing(folder: Path) -> tuple[set[str], float | None]:
    """The folder's file names and the newest change among them (or the folder's own)."""
    names: set[str] = set()
    newest: float | None = None
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                names.add(entry.name)
                try:
                    changed = entry.stat(follow_symlinks=False).st_mtime
                except OSError:  # removed while listed: a resume empties the folder as we read it
                    continue
                newest = changed if newest is None else max(newest, changed)
        newest = max(newest or 0.0, folder.stat().st_mtime)
    except OSError:
        return names, newest
    return names, newest


def _core_log(path: Path) -> tuple[int, bool, datetime | None]:
    """(attempts started, whether the last attempt crashed, when the last attempt started)."""
    try:
        data = path.read_bytes()
    except OSError:  # removed or unreadable while the run writes it: nothing said
        return 0, False, None
    crashed = last_attempt_crashed(data)
    if b"] Start" not in data:
        return 0, crashed, None
    records, _ = parse_core_log(data)
    starts = [r for r in records if r.message.startswith("[Execution ") and r.message.endswith(_START)]
    return len(starts), crashed, starts[-1].time if starts else None
