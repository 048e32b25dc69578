"""A researcher's own SELECT over a root's index file: read only, one statement, bounded in time and rows.

The escape hatch for questions no chart answers (`webeval query`, the app's Query page). Three
guards, each enough alone for its part: the file is opened read-only (`mode=ro`, and
`PRAGMA query_only`), an authorizer lets a statement only read (no write, ATTACH, PRAGMA or schema
change: SQLite refuses it while preparing, before anything runs), and a progress handler aborts a
statement past its time limit. Rows past the limit are not fetched at all.

The tables a query may read are described in `INDEX_TABLES` (and in docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from webeval_core.runs.index_columns import column_docs
from webeval_core.runs.index_db import read_connection

if TYPE_CHECKING:
    from webeval_core.runs.index_db import IndexStore

__all__ = [
    "INDEX_TABLES",
    "QueryError",
    "QueryRefusedError",
    "QueryResult",
    "QueryTimeoutError",
    "TrajectoryRef",
    "revealed_items",
    "run_query",
    "trajectory_refs",
]

DEFAULT_MAX_ROWS = 1000
DEFAULT_TIMEOUT_S = 5.0
_PROGRESS_EVERY = 10_000  # SQLite VM instructions between two looks at the clock (about a millisecond)
_LEADING_COMMENTS = re.compile(r"^(\s+|--[^\n]*(\n|$)|/\*.*?\*/)*", re.DOTALL)
_READ_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION})
_READ_ACTIONS |= {sqlite3.SQLITE_RECURSIVE}  # WITH RECURSIVE: still only reads

Cell = str | int | float | None
"""One value of a result row (a BLOB is shown as its size: the index stores none)."""

INDEX_TABLES: dict[str, dict[str, str]] = {
    "trajectories": column_docs(),
    "scores": {
        "key": "the trajectory (trajectories.key)",
        "judge": "the judge: a score file's stem, or 'webarena-verified'",
        "score": "its score (NULL when the file has none)",
    },
    "failure_codes": {
        "key": "the trajectory (trajectories.key)",
        "judge": "the verifier (score file stem)",
        "code": "an error-taxonomy code it gave (failure points' codes, then the task's)",
    },
    "runs": {
        "key": "the run's key",
        "rel": "its folder relative to the root",
        "system": "agent system named by the path",
        "model": "model named by the path",
        "user": "user named by the path",
        "benchmark": "benchmark named by the path",
        "run_id": "run id named by the path",
    },
}
"""The index's tables a query reads, and what each column holds (the `meta` and `dirs` tables are
the refresh's bookkeeping)."""


class QueryError(Exception):
    """A query that gave no result; the message says why, for the person who wrote it."""


class QueryRefusedError(QueryError):
    """Not a single SELECT (or WITH) statement, or one that would write, attach or change settings."""


class QueryTimeoutError(QueryError):
    """The statement ran past its time limit and was stopped."""


class QueryResult(BaseModel):
    """What a query returned: its columns and (at most the row limit of) its rows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    columns: tuple[str, ...]
    """The result's column names, in order."""
    rows: tuple[tuple[Cell, ...], ...]
    """The rows, each as many cells as there are columns."""
    truncated: bool
    """The statement had more rows than the limit; only the first ones are here."""
    elapsed_s: float
    """Seconds from preparing the statement to its last fetched row."""
    reads_verdicts: bool = False
    """The statement read a verdict, score, failure tag or taxonomy code (or the whole summary),
    in its result or in how it chose its rows: what it shows is a verdict (`revealed_items`)."""


