"""The index of a root as one SQLite file: a row per trajectory, read by lists, filters and counts.

SQLite rather than DuckDB: the index takes many small incremental upserts (a few changed folders
per refresh), several processes (the CLI, the app's refresh thread, a second app) may write it at
once, which SQLite's transactions and WAL journal handle, and it ships with Python. Lists and
counts read real columns; the whole summary is kept as JSON beside them for what needs all of it.

A file from another schema version, or one SQLite cannot read, is replaced by an empty index (the
`notice` says so) and rebuilt by the next refresh; nothing here raises for a bad cache file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from webeval_core.runs.index_columns import (
    RowSource,
    StoredFolder,
    columns_print,
    create_table,
    insert_statement,
    row_values,
)
from webeval_core.support.user_cache import cache_folder
from webeval_core.version import __version__

if TYPE_CHECKING:
    from webeval_core.runs.discovery import Run
    from webeval_core.runs.summary import TrajectorySummary

# A warm refresh (nothing changed) needs only this module and sqlite3: the summary models,
# discovery and the judges (pydantic and the readers, a third of a second) are imported where used.

__all__ = [
    "IndexCounts",
    "IndexStore",
    "RunRow",
    "StoredFolder",
    "StoredRow",
    "TrajectoryRow",
    "run_row",
    "store_path",
    "trajectory_row",
]

# Bumped whenever a table or TrajectorySummary changes shape (a trajectories column changes it by
# itself), or a summary's rule changes (endings-2: a folder without an answer is unfinished until
# its task is over; endings-3: a Fara answer without times.json is unfinished, a crashed task keeps
# its crash_reason whatever it left; endings-4: a crash another harness recorded, AgentLab's err_msg,
# cube-harness's FAILED, a Harbor trial's exception, keeps a crash_reason too; durations-1: a
# cube-harness episode's and a Harbor trial's duration from their start and end times): older
# files are rebuilt, not trusted.
SCHEMA_VERSION = f"{__version__}+store-4+codes-1+endings-4+durations-1+columns-{columns_print()}"
_BUSY_TIMEOUT_S = 30.0
_PAGE_SIZE = 16384
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY, rel TEXT NOT NULL, system TEXT, model TEXT, user TEXT,
    benchmark TEXT, run_id TEXT);
CREATE TABLE IF NOT EXISTS dirs (rel TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, children TEXT NOT NULL);
{trajectories};
CREATE INDEX IF NOT EXISTS trajectories_by_run ON trajectories (run_key, sort_key);
CREATE TABLE IF NOT EXISTS scores (
    key TEXT NOT NULL, judge TEXT NOT NULL, score REAL, PRIMARY KEY (key, judge));
CREATE TABLE IF NOT EXISTS failure_codes (
    key TEXT NOT NULL, judge TEXT NOT NULL, code TEXT NOT NULL, PRIMARY KEY (key, judge, code));
CREATE INDEX IF NOT EXISTS trajectories_seen
    ON trajectories (rel, dir_mtime_ns, scores_mtime_ns, files_print, outcome);
CREATE INDEX IF NOT EXISTS trajectories_unreadable ON trajectories (unreadable) WHERE unreadable IS NOT NULL;
CREATE TABLE IF NOT EXISTS misnamed (rel TEXT PRIMARY KEY, names TEXT NOT NULL);
""".replace("{trajectories}", create_table())
# misnamed: sub-folders of a walked folder skipped for names that are not UTF-8 (JSON list, shown
# with U+FFFD), kept with the listing they came from so a warm refresh still names them.
# trajectories_seen: a refresh reads what it compares from this index, not from rows holding
# whole summaries; trajectories_unreadable: counts without a scan. A table or index added above
# is created in existing files of this version when they are next opened (`_current`).
_SCHEMA_NAMES = frozenset(re.findall(r"CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)", _SCHEMA))
_TABLES = ("meta", "runs", "dirs", "trajectories", "scores", "failure_codes", "misnamed")
_INSERT_TRAJECTORY = insert_statement()
_INSERT_NEW_TRAJECTORY = insert_statement("IGNORE")


