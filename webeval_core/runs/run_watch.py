"""Watching a run while it runs: progress, throughput, an estimated finish and the silent tasks.

A `RunWatch` looks at one run folder again and again (the app's live view every few seconds,
`webeval watch` in a terminal). Each look lists the run's task folders and re-reads only those
that may have changed. With file system events (watchdog, local roots) a folder is read again
only when an event names it; an unchanged running task only turns stalled as time passes. Without
them, a finished task keeps its state until its folder's time stamp changes (a resume empties
finished folders whose answer was aborted), and the few unfinished ones are read at each look
(a file appended to changes no folder time stamp). So a look at a run of 10,000 tasks costs one
listing, plus the folders written since the last look.

Each task's state is `reading.task_state`'s one rule; the success rate is the index's (never
computed here), and `presentation.live_words` words both for every view.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.actionlog import parse_action_log
from webeval_core.reading.corelog import parse_core_log
from webeval_core.reading.fara_reader import local_offset
from webeval_core.reading.folderreader import LOG_READ_LIMIT
from webeval_core.reading.formats import format_of, tasks_dirs
from webeval_core.reading.markers import CORE_LOG_NAME, LOG_NAME, TIMES_NAME, is_walked
from webeval_core.reading.task_state import (
    RUNNING_WINDOW_S,
    TaskProgress,
    TaskState,
    count_states,
    silent_state,
    task_progress,
)
from webeval_core.support.diagnostics import UnreadableError

if TYPE_CHECKING:
    from watchdog.observers.api import BaseObserver

THROUGHPUT_WINDOW_S = 1800.0
"""Throughput counts the tasks finished over this last stretch (seconds)."""
ERRORS_KEPT = 50
"""The newest core.log error lines a watch keeps."""


class WatchedTask(BaseModel):
    """One unfinished task as the live view lists it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    """The task folder's name."""
    state: TaskState
    """Running or stalled."""
    silent_s: float
    """Seconds since a file of its folder last changed."""
    steps: int
    """Actions taken so far (web_surfer.log's, or the steps another format's glance counts)."""
    last_step: str | None = None
    """Its newest action, e.g. "left_click on http://…"; None before the first."""
    restarted_at: datetime | None = None
    """When its attempt in progress started, when a resume started it again (core.log's local time)."""


class ErrorLine(BaseModel):
    """An error core.log logged for a task of the run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    """The task folder's name."""
    time: datetime | None
    """When it was logged: in UTC (aware) when core.log's zone could be placed, else its local time
    (naive); None when the line has no date."""
    message: str
    """The error's first line."""


class LiveProgress(BaseModel):
    """Where a run stands at one moment: what every live view shows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run_dir: Path
    """The run folder watched."""
    at: float
    """When the look was taken (seconds since the epoch)."""
    expected: int
    """Tasks the run will hold: as told, else the task folders seen so far."""
    expected_told: bool
    """Whether `expected` was told (a task list, a dataset) rather than counted from the folders."""
    finished: int
    """Finished tasks (`reading.task_state`): answered or out of budget; the rate counts among these."""
    aborted: int
    """Aborted tasks, crashed ones included: over without a usable answer, left out of the rate."""
    crashed: int
    """Of the aborted, those whose last attempt raised."""
    running: int
    """Unfinished tasks that wrote a file within the window."""
    stalled: int
    """Unfinished tasks silent for longer than the window."""
    restarted: int
    """Tasks a resume started again (any state)."""
    finished_recently: int
    """Tasks that finished within the last `THROUGHPUT_WINDOW_S`."""
    window_s: float
    """How long an unfinished task may stay silent and still count as running (seconds)."""
    unfinished_tasks: tuple[WatchedTask, ...] = ()
    """The running and stalled tasks, the longest silent first."""
    errors: tuple[ErrorLine, ...] = ()
    """The newest core.log errors of the run's tasks, oldest first (at most `ERRORS_KEPT`)."""

    @property
    def over(self) -> int:
        """Tasks whose run is over (finished or aborted, crashed included)."""
        return self.finished + self.aborted

    @property
    def throughput_per_hour(self) -> float | None:
        """Tasks finished an hour, over the last `THROUGHPUT_WINDOW_S`; None before any finished."""
        if not self.finished_recently:
            return None
        return self.finished_recently * 3600.0 / THROUGHPUT_WINDOW_S

    @property
    def eta(self) -> float | None:
        """When the run should be over at the present throughput (epoch seconds); None when unknown."""
        left = max(self.expected - self.over, 0)
        rate = self.throughput_per_hour
        if left == 0:
            return self.at
        return self.at + left * 3600.0 / rate if rate else None

    @property
    def done(self) -> bool:
        """Whether every expected task is over and none is still going."""
        return self.running == self.stalled == 0 and self.over >= self.expected > 0

    @property
    def stalled_tasks(self) -> tuple[WatchedTask, ...]:
        """The stalled tasks, the longest silent first."""
        return tuple(t for t in self.unfinished_tasks if t.state == TaskState.STALLED)

    @property
    def running_tasks(self) -> tuple[WatchedTask, ...]:
        """The running tasks, the longest silent first."""
        return tuple(t for t in self.unfinished_tasks if t.state == TaskState.RUNNING)


