"""A run written while the tests watch it: Fara's and the WebArena-Verified harness's files, replayed
from the sample generator's folders at a realistic pace, with the truth of each task's state.

Each task replays one sample folder: Fara's core.log `Start`, web_surfer.log a line at a time (each
line in two writes), a screenshot per step (in two writes), then the answer file, times.json and
core.log's `Completed`; a WebArena-Verified task writes network.har in pieces, then
agent_response.json. A step comes every 0.2-1 s. Scripts: `finish`; `hang` (stops writing half-way,
for good); `crash` (core.log logs `Error running task`); `resume` (crashes, then a resume empties
its folder but for core.log and runs it again to the end).

The writer holds `lock` while it writes, so a test that takes it sees no write half-done between
reading the truth and asking the core.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shutil
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from webeval_core.reading.task_state import TaskState
from webeval_core.reading.trajectory_reader import load_trajectory

REPO = Path(__file__).resolve().parents[2]
FARA_SAMPLE = (
    REPO / "sample_runs/runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebArenaVerified_sample/0/traj"
)
WAV_SAMPLE = REPO / "sample_runs/webarena-verified-cli"
Script = Literal["finish", "hang", "crash", "resume"]
_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+")


@dataclass
class TaskTruth:
    """What the writer knows of one task: the ground truth the core's state is checked against."""

    name: str
    script: Script
    last_write: float = 0.0
    finished: bool = False
    """Whether its run is over: times.json written (Fara: once the task returned), agent_response.json
    (WebArena-Verified); an answer file alone is not (`reading.task_state`)."""
    aborted: bool = False
    """Whether the answer it wrote says the run was aborted (over, but left out of rates)."""
    finished_at: float | None = None
    """When it finished."""
    crashed: bool = False
    attempts: int = 0
    steps_written: int = 0

    def state(self, now: float, window_s: float) -> TaskState:
        if self.finished:
            return TaskState.ABORTED if self.aborted else TaskState.FINISHED
        if self.crashed:
            return TaskState.CRASHED
        return TaskState.RUNNING if now - self.last_write <= window_s else TaskState.STALLED


@dataclass
class LiveWriter:
    """Writes a run's tasks in threads (a few at a time, as a harness runs them) at `pace` seconds a step."""

    run_dir: Path
    layout: Literal["fara", "webarena-verified"]
    scripts: dict[str, Script]
    pace: tuple[float, float] = (0.2, 1.0)
    parallel: int = 4
    scored: bool = False
    """Whether each finished Fara task gets its sample's score files right away."""
    seed: int = 7
    held: dict[str, int] = field(default_factory=dict)
    """Tasks that wait after that many steps until `release(name)`, as an agent thinking at length
    does: a test gets a task it is sure is still running when it opens it."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    truth: dict[str, TaskTruth] = field(default_factory=dict)
    _threads: list[threading.Thread] = field(default_factory=list)
    _released: dict[str, threading.Event] = field(init=False)

    def __post_init__(self) -> None:
        self._released = {name: threading.Event() for name in self.held}

    def release(self, name: str) -> None:
        """Let a held task write the rest of its steps."""
        self._released[name].set()

    def wait_if_held(self, name: str, steps: int, timeout_s: float = 300.0) -> None:
        """Block a task's lane after its `held` step until the test releases it (or `timeout_s`)."""
        if self.held.get(name) == steps:
            self._released[name].wait(timeout_s)

    @property
    def tasks_dir(self) -> Path:
        return self.run_dir / "traj" if self.layout == "fara" else self.run_dir

    def start(self) -> LiveWriter:
        self.tasks_dir.mkdir(parents=True, exist_ok=True)
        names = list(self.scripts)
        for lane in range(self.parallel):
            mine = names[lane :: self.parallel]
            thread = threading.Thread(target=self._lane, args=(mine, self.seed + lane), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def join(self, timeout: float = 120.0) -> None:
        for thread in self._threads:
            thread.join(timeout)

    @property
    def done(self) -> bool:
        return not any(thread.is_alive() for thread in self._threads)

    def _lane(self, names: list[str], seed: int) -> None:
        rng = random.Random(seed)
        for name in names:
            truth = TaskTruth(name=name, script=self.scripts[name])
            if self.layout == "fara":
                _FaraTask(self, truth, rng).run()
            else:
                _WavTask(self, truth, rng).run()

    def write(
        self, truth: TaskTruth, path: Path, data: bytes, *, append: bool = False, **changes: object
    ) -> None:
        """One write of a task's file, with what it changes of the task's truth (known from its first)."""
        with self.lock:
            self.truth.setdefault(truth.name, truth)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "ab" if append else "wb") as f:
                f.write(data)
            for name, value in changes.items():
                setattr(truth, name, value)
            truth.last_write = time.time()
            if truth.finished and truth.finished_at is None:
                truth.finished_at = truth.last_write

    def pause(self, rng: random.Random) -> None:
        time.sleep(rng.uniform(*self.pace))


