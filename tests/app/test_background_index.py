"""The app never waits on the index: it shows what the index holds, refreshes it in the background
and shows new folders without a restart."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_RUNS
from tests.harness.builders import fara_folder
from webeval_core.runs.background import RefreshStatus
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import refresh_index
from webeval_ui.loaders import refresher

TRAJ = "runs/sys/fara-7b/me/bench/0/traj"


def _wait_finished(root: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status = refresher(str(root.resolve())).status()
        if status.finished >= count and not status.running:
            assert status.error is None, status.error
            return
        time.sleep(0.05)
    raise AssertionError("the background refresh did not finish")


def _trajectories(at) -> str:  # type: ignore[no-untyped-def]
    return next(m.value for m in at.metric if m.label == "Trajectories")


def test_new_folders_appear_without_a_restart(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "root"
    for task in ("1", "2"):
        fara_folder(root / TRAJ, task)
    at = app(root=root)  # an index never filled: the page waits for its first rows
    assert _trajectories(at) == "2"
    _wait_finished(root, 1)

    fara_folder(root / TRAJ, "3")
    refresher(str(root.resolve())).request(force=True)  # what the sidebar's poll does every half minute
    _wait_finished(root, 2)
    at.run()

    assert not at.exception
    assert _trajectories(at) == "3"


@pytest.mark.slow
def test_a_page_shows_what_the_index_holds_without_waiting(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "root"
    fara_folder(root / TRAJ, "1")
    refresh_index(IndexStore(root.resolve()))  # the index file holds the one folder
    for task in range(2, 40):
        fara_folder(root / TRAJ, str(task))  # the background refresh has 38 more to read

    started = time.perf_counter()
    at = app(root=root)
    elapsed = time.perf_counter() - started

    assert _trajectories(at) == "1"  # what the index held: its refresh waits for the first paint
    assert elapsed < 10
    _wait_finished(root, 1)
    at.run()
    assert _trajectories(at) == "39"


def test_folders_that_cannot_be_indexed_are_named_on_the_page(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "root"
    fara_folder(root / TRAJ, "1")
    fara_folder(Path(os.fsdecode(os.fsencode(root / TRAJ) + b"/r\xe9sum\xe9")), "2")
    at = app(root=root)
    _wait_finished(root, 1)
    at.run()
    assert not at.exception
    assert _trajectories(at) == "1"
    (warning,) = [
        w.value.replace("\\", "") for w in at.warning if "not indexed" in w.value
    ]  # markdown escapes
    assert f"{TRAJ}/r\ufffdsum\ufffd" in warning and "Rename them to index them" in warning


def _noticed(status: RefreshStatus) -> bool:
    """A refresh started by new score files is under way, or has read them."""
    return status.for_scores or status.scores_read_at is not None


def test_verdicts_written_by_another_process_appear_within_seconds(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`webeval score ROOT` in a terminal while the app is open: no reload, no forced refresh; the
    refresh thread sees the cache's `scores-written` marker move and reads the new score files."""
    root = tmp_path / "root"
    shutil.copytree(SAMPLE_RUNS / "webarena-verified-cli", root / "webarena-verified-cli")
    shutil.copy(SAMPLE_RUNS / "webarena-verified-config.json", root)
    for scores in root.glob("*/*/scores"):
        shutil.rmtree(scores)
    at = app(root=root)
    _wait_finished(root, 1)
    at.run()
    assert "No verdicts yet." in [c.value for c in at.caption]

    command = [sys.executable, "-m", "webeval_core.cli", "score", str(root), "--jobs", "1"]
    scored = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert scored.returncode == 0, scored.stderr
    written = time.monotonic()
    service = refresher(str(root.resolve()))
    while not _noticed(service.status()) and time.monotonic() - written < 10:
        time.sleep(0.05)
    assert _noticed(service.status()), "the new score files were not noticed within 10 s"
    _wait_finished(root, 2)
    at.run()

    captions = [c.value for c in at.caption]
    assert "No verdicts yet." not in captions
    assert any(c.startswith("Figures changed: new score files read at ") for c in captions), captions
