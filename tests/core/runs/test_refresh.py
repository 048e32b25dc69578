"""Refreshing the SQLite index: what is read again, what is not, and faults that must not crash it."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder, write_score
from webeval_core.runs import quicksummary as quick_module
from webeval_core.runs import refresh as refresh_module
from webeval_core.runs import summary as summary_module
from webeval_core.runs.index import build_index
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import refresh_index

REPO = Path(__file__).resolve().parents[3]
TRAJ = "runs/sys/fara-7b/me/bench/{run}/traj"
LONG_AGO = 1_600_000_000  # 2020: folders that settled long before the refresh


def _root(tmp_path: Path, runs: int = 2, tasks: int = 3) -> Path:
    root = tmp_path / "root"
    for run in range(runs):
        for task in range(tasks):
            fara_folder(root / TRAJ.format(run=run), str(task))
    return root


def _age(root: Path) -> None:
    """Every file and folder under `root` last changed in 2020 (a finished run)."""
    for top, dirs, files in os.walk(root):
        for name in [*files, *dirs]:
            os.utime(Path(top) / name, (LONG_AGO, LONG_AGO))
    os.utime(root, (LONG_AGO, LONG_AGO))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of the folders summarised (read again) from now on."""
    read: list[str] = []
    real = summary_module.summarize_trajectory

    real_quick = quick_module.quick_summary

    def counting(run_key: str, folder: Path, key: str | None = None, listing: object = None) -> object:
        read.append(str(key))
        return real(run_key, folder, key, listing)

    def quick_counting(run_key: str, folder: str, key: str, listing: object = None) -> object:
        found = real_quick(run_key, folder, key, listing)
        if found is not None:  # else the folder is summarised in full, and counted there
            read.append(key)
        return found

    monkeypatch.setattr(summary_module, "summarize_trajectory", counting)
    monkeypatch.setattr(quick_module, "quick_summary", quick_counting)
    return read


def test_a_warm_refresh_reads_and_lists_nothing(
    tmp_path: Path, reads: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _root(tmp_path)
    _age(root)
    store = IndexStore(root, tmp_path / "cache")
    first = refresh_index(store)
    assert (first.trajectories, first.read) == (6, 6)
    reads.clear()
    listed: list[str] = []
    real_scandir = os.scandir
    monkeypatch.setattr(refresh_module.os, "scandir", lambda p: listed.append(str(p)) or real_scandir(p))

    again = refresh_index(store)

    assert (again.trajectories, again.read, again.removed) == (6, 0, 0)
    assert reads == []
    assert listed == []  # no folder listed again, not even to fingerprint (all settled)


def test_new_changed_and_removed_folders(tmp_path: Path, reads: list[str]) -> None:
    root = _root(tmp_path)
    _age(root)
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store)
    reads.clear()
    run0 = root / TRAJ.format(run=0)
    fara_folder(run0, "new")
    write_score(run0 / "1", "gpt_eval", 0.0, "NOT SUCCESS")  # scores/ created: the folder changed
    write_score(run0 / "1", "mmrubric", 1.0, "SUCCESS")  # scores/ changed only
    import shutil

    shutil.rmtree(root / TRAJ.format(run=1) / "2")

    report = refresh_index(store)

    assert sorted(reads) == sorted([f"{TRAJ.format(run=0)}/new", f"{TRAJ.format(run=0)}/1"])
    assert (report.trajectories, report.removed) == (6, 1)
    summaries = {s.key: s for s in store.summaries()}
    assert f"{TRAJ.format(run=1)}/2" not in summaries
    assert summaries[f"{TRAJ.format(run=0)}/1"].scores == {"gpt_eval": 0.0, "mmrubric": 1.0}


def test_a_score_file_rewritten_in_scores_is_seen(tmp_path: Path, reads: list[str]) -> None:
    root = _root(tmp_path, runs=1, tasks=1)
    folder = root / TRAJ.format(run=0) / "0"
    write_score(folder, "gpt_eval", 0.0, "NOT SUCCESS")
    _age(root)
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store)
    write_score(folder, "gpt_eval", 1.0, "SUCCESS")  # replaced: scores/ mtime changes
    os.utime(folder / "scores", (LONG_AGO + 5, LONG_AGO + 5))

    refresh_index(store)

    assert store.summaries()[0].scores == {"gpt_eval": 1.0}


