"""A task's state while its run goes on, from the files the harness writes: finished, crashed,
running, stalled, and a resumed task's restart (issue 38's one rule); every format's own word on
a task being over (issue 52), the same in task_progress, `ls` and `watch`."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

from tests.core.cli.helpers import run_cli
from tests.harness.agentlab_writer import PlannedStep
from tests.harness.agentlab_writer import finish_episode as finish_agentlab
from tests.harness.agentlab_writer import write_episode as write_agentlab
from tests.harness.builders import fara_folder, png_bytes, wav_folder, write_core_log
from tests.harness.cube_writer import CubeStep, finish_episode, write_episode
from tests.harness.harbor_writer import agent_step, finish_trial, start_trial, write_trial
from tests.harness.harbor_writer import document as atif
from tests.harness.mind2web_writer import start_task, write_result
from webeval_core.reading.task_state import RUNNING_WINDOW_S, TaskState, task_progress
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.runs import RunWatch

RUN = "runs/WebSurfer-live/fara-7b/demo/WebArenaVerified/0/traj"


def _log(task: str, *lines: tuple[str, str]) -> str:
    """core.log records as Fara's logger writes them: (time, message)."""
    return "".join(f"{when},000 [INFO] webeval.core.{task} - {message}\n" for when, message in lines)


def _start(task: str, when: str) -> tuple[str, str]:
    return when, f"[Execution {task}] Start"


def test_a_task_over_is_finished_or_aborted_by_its_answer(tmp_path: Path) -> None:
    assert task_progress(fara_folder(tmp_path, "1")).state == TaskState.FINISHED
    no_answer = fara_folder(tmp_path, "1b", final_answer="<no_answer>")
    assert task_progress(no_answer).state == TaskState.FINISHED  # out of budget: counted, a failure
    aborted = fara_folder(tmp_path, "2", final_answer="<aborted>", is_aborted=True)
    progress = task_progress(aborted)
    assert progress.state == TaskState.ABORTED and progress.state.left_out and not progress.state.unfinished
    assert task_progress(wav_folder(tmp_path / "wav", "108")).state == TaskState.FINISHED
    over_without_answer = fara_folder(tmp_path, "2b", final_answer=None)  # times.json, no answer file
    assert task_progress(over_without_answer).state == TaskState.ABORTED


def test_a_fara_answer_without_times_json_is_not_finished(tmp_path: Path) -> None:
    """Fara's run loop writes times.json once the task has returned, and a resume runs a folder
    without it again: an answer alone is a task still returning (or one that died doing so).
    """
    folder = fara_folder(tmp_path, "9", times=False)
    progress = task_progress(folder)
    assert progress.state == TaskState.RUNNING
    assert progress.last_change is not None
    assert task_progress(folder, now=progress.last_change + RUNNING_WINDOW_S + 1).state == TaskState.STALLED
    trajectory = load_trajectory(folder)
    assert trajectory.outcome == "unfinished"
    assert any("times.json" in str(w) and "resume" in str(w) for w in trajectory.warnings)
    write_core_log(
        folder,
        _log(
            "9",
            _start("9", "2025-11-14 14:21:00"),
            ("2025-11-14 14:21:15", "[Execution 9] Error running task: x"),
        ),
    )
    assert task_progress(folder).state == TaskState.CRASHED
    crashed = load_trajectory(folder)
    assert crashed.outcome == "aborted" and crashed.crash_reason is not None
    (folder / "times.json").write_text('{"start_time": 1.0, "end_time": 2.0, "duration": 1.0}')
    assert task_progress(folder).state == TaskState.FINISHED
    assert load_trajectory(folder).outcome == "answered"


def test_an_unfinished_task_is_running_until_silent_for_the_window(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "3", final_answer=None, times=False)
    progress = task_progress(folder)
    assert progress.state == TaskState.RUNNING and progress.state.unfinished
    assert progress.last_change is not None
    later = progress.last_change + RUNNING_WINDOW_S + 1
    assert task_progress(folder, now=later).state == TaskState.STALLED
    assert task_progress(folder, now=later, window_s=2 * RUNNING_WINDOW_S).state == TaskState.RUNNING
    # A new screenshot written: running again.
    (folder / "screenshot9.png").write_bytes(png_bytes())
    os.utime(folder / "screenshot9.png", (later, later))
    assert task_progress(folder, now=later).state == TaskState.RUNNING


def test_a_task_that_raised_is_crashed_and_never_unfinished(tmp_path: Path) -> None:
    folder = tmp_path / "4"
    folder.mkdir()
    write_core_log(
        folder,
        _log(
            "4",
            _start("4", "2025-11-14 14:21:00"),
            ("2025-11-14 14:21:15", "[Execution 4] Error running task: Timeout"),
        ),
    )
    progress = task_progress(folder)
    assert progress.state == TaskState.CRASHED and not progress.state.unfinished
    assert progress.attempts == 1 and not progress.restarted


