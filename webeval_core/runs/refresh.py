"""Refreshing a root's SQLite index: only folders that changed are read again.

The walk goes down from the root as discovery does (hidden folders, `scores/` and links skipped,
a folder that cannot be listed kept as an unreadable trajectory), but a folder the index knows with
the same mtime is not listed again: its sub-folders come from the index. A trajectory folder whose
mtime and `scores/` mtime are unchanged keeps its summary without any of its files being looked
at. Files edited in place change neither, so folders that may still be written (changed in the
last ten seconds, or in the last five minutes when there is no final answer yet: a running task
writes a screenshot, a new file, at every step) also keep a fingerprint
of their watched files, checked each time until they settle.

A warm refresh is two `stat` calls per trajectory folder (the folder, its `scores/`), made
relative to the open parent folder, and nothing else: no model, no reader is imported unless a
folder must be read. The first folder to read is read here, which imports its format's readers and
loads the task catalog once; the others in worker processes forked after it (all cores, one pool,
started once enough folders are found, so they read while the walk goes on), which inherit both
instead of loading them each, and send back plain rows, written in batches, each one transaction:
two processes refreshing at once upsert the same rows by key, and a reader sees whole batches.
Each folder is listed once to be read: the quick summary, the glance and the files' print take
that listing.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import itertools
import os
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from webeval_core.reading.formats import is_trajectory_folder, marker_names, watched_file
from webeval_core.reading.markers import SCORES_DIR, is_misnamed_folder, is_walked, shown_name
from webeval_core.runs.index_db import IndexStore, RunRow, StoredFolder, StoredRow, TrajectoryRow

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import Listing
    from webeval_core.support.parallel import ProgressCallback

__all__ = [
    "LIVE_WINDOW_S",
    "UNANSWERED_WINDOW_S",
    "RefreshReport",
    "fingerprint",
    "refresh_index",
    "scores_mtime",
]

LIVE_WINDOW_S = 10
"""A folder with an answer changed this recently (seconds) may still be written: its files are watched.

