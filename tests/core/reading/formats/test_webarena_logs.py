"""The official CLI's agent logs on the registry: every task folder is listed, the one still
running (its trace written, no agent_response.json yet) included, in the state the task-state
rule gives it (issue 49, point 6)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.core.cli.helpers import run_cli
from tests.harness.builders import wav_folder
from tests.harness.har_builders import write_har
from webeval_core.reading import TaskState, glance_trajectory, load_trajectory, task_progress
from webeval_core.reading.formats import format_of, is_trajectory_folder
from webeval_core.reading.formats.webarena_logs import FORMAT
from webeval_core.runs import build_index, discover_runs

_LONG_AGO = time.time() - 3 * 3600


def _output(root: Path) -> Path:
    """The CLI's output folder: a judged-ready task, one writing its HAR, one whose Playwright
    trace is all it left, and a folder of notes holding a HAR (not a task: its name is no task id).
    """
    out = root / "agent_logs"
    wav_folder(out, "108")
    for name in ("109", "110", "notes"):
        (out / name).mkdir()
    write_har(out / "109" / "network.har", [])
    (out / "110" / "trace.zip").write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip
    write_har(out / "notes" / "network.har", [])
    return out


def test_a_task_folder_holding_only_its_trace_is_a_trajectory(tmp_path: Path) -> None:
    out = _output(tmp_path)
    assert [is_trajectory_folder(out / name) for name in ("108", "109", "110", "notes")] == [
        True,
        True,
        True,
        False,
    ]
    assert format_of(out / "109", {"network.har"}) is FORMAT
    assert not FORMAT.detect(str(out / "notes"), {"network.har"})
    (run,) = discover_runs(tmp_path)
    assert [d.name for d in run.trajectory_dirs] == ["108", "109", "110"]


def test_it_is_listed_unfinished_while_it_runs_and_stalled_once_silent(tmp_path: Path) -> None:
    out = _output(tmp_path)
    index = build_index(tmp_path, cache_dir=tmp_path / "cache")
    outcomes = {s.task_id: (s.layout, s.outcome, s.unreadable) for s in index.summaries}
    assert outcomes == {
        "108": ("webarena-verified", "answered", None),
        "109": ("webarena-verified", "unfinished", None),
        "110": ("webarena-verified", "unfinished", None),
    }
    running = load_trajectory(out / "109")
    assert running.outcome == glance_trajectory(out / "109").outcome == "unfinished"
    assert "agent_response.json: missing: the task has not finished" in str(running.warnings[-1])
    assert task_progress(out / "109").state is TaskState.RUNNING
    os.utime(out / "109" / "network.har", (_LONG_AGO, _LONG_AGO))
    os.utime(out / "109", (_LONG_AGO, _LONG_AGO))
    assert task_progress(out / "109").state is TaskState.STALLED


def test_ls_lists_every_task_folder_with_its_state(tmp_path: Path) -> None:
    _output(tmp_path)
    code, text = run_cli("ls", str(tmp_path), "--no-cache")
    assert code == 0
    assert "agent_logs  (3 trajectories; WebArena-Verified agent log)" in text
    row = next(line.split() for line in text.splitlines() if line.strip().startswith("109"))
    assert row[:3] == ["109", "running", "unfinished"]
