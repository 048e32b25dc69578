"""The background refresh: a child process per refresh, progress, new folders seen when asked again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder, write_score
from webeval_core.runs.background import BackgroundRefresh, RefreshStatus
from webeval_core.runs.index_db import IndexStore, store_path
from webeval_core.support.user_cache import note_scores_written

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
    store_path(cache, not_a_folder).mkdir(parents=True)  # a folder where the index file should be
    refresh = BackgroundRefresh(not_a_folder, cache)
    refresh.request()
    status = _finished(refresh, 1)
    assert status.error is not None and "Error" in status.error
    assert status.last is None


def test_a_cache_folder_that_cannot_be_written_is_replaced_by_a_temporary_one(tmp_path: Path) -> None:
    root, cache = tmp_path / "root", tmp_path / "file" / "cache"
    fara_folder(root / TRAJ, "1")
    (tmp_path / "file").write_text("a file where the cache folder's parent should be")
    refresh = BackgroundRefresh(root, cache)
    refresh.request()
    status = _finished(refresh, 1)
    assert status.error is None and status.last is not None and status.last.trajectories == 1


def test_score_files_written_elsewhere_start_a_refresh_without_a_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `webeval score` in another process does to an open app: it touches the cache's
    `scores-written` marker, the refresh thread sees it and reads the folder again, unasked."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    root, cache = tmp_path / "root", tmp_path / "cache"
    folder = fara_folder(root / TRAJ, "1")
    refresh = BackgroundRefresh(root, cache, min_interval_s=3600, watch_every_s=0.1)
    refresh.request()
    assert _finished(refresh, 1).scores_read_at is None

    write_score(folder, "judge", 1.0, "right")
    note_scores_written()
    status = _finished(refresh, 2, timeout_s=60)  # a child process to start on a busy machine

    assert status.last is not None and status.last.read == 1
    assert status.scores_read_at is not None and not status.for_scores
    assert [s.scores for s in IndexStore(root, cache).summaries()] != [{}]