A harness writes what follows the answer (times.json, core.log's last lines) within seconds."""
UNANSWERED_WINDOW_S = 300
"""The same for a folder without a final answer yet (a task still running, or one that crashed)."""
_BATCH = 2000  # summaries per transaction: a reader sees rows arrive while a cold index builds
# Folders from which workers read: two workers cost ~75 ms of CPU to start (the fork, then each
# page of the inherited readers a worker touches copied) and ~65 us a folder (rows sent back,
# the walk beside them), against ~300 us to read a folder here: below ~500 folders, one process
# is done first even on two idle cores (bench_agentlab_index), and on busy ones by more.
_PARALLEL_FROM = 500
_ANSWERED = ("answered", "no_answer")
_UNSEEN = -2  # a `scores/` mtime not looked at yet (-1 is "none")
_SCORES = f"{os.sep}scores"
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
_MISNAMED_SHOWN = 5  # paths a notice names; it counts them all


class RefreshReport(NamedTuple):
    """What one refresh found and did (a tuple: a warm refresh imports no model library)."""

    trajectories: int
    """Trajectory folders under the root after the refresh."""
    read: int
    """How many were read again (new or changed)."""
    removed: int
    """How many rows went because their folder did."""
    notice: str | None = None
    """Why the index file was rebuilt, when it was (older version, unreadable file)."""
    misnamed: tuple[str, ...] = ()
    """Folders under the root not indexed because their names are not UTF-8 (paths under the root,
    each byte that is not UTF-8 shown as U+FFFD)."""

    @property
    def misnamed_notice(self) -> str | None:
        """What to tell the user of `misnamed`; None when every folder could be indexed."""
        if not self.misnamed:
            return None
        shown = ", ".join(self.misnamed[:_MISNAMED_SHOWN]) + (
            " ..." if len(self.misnamed) > _MISNAMED_SHOWN else ""
        )
        return (
            f"{len(self.misnamed)} folder(s) not indexed: their names are not UTF-8, which the index"
            f" cannot keep or show ({shown}; U+FFFD marks each byte that is not). Rename them to index them."
        )


class _Look(NamedTuple):
    """A trajectory folder the walk could not settle by its mtimes alone."""

    rel: str
    """Its path relative to the root."""
    folder: str
    """The folder."""
    mtime: int
    """Its mtime (-1 when it could not be stat'ed)."""
    scores_mtime: int | None
    """Its `scores/` mtime, -1 without one; None when not looked at yet."""


class _Walk:
    """What the walk found: trajectory folders (and those to look at again), and walked folders.

    A plain class, not a dataclass: `dataclasses` imports `inspect`, a cost a warm refresh need not pay.
    """

    def __init__(self) -> None:
        self.found: set[str] = set()
        """Every trajectory folder, by relative path."""
        self.looks: list[_Look] = []
        """Those whose mtimes changed, or whose files are still watched, found since `_walk` last
        handed them on."""
        self.listed: list[tuple[str, int, list[str]]] = []
        """Folders listed again (changed or new): relative path, mtime, sub-folder names."""
        self.seen: set[str] = set()
        """Every walked (non-trajectory) folder."""
        self.misnamed: dict[str, list[str]] = {}
        """Of the folders listed again, those with sub-folders skipped for their names: those names
        (shown), by the listed folder's relative path."""


def _child(rel: str, name: str) -> str:
    return name if rel == "." else f"{rel}/{name}"


def _walk(
    root: Path, known_dirs: dict[str, tuple[int, list[str]]], known: dict[str, StoredRow], walk: _Walk
) -> Iterator[_Look]:
    """The trajectory folders to look at, handed on as they are found (so they are read while the
    walk goes on); what else the walk finds goes in `walk`.
    """
    # Plain strings, not Paths: a warm refresh of 50,000 folders is mostly this loop.
    stack: list[tuple[str, str]] = [(str(root), ".")]
    while stack:
        folder, rel = stack.pop()
        try:
            mtime = os.stat(folder, follow_symlinks=rel == ".").st_mtime_ns
        except (FileNotFoundError, NotADirectoryError):
            continue  # gone since its parent was listed
        except OSError:
            walk.found.add(rel)
            walk.looks.append(_Look(rel, folder, -1, None))
            continue
        stored = known.get(rel)
        if stored is not None and stored[1] == mtime:
            walk.found.add(rel)
            walk.looks.append(_Look(rel, folder, mtime, None))
            continue
        children = _children(folder, rel, mtime, known_dirs.get(rel), walk)
        if children is not None:
            walk.seen.add(rel)
            unknown = _check_known(folder, rel, children, known, walk)
            stack.extend((f"{folder}{os.sep}{name}", _child(rel, name)) for name in reversed(unknown))
        if walk.looks:
            looks, walk.looks = walk.looks, []
            yield from looks


def _check_known(
    folder: str, rel: str, children: list[str], known: dict[str, StoredRow], walk: _Walk
) -> list[str]:
    """Settle the known trajectory folders among `children` by their mtimes; the others, to walk."""
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return children  # each is walked (and stat'ed) on its own
    prefix = "" if rel == "." else f"{rel}/"
    unknown: list[str] = []
    try:
        # The loop of a warm refresh, once per trajectory folder: kept to a lookup, a stat or two.
        for name in children:
            child = prefix + name
            row = known.get(child)
            if row is None or not _settled(fd, folder, child, name, row, walk):
                unknown.append(name)
    finally:
        os.close(fd)
    return unknown


def _settled(fd: int, folder: str, rel: str, name: str, row: StoredRow, walk: _Walk) -> bool:
    """Whether `name`, a known trajectory in the open folder `fd` (`row`), is now dealt with."""
    try:  # relative to the open parent: the kernel does not resolve the whole path again
        mtime = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mtime_ns
    except (FileNotFoundError, NotADirectoryError):
        return True  # gone
    except OSError:
        return False  # walked on its own, which says why
    if mtime != row[1]:
        return False  # changed: walked on its own (it may be a trajectory no longer)
    walk.found.add(rel)
    # No scores/ last time and the folder unchanged: still none (making one changes the folder).
    scores = -1 if row[2] == -1 else scores_mtime(name, fd)
    if row[3] is None and scores == row[2]:
        return True
    walk.looks.append(_Look(rel, f"{folder}{os.sep}{name}", mtime, scores))
    return True


def _children(
    folder: str, rel: str, mtime: int, listed: tuple[int, list[str]] | None, walk: _Walk
) -> list[str] | None:
    """The sub-folders to walk, or None when `folder` is a trajectory (recorded) or gone."""
    if listed is not None and listed[0] == mtime:
        return listed[1]
    if _is_trajectory(folder):
        walk.found.add(rel)
        walk.looks.append(_Look(rel, folder, mtime, None))
        return None
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
        # Plain order (rows carry their own natural sort key): a run's 800 names sort in C.
        names = sorted(e.name for e in entries if is_walked(e))
        if misnamed := sorted(shown_name(e.name) for e in entries if is_misnamed_folder(e)):
            walk.misnamed[rel] = misnamed
    except (NotADirectoryError, FileNotFoundError):
        return None
    except OSError:  # kept, so the index lists it as unreadable with the system's reason
        walk.found.add(rel)
        walk.looks.append(_Look(rel, folder, mtime, None))
        return None
    walk.listed.append((rel, mtime, names))
    return names


def _is_trajectory(folder: str) -> bool:
    """`is_trajectory_folder`, answered by one lookup for most folders instead of a listing."""
    # A format's marker alone makes a trajectory there; a lookup by name costs a fifth of a listing.
    if any(os.path.isfile(f"{folder}{os.sep}{marker}") for marker in marker_names()):
        return True
    return is_trajectory_folder(Path(folder))


def scores_mtime(folder: str, dir_fd: int | None = None) -> int:
    """The mtime (ns) of a trajectory folder's `scores/`; -1 when it has none (`runs.score_watch`)."""
    try:
        return os.stat(folder + _SCORES, dir_fd=dir_fd, follow_symlinks=False).st_mtime_ns
    except OSError:
        return -1


def _recent(mtime_ns: int, window_s: float = LIVE_WINDOW_S) -> bool:
    return time.time() - mtime_ns / 1e9 < window_s


def fingerprint(trajectory_dir: Path | str, names: Iterable[str] | None = None) -> str:
    """Changes whenever a file the summary depends on is added, removed, renamed or rewritten.

    `names`: the folder's, when the caller has just listed it (else it is listed here).
    """
    folder = os.fspath(trajectory_dir)
    parts: list[str] = []
    try:
        st = os.stat(folder)
        parts.append(f".:{st.st_mtime_ns}:{st.st_size}")
        if names is None:
            with os.scandir(folder) as entries:
                names = [e.name for e in entries]
    except OSError:
        names = ()
    # Files whose in-place edits do not change the folder's own mtime: every format's, and scores/.
    for name in sorted(n for n in names if n == SCORES_DIR or watched_file(n)):
        try:
            st = os.stat(f"{folder}{os.sep}{name}")
        except OSError:
            continue
        parts.append(f"{name}:{st.st_mtime_ns}:{st.st_size}")
    return hashlib.sha1("|".join(parts).encode()).hexdigest()


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


class _Job(NamedTuple):
    """One folder to read: what a worker needs, and what the walk saw of it (plain values: pickled)."""

    root: str
    """The root indexed."""
    folder: str
    """The trajectory folder."""
    rel: str
    """Its path relative to the root ("." for the root itself)."""
    seen: StoredFolder
    """The mtimes the walk saw (before reading: a change while reading is seen next time); a new
    folder's `scores/` is looked at by the worker (`_UNSEEN`), which spares the walk a stat each."""


class _Read(NamedTuple):
    """A worker's answer (plain values: cheap to send back, written without a model)."""

    row: TrajectoryRow
    """The folder's row."""
    run: RunRow
    """Its run's row."""
    new: bool
    """The folder was not in the index when the refresh began (nothing of it to replace)."""


def _read(job: _Job) -> _Read:
    """A worker's part: the folder's summary, as the index's row (validated once, here)."""
    from webeval_core.runs.index_db import trajectory_row
    from webeval_core.runs.quicksummary import folder_path, quick_summary
    from webeval_core.runs.summary import summarize_trajectory

    seen = job.seen
    # Listed once: the quick summary, the glance and the files' print all take this listing.
    listing = _listing(job.folder)
    names = listing.names if listing is not None else None
    new = seen.scores_mtime_ns == _UNSEEN  # what the sorting hands on for a folder it did not know
    # Before reading: a score written meanwhile is seen next time.
    scores_seen = _scores_seen(job.folder, names) if new else seen.scores_mtime_ns
    run = _run_of(job.root, job.folder)
    key = job.rel if job.rel != "." else _root_key(job.root)
    # An ordinary folder's summary and document in one pass; any other folder read in full.
    summary, document = quick_summary(run[0], job.folder, key, listing) or (
        summarize_trajectory(run[0], folder_path(job.folder), key, listing),
        None,
    )
    window = LIVE_WINDOW_S if summary.outcome in _ANSWERED else UNANSWERED_WINDOW_S
    print_ = fingerprint(job.folder, names) if _recent(seen.dir_mtime_ns, window) else None
    stored = StoredFolder(seen.dir_mtime_ns, scores_seen, print_)  # not `_replace`: twice the cost
    return _Read(trajectory_row(job.rel, stored, summary, document), run, new)


def _listing(folder: str) -> Listing | None:
    """The folder's listing; None when it cannot be listed (its reader says why)."""
    from webeval_core.reading.folderreader import list_folder

    try:
        return list_folder(folder)
    except OSError:
        return None


def _scores_seen(folder: str, names: Collection[str] | None) -> int:
    """`scores_mtime`, answered by the listing when it holds no `scores/` (one stat fewer)."""
    return -1 if names is not None and SCORES_DIR not in names else scores_mtime(folder)


# A worker's runs by (root, trajectory folder's parent): made once per run folder, from its path.
_RUNS: dict[tuple[str, str], RunRow] = {}


def _run_of(root: str, folder: str) -> RunRow:
    parent = folder.rpartition(os.sep)[0]
    made = _RUNS.get((root, parent))
    if made is None:
        from webeval_core.runs.discovery import run_of, trajectory_key
        from webeval_core.runs.index_db import run_row

        run = run_of(Path(root), Path(folder))
        rel = trajectory_key(Path(root), run.path) if run.path != Path(root) else "."
        made = _RUNS[(root, parent)] = run_row(run, rel)
    return made


def _root_key(root: str) -> str:
    """The key of a root that is itself a trajectory folder, named as discovery names it."""
    from webeval_core.runs.discovery import trajectory_key

    return trajectory_key(Path(root), Path(root))


def refresh_index(
    store: IndexStore,
    *,
    workers: int | None = None,
    on_progress: ProgressCallback | None = None,
    on_batch: Callable[[], None] | None = None,
) -> RefreshReport:
    """Bring the index of the store's root up to date with the disk, reading only what changed.

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
    collecting = gc.isenabled()
    gc.disable()  # tens of thousands of tuples, no cycles: collections would rescan them all, often
    try:
        with contextlib.closing(store.connect()) as db:
            known_dirs = store.known_dirs(db)
            known = store.known_folders(db)
            walk = _Walk()
            sorting = _Sorting(store.root, known)
            jobs = sorting.sort(_walk(store.root, known_dirs, known, walk))
            results = _start_reading(jobs, workers or os.cpu_count() or 1)  # the walk is over then
            gone = _gone(store, known, walk.found)
            _write_structure(store, db, walk, known_dirs, gone, sorting.settled)
            _write_results(store, db, sorting, results, on_progress, on_batch)
            misnamed = store.misnamed(db)
    finally:
        if collecting:
            gc.enable()
    return RefreshReport(
        trajectories=len(walk.found),
        read=len(sorting.jobs),
        removed=len(gone),
        notice=store.notice,
        misnamed=misnamed,
    )


class _Sorting:
    """The walk's looks sorted as they come: the folders to read again (handed on at once, and
    kept in `jobs`), and those whose files no longer need watching (`settled`).
    """

    def __init__(self, root: Path, known: dict[str, StoredRow]) -> None:
        self.root = str(root)
        self.known = known
        self.jobs: list[_Job] = []
        """Every folder handed on to be read, in order."""
        self.settled: list[tuple[str, StoredFolder]] = []
        """Folders kept as they are, no longer watched."""

    def sort(self, looks: Iterable[_Look]) -> Iterator[_Job]:
        for look in looks:
            job = self._job(look)
            if job is not None:
                self.jobs.append(job)
                yield job

    def _job(self, look: _Look) -> _Job | None:
        rel, folder, mtime, looked = look
        row = self.known.get(rel)
        if row is None:  # new: read whatever its scores/ says; the worker looks at it first
            return self._reading(look, StoredFolder(mtime, _UNSEEN, None))
        scores = looked
        if scores is None:
            unscored = row[1] == mtime and row[2] == -1
            scores = -1 if unscored else scores_mtime(folder)
        seen = StoredFolder(mtime, scores, None)
        verdict = _verdict(folder, seen, row)
        if verdict == _READ:
            return self._reading(look, seen)
        if verdict == _SETTLE:
            self.settled.append((rel, seen))
        return None

    def _reading(self, look: _Look, seen: StoredFolder) -> _Job:
        return _Job(self.root, look.folder, look.rel, seen)


def _start_reading(jobs: Iterator[_Job], workers: int) -> Iterator[_Read]:
    """The rows of `jobs`, read in workers that start with the first job (every job is taken
    before this returns); nothing is started, or imported, when there is none.
    """
    first = next(jobs, None)
    if first is None:
        return iter(())
    from webeval_core.support.parallel import iter_in_processes

    # The first folder is read here, before any fork: the readers its format imports and the task
    # catalog its row loads are then loaded once and inherited by every worker, not once in each.
    done = _read(first)
    rest = iter_in_processes(_read, jobs, workers=workers, parallel_from=_PARALLEL_FROM)
    return itertools.chain((done,), rest)


def _gone(store: IndexStore, known: dict[str, StoredRow], found: set[str]) -> list[str]:
    if len(found) >= len(known) and known.keys() <= found:
        return []
    return [rel for rel in known if rel not in found and not is_trajectory_folder(store.path_of(rel))]


def _write_structure(
    store: IndexStore,
    db: sqlite3.Connection,
    walk: _Walk,
    known_dirs: dict[str, tuple[int, list[str]]],
    gone: list[str],
    settled: list[tuple[str, StoredFolder]],
) -> None:
    stale_dirs = [rel for rel in known_dirs if rel not in walk.seen]
    if not (walk.listed or stale_dirs or gone or settled):
        return
    with store.transaction(db):
        store.put_dirs(db, walk.listed)
        store.put_misnamed(db, (rel for rel, _, _ in walk.listed), walk.misnamed)
        store.drop_dirs(db, stale_dirs)
        store.drop_trajectories(db, gone)
        store.touch(db, settled)


def _write_results(
    store: IndexStore,
    db: sqlite3.Connection,
    sorting: _Sorting,
    results: Iterator[_Read],
    on_progress: ProgressCallback | None,
    on_batch: Callable[[], None] | None,
) -> None:
    jobs = sorting.jobs
    batch: list[_Read] = []
    for done, read in enumerate(results, start=1):
        batch.append(read)
        if len(batch) == _BATCH or done == len(jobs):
            _write_batch(store, db, batch)
            batch = []
            if on_batch is not None:
                on_batch()
        if on_progress is not None:
            on_progress(done, len(jobs))


def _write_batch(store: IndexStore, db: sqlite3.Connection, batch: list[_Read]) -> None:
    runs = {read.run[0]: read.run for read in batch}  # by key
    try:
        with store.transaction(db):
            store.put_runs(db, runs.values())
            store.put_rows(db, [read.row for read in batch if not read.new])
            store.put_new_rows(db, [read.row for read in batch if read.new])
    except sqlite3.IntegrityError:  # another process wrote the same folders meanwhile: theirs stand
        return
