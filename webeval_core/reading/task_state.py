"""A task's state, decided once: finished, aborted, crashed, running or stalled (the last two:
unfinished), from the files the harnesses write.

What says a task's run is over is its format's (`reading.formats`: each `TrajectoryFormat.ended`
reads the few small files that tell, and this module loops over none of them by name): Fara's
times.json (its run loop writes the answer file, then times.json once the task returned; a resume
runs again every folder without it, so an answer alone is not over), a WebArena-Verified agent
log's agent_response.json, AgentLab's summary_info.json, cube-harness's status.json once its
status is terminal, a Harbor trial's result.json, Online-Mind2Web's result.json; the official
CLI's eval_result.json for the two WebArena-Verified layouts. Then, in one rule:
- finished: over with a usable answer that is not aborted (answered, or out of budget: no answer);
  the rates count these, an unanswered one as a failure;
- aborted: over without a usable answer (the harness gave up and saved an aborted trajectory, or
  wrote none), left out of every rate as upstream does;
- crashed: the task raised: its harness recorded the exception (AgentLab's err_msg, cube-harness's
  FAILED status, a Harbor trial's exception), or it is not over and core.log's last attempt logged
  `Error running task`; counted as aborted (left out of rates), named apart so a view can say
  which tasks raised;
- running: not over, and a file of the folder changed within the window (10 minutes unless said
  otherwise); stalled: silent for longer. Neither is counted, as a failure or as aborted.
A task resumed by a re-run (its folder emptied but for core.log, then started again) is *restarted*:
core.log holds more than one `[Execution <id>] Start`, the last one the attempt in progress.

The readers' outcome (`Ending`) is this rule's too (`answer_ending`, `ending_without_answer`), and
`state_of` turns an outcome back into the state, so `ls`, `watch`, the Live page and the index's
counts (`runs.metrics.Headline`) say the same of one folder.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.corelog import parse_core_log
from webeval_core.reading.folderfiles import read_file
from webeval_core.reading.folderreader import FolderReader, read_guarded
from webeval_core.reading.formats import TaskEnd, format_of
from webeval_core.reading.trajectory_model import NO_ANSWER_MARKER, Ending
from webeval_core.support.diagnostics import UnreadableError

RUNNING_WINDOW_S = 600.0
"""How long a task may stay silent and still count as running (seconds)."""
FINISHED_OUTCOMES = frozenset({"answered", "no_answer"})
"""The outcomes (`Ending`) of a finished task: what the rates count."""
_START = "] Start"
_CRASH = b"Error running task"
# The last attempt's start line; what follows it is the attempt in progress (or the last one).
_LAST_START = re.compile(rb"\[Execution [^\]\n]*\] Start[ \t\r]*$", re.MULTILINE)


class TaskState(StrEnum):
    """Where one task of a run stands (the module's rule)."""

    FINISHED = "finished"
    ABORTED = "aborted"
    CRASHED = "crashed"
    RUNNING = "running"
    STALLED = "stalled"

    @property
    def unfinished(self) -> bool:
        """Still going (running or stalled): never counted as a failure nor as aborted."""
        return self in (TaskState.RUNNING, TaskState.STALLED)

    @property
    def left_out(self) -> bool:
        """Over without a usable answer (aborted or crashed): left out of every rate."""
        return self in (TaskState.ABORTED, TaskState.CRASHED)


class TaskProgress(BaseModel):
    """A task folder's state, and what it was decided from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    state: TaskState
    """Finished, aborted, crashed, running or stalled."""
    last_change: float | None
    """When a file of the folder last changed (seconds since the epoch); None for an empty folder."""
    attempts: int
    """How many times core.log says the task was started (a resumed task: more than one)."""
    restarted_at: datetime | None = None
    """When the attempt in progress started, as core.log writes it (the writer's local time, no
    zone); None unless the task was started more than once."""
    ended_at: float | None = None
    """When the file that says the run is over (`TaskEnd.marker`) was last written (seconds since
    the epoch): when the task ended; None while it is not over (or that file is gone)."""

    @property
    def restarted(self) -> bool:
        """Whether the folder was emptied by a resume and the task started again."""
        return self.attempts > 1


class StateCounts(BaseModel):
    """How many tasks of a set stand in each state: what `ls`, `watch`, the Live page and the
    index's headline (`runs.metrics.Headline`: finished, aborted, crashed, unfinished) all say.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    finished: int = 0
    """Finished: answered, or out of budget (no answer); the rates count these."""
    aborted: int = 0
    """Aborted, crashed ones included: over without a usable answer, left out of rates."""
    crashed: int = 0
    """Of the aborted, those whose last attempt raised."""
    running: int = 0
    """Unfinished, and written to within the window."""
    stalled: int = 0
    """Unfinished, and silent for longer."""

    @property
    def unfinished(self) -> int:
        """Running or stalled: neither failures nor aborted."""
        return self.running + self.stalled

    @property
    def over(self) -> int:
        """Finished or aborted."""
        return self.finished + self.aborted


def count_states(states: Iterable[TaskState]) -> StateCounts:
    """THE count of a set of task states."""
    found = Counter(states)
    return StateCounts(
        finished=found[TaskState.FINISHED],
        aborted=found[TaskState.ABORTED] + found[TaskState.CRASHED],
        crashed=found[TaskState.CRASHED],
        running=found[TaskState.RUNNING],
        stalled=found[TaskState.STALLED],
    )


def last_attempt_crashed(core_log: bytes | None) -> bool:
    """Whether core.log says the task's last attempt raised (`Error running task` after its last
    `[Execution <id>] Start`; anywhere when it logs no start).
    """
    if not core_log or _CRASH not in core_log:
        return False
    starts = list(_LAST_START.finditer(core_log))
    return core_log.find(_CRASH, starts[-1].end() if starts else 0) >= 0


def has_crashed(over: bool, core_log: bytes | None) -> bool:
    """Whether a task whose run is `over` or not (its format's word) crashed by core.log: not
    over, and its last attempt raised.
    """
    return not over and last_attempt_crashed(core_log)


def ending_without_answer(over: bool, core_log: bytes | None) -> Literal["aborted", "unfinished"]:
    """What a folder without a usable answer is: aborted when its task is `over` (it crashed, or
    finished without an answer), else unfinished (still running, or silent since).
    """
    return "aborted" if over or last_attempt_crashed(core_log) else "unfinished"


def answer_ending(over: bool, core_log: bytes | None, answered: Ending) -> Ending:
    """A folder holding a usable answer file: what the answer says (`answered`) once the task is
    `over` (Fara: times.json written), else what a folder without one is (crashed: aborted; else
    unfinished, which Fara's resume runs again).
    """
    return answered if over else ending_without_answer(over, core_log)


def answer_outcome(is_aborted: bool, final_answer: str) -> Ending:
    """What an answer file says of its run: aborted, no answer (out of budget) or answered."""
    if is_aborted:
        return "aborted"
    return "no_answer" if final_answer == NO_ANSWER_MARKER else "answered"


def state_of(
    outcome: str | None,
    crashed: bool,
    last_change: float | None,
    now: float,
    window_s: float = RUNNING_WINDOW_S,
) -> TaskState:
    """The state of a task whose outcome is known (a reader's, or the index's): finished, aborted or
    crashed, else (unfinished) running or stalled by how long it has been silent at `now`.
    """
    if outcome in FINISHED_OUTCOMES:
        return TaskState.FINISHED
    if outcome == "aborted":
        return TaskState.CRASHED if crashed else TaskState.ABORTED
    return silent_state(last_change, now, window_s)


def silent_state(last_change: float | None, now: float, window_s: float) -> TaskState:
    """An unfinished task's state at `now`: running while a file of it changed within the window,
    stalled after.
    """
    return TaskState.RUNNING if now - (last_change or 0.0) <= window_s else TaskState.STALLED


def task_progress(folder: Path, now: float | None = None, window_s: float = RUNNING_WINDOW_S) -> TaskProgress:
    """The state of one task folder at `now` (default: the current time): over or not as its format
    says (`task_end`), else crashed or running or stalled by core.log and its files' times.
    """
    names, last_change = _listing(folder)
    data = _read(folder / "core.log") if "core.log" in names else None
    attempts, started = _starts(data) if data is not None else (0, None)
    end = task_end(folder)
    when = time.time() if now is None else now
    if end is not None:
        state = state_of(end.outcome, end.crash is not None, last_change, when, window_s)
    else:
        crashed = last_attempt_crashed(data)
        state = state_of("aborted" if crashed else "unfinished", crashed, last_change, when, window_s)
    return TaskProgress(
        state=state,
        last_change=last_change,
        attempts=attempts,
        restarted_at=started if attempts > 1 else None,
        ended_at=_changed(folder / end.marker) if end is not None else None,
    )


def task_end(folder: Path) -> TaskEnd | None:
    """How the folder's task ended, as the format that reads it says (`TrajectoryFormat.ended`);
    None while its run is not over, and for a folder no format reads (or one gone or unreadable
    while its run writes it: the index says why; here it is only not over).
    """
    try:
        end = read_guarded(folder, _ended)
    except UnreadableError:
        return None
    return end if end is None or end.outcome != "unfinished" else None


def _ended(reader: FolderReader) -> TaskEnd | None:
    found = format_of(reader.folder, reader.names, asked=True)
    return found.ended(reader) if found is not None else None


def _changed(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:  # removed since: a resume empties the folder
        return None


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


def _read(path: Path, limit: int = -1) -> bytes | None:
    try:
        return read_file(path, limit)
    except OSError:  # removed, unreadable or not a regular file while the run writes it: nothing said
        return None


def _starts(data: bytes) -> tuple[int, datetime | None]:
    """(attempts started, when the last attempt started)."""
    if b"] Start" not in data:
        return 0, None
    records, _ = parse_core_log(data)
    starts = [r for r in records if r.message.startswith("[Execution ") and r.message.endswith(_START)]
    return len(starts), starts[-1].time if starts else None
