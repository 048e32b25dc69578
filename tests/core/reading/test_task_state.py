"""A task's state while its run goes on, from the files the harness writes: finished, crashed,
running, stalled, and a resumed task's restart (issue 38's one rule)."""

from __future__ import annotations

import json
import os
import time
from datetime import datetime
from pathlib import Path

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder, png_bytes, wav_folder, write_core_log
from webeval_core.reading.task_state import RUNNING_WINDOW_S, TaskState, task_progress

RUN = "runs/WebSurfer-live/fara-7b/demo/WebArenaVerified/0/traj"


def _log(task: str, *lines: tuple[str, str]) -> str:
    """core.log records as Fara's logger writes them: (time, message)."""
    return "".join(f"{when},000 [INFO] webeval.core.{task} - {message}\n" for when, message in lines)


def _start(task: str, when: str) -> tuple[str, str]:
    return when, f"[Execution {task}] Start"


def test_a_finished_task_whatever_its_outcome(tmp_path: Path) -> None:
    assert task_progress(fara_folder(tmp_path, "1")).state == TaskState.FINISHED
    aborted = fara_folder(tmp_path, "2", final_answer="<aborted>", is_aborted=True)
    assert task_progress(aborted).state == TaskState.FINISHED  # aborted, but over: not unfinished
    assert task_progress(wav_folder(tmp_path / "wav", "108")).state == TaskState.FINISHED


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