def _local_now() -> datetime:
    """Now, as the sample's harness wrote its logs: naive, in the samples' local zone."""
    return (datetime.now(UTC) + timedelta(seconds=_sample_offset())).replace(tzinfo=None)


@functools.cache
def _sample_offset() -> float:
    """The UTC offset of the samples' log times, as the reader places them."""
    offset = load_trajectory(_source(FARA_SAMPLE, 0)).utc_offset_s
    assert offset is not None
    return offset


def _source(sample: Path, index: int) -> Path:
    """A finished sample folder to replay (one with an answer and an action log)."""
    folders = sorted(
        p for p in sample.iterdir() if (p / "web_surfer.log").is_file() and (p / "times.json").is_file()
    )
    return folders[index % len(folders)]


@dataclass
class _FaraTask:
    writer: LiveWriter
    truth: TaskTruth
    rng: random.Random

    @property
    def folder(self) -> Path:
        return self.writer.tasks_dir / self.truth.name

    def run(self) -> None:
        source = _source(FARA_SAMPLE, int(self.truth.name) if self.truth.name.isdigit() else 0)
        script = self.truth.script
        if script == "resume":
            self._attempt(source, stop_after=2, end="crash")
            self.writer.pause(self.rng)
            self._empty()
            self._attempt(source, stop_after=None, end="finish")
            return
        stop = None if script == "finish" else 2
        self._attempt(source, stop_after=stop, end=script)

    def _core(self, level: str, message: str, **changes: object) -> None:
        when = _local_now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
        line = f"{when} [{level}] webeval.core.{self.truth.name} - {message}\n"
        self.writer.write(self.truth, self.folder / "core.log", line.encode(), append=True, **changes)

    def _attempt(self, source: Path, stop_after: int | None, end: str) -> None:
        self.truth.attempts += 1
        name = self.truth.name
        started = time.time()
        self._core("INFO", f"[Execution {name}] Start", crashed=False, steps_written=0)
        lines = (source / "web_surfer.log").read_bytes().splitlines(keepends=True)
        shots = sorted(source.glob("screenshot*.png"), key=lambda p: len(p.name))
        for k, logged in enumerate(lines):
            if stop_after is not None and k >= stop_after:
                break
            line = _STAMP.sub(lambda _: _local_now().isoformat().encode(), logged)  # written now
            half = len(line) // 2
            log = self.folder / "web_surfer.log"
            self.writer.write(self.truth, log, line[:half], append=True)
            time.sleep(0.02)
            self.writer.write(self.truth, log, line[half:], append=True, steps_written=k + 1)
            if k < len(shots):
                self._in_pieces(shots[k], self.folder / shots[k].name)
            self.writer.wait_if_held(name, k + 1)
            self.writer.pause(self.rng)
        if end == "hang":
            return
        if end == "crash":
            self._core(
                "ERROR", f"[Execution {name}] Error running task: TimeoutError: page.goto", crashed=True
            )
            return
        answer = next(source.glob("*_final_answer.json"))
        self._in_pieces(answer, self.folder / f"{name}_final_answer.json")
        ended = time.time()
        times = {"start_time": started, "end_time": ended, "duration": ended - started}
        aborted = json.loads(answer.read_bytes()).get("is_aborted") is True
        self.writer.write(
            self.truth, self.folder / "times.json", json.dumps(times).encode(), finished=True, aborted=aborted
        )
        self._core("INFO", f"[Execution {name}] Completed")
        if self.writer.scored:  # the later scoring step, as soon as the task is over
            for score in sorted((source / "scores").glob("*.json")):
                self.writer.write(self.truth, self.folder / "scores" / score.name, score.read_bytes())

    def _in_pieces(self, source: Path, target: Path, **changes: object) -> None:
        data = source.read_bytes()
        half = len(data) // 2
        self.writer.write(self.truth, target, data[:half], **changes)
        time.sleep(0.02)
        self.writer.write(self.truth, target, data[half:], append=True)

    def _empty(self) -> None:
        """What Fara's resume does: every file of the folder deleted but core.log."""
        with self.writer.lock:
            for path in self.folder.iterdir():
                if path.name == "core.log":
                    continue
                shutil.rmtree(path) if path.is_dir() else path.unlink()
            self.truth.last_write = time.time()