@dataclass
class _Seen:
    """What a watch knows of one task folder since it last read it."""

    progress: TaskProgress
    finished_at: float | None = None
    """When the file that made it over (`TaskProgress.ended_at`) was written."""
    folder_changed: float | None = None
    """The folder's own time stamp when read (a file added or removed changes it)."""
    errors: tuple[ErrorLine, ...] = ()
    """core.log's errors, their times as written (the run's local time)."""
    steps: int = 0
    last_step: str | None = None
    task: bool = True
    """Whether the folder is a task of the run: a format claims it, or it holds nothing yet (a task
    just made). Others (cube-harness's archived episodes, a harness's own folders) are not counted."""


class RunWatch:
    """Looks at one run folder again and again, re-reading only what may have changed."""

    def __init__(
        self,
        run_dir: Path,
        *,
        expected: int | None = None,
        window_s: float = RUNNING_WINDOW_S,
        events: bool = True,
    ) -> None:
        self.run_dir = Path(run_dir)
        self.expected = expected
        self.window_s = window_s
        self._seen: dict[str, _Seen] = {}
        self._dirty: set[str] = set()
        self._lock = threading.Lock()  # the dirty set, written by the observer's thread
        self._looking = threading.Lock()
        self._zone: float | None = None  # the UTC offset of the run's log times, once found
        self._observer = _observe(self.run_dir, self._mark) if events else None

    @property
    def tasks_dir(self) -> Path:
        """The folder holding the task folders: the sub-folder a format names for them (`traj/` of a
        Fara run, `episodes/` of a cube-harness experiment), else the run folder itself.
        """
        found = (self.run_dir / name for name in tasks_dirs())
        return next((folder for folder in found if folder.is_dir()), self.run_dir)

    @property
    def follows_events(self) -> bool:
        """Whether file system events say which folders changed (else each look checks their times)."""
        return self._observer is not None

    def close(self) -> None:
        """Stops following file system events."""
        if self._observer is not None:
            self._observer.stop()
            self._observer = None

    def look(self, now: float | None = None) -> LiveProgress:
        """Where the run stands now (one look at a time: viewers of one run share its watch)."""
        with self._looking:
            return self._look(time.time() if now is None else now)

    def _look(self, now: float) -> LiveProgress:
        with self._lock:
            dirty, self._dirty = self._dirty, set()
        tasks_dir = self.tasks_dir
        names = set(_task_folders(tasks_dir))
        for gone in set(self._seen) - names:
            del self._seen[gone]
        for name in names:
            seen = self._seen.get(name)
            if seen is None or name in dirty or self._may_have_changed(tasks_dir / name, seen):
                self._seen[name] = _read(tasks_dir / name, now, self.window_s)
            elif seen.progress.state.unfinished:  # unchanged: only time moves it from running to stalled
                state = silent_state(seen.progress.last_change, now, self.window_s)
                seen.progress = seen.progress.model_copy(update={"state": state})
        return self._progress(now)

    def _may_have_changed(self, folder: Path, seen: _Seen) -> bool:
        if self._observer is not None:
            return False  # the events say when a folder changes, a running task's included
        if seen.progress.state.unfinished:
            return True  # a file appended to changes no folder time stamp: these few are read again
        try:
            return os.stat(folder).st_mtime != seen.folder_changed
        except OSError:
            return True

    def _find_zone(self, tries: int = 20) -> float | None:
        """The run's UTC offset (one machine, one zone), from the first tasks whose files tell it."""
        finished = [n for n, s in self._seen.items() if s.progress.state == TaskState.FINISHED]
        others = [n for n, s in self._seen.items() if s.errors and n not in finished]
        for name in [*finished[:tries], *others[:tries]]:
            offset = _offset(self.tasks_dir / name)
            if offset is not None:
                return offset
        return None

    def _mark(self, path: str) -> None:
        """A file system event at `path`: the task folder holding it is read again at the next look."""
        rel = Path(os.path.relpath(path, self.run_dir)).parts
        if rel and rel[0] in tasks_dirs():
            rel = rel[1:]
        if rel and rel[0] not in (".", ".."):
            with self._lock:
                self._dirty.add(rel[0])

    def _progress(self, now: float) -> LiveProgress:
        seen = {name: s for name, s in self._seen.items() if s.task}
        states = [s.progress.state for s in seen.values()]
        unfinished = [_watched(name, s, now) for name, s in seen.items() if s.progress.state.unfinished]
        unfinished.sort(key=lambda t: (-t.silent_s, t.task_id))
        errors = sorted((e for s in seen.values() for e in s.errors), key=_error_order)[-ERRORS_KEPT:]
        if errors and self._zone is None:
            self._zone = self._find_zone()
        errors = [e.model_copy(update={"time": _utc(e.time, self._zone)}) for e in errors]
        since = now - THROUGHPUT_WINDOW_S
        counts = count_states(states)
        return LiveProgress(
            run_dir=self.run_dir,
            at=now,
            expected=self.expected if self.expected is not None else len(seen),
            expected_told=self.expected is not None,
            finished=counts.finished,
            aborted=counts.aborted,
            crashed=counts.crashed,
            running=counts.running,
            stalled=counts.stalled,
            restarted=sum(s.progress.restarted for s in seen.values()),
            finished_recently=sum(
                s.finished_at is not None and s.finished_at >= since for s in seen.values()
            ),
            window_s=self.window_s,
            unfinished_tasks=tuple(unfinished),
            errors=tuple(errors),
        )


