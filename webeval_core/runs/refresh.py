"""Refreshing a root's SQLite index: only folders that changed are read again.

The walk goes down from the root as discovery does (hidden folders, `scores/` and links skipped,
a folder that cannot be listed kept as an unreadable trajectory), but a folder the index knows with
the same mtime is not listed again: its sub-folders come from the index. A trajectory folder whose
mtime and `scores/` mtime are unchanged keeps its summary without any of its files being looked
at. Files edited in place change neither, so folders that may still be written (changed in the
last ten seconds, or in the last five minutes when there is no final answer yet: a running task
writes a screenshot, a new file, at every step) also keep a fingerprint
of their watched files, checked each time until they settle.

Summaries are read in worker processes (all cores) and written in batches, each one transaction:
two processes refreshing at once upsert the same rows by key, and a reader sees whole batches.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.parallel import ProgressCallback, map_in_processes
from webeval_core.reading.trajectory import is_trajectory_folder
from webeval_core.runs.discovery import is_walked, natural_key, run_of, trajectory_key
from webeval_core.runs.index import TrajectorySummary, fingerprint, summarize_trajectory
from webeval_core.runs.store import IndexStore, StoredFolder, StoredRow

__all__ = ["LIVE_WINDOW_S", "UNANSWERED_WINDOW_S", "RefreshReport", "refresh_index"]

LIVE_WINDOW_S = 10
"""A folder with an answer changed this recently (seconds) may still be written: its files are watched.

A harness writes what follows the answer (times.json, core.log's last lines) within seconds."""
UNANSWERED_WINDOW_S = 300
"""The same for a folder without a final answer yet (a task still running, or one that crashed)."""
_BATCH = 2000  # summaries per transaction: a reader sees rows arrive while a cold index builds
_PARALLEL_FROM = 64  # folders; reading one summary is cheaper than a worker start
_ANSWERED = ("answered", "no_answer")


class RefreshReport(BaseModel):
    """What one refresh found and did."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    trajectories: int
    """Trajectory folders under the root after the refresh."""
    read: int
    """How many were read again (new or changed)."""
    removed: int
    """How many rows went because their folder did."""
    notice: str | None = None
    """Why the index file was rebuilt, when it was (older version, unreadable file)."""


@dataclass
class _Walk:
    """What the walk found: trajectory folders with their mtime, and walked folders."""

    found: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Trajectory folders by relative path: (folder, mtime; -1 when it could not be stat'ed)."""
    listed: list[tuple[str, int, list[str]]] = field(default_factory=list)
    """Folders listed again (changed or new): relative path, mtime, sub-folder names."""
    seen: set[str] = field(default_factory=set)
    """Every walked (non-trajectory) folder."""


def _child(rel: str, name: str) -> str:
    return name if rel == "." else f"{rel}/{name}"


def _walk(root: Path, known_dirs: dict[str, tuple[int, list[str]]], known: dict[str, StoredRow]) -> _Walk:
    # Plain strings, not Paths: a warm refresh of 50,000 folders is mostly this loop.
    walk = _Walk()
    stack: list[tuple[str, str]] = [(str(root), ".")]
    while stack:
        folder, rel = stack.pop()
        try:
            mtime = os.stat(folder, follow_symlinks=rel == ".").st_mtime_ns
        except (FileNotFoundError, NotADirectoryError):
            continue  # gone since its parent was listed
        except OSError:
            walk.found[rel] = (folder, -1)
            continue
        stored = known.get(rel)
        if stored is not None and stored[1] == mtime:
            walk.found[rel] = (folder, mtime)
            continue
        children = _children(folder, rel, mtime, known_dirs.get(rel), walk)
        if children is not None:
            walk.seen.add(rel)
            stack.extend((f"{folder}{os.sep}{name}", _child(rel, name)) for name in reversed(children))
    return walk


def _children(
    folder: str, rel: str, mtime: int, listed: tuple[int, list[str]] | None, walk: _Walk
) -> list[str] | None:
    """The sub-folders to walk, or None when `folder` is a trajectory (recorded) or gone."""
    if listed is not None and listed[0] == mtime:
        return listed[1]
    if is_trajectory_folder(Path(folder)):
        walk.found[rel] = (folder, mtime)
        return None
    try:
        with os.scandir(folder) as entries:
            names = sorted((e.name for e in entries if is_walked(e)), key=natural_key)
    except (NotADirectoryError, FileNotFoundError):
        return None
    except OSError:  # kept, so the index lists it as unreadable with the system's reason
        walk.found[rel] = (folder, mtime)
        return None
    walk.listed.append((rel, mtime, names))
    return names


def _scores_mtime(folder: str) -> int:
    try:
        return os.stat(f"{folder}{os.sep}scores", follow_symlinks=False).st_mtime_ns
    except OSError:
        return -1


def _recent(mtime_ns: int, window_s: float = LIVE_WINDOW_S) -> bool:
    return time.time() - mtime_ns / 1e9 < window_s


_READ, _KEEP, _SETTLE = "read", "keep", "settle"


def _verdict(folder: str, seen: StoredFolder, row: StoredRow | None) -> str:
    """Read the folder again, keep its summary, or keep it and stop watching its files (settled)."""
    if row is None or row[1] != seen.dir_mtime_ns or row[2] != seen.scores_mtime_ns or seen.dir_mtime_ns < 0:
        return _READ
    stored = StoredFolder(row[1], row[2], row[3], bool(row[4]))
    if stored.files_print is None:
        return _KEEP
    if stored.files_print != fingerprint(folder):
        return _READ
    # Quiet for a while (longer without an answer: a step may take minutes): its files are no
    # longer edited, so no longer watched.
    window = LIVE_WINDOW_S if stored.answered else UNANSWERED_WINDOW_S
    return _KEEP if _recent(seen.dir_mtime_ns, window) else _SETTLE


@dataclass(frozen=True)
class _Job:
    """One folder to read: what a worker needs, and what the walk saw of it."""

    run_key: str
    """The run it belongs to."""
    folder: Path
    """The trajectory folder."""
    key: str
    """Its key under the root."""
    rel: str
    """Its path relative to the root ("." for the root itself)."""
    seen: StoredFolder
    """The mtimes the walk saw (before reading: a change while reading is seen next time)."""


def _read(job: _Job) -> tuple[_Job, TrajectorySummary, str | None]:
    summary = summarize_trajectory(job.run_key, job.folder, job.key)
    window = LIVE_WINDOW_S if summary.outcome in _ANSWERED else UNANSWERED_WINDOW_S
    live = _recent(job.seen.dir_mtime_ns, window)
    return job, summary, fingerprint(job.folder) if live else None


def refresh_index(
    store: IndexStore,
    *,
    workers: int | None = None,
    on_progress: ProgressCallback | None = None,
    on_batch: Callable[[], None] | None = None,
) -> RefreshReport:
    """Bring the index of `store.root` up to date with the disk, reading only what changed.

    `on_progress(done, total)` follows the folders read; `on_batch()` runs after each batch is
    committed (readers may look again). An index file another process keeps locked past the
    wait is left as it is, and the report's notice says so.
    """
    try:
        return _refresh(store, workers, on_progress, on_batch)
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc):
            raise
        notice = f"The index file {store.path} is locked by another process ({exc}); it was not refreshed."
        return RefreshReport(trajectories=store.counts().trajectories, read=0, removed=0, notice=notice)