@dataclass
class _WavTask:
    writer: LiveWriter
    truth: TaskTruth
    rng: random.Random

    def run(self) -> None:
        names = sorted(p.name for p in WAV_SAMPLE.iterdir() if p.is_dir())
        source = WAV_SAMPLE / names[sum(map(ord, self.truth.name)) % len(names)]
        folder = self.writer.tasks_dir / self.truth.name
        self.truth.attempts = 1
        with self.writer.lock:
            folder.mkdir(parents=True, exist_ok=True)
            self.writer.truth[self.truth.name] = self.truth
            self.truth.last_write = time.time()
        har = (source / "network.har").read_bytes()
        pieces = 4
        for k in range(pieces):
            if self.truth.script == "hang" and k == 2:
                return
            chunk = har[k * len(har) // pieces : (k + 1) * len(har) // pieces]
            self.writer.write(self.truth, folder / "network.har", chunk, append=k > 0, steps_written=k + 1)
            self.writer.pause(self.rng)
        response = (source / "agent_response.json").read_bytes()
        self.writer.write(self.truth, folder / "agent_response.json", response, finished=True)


def run_in_progress(run_dir: Path, *, silent_s: float = 1800.0) -> Path:
    """A Fara run caught mid-way, as a look at it finds it: tasks 1 and 2 finished (scored pass and
    fail by gpt_eval), 3 crashed, 4 running, 5 stalled (silent `silent_s`), 6 restarted and running.
    """
    from tests.harness.builders import fara_folder, write_core_log, write_score

    traj = run_dir / "traj"
    for task, score in (("1", 1), ("2", 0)):
        write_score(fara_folder(traj, task), "gpt_eval", score, "verdict")
    crashed = traj / "3"
    crashed.mkdir(parents=True)
    write_core_log(
        crashed, _core_lines("3", ("INFO", "Start"), ("ERROR", "Error running task: TimeoutError"))
    )
    running = fara_folder(traj, "4", final_answer=None, times=False)
    write_core_log(running, _core_lines("4", ("INFO", "Start")))
    stalled = fara_folder(traj, "5", final_answer=None, times=False)
    then = time.time() - silent_s
    for path in (*stalled.iterdir(), stalled):
        os.utime(path, (then, then))
    restarted = traj / "6"
    restarted.mkdir()
    write_core_log(
        restarted,
        _core_lines(
            "6", ("INFO", "Start"), ("ERROR", "Error running task: Target closed"), ("INFO", "Start")
        ),
    )
    return run_dir


def _core_lines(task: str, *records: tuple[str, str]) -> str:
    lines = []
    for k, (level, what) in enumerate(records):
        message = f"[Execution {task}] {what}"
        lines.append(f"2025-11-14 14:2{k}:00,000 [{level}] webeval.core.{task} - {message}\n")
    return "".join(lines)
