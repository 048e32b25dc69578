"""Score files written by a program that knows nothing of our marker (Fara's verifier writes
`scores/<judge>.json` itself) are noticed by the `scores/` folders' mtimes (issue 49, point 4)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.core.runs.test_background import TRAJ, _finished
from tests.harness.builders import fara_folder, write_score
from webeval_core.runs.background import BackgroundRefresh
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.score_watch import ScoreWatch


def _moved(path: Path, seconds: int) -> None:
    """Give `path` an mtime `seconds` later (two writes within one clock tick move no mtime)."""
    stamp = path.stat().st_mtime_ns + seconds * 1_000_000_000
    os.utime(path, ns=(stamp, stamp))


def test_each_new_score_file_is_seen_once(tmp_path: Path) -> None:
    root = tmp_path / "root"
    scored, unscored = fara_folder(root / TRAJ, "1"), fara_folder(root / TRAJ, "2")
    write_score(scored, "verifier", 0.0, "wrong")
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store, workers=1)
    watch = ScoreWatch(store)
    assert not watch.changed()  # as the index saw them

    write_score(scored, "universal_verifier", 1.0, "right")
    _moved(scored / "scores", 1)
    assert watch.changed() and not watch.changed()  # once per move

    write_score(unscored, "verifier", 1.0, "right")  # a first score file makes scores/
    assert watch.changed() and not watch.changed()
    refresh_index(store, workers=1)  # the index reads them: no move left to see
    assert not watch.changed()


def test_an_open_app_reads_a_foreign_score_file_within_seconds(tmp_path: Path) -> None:
    root, cache = tmp_path / "root", tmp_path / "cache"
    folder = fara_folder(root / TRAJ, "1")
    refresh = BackgroundRefresh(root, cache, min_interval_s=3600, watch_every_s=0.1, folders_every_s=0.2)
    refresh.request()
    assert _finished(refresh, 1).scores_read_at is None

    write_score(folder, "universal_verifier", 1.0, "right")  # no marker touched: another program
    status = _finished(refresh, 2, timeout_s=60)

    assert status.scores_read_at is not None and status.last is not None and status.last.read == 1
    assert "universal_verifier" in IndexStore(root, cache).summaries()[0].scores