def test_a_log_edited_in_place_is_seen_while_the_task_has_no_answer(tmp_path: Path, reads: list[str]) -> None:
    root = tmp_path / "root"
    running = fara_folder(root / TRAJ.format(run=0), "running", final_answer=None)
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store)
    steps_before = store.summaries()[0].steps
    reads.clear()
    mtime = running.stat().st_mtime_ns
    log = running / "web_surfer.log"
    with log.open("r+b") as handle:  # in place: the folder's mtime does not move
        handle.truncate(log.stat().st_size // 2)
    os.utime(running, ns=(mtime, mtime))

    refresh_index(store)

    assert reads == [f"{TRAJ.format(run=0)}/running"]
    assert store.summaries()[0].steps < steps_before


def test_a_settled_folder_is_not_fingerprinted(tmp_path: Path, reads: list[str]) -> None:
    root = _root(tmp_path, runs=1, tasks=1)
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store)  # just written: watched
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT files_print IS NOT NULL FROM trajectories").fetchone() == (1,)
    _age(root)
    refresh_index(store)  # read again (its mtime moved), now old: no longer watched
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT files_print FROM trajectories").fetchone() == (None,)


def test_a_folder_deleted_while_it_is_read_is_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _root(tmp_path, runs=1, tasks=2)
    doomed = root / TRAJ.format(run=0) / "1"
    real = quick_module.quick_summary

    def deleting(run_key: str, folder: str, key: str, listing: object = None) -> object:
        if Path(folder) == doomed:
            import shutil

            shutil.rmtree(folder)
        return real(run_key, folder, key, listing)

    # Deleted as the quick summary starts: it declines, and the full summary finds no folder.
    monkeypatch.setattr(quick_module, "quick_summary", deleting)
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store)
    assert {s.key.rsplit("/", 1)[-1]: bool(s.unreadable) for s in store.summaries()} == {
        "0": False,
        "1": True,
    }
    refresh_index(store)
    assert [s.task_id for s in store.summaries()] == ["0"]


def test_an_older_or_corrupt_index_file_is_rebuilt_with_a_notice(tmp_path: Path) -> None:
    root = _root(tmp_path, runs=1, tasks=2)
    cache = tmp_path / "cache"
    store = IndexStore(root, cache)
    refresh_index(store)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE meta SET value = 'webeval 0.0+store-0' WHERE name = 'schema'")
    older = IndexStore(root, cache)
    assert older.notice is not None and "another version (webeval 0.0+store-0)" in older.notice
    assert older.counts().trajectories == 0
    assert refresh_index(older).read == 2

    for suffix in ("", "-wal", "-shm"):
        Path(f"{store.path}{suffix}").write_bytes(b"not a database at all" * 100)
    corrupt = IndexStore(root, cache)
    assert corrupt.notice is not None and "could not be read" in corrupt.notice
    assert refresh_index(corrupt).trajectories == 2
    assert corrupt.counts().trajectories == 2


def test_a_locked_index_file_is_reported_not_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _root(tmp_path, runs=1, tasks=1)
    cache = tmp_path / "cache"
    store = IndexStore(root, cache)
    refresh_index(store)
    monkeypatch.setattr("webeval_core.runs.index_db._BUSY_TIMEOUT_S", 0.1)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        # This version's file opens without writing: another writer does not hold it up.
        current = IndexStore(root, cache)
        holder.execute("UPDATE meta SET value = 'an older version' WHERE name = 'schema'")
        holder.execute("COMMIT")
        holder.execute("BEGIN EXCLUSIVE")
        older = IndexStore(root, cache)  # to be rebuilt, but another process holds the lock
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert current.notice is None and current.counts().trajectories == 1
    assert older.notice is not None and "locked" in older.notice