def _error_order(error: ErrorLine) -> tuple[datetime, str]:
    when = error.time or datetime.min
    return (when.replace(tzinfo=None) - (when.utcoffset() or timedelta()), error.task_id)


def _task_folders(tasks_dir: Path) -> list[str]:
    try:
        with os.scandir(tasks_dir) as entries:
            return [e.name for e in entries if is_walked(e)]
    except OSError:  # not there yet, or gone: a run that has not started has no task
        return []


def _read(folder: Path, now: float, window_s: float) -> _Seen:
    try:
        folder_changed: float | None = os.stat(folder).st_mtime
    except OSError:
        folder_changed = None
    progress = task_progress(folder, now, window_s)
    seen = _Seen(
        progress=progress, folder_changed=folder_changed, errors=_errors(folder), task=_is_task(folder)
    )
    if progress.state in (TaskState.FINISHED, TaskState.ABORTED):
        seen.finished_at = progress.ended_at
    elif progress.state.unfinished:
        seen.steps, seen.last_step = _last_step(folder)
    return seen


def _is_task(folder: Path) -> bool:
    """`_Seen.task`: a format claims the folder, or it holds nothing yet."""
    try:
        names = os.listdir(folder)
    except OSError:  # gone while read: a resume empties folders, never removes them
        return True
    return not names or format_of(folder, names, asked=True) is not None


