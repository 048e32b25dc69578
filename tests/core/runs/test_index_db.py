"""The index file: rows read back as summaries, frames and runs, the same as the summaries written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from tests.core.runs.test_metrics import A, B, summary, verdict
from tests.harness.builders import fara_folder, write_score
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs import metrics as m
from webeval_core.runs.discovery import Run
from webeval_core.runs.index import RootIndex, build_index
from webeval_core.runs.index_columns import sort_key
from webeval_core.runs.index_db import IndexStore, StoredFolder, default_cache_dir, run_row, trajectory_row
from webeval_core.runs.judges import OFFICIAL, available_judges, order_judges
from webeval_core.runs.refresh import refresh_index
from webeval_core.scoring import verdicts as vd

SUMMARIES = (
    summary(A, "0", v=verdict("success", 1.0), steps=10, duration_s=100.0, scores={"gpt_eval": 0.0}),
    summary(A, "1", v=verdict("failure", 0.0, vd.WRONG_VALUES), steps=20, prompt_tokens=10),
    summary(A, "7", outcome="no_answer", v=verdict("failure", 0.0), core_error="TimeoutError"),
    summary(A, "27", outcome="aborted", steps=4),
    summary(A, "44", v=verdict("error", 0.0, vd.SCORING_ERROR), scores={"gpt_eval": 1.0}),
    summary(B, "0", v=verdict("failure", 0.0, vd.WRONG_TASK_TYPE, vd.SCHEMA_VIOLATIONS), steps=5),
    summary(B, "7", scores={"gpt_eval": 1.0, "mmrubric_0.8": 0.0}, final_answer="12 open"),
    summary(B, "999999", outcome=None, unreadable="no answer file"),
)


def summaries_store(tmp_path: Path) -> IndexStore:
    """An index file of root /r holding SUMMARIES (each row at its key under the root)."""
    stored = IndexStore(Path("/r"), tmp_path / "cache")
    with stored.transaction() as db:
        stored.put_runs(db, [run_row(Run(key=key, path=Path("/r") / key), key) for key in (A, B)])
        stored.put_summaries(db, [(s.key, StoredFolder(1, -1, None, True), s) for s in SUMMARIES])
    return stored


@pytest.fixture
def store(tmp_path: Path) -> IndexStore:
    return summaries_store(tmp_path)


@pytest.mark.parametrize("judge", [None, OFFICIAL, "gpt_eval", "mmrubric_0.8"])
def test_the_stored_frame_is_the_trajectory_frame(store: IndexStore, judge: str | None) -> None:
    catalog = load_catalog()
    # The index orders rows run by run in natural folder order, as discovery does.
    ordered = tuple(sorted(SUMMARIES, key=lambda s: (s.run_key, sort_key(s.key))))
    expected = m.trajectory_frame(
        RootIndex(root=Path("/r"), runs=store.runs(), summaries=ordered), catalog, judge
    )
    pd.testing.assert_frame_equal(m.stored_frame(store, catalog, judge), expected)


def test_summaries_runs_and_judges_read_back(store: IndexStore) -> None:
    assert sorted(store.summaries(), key=lambda s: s.key) == sorted(SUMMARIES, key=lambda s: s.key)
    assert [s.task_id for s in store.summaries(A)] == ["0", "1", "7", "27", "44"]  # 7 before 27
    assert [r.key for r in store.runs()] == [A, B]
    assert order_judges(store.judges()) == available_judges(
        RootIndex(root=Path("/r"), runs=(), summaries=SUMMARIES)
    )
    assert store.counts() == (8, 2, 1)
    assert store.run_counts() == {A: 5, B: 3}


def test_the_index_of_a_real_root_matches_a_fresh_read(tmp_path: Path) -> None:
    root = tmp_path / "root"
    traj = root / "runs/sys/fara-7b/me/bench/0/traj"
    for task in ("10", "9", "crashed"):
        fara_folder(traj, task, final_answer=None if task == "crashed" else "ok")
    write_score(traj / "9", "gpt_eval", 1.0, "SUCCESS")
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store)
    fresh = build_index(root, use_cache=False)
    assert store.summaries() == fresh.summaries
    assert store.runs() == fresh.runs
    assert [s.task_id for s in fresh.summaries] == ["9", "10", "crashed"]


def test_a_file_missing_an_index_gets_it_on_open_and_keeps_its_rows(store: IndexStore) -> None:
    with sqlite3.connect(store.path) as db:
        db.execute("DROP INDEX trajectories_seen")
    reopened = IndexStore(store.root, store.path.parent)
    assert reopened.notice is None
    assert reopened.counts().trajectories == len(SUMMARIES)
    with sqlite3.connect(store.path) as db:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "trajectories_seen" in names


def test_a_row_written_again_replaces_the_old_one_and_its_scores(store: IndexStore) -> None:
    first = SUMMARIES[6]  # scored by two judges
    again = first.model_copy(update={"scores": {"gpt_eval": 0.0}})
    with store.transaction() as db:
        store.put_summaries(db, [(first.key, StoredFolder(2, -1, None, True), again)])
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT COUNT(*) FROM trajectories WHERE key = ?", (first.key,)).fetchone() == (1,)
        scores = db.execute("SELECT judge, score FROM scores WHERE key = ?", (first.key,)).fetchall()
    assert scores == [("gpt_eval", 0.0)]
    assert store.counts().trajectories == len(SUMMARIES)


def test_the_store_keeps_its_index_files_in_the_default_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert IndexStore(tmp_path / "root").path.parent == default_cache_dir()

    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert (
        IndexStore(tmp_path / "root").path.parent == default_cache_dir() == tmp_path / "home/.cache/webeval"
    )


def test_a_new_row_another_process_wrote_first_is_replaced_with_its_scores(store: IndexStore) -> None:
    # A cold refresh writes the folders it did not know without deleting score rows; when another
    # process wrote one of them meanwhile, the batch is written again as any row read again.
    first = SUMMARIES[6]  # scored by two judges
    again = first.model_copy(update={"scores": {"gpt_eval": 0.0}})
    new = summary(B, "8", scores={"gpt_eval": 1.0})
    rows = [trajectory_row(s.key, StoredFolder(2, -1, None, True), s) for s in (again, new)]
    with store.transaction() as db:
        store.put_new_rows(db, rows)
    with sqlite3.connect(store.path) as db:
        scores = db.execute(
            "SELECT key, judge, score FROM scores WHERE key IN (?, ?) ORDER BY key", (first.key, new.key)
        )
        assert scores.fetchall() == [(first.key, "gpt_eval", 0.0), (new.key, "gpt_eval", 1.0)]
    assert store.counts().trajectories == len(SUMMARIES) + 1
    assert {s.key: s for s in store.summaries()}[first.key] == again


def test_new_rows_are_written_with_their_scores_and_codes(tmp_path: Path) -> None:
    stored = IndexStore(Path("/r"), tmp_path / "cache")
    rows = [trajectory_row(s.key, StoredFolder(1, -1, None, True), s) for s in SUMMARIES]
    with stored.transaction() as db:
        stored.put_new_rows(db, rows)
    assert sorted(stored.summaries(), key=lambda s: s.key) == sorted(SUMMARIES, key=lambda s: s.key)
    assert stored.judges() == summaries_store(tmp_path / "other").judges()


def test_run_heads_are_the_runs_without_their_folders(store: IndexStore) -> None:
    runs = store.runs()
    assert store.run_heads() == tuple(run.model_copy(update={"trajectory_dirs": ()}) for run in runs)
    assert [store.run(run.key) for run in runs] == list(runs)
    assert store.run("no such run") is None


def test_a_run_without_its_row_yet_is_placed_by_its_first_folder(tmp_path: Path) -> None:
    # A refresh writes a run's trajectories before its row: a page reading in between still lists it.
    stored = IndexStore(Path("/r"), tmp_path / "cache")
    with stored.transaction() as db:
        stored.put_summaries(db, [(s.key, StoredFolder(1, -1, None, True), s) for s in SUMMARIES])
    heads = stored.run_heads()
    assert [(r.key, r.path, r.trajectory_dirs) for r in heads] == [
        (A, Path("/r") / A, ()),
        (B, Path("/r") / B, ()),
    ]
    assert heads == tuple(r.model_copy(update={"trajectory_dirs": ()}) for r in stored.runs())


def test_a_new_index_file_has_large_pages_and_an_old_one_keeps_its_own(tmp_path: Path) -> None:
    store = summaries_store(tmp_path)
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA page_size").fetchone() == (16384,)
    old = tmp_path / "old"
    made = IndexStore(Path("/r"), old)
    made.path.unlink()
    with sqlite3.connect(made.path) as db:  # a file made by an earlier version, with 4 KB pages
        db.execute("PRAGMA page_size=4096")
        db.execute("PRAGMA journal_mode=WAL")
    reopened = IndexStore(Path("/r"), old)
    with reopened.transaction() as db:
        reopened.put_summaries(db, [(s.key, StoredFolder(1, -1, None, True), s) for s in SUMMARIES])
        assert db.execute("PRAGMA page_size").fetchone() == (4096,)
    assert len(reopened.summaries()) == len(SUMMARIES)