class TrajectoryRef(BaseModel):
    """A result row that names one trajectory: what the Trajectory page needs to open it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run_key: str
    """The run (the page's `run` parameter)."""
    task_id: str
    """The task (the page's `task` parameter)."""
    path: str
    """The trajectory folder, for a task held by several folders of the run ("": the run's first)."""
    key: str = ""
    """Its key under the root, which a walk through the rows names ("": named by run and task only)."""


_VERDICT_COLUMNS = frozenset(
    {("trajectories", "verdict_status"), ("trajectories", "verdict_tags"), ("trajectories", "summary")}
)
"""The (table, column) pairs of the trajectories table whose values are verdicts."""
_VERDICT_TABLES = frozenset({"scores", "failure_codes"})
"""Tables that hold nothing but judges' verdicts: reading any column (a join's key) reveals them."""


class _Authorizer:
    """Lets a statement read and call functions, denies everything else while it is prepared, and
    notes whether it read a verdict column.
    """

    def __init__(self) -> None:
        self.reads_verdicts = False

    def __call__(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, trigger: str | None
    ) -> int:
        if action == sqlite3.SQLITE_READ and (arg1 in _VERDICT_TABLES or (arg1, arg2) in _VERDICT_COLUMNS):
            self.reads_verdicts = True
        return sqlite3.SQLITE_OK if action in _READ_ACTIONS else sqlite3.SQLITE_DENY


def _check_shape(sql: str) -> str:
    """The statement without a trailing semicolon; refused unless it is one SELECT or WITH."""
    text = sql.strip()
    if not text:
        raise QueryRefusedError("The query is empty.")
    body = _LEADING_COMMENTS.sub("", text)
    first = body.split(None, 1)[0].upper() if body else ""
    if first not in ("SELECT", "WITH"):
        raise QueryRefusedError(
            f"Only SELECT (or WITH ... SELECT) statements are run, not {first or 'this'}."
        )
    if not sqlite3.complete_statement(text + ";"):
        raise QueryRefusedError("The statement is not complete (an open quote or parenthesis?).")
    return text


def _cell(value: object) -> Cell:
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return value  # type: ignore[return-value]  # SQLite gives only str, int, float, None besides bytes


def run_query(
    store: IndexStore, sql: str, *, max_rows: int = DEFAULT_MAX_ROWS, timeout_s: float = DEFAULT_TIMEOUT_S
) -> QueryResult:
    """Run one read-only SELECT on the index file of `store`.

    Raises:
        QueryRefusedError: Not a single SELECT / WITH statement, or one that would not only read.
        QueryTimeoutError: It ran longer than `timeout_s`.
        QueryError: SQLite could not run it (a misspelt column, a syntax error).
    """
    text = _check_shape(sql)
    started = time.monotonic()
    deadline = started + timeout_s
    with contextlib.closing(read_connection(store)) as db:
        db.execute("PRAGMA query_only=ON")  # before the authorizer, which denies every PRAGMA
        authorizer = _Authorizer()
        db.set_authorizer(authorizer)
        db.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_EVERY)
        try:
            cursor = db.execute(text)
            fetched = cursor.fetchmany(max_rows + 1)
        except sqlite3.ProgrammingError as exc:  # "You can only execute one statement at a time."
            raise QueryRefusedError(f"One statement at a time: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            if time.monotonic() > deadline and "interrupted" in str(exc):
                raise QueryTimeoutError(f"The query ran past its time limit of {timeout_s:g} s.") from exc
            if "not authorized" in str(exc) or "readonly" in str(exc):
                raise QueryRefusedError(f"The index is read only here: {exc}") from exc
            raise QueryError(f"SQLite could not run the query: {exc}") from exc
        columns = tuple(d[0] for d in cursor.description or ())
        reads_verdicts = authorizer.reads_verdicts or not _VERDICT_TABLES.isdisjoint(_tables_opened(db, text))
    return QueryResult(
        columns=columns,
        rows=tuple(tuple(_cell(v) for v in row) for row in fetched[:max_rows]),
        truncated=len(fetched) > max_rows,
        elapsed_s=time.monotonic() - started,
        reads_verdicts=reads_verdicts,
    )


def trajectory_refs(store: IndexStore, result: QueryResult) -> tuple[TrajectoryRef | None, ...]:
    """For each row, the trajectory it names (None where it names none).

    A row names one by a `rel` or `key` column of the trajectories table (looked up in the index);
    a result with neither but `run_key` and `task_id` columns names the run's first folder of it.
    """
    where = {name: i for i, name in enumerate(result.columns)}
    by = "rel" if "rel" in where else "key" if "key" in where else None
    if by is None:
        if "run_key" in where and "task_id" in where:
            return tuple(_named(row[where["run_key"]], row[where["task_id"]]) for row in result.rows)
        return tuple(None for _ in result.rows)
    wanted = [row[where[by]] for row in result.rows]
    query = (
        f"SELECT {by}, run_key, task_id, rel, key FROM trajectories"
        f" WHERE {by} IN (SELECT value FROM json_each(?))"
    )
    with contextlib.closing(read_connection(store)) as db:
        found = {
            name: TrajectoryRef(run_key=run_key, task_id=task_id, path=store.path_text(rel), key=key)
            for name, run_key, task_id, rel, key in db.execute(query, (json.dumps(wanted),))
        }
    return tuple(found.get(value) if isinstance(value, str) else None for value in wanted)


def _tables_opened(db: sqlite3.Connection, text: str) -> set[str]:
    """The tables a statement opens to read, its indexes counted as their table's: SQLite's
    authorizer is not asked about a join's USING columns, so a join on `scores` alone would pass
    unseen; its program's OpenRead instructions name every b-tree it reads.
    """
    # EXPLAIN rows: addr, opcode, p1 (cursor), p2 (root page), p3 (database), ...
    pages = {row[3] for row in db.execute(f"EXPLAIN {text}") if row[1] == "OpenRead" and row[4] == 0}
    schema = db.execute("SELECT tbl_name, rootpage FROM sqlite_schema WHERE rootpage > 0")
    return {str(table) for table, root in schema if root in pages}


def revealed_items(store: IndexStore, result: QueryResult) -> list[tuple[str, str]]:
    """The trajectories (run key, task id) whose verdicts a result shows: none unless it read a
    verdict; then those its rows name, or, for rows naming a task but no run, every trajectory of
    that task (a result of counts names none).
    """
    if not result.reads_verdicts:
        return []
    named = [(ref.run_key, ref.task_id) for ref in trajectory_refs(store, result) if ref is not None]
    if named or "task_id" not in result.columns:
        return named
    at = result.columns.index("task_id")
    wanted = sorted({str(row[at]) for row in result.rows if row[at] is not None})
    query = "SELECT run_key, task_id FROM trajectories WHERE task_id IN (SELECT value FROM json_each(?))"
    with contextlib.closing(read_connection(store)) as db:
        return [(str(run), str(task)) for run, task in db.execute(query, (json.dumps(wanted),))]


def _named(run_key: Cell, task_id: Cell) -> TrajectoryRef | None:
    if run_key is None or task_id is None:
        return None
    return TrajectoryRef(run_key=str(run_key), task_id=str(task_id), path="")