def test_a_refresh_of_a_locked_index_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _root(tmp_path, runs=1, tasks=1)
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store)
    fara_folder(root / TRAJ.format(run=0), "new")
    monkeypatch.setattr("webeval_core.runs.index_db._BUSY_TIMEOUT_S", 0.1)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer: readers go on, writers wait
    try:
        report = refresh_index(store)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert report.notice is not None and "locked by another process" in report.notice
    assert (report.trajectories, report.read) == (1, 0)
    assert refresh_index(store).read == 1  # the next refresh, the lock gone, reads it


def test_two_processes_refreshing_at_once_neither_lose_nor_duplicate_rows(tmp_path: Path) -> None:
    root = _root(tmp_path, runs=4, tasks=40)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "webeval_core.cli", "index", str(root)]
    children = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)
    ]
    outputs = [child.communicate(timeout=300) for child in children]

    assert [child.returncode for child in children] == [0, 0], outputs
    store = IndexStore(root, tmp_path / "cache" / "webeval")  # the CLI's: $XDG_CACHE_HOME/webeval
    assert store.counts() == (160, 4, 0)
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT COUNT(DISTINCT rel), COUNT(*) FROM trajectories").fetchone() == (160, 160)
    assert store.summaries() == build_index(root, use_cache=False).summaries


def test_folders_read_by_workers_keep_their_scores_mtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Folders read by worker processes, each with scores/: the workers look at scores/ before
    # reading, and what they saw is stored, so the next refresh reads nothing again.
    monkeypatch.setattr(refresh_module, "_PARALLEL_FROM", 8)  # workers for 80 folders
    root = _root(tmp_path, runs=2, tasks=40)
    for folder in (root / "runs").glob("*/*/*/*/*/traj/*"):
        write_score(folder, "gpt_eval", 1.0, "SUCCESS")
    _age(root)
    store = IndexStore(root, tmp_path / "cache")

    first = refresh_index(store, workers=2)
    again = refresh_index(store, workers=2)

    assert (first.read, again.read) == (80, 0)
    with sqlite3.connect(store.path) as db:
        stored = dict(db.execute("SELECT rel, scores_mtime_ns FROM trajectories"))
    assert stored == {
        rel: (root / rel / "scores").stat().st_mtime_ns for rel in stored
    }  # what the disk says, not a placeholder
    folder = root / TRAJ.format(run=1) / "3"
    write_score(folder, "mmrubric", 0.0, "NOT SUCCESS")  # a new file in scores/ only
    os.utime(folder / "scores", (LONG_AGO + 5, LONG_AGO + 5))
    assert refresh_index(store, workers=2).read == 1
    assert next(s for s in store.summaries() if s.path == folder).scores == {"gpt_eval": 1.0, "mmrubric": 0.0}


def test_a_warm_index_command_imports_no_model_library(tmp_path: Path) -> None:
    # Interpreter start and imports are most of a warm `webeval index`: pydantic and the readers
    # are imported only when a folder must be read.
    root = _root(tmp_path, runs=1, tasks=2)
    _age(root)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    probe = (
        "import sys; from webeval_core.cli import main; code = main(sys.argv[1:]);"
        " heavy = ('pydantic', 'webeval_core.reading.trajectory_reader');"
        " print(sorted(m for m in heavy if m in sys.modules))"
    )
    command = [sys.executable, "-c", probe, "index", str(root)]
    cold = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    warm = subprocess.run(command, env=env, capture_output=True, text=True, check=True)

    assert "2 read again" in cold.stdout and "'pydantic'" in cold.stdout
    assert "0 read again" in warm.stdout
    assert warm.stdout.strip().endswith("[]"), warm.stdout