def test_a_resumed_task_says_when_it_restarted_and_is_judged_by_its_new_attempt(tmp_path: Path) -> None:
    folder = tmp_path / "5"
    folder.mkdir()
    # The first attempt crashed; the resume emptied the folder but for core.log and started again.
    write_core_log(
        folder,
        _log(
            "5",
            _start("5", "2025-11-14 14:21:00"),
            ("2025-11-14 14:22:00", "[Execution 5] Error running task: Target closed"),
            _start("5", "2025-11-14 15:02:30"),
        ),
    )
    (folder / "screenshot0.png").write_bytes(png_bytes())
    progress = task_progress(folder)
    assert progress.state == TaskState.RUNNING  # the crash was the previous attempt's
    assert progress.restarted and progress.attempts == 2
    assert progress.restarted_at == datetime(2025, 11, 14, 15, 2, 30)


def test_a_folder_emptied_or_gone_while_read_is_no_error(tmp_path: Path) -> None:
    folder = tmp_path / "6"
    folder.mkdir()
    assert task_progress(folder).state == TaskState.RUNNING  # just made
    assert task_progress(tmp_path / "gone", now=time.time()).state == TaskState.STALLED


def test_ls_says_each_trajectory_s_state(tmp_path: Path) -> None:
    root = tmp_path / "root"
    fara_folder(root / RUN, "7")
    fara_folder(root / RUN, "8", final_answer=None, times=False)
    code, text = run_cli("ls", str(root), "--json")
    assert code == 0
    states = {t["task_id"]: t["state"] for run in json.loads(text)["runs"] for t in run["trajectories"]}
    assert states == {"7": "finished", "8": "running"}
    code, table = run_cli("ls", str(root))
    assert code == 0 and "state" in table and "running" in table


# Every format's word on a task being over (`TrajectoryFormat.ended`), with folders written as each
# harness writes them: task_progress (the Live page, watch), `ls --json` (the index's glance) and
# `watch --once` say the same state of each folder.


def _states(root: Path) -> dict[str, str]:
    code, text = run_cli("ls", str(root), "--json")
    assert code == 0
    return {t["path"]: t["state"] for run in json.loads(text)["runs"] for t in run["trajectories"]}


def _watched(root: Path) -> tuple[int, int, int, int]:
    """(finished, aborted, crashed, running) of `watch --once`, over the root's runs."""
    code, text = run_cli("watch", str(root), "--once")
    assert code == 0, text
    counts = [0, 0, 0, 0]
    for over, running in re.findall(
        r"over \((\d+ finished, \d+ aborted(?: \(\d+ crashed\))?)\) · (\d+) running", text
    ):
        numbers = [int(n) for n in re.findall(r"\d+", over)]
        counts = [
            counts[0] + numbers[0],
            counts[1] + numbers[1],
            counts[2] + (numbers[2] if len(numbers) > 2 else 0),
            counts[3] + int(running),
        ]
    return tuple(counts)  # type: ignore[return-value]


def _agree(root: Path, expected: dict[Path, TaskState]) -> None:
    assert {f: task_progress(f).state for f in expected} == expected
    assert _states(root) == {str(f): s.value for f, s in expected.items()}
    found = Counter(expected.values())
    crashed = found[TaskState.CRASHED]
    assert _watched(root) == (
        found[TaskState.FINISHED],
        found[TaskState.ABORTED] + crashed,
        crashed,
        found[TaskState.RUNNING],
    )


def test_cube_harness_episodes_running_finished_and_crashed(tmp_path: Path) -> None:
    experiment = tmp_path / "root" / "exp-1"
    steps = [CubeStep("click", {"element": "a1"})]
    running = write_episode(experiment, "webarena_verified.12", steps, status="RUNNING")
    done = write_episode(experiment, "webarena_verified.13", steps, episode=1)
    failed = write_episode(
        experiment, "webarena_verified.14", steps, status="FAILED", failure="Tb\nValueError: boom"
    )
    cut = write_episode(experiment, "webarena_verified.15", steps, status="MAX_STEPS_REACHED", reward=0.0)
    cancelled = write_episode(experiment, "webarena_verified.16", steps, status="CANCELLED", reward=None)
    _agree(
        tmp_path / "root",
        {
            running: TaskState.RUNNING,
            done: TaskState.FINISHED,
            failed: TaskState.CRASHED,
            cut: TaskState.FINISHED,
            cancelled: TaskState.ABORTED,
        },
    )
    assert load_trajectory(failed).crash_reason == "ValueError: boom"
    # An episode cube-harness archived before a retry is no task: watch and the Live page skip it.
    shutil.copytree(done, done.with_name(f"{done.name}.archived_1764580200"))
    look = RunWatch(experiment, events=False).look()
    assert (look.expected, look.finished) == (5, 2)
    progress = task_progress(done)
    assert progress.ended_at == (done / "status.json").stat().st_mtime