def _errors(folder: Path) -> tuple[ErrorLine, ...]:
    """core.log's errors, their times as written."""
    data = _head(folder / CORE_LOG_NAME)
    if data is None or not any(mark in data for mark in (b"[ERROR]", b"[CRITICAL]", b"[FATAL]")):
        return ()
    records, _ = parse_core_log(data)
    return tuple(
        ErrorLine(task_id=folder.name, time=r.time, message=r.message.split("\n", 1)[0])
        for r in records
        if r.is_error
    )


def _offset(folder: Path) -> float | None:
    """The UTC offset of a task's log times: times.json's start beside web_surfer.log's first time
    (as the reader places them); else core.log's last record beside the file's own time (a log
    being appended to was last written when it last changed).
    """
    start = _start_time(folder)
    first = _first_log_time(folder) if start is not None else None
    if start is not None and first is not None:
        return local_offset(first, start)
    path = folder / CORE_LOG_NAME
    data = _head(path)
    records = parse_core_log(data)[0] if data else ()
    last = next((r.time for r in reversed(records) if r.time is not None), None)
    try:
        return local_offset(last, path.stat().st_mtime) if last is not None else None
    except OSError:
        return None


def _start_time(folder: Path) -> float | None:
    try:
        start = json.loads((folder / TIMES_NAME).read_bytes()).get("start_time")
    except (OSError, ValueError, AttributeError):
        return None
    return float(start) if isinstance(start, int | float) and not isinstance(start, bool) else None


def _first_log_time(folder: Path) -> datetime | None:
    data = _head(folder / LOG_NAME)
    steps = parse_action_log(data).steps if data else ()
    return next((step.timestamp for step in steps if step.timestamp is not None), None)


def _utc(local: datetime | None, offset: float | None) -> datetime | None:
    """A log's naive local time in UTC (aware); as written when its offset is unknown."""
    if local is None or offset is None:
        return local
    return (local - timedelta(seconds=offset)).replace(tzinfo=UTC)


def _last_step(folder: Path) -> tuple[int, str | None]:
    """How many actions web_surfer.log holds and its newest one in words (a half-written last line
    is skipped by the parser until it is complete); another format's folder: the steps its glance
    counts (an AgentLab episode's pickles, a cube-harness episode's step files), no action said.
    """
    data = _head(folder / LOG_NAME)
    if data is None:
        return _glanced_steps(folder), None
    if not data:
        return 0, None
    steps = parse_action_log(data).steps
    if not steps:
        return 0, None
    last = steps[-1]
    return len(steps), f"{last.action} on {last.url}" if last.url else last.action


def _glanced_steps(folder: Path) -> int:
    from webeval_core.reading.glance import glance_trajectory

    try:
        return glance_trajectory(folder).steps
    except UnreadableError:  # not a trajectory yet (a task folder just made), or half written
        return 0


def _head(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read(LOG_READ_LIMIT)
    except OSError:  # not written yet, or removed by a resume while read
        return None


def _watched(name: str, seen: _Seen, now: float) -> WatchedTask:
    progress = seen.progress
    return WatchedTask(
        task_id=name,
        state=progress.state,
        silent_s=max(now - (progress.last_change or now), 0.0),
        steps=seen.steps,
        last_step=seen.last_step,
        restarted_at=progress.restarted_at,
    )


def _observe(run_dir: Path, mark: Callable[[str], None]) -> BaseObserver | None:
    """File system events below `run_dir`, each handed to `mark`; None where they cannot be had (no
    such folder yet, too many folders for the system's watches): the watch then checks folder times.
    """
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    class _Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if event.event_type in ("opened", "closed_no_write"):
                return  # a read, ours included, changes nothing
            mark(os.fsdecode(event.src_path))
            if event.dest_path:
                mark(os.fsdecode(event.dest_path))

    observer = Observer()
    try:
        observer.schedule(_Handler(), str(run_dir), recursive=True)
        observer.daemon = True
        observer.start()
    except (OSError, RuntimeError):
        observer.stop()
        return None
    return observer