def _refresh(
    store: IndexStore,
    workers: int | None,
    on_progress: ProgressCallback | None,
    on_batch: Callable[[], None] | None,
) -> RefreshReport:
    root = store.root
    with contextlib.closing(store.connect()) as db:
        known_dirs = store.known_dirs(db)
        known = store.known_folders(db)
    walk = _walk(root, known_dirs, known)
    jobs: list[_Job] = []
    settled: list[tuple[str, StoredFolder]] = []
    for rel, (folder, mtime) in walk.found.items():
        row = known.get(rel)
        # No scores/ last time and the folder unchanged: still none (making one changes the folder).
        unscored = row is not None and row[1] == mtime and row[2] == -1
        seen = StoredFolder(mtime, -1 if unscored else _scores_mtime(folder), None)
        verdict = _verdict(folder, seen, row)
        if verdict == _READ:
            path = Path(folder)
            jobs.append(_Job(run_of(root, path).key, path, trajectory_key(root, path), rel, seen))
        elif verdict == _SETTLE:
            settled.append((rel, seen))
    gone = [rel for rel in known if rel not in walk.found and not is_trajectory_folder(store.path_of(rel))]
    _write_structure(store, walk, known_dirs, gone, settled)
    _read_in_batches(store, jobs, workers or os.cpu_count() or 1, on_progress, on_batch)
    return RefreshReport(trajectories=len(walk.found), read=len(jobs), removed=len(gone), notice=store.notice)


def _write_structure(
    store: IndexStore,
    walk: _Walk,
    known_dirs: dict[str, tuple[int, list[str]]],
    gone: list[str],
    settled: list[tuple[str, StoredFolder]],
) -> None:
    stale_dirs = [rel for rel in known_dirs if rel not in walk.seen]
    if not (walk.listed or stale_dirs or gone or settled):
        return
    with store.transaction() as db:
        store.put_dirs(db, walk.listed)
        store.drop_dirs(db, stale_dirs)
        store.drop_trajectories(db, gone)
        store.touch(db, settled)


def _read_in_batches(
    store: IndexStore,
    jobs: Sequence[_Job],
    workers: int,
    on_progress: ProgressCallback | None,
    on_batch: Callable[[], None] | None,
) -> None:
    total = len(jobs)
    for start in range(0, total, _BATCH):
        batch = jobs[start : start + _BATCH]

        def progress(done: int, _: int, offset: int = start) -> None:
            if on_progress is not None:
                on_progress(offset + done, total)

        results = map_in_processes(
            _read, batch, workers=workers, parallel_from=_PARALLEL_FROM, on_progress=progress
        )
        _write_batch(store, results)
        if on_batch is not None:
            on_batch()


def _write_batch(store: IndexStore, results: list[tuple[_Job, TrajectorySummary, str | None]]) -> None:
    runs = {}
    for job, _, _ in results:
        run = run_of(store.root, job.folder)
        runs[run.key] = (run, trajectory_key(store.root, run.path) if run.path != store.root else ".")
    try:
        with store.transaction() as db:
            store.put_runs(db, runs.values())
            store.put_summaries(
                db, ((job.rel, job.seen._replace(files_print=print_), s) for job, s, print_ in results)
            )
    except sqlite3.IntegrityError:  # another process wrote the same folders meanwhile: theirs stand
        return