def test_a_live_cube_harness_episode_becomes_finished_at_once(tmp_path: Path) -> None:
    # cube-harness rewrites status.json at every heartbeat and once more when the episode ends: the
    # finished episode is finished at the next look (no window to wait out), cached index included.
    root = tmp_path / "root"
    episode = write_episode(root / "exp-1", "webarena_verified.12", [CubeStep("click", {})], status="RUNNING")
    _agree(root, {episode: TaskState.RUNNING})
    look = RunWatch(root / "exp-1", events=False).look()  # the Live page's list: its steps so far
    assert [(t.task_id, t.state, t.steps) for t in look.unfinished_tasks] == [
        (episode.name, TaskState.RUNNING, 1)
    ]
    finish_episode(episode, "COMPLETED", reward=1.0)
    _agree(root, {episode: TaskState.FINISHED})
    finish_episode(episode, "FAILED", reward=None, failure="Traceback\nRuntimeError: gone")
    _agree(root, {episode: TaskState.CRASHED})


def test_agentlab_episodes_running_finished_and_crashed(tmp_path: Path) -> None:
    study = tmp_path / "root" / "study"
    steps = [PlannedStep("click('a1')"), PlannedStep("send_msg_to_user('42')"), PlannedStep(None)]
    running = write_agentlab(study, "miniwob.a", steps[:2], finished=False)
    done = write_agentlab(study, "miniwob.b", steps)
    crashed = write_agentlab(study, "miniwob.c", steps[:2], err_msg="Exception uncaught\nValueError:\nboom")
    cut = write_agentlab(study, "miniwob.d", steps[:2], truncated=True)
    expected = {
        running: TaskState.RUNNING,
        done: TaskState.FINISHED,
        crashed: TaskState.CRASHED,
        cut: TaskState.FINISHED,
    }
    _agree(tmp_path / "root", expected)
    finish_agentlab(running, "miniwob.a", steps)  # the live episode ends: its summary written
    _agree(tmp_path / "root", {**expected, running: TaskState.FINISHED})


def test_harbor_trials_running_finished_and_crashed(tmp_path: Path) -> None:
    job = tmp_path / "root" / "job-1"
    steps = [agent_step(3, "left_click", {"x": 1, "y": 2})]
    running = write_trial(job / "flights__a1", atif(steps))
    done = write_trial(job / "hotels__b2", atif(steps))
    finish_trial(done, reward=1.0)
    crashed = write_trial(job / "trains__c3", atif(steps, answer=None))
    finish_trial(crashed, reward=None, exception=("AgentTimeoutError", "the agent ran out of time"))
    expected = {running: TaskState.RUNNING, done: TaskState.FINISHED, crashed: TaskState.CRASHED}
    _agree(tmp_path / "root", expected)
    assert load_trajectory(crashed).crash_reason == "AgentTimeoutError: the agent ran out of time"
    finish_trial(running, reward=0.0)
    _agree(tmp_path / "root", {**expected, running: TaskState.FINISHED})


def test_online_mind2web_results_are_over_once_written(tmp_path: Path) -> None:
    results = tmp_path / "root" / "results"
    done = write_result(results, "a1b2", ["TYPE: Lisbon", "CLICK: Search"])
    unanswered = write_result(results, "c3d4", ["CLICK: Search"], answer=None)
    _agree(tmp_path / "root", {done: TaskState.FINISHED, unanswered: TaskState.FINISHED})
    assert task_progress(done).ended_at == (done / "result.json").stat().st_mtime


def test_an_online_mind2web_task_runs_until_its_result_is_written(tmp_path: Path) -> None:
    # The runner saves a screenshot per step into trajectory/, result.json only at the end: the task
    # is running meanwhile (watch and the Live page list it with its steps so far), over after.
    results = tmp_path / "root" / "results"
    done = write_result(results, "a1b2", ["TYPE: Lisbon", "CLICK: Search"])
    running = start_task(results, "c3d4", 1)
    _agree(tmp_path / "root", {done: TaskState.FINISHED, running: TaskState.RUNNING})
    start_task(results, "c3d4", 3)  # two more steps
    look = RunWatch(results, events=False).look()
    assert [(t.task_id, t.state, t.steps) for t in look.unfinished_tasks] == [("c3d4", TaskState.RUNNING, 3)]
    write_result(results, "c3d4", ["CLICK: A", "CLICK: B", "ANSWER"], "Done.")
    _agree(tmp_path / "root", {done: TaskState.FINISHED, running: TaskState.FINISHED})
    assert task_progress(running).ended_at == (running / "result.json").stat().st_mtime


def test_a_harbor_trial_runs_from_its_start_before_its_agent_writes_a_step(tmp_path: Path) -> None:
    job = tmp_path / "root" / "job-1"
    started = start_trial(job / "flights__a1")  # folders, trial.log and config.json: no document yet
    _agree(tmp_path / "root", {started: TaskState.RUNNING})
    look = RunWatch(job, events=False).look()
    assert [(t.task_id, t.state, t.steps) for t in look.unfinished_tasks] == [
        ("flights__a1", TaskState.RUNNING, 0)
    ]
    write_trial(started, atif([agent_step(3, "left_click", {"x": 1, "y": 2})]))
    _agree(tmp_path / "root", {started: TaskState.RUNNING})
    finish_trial(started, reward=1.0)
    _agree(tmp_path / "root", {started: TaskState.FINISHED})
    assert task_progress(started).ended_at == (started / "result.json").stat().st_mtime
