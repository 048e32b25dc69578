"""The background refresh: a child process per refresh, progress, new folders seen when asked again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder
from webeval_core.runs.background import BackgroundRefresh, RefreshStatus
from webeval_core.runs.index_db import IndexStore

TRAJ = "runs/sys/fara-7b/me/bench/0/traj"


def _finished(refresh: BackgroundRefresh, count: int, timeout_s: float = 120.0) -> RefreshStatus:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = refresh.status()
        if status.finished >= count and not status.running:
            return status
        time.sleep(0.05)
    pytest.fail(f"no refresh finished within {timeout_s} s: {refresh.status()}")


def test_refreshes_in_the_background_and_sees_new_folders(tmp_path: Path) -> None:
    root, cache = tmp_path / "root", tmp_path / "cache"
    for task in ("1", "2"):
        fara_folder(root / TRAJ, task)
    refresh = BackgroundRefresh(root, cache, min_interval_s=3600)
    store = IndexStore(root, cache)

    refresh.request()
    status = _finished(refresh, 1)
    assert status.error is None and status.last is not None
    assert (status.last.trajectories, status.last.read) == (2, 2)
    assert (status.done, status.total) == (2, 2)
    assert store.counts().trajectories == 2

    fara_folder(root / TRAJ, "3")
    refresh.request()  # too soon after the last one: ignored
    assert not refresh.status().running
    refresh.request(force=True)
    status = _finished(refresh, 2)
    assert status.last is not None and (status.last.trajectories, status.last.read) == (3, 1)
    assert sorted(s.task_id for s in store.summaries()) == ["1", "2", "3"]


def test_a_refresh_that_fails_says_why(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    cache = tmp_path / "cache"
    cache.write_text("a file where the cache folder should be")
    refresh = BackgroundRefresh(not_a_folder, cache)
    refresh.request()
    status = _finished(refresh, 1)
    assert status.error is not None and "Error" in status.error
    assert status.last is None