class IndexCounts(NamedTuple):
    """How much an index holds."""

    trajectories: int
    """Trajectory folders (readable or not)."""
    runs: int
    """Runs with at least one trajectory."""
    unreadable: int
    """Folders that could not be loaded at all."""


StoredRow = tuple[str, int, int, str | None, int]
"""A trajectory folder as `IndexStore.known_folders` reads it: relative path, then `StoredFolder`'s fields."""


def default_cache_dir() -> Path:
    """Where index caches live: the user's cache folder (`support.user_cache.cache_home`), else,
    when it cannot be written, a private temporary one.
    """
    return cache_folder().path


def store_path(cache_dir: Path, root: Path) -> Path:
    """The index file of `root` in `cache_dir` (one file per resolved root)."""
    digest = hashlib.sha1(str(Path(root).resolve()).encode()).hexdigest()[:16]
    return cache_dir / f"index-{digest}.sqlite"


class IndexStore:
    """The SQLite index file of one root: opened (or rebuilt) once, read and written by transactions."""

    def __init__(self, root: Path, cache_dir: Path | None = None) -> None:
        self.root = Path(root)
        """The folder indexed, as given (paths read back are under it)."""
        # A cache folder that cannot be written: a temporary one (its notice is the cache's to say).
        self.path = store_path(cache_folder(cache_dir).path, self.root)
        """The index file."""
        self._root_text = str(self.root)
        self.notice: str | None = None
        """Why the file was rebuilt when it was opened (older version, unreadable); None otherwise."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._open()

    # --- opening -----------------------------------------------------------------------------

    def connect(self) -> sqlite3.Connection:
        """A new connection (one per thread); writers wait for each other up to half a minute."""
        connection = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
        # Rows hold 1-2 KB: 16 KB pages make a cold index of 50,000 folders a third less of SQLite's
        # CPU and a fifth of its system calls, and a smaller file, than 4 KB ones. SQLite sets it for
        # a new file only, and only before the switch to WAL.
        connection.execute(f"PRAGMA page_size={_PAGE_SIZE}")
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        return connection

    def _open(self) -> None:
        try:
            self._open_waiting()
        except sqlite3.DatabaseError as exc:
            if "locked" in str(exc):
                self.notice = f"The index file {self.path} is locked by another process; it was left as is."
                return
            self.notice = f"The index file {self.path} could not be read ({exc}); it was rebuilt."
            self._remove_files()
            with contextlib.closing(self.connect()) as db:
                self._ensure_schema(db)

    def _open_waiting(self) -> None:
        """Open with this version's schema; while another process creates the file (switching it
        to WAL takes a lock SQLite does not wait for), try again, up to the busy timeout.
        """
        deadline = time.monotonic() + _BUSY_TIMEOUT_S
        while True:
            try:
                with contextlib.closing(self.connect()) as db:
                    if not self._current(db):
                        self._ensure_schema(db)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    @staticmethod
    def _current(db: sqlite3.Connection) -> bool:
        """Whether the file holds this version's tables and indexes (then opening it writes nothing)."""
        try:
            found = db.execute("SELECT value FROM meta WHERE name='schema'").fetchone()
        except sqlite3.OperationalError:  # no meta table: a new file, or not ours
            return False
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        return found is not None and found[0] == SCHEMA_VERSION and names >= _SCHEMA_NAMES

    def _ensure_schema(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            found = None
            if "meta" in tables:
                found = db.execute("SELECT value FROM meta WHERE name='schema'").fetchone()
            if tables and (found is None or found[0] != SCHEMA_VERSION):
                self.notice = (
                    f"The index file {self.path} was written by another version"
                    f" ({found[0] if found else 'unknown'}); it is rebuilt."
                )
                for table in tables:
                    db.execute(f'DROP TABLE IF EXISTS "{table}"')
            for statement in _SCHEMA.split(";"):  # executescript would commit the transaction
                db.execute(statement)
            if "dirs" in tables and "misnamed" not in tables:
                db.execute("DELETE FROM dirs")  # listed when misnamed folders were not kept: list again
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            db.execute("INSERT OR IGNORE INTO meta VALUES ('generation', '0')")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _remove_files(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")

    # --- reading ------------------------------------------------------------------------------

    def generation(self) -> int:
        """A number that grows with every write: cached reads are keyed by it."""
        with contextlib.closing(self.connect()) as db:
            row = db.execute("SELECT value FROM meta WHERE name='generation'").fetchone()
        return int(row[0]) if row else 0

    def counts(self) -> IndexCounts:
        """How many trajectories, runs and unreadable folders the index holds (one query)."""
        query = "SELECT COUNT(*), COUNT(DISTINCT run_key) FROM trajectories"
        with contextlib.closing(self.connect()) as db:
            trajectories, runs = db.execute(query).fetchone()
            # The partial index answers this without reading a row.
            unreadable = db.execute(
                "SELECT COUNT(*) FROM trajectories WHERE unreadable IS NOT NULL"
            ).fetchone()[0]
        return IndexCounts(trajectories, runs, unreadable)

    def runs(self) -> tuple[Run, ...]:
        """The runs with their trajectory folders (natural order), ordered by key; empty runs left out."""
        with contextlib.closing(self.connect()) as db:
            meta = {row[0]: row for row in db.execute("SELECT * FROM runs")}
            members: dict[str, list[Path]] = {}
            for run_key, rel in db.execute(
                "SELECT run_key, rel FROM trajectories ORDER BY run_key, sort_key"
            ):
                members.setdefault(run_key, []).append(self._path(rel))
        return tuple(self._run(meta.get(key), key, dirs) for key, dirs in sorted(members.items()))

    def run_heads(self) -> tuple[Run, ...]:
        """The runs `runs()` gives, without their trajectory folders (`run()` has a run's).

        What pickers and labels need, read from the runs table and the run index: no path is made
        per trajectory (50,000 of them cost a first page half a second).
        """
        with contextlib.closing(self.connect()) as db:
            meta = {row[0]: row for row in db.execute("SELECT * FROM runs")}
            keys = sorted(row[0] for row in db.execute("SELECT DISTINCT run_key FROM trajectories"))
            # A run whose row is not written yet (between the two reads) is placed by its first folder.
            firsts = {key: self._first_dirs(db, key) for key in keys if key not in meta}
        return tuple(self._run(meta.get(key), key, firsts.get(key, []), folders=False) for key in keys)

    def run(self, key: str) -> Run | None:
        """One run with its trajectory folders (natural order); None when the index holds none of it."""
        with contextlib.closing(self.connect()) as db:
            row = db.execute("SELECT * FROM runs WHERE key = ?", (key,)).fetchone()
            dirs = self._first_dirs(db, key, limit=-1)
        return self._run(row, key, dirs) if dirs else None

    def _first_dirs(self, db: sqlite3.Connection, run_key: str, limit: int = 1) -> list[Path]:
        """A run's first `limit` trajectory folders in natural order (-1: all of them)."""
        query = "SELECT rel FROM trajectories WHERE run_key = ? ORDER BY sort_key LIMIT ?"
        return [self._path(rel) for (rel,) in db.execute(query, (run_key, limit))]

    def _run(self, row: tuple[str, ...] | None, key: str, dirs: list[Path], *, folders: bool = True) -> Run:
        from webeval_core.runs.discovery import Run

        # Rows this module wrote: built without validating 50,000 paths again.
        kept = tuple(dirs) if folders else ()
        if row is None:  # written between the two reads; its metadata comes with the next refresh
            return Run.model_construct(key=key, path=dirs[0].parent, trajectory_dirs=kept)
        _, rel, system, model, user, benchmark, run_id = row
        return Run.model_construct(
            key=key,
            path=self._path(rel),
            system=system,
            model=model,
            user=user,
            benchmark=benchmark,
            run_id=run_id,
            trajectory_dirs=kept,
        )

    def summaries(self, run_key: str | None = None) -> tuple[TrajectorySummary, ...]:
        """The stored summaries (of one run, or all), run by run in natural folder order."""
        query = "SELECT rel, summary FROM trajectories"
        args: tuple[str, ...] = ()
        if run_key is not None:
            query += " WHERE run_key = ?"
            args = (run_key,)
        with contextlib.closing(self.connect()) as db:
            rows = db.execute(query + " ORDER BY run_key, sort_key", args).fetchall()
        return tuple(self._summary(rel, text) for rel, text in rows)

    def _summary(self, rel: str, text: str) -> TrajectorySummary:
        from webeval_core.runs.summary import TrajectorySummary

        data = json.loads(text)
        data["path"] = self._path(rel)  # the root as given now, which may be spelled another way
        return TrajectorySummary.model_validate(data)

    def judges(self) -> tuple[str, ...]:
        """Every judge with a score in the index (unordered names; `judges.available_judges` orders)."""
        with contextlib.closing(self.connect()) as db:
            return tuple(row[0] for row in db.execute("SELECT DISTINCT judge FROM scores"))

    def run_counts(self) -> dict[str, int]:
        """Trajectories per run key."""
        with contextlib.closing(self.connect()) as db:
            return dict(db.execute("SELECT run_key, COUNT(*) FROM trajectories GROUP BY run_key").fetchall())

    def frame_rows(
        self, columns: Sequence[str]
    ) -> tuple[list[tuple[Any, ...]], dict[str, dict[str, float | None]]]:
        """`columns` of the `trajectories` table, a row per trajectory in list order (`metrics.stored_frame`),
        and each one's judges' scores.
        """
        query = f"SELECT {', '.join(columns)} FROM trajectories ORDER BY run_key, sort_key"
        scores: dict[str, dict[str, float | None]] = {}
        with contextlib.closing(self.connect()) as db:
            rows = db.execute(query).fetchall()
            for key, judge, score in db.execute("SELECT key, judge, score FROM scores ORDER BY key, judge"):
                scores.setdefault(key, {})[judge] = score
        return rows, scores

    def path_of(self, rel: str) -> Path:
        """The folder of a stored relative path."""
        return self._path(rel)

    def path_text(self, rel: str) -> str:
        """`str(path_of(rel))` without making a Path (a frame of 50,000 rows makes 50,000)."""
        return self._root_text if rel == "." else f"{self._root_text}{os.sep}{rel}"

    def _path(self, rel: str) -> Path:
        return self.root if rel == "." else self.root / rel

    # --- what a refresh compares against ------------------------------------------------------

    def known_dirs(self, db: sqlite3.Connection) -> dict[str, tuple[int, list[str]]]:
        """Walked folders that are not trajectories: mtime and the sub-folders listed at that time."""
        return {
            rel: (mtime, json.loads(children)) for rel, mtime, children in db.execute("SELECT * FROM dirs")
        }

    def known_folders(self, db: sqlite3.Connection) -> dict[str, StoredRow]:
        """Trajectory folders by relative path: what the index saw of each (`StoredRow`)."""
        query = (
            "SELECT rel, dir_mtime_ns, scores_mtime_ns, files_print, outcome IN ('answered', 'no_answer')"
            " FROM trajectories"
        )
        # The rows as SQLite gives them (a named tuple per folder costs a warm refresh a third),
        # read from the covering index `trajectories_seen` and keyed without a Python loop.
        rows = db.execute(query).fetchall()
        return dict(zip(map(itemgetter(0), rows), rows, strict=True))

    # --- writing (the refresh's; each call is one transaction) --------------------------------

    @contextlib.contextmanager
    def transaction(self, db: sqlite3.Connection | None = None) -> Iterator[sqlite3.Connection]:
        """One write transaction that bumps the generation; rolled back when the block raises.

        On `db` when given (a refresh keeps one connection: SQLite folds the journal back into the
        file when the last connection closes, which per batch would cost more than the batch).
        """
        with contextlib.ExitStack() as stack:
            if db is None:
                db = stack.enter_context(contextlib.closing(self.connect()))
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE name='generation'")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    @staticmethod
    def put_dirs(db: sqlite3.Connection, dirs: Iterable[tuple[str, int, list[str]]]) -> None:
        """Record walked folders (relative path, mtime, sub-folder names)."""
        db.executemany(
            "INSERT OR REPLACE INTO dirs VALUES (?, ?, ?)",
            [(rel, mtime, json.dumps(children)) for rel, mtime, children in dirs],
        )

    @staticmethod
    def drop_dirs(db: sqlite3.Connection, rels: Iterable[str]) -> None:
        """Forget walked folders that are gone or became trajectories."""
        gone = [(rel,) for rel in rels]
        db.executemany("DELETE FROM dirs WHERE rel = ?", gone)
        db.executemany("DELETE FROM misnamed WHERE rel = ?", gone)

    @staticmethod
    def put_misnamed(db: sqlite3.Connection, listed: Iterable[str], misnamed: dict[str, list[str]]) -> None:
        """Record, for walked folders listed again, the sub-folders skipped for their names (shown)."""
        db.executemany("DELETE FROM misnamed WHERE rel = ?", [(rel,) for rel in listed])
        db.executemany(
            "INSERT INTO misnamed VALUES (?, ?)",
            [(rel, json.dumps(names)) for rel, names in misnamed.items()],
        )

    @staticmethod
    def misnamed(db: sqlite3.Connection) -> tuple[str, ...]:
        """Every folder skipped for a name that is not UTF-8, by path under the root (U+FFFD shown)."""
        rows = db.execute("SELECT rel, names FROM misnamed ORDER BY rel").fetchall()
        return tuple(
            name if rel == "." else f"{rel}/{name}" for rel, names in rows for name in json.loads(names)
        )

    @staticmethod
    def put_runs(db: sqlite3.Connection, runs: Iterable[RunRow]) -> None:
        """Record runs, as `run_row` made them."""
        db.executemany("INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)", runs)

    @staticmethod
    def put_summaries(
        db: sqlite3.Connection, rows: Iterable[tuple[str, StoredFolder, TrajectorySummary]]
    ) -> None:
        """Insert or replace trajectories (relative path, what was seen of the folder, its summary)."""
        IndexStore.put_rows(db, [trajectory_row(rel, seen, summary) for rel, seen, summary in rows])

    @staticmethod
    def put_rows(db: sqlite3.Connection, rows: Sequence[TrajectoryRow]) -> None:
        """Insert or replace trajectories as `trajectory_row` made them (in a worker, for a refresh)."""
        # A row holding the same key or folder is replaced (both are unique), its scores with it.
        db.executemany("DELETE FROM scores WHERE key = ?", [(row.values[0],) for row in rows])
        db.executemany(_INSERT_TRAJECTORY, [row.values for row in rows])
        db.executemany("DELETE FROM failure_codes WHERE key = ?", [(row.values[0],) for row in rows])
        IndexStore._put_judged(db, rows)

    @staticmethod
    def put_new_rows(db: sqlite3.Connection, rows: Sequence[TrajectoryRow]) -> None:
        """`put_rows` for folders the index did not hold when the refresh began: with nothing of
        theirs to replace, their old score rows are not looked for (a cold index of 50,000 folders
        spares 100,000 deletes, a tenth of its writing). Should another process have written one
        of them meanwhile, the whole batch is written again as `put_rows` writes it.
        """
        before = db.total_changes
        db.executemany(_INSERT_NEW_TRAJECTORY, [row.values for row in rows])
        if db.total_changes - before != len(rows):
            IndexStore.put_rows(db, rows)
            return
        IndexStore._put_judged(db, rows)

    @staticmethod
    def _put_judged(db: sqlite3.Connection, rows: Sequence[TrajectoryRow]) -> None:
        """The rows' scores and failure codes (those of a row written again deleted before)."""
        db.executemany(
            "INSERT OR REPLACE INTO scores VALUES (?, ?, ?)", [score for row in rows for score in row.scores]
        )
        db.executemany(
            "INSERT OR IGNORE INTO failure_codes VALUES (?, ?, ?)", [c for row in rows for c in row.codes]
        )

    @staticmethod
    def touch(db: sqlite3.Connection, rows: Iterable[tuple[str, StoredFolder]]) -> None:
        """Record a new look at folders whose summary did not change (e.g. a files print now kept)."""
        db.executemany(
            "UPDATE trajectories SET dir_mtime_ns = ?, scores_mtime_ns = ?, files_print = ? WHERE rel = ?",
            [(seen.dir_mtime_ns, seen.scores_mtime_ns, seen.files_print, rel) for rel, seen in rows],
        )

    @staticmethod
    def drop_trajectories(db: sqlite3.Connection, rels: Iterable[str]) -> int:
        """Remove trajectory folders that are gone; returns how many rows went."""
        gone = [(rel,) for rel in rels]
        db.executemany("DELETE FROM scores WHERE key IN (SELECT key FROM trajectories WHERE rel = ?)", gone)
        db.executemany(
            "DELETE FROM failure_codes WHERE key IN (SELECT key FROM trajectories WHERE rel = ?)", gone
        )
        before = db.total_changes
        db.executemany("DELETE FROM trajectories WHERE rel = ?", gone)
        removed = db.total_changes - before
        db.execute("DELETE FROM runs WHERE key NOT IN (SELECT DISTINCT run_key FROM trajectories)")
        return removed


RunRow = tuple[str, str, str | None, str | None, str | None, str | None, str | None]
"""A run as the `runs` table stores it: key, folder relative to the root, then the path's facts
(system, model, user, benchmark, run id); plain values, cheap to send back from a worker."""


def run_row(run: Run, rel: str) -> RunRow:
    """The index's row of a run (its folder relative to the root)."""
    return (run.key, rel, run.system, run.model, run.user, run.benchmark, run.run_id)


class TrajectoryRow(NamedTuple):
    """One trajectory as the index stores it: plain values, cheap to send back from a worker."""

    values: tuple[object, ...]
    """The `trajectories` table's columns, in `index_columns.ROW_COLUMNS` order (`key` first)."""
    scores: tuple[tuple[str, str, float | None], ...]
    """Its rows of the `scores` table: (key, judge, score)."""
    codes: tuple[tuple[str, str, str], ...] = ()
    """Its rows of the `failure_codes` table: (key, judge, error-taxonomy code)."""


def trajectory_row(
    rel: str, seen: StoredFolder, s: TrajectorySummary, document: str | None = None
) -> TrajectoryRow:
    """The index's row of one summary (`document`: its stored JSON, when made: `quicksummary`'s)."""
    from webeval_core.runs.judges import judge_scores
    from webeval_core.runs.summary import stored_document

    summary, document = stored_document(s) if document is None else (s, document)
    scores = tuple((summary.key, judge, score) for judge, score in judge_scores(summary).items())
    codes = tuple(
        (summary.key, judge, code) for judge, codes in summary.failure_codes.items() for code in codes
    )
    return TrajectoryRow(row_values(RowSource(rel, seen, summary, document)), scores, codes)


# --- read-only access (runs/listing/queries.py) ---------------------------------------------------------


def read_connection(store: IndexStore, *, shared: bool = False) -> sqlite3.Connection:
    """A read-only connection to a store's file: queries never write, nor wait for a writer.

    `shared`: usable from any thread (the caller makes sure one thread at a time uses it).
    """
    uri = f"{store.path.as_uri()}?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT_S, check_same_thread=not shared)