def test_workers_inherit_the_readers_and_import_none(tmp_path: Path) -> None:
    # With enough folders to read, this process reads the first one itself (importing its
    # format's readers and loading the task catalog) before it forks the workers, which inherit
    # them: imported once a refresh, not once in every worker.
    root = _root(tmp_path, runs=2, tasks=40)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    log = tmp_path / "imports.log"
    probe = (
        "import os, sys; parent = os.getpid()\n"
        "def hook(event, args):\n"
        "    if event == 'import' and os.getpid() != parent:\n"
        f"        open({str(log)!r}, 'a').write(args[0] + '\\n')\n"
        "sys.addaudithook(hook)\n"
        "import webeval_core.runs.refresh as refresh; refresh._PARALLEL_FROM = 8  # workers for 80 folders\n"
        "from webeval_core.cli import main; code = main(sys.argv[1:])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "index", str(root)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )

    assert "80 read again" in done.stdout, done.stdout + done.stderr
    in_workers = set(log.read_text().split()) if log.exists() else set()
    assert not {m for m in in_workers if m.startswith(("webeval_core", "pydantic", "orjson"))}, in_workers
    index = build_index(root, cache_dir=tmp_path / "cache")
    assert len(index.summaries) == 80 and {s.run_key for s in index.summaries} == {r.key for r in index.runs}
    assert len(index.runs) == 2 and all(r.model == "fara-7b" for r in index.runs)


def test_folders_named_in_bytes_that_are_not_utf8_are_named_not_lost(tmp_path: Path) -> None:
    """Such a folder cannot be indexed (nor shown); every refresh says which, until it is renamed."""
    root = _root(tmp_path, runs=1, tasks=2)
    traj = root / TRAJ.format(run=0)
    odd = os.fsdecode(os.fsencode(traj) + b"/caf\xe9")
    shutil.copytree(traj / "0", odd)
    hidden = os.fsdecode(os.fsencode(traj) + b"/.caf\xe9")  # hidden: never walked, never named
    shutil.copytree(traj / "0", hidden)
    Path(os.fsdecode(os.fsencode(traj) + b"/file\xe9.txt")).write_text("not a folder")
    _age(root)
    store = IndexStore(root, tmp_path / "cache")
    shown = f"{TRAJ.format(run=0)}/caf\ufffd"

    cold = refresh_index(store, workers=1)
    assert (cold.trajectories, cold.misnamed) == (2, (shown,))
    assert cold.misnamed_notice is not None and shown in cold.misnamed_notice
    assert cold.misnamed_notice.startswith("1 folder(s) not indexed: their names are not UTF-8")
    warm = refresh_index(store, workers=1)  # the folder holding it is not listed again: still named
    assert (warm.read, warm.misnamed) == (0, (shown,))

    os.rename(odd, traj / "cafe")
    renamed = refresh_index(store, workers=1)
    assert (renamed.trajectories, renamed.read, renamed.misnamed, renamed.misnamed_notice) == (3, 1, (), None)


def test_the_notice_names_five_misnamed_folders_and_counts_all(tmp_path: Path) -> None:
    root = _root(tmp_path, runs=1, tasks=1)
    traj = root / TRAJ.format(run=0)
    for number in range(7):
        os.mkdir(os.fsencode(traj) + b"/odd\xff" + str(number).encode())
    report = refresh_index(IndexStore(root, tmp_path / "cache"), workers=1)
    assert len(report.misnamed) == 7 and report.misnamed_notice is not None
    assert report.misnamed_notice.count("odd\ufffd") == 5 and "odd\ufffd4 ..." in report.misnamed_notice
    assert report.misnamed_notice.startswith("7 folder(s)")


def test_an_index_made_before_misnamed_folders_were_kept_lists_its_folders_again(tmp_path: Path) -> None:
    root = _root(tmp_path, runs=1, tasks=1)
    os.mkdir(os.fsencode(root / TRAJ.format(run=0)) + b"/odd\xff")
    _age(root)
    store = IndexStore(root, tmp_path / "cache")
    refresh_index(store, workers=1)
    with sqlite3.connect(store.path) as db:
        db.execute("DROP TABLE misnamed")  # the file as the version before wrote it
    again = IndexStore(root, tmp_path / "cache")  # the table made again, the listings forgotten
    report = refresh_index(again, workers=1)
    assert (report.read, report.misnamed) == (0, (f"{TRAJ.format(run=0)}/odd\ufffd",))
