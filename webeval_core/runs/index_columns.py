"""The index's `trajectories` columns, each declared once: its name, SQL type, meaning, and how its
value is read from a folder's summary.

The index file's table, the row a refresh writes, what `webeval query` documents (`INDEX_TABLES`)
and the table of that command in docs/researchers.md all come from `TRAJECTORY_COLUMNS`, and the
schema version changes with it, so an index made with other columns is rebuilt. A new column is
one entry here.
"""

from __future__ import annotations

import functools
import hashlib
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

if TYPE_CHECKING:
    from webeval_core.reading.task_catalog import TaskCatalog
    from webeval_core.runs.summary import TrajectorySummary


class StoredFolder(NamedTuple):
    """What the index last saw of a trajectory folder; unchanged, its summary is not read again."""

    dir_mtime_ns: int
    """The folder's mtime (a file added, removed or replaced by rename changes it)."""
    scores_mtime_ns: int
    """The mtime of its `scores/` (a score file written), -1 when it has none."""
    files_print: str | None
    """`refresh.fingerprint` of a folder still being written (files edited in place); None for others."""
    answered: bool = False
    """Its summary has a final answer (not left out of the watch for an answer yet to come)."""


class RowSource(NamedTuple):
    """What a row of the index is made of."""

    rel: str
    """The folder relative to the root, "/"-separated."""
    seen: StoredFolder
    """What the refresh saw of the folder (its mtimes, a print while it is written)."""
    summary: TrajectorySummary
    """The folder's summary."""
    document: str
    """The summary as stored JSON (`summary.stored_document`)."""


Read: TypeAlias = str | Callable[[RowSource], object]
"""How a column's value is read: a `RowSource` attribute path, or a function of the `RowSource`."""


class IndexColumn(NamedTuple):
    """One column of the index's `trajectories` table (a tuple, not a model: a warm `webeval index`
    imports no pydantic).
    """

    name: str
    """The column's name in SQL."""
    sql: str
    """Its SQL type and constraints, e.g. "TEXT NOT NULL"."""
    doc: str
    """What it holds, for `webeval query` users (the Query page, `INDEX_TABLES`, docs/researchers.md)."""
    read: Read
    """Its value for one folder: a `RowSource` attribute path ("summary.steps", read in one C call
    with every other column's path), or a function of the `RowSource`.
    """
    bookkeeping: bool = False
    """The refresh's own record (not a fact of the trajectory), listed last in the documentation."""


def sort_key(rel: str) -> str:
    """A text that sorts as `discovery.natural_key` of the folder's name does (task 9 before 10)."""
    return _name_sort_key(rel.rsplit("/", 1)[-1])


@functools.lru_cache(maxsize=4096)  # folders are named by task id: every run repeats the same names
def _name_sort_key(name: str) -> str:
    # `discovery.natural_key`'s parts, each as text, made in one pass (AgentLab's episode names
    # are all different, so most are made, not found in the cache): split by a capturing group,
    # the odd parts are the ASCII digit runs; a number is its digits without leading zeros.
    from webeval_core.runs.discovery import DIGIT_RUNS, NUMBER_DIGITS

    parts: list[str] = []
    for position, part in enumerate(DIGIT_RUNS.split(name)):
        if position % 2 and len(part) < NUMBER_DIGITS:
            digits = part.lstrip("0") or "0"
            parts.append(f"0{len(digits):03d}{digits}")
        elif part:
            parts.append(f"1{part}")
    return "\x00".join(parts)


def _column(name: str, sql: str, doc: str, read: Read) -> IndexColumn:
    return IndexColumn(name=name, sql=sql, doc=doc, read=read)


def _bookkeeping(name: str, sql: str, doc: str, read: Read) -> IndexColumn:
    return IndexColumn(name=name, sql=sql, doc=doc, read=read, bookkeeping=True)


def _summary_field(name: str) -> str:
    return f"summary.{name}"


@functools.cache  # once per process: the installed dataset does not change under a running index
def _catalog() -> TaskCatalog | None:
    from webeval_core.reading.task_catalog import installed_catalog

    return installed_catalog()


class _CatalogFacts(NamedTuple):
    """What the index takes of a catalog task."""

    site: str
    """Its site key (`Task.site_key`: the sites sorted and joined)."""
    intent: str
    """Its intent."""


@functools.lru_cache(maxsize=4096)  # every run repeats the same task ids: one lookup each
def _catalog_facts(task_id: str) -> _CatalogFacts | None:
    """The catalog's facts of this task id (a WebArena-Verified task id), None for any other."""
    if not any(c.isdigit() for c in task_id):  # a named task: no catalog to load (TaskCatalog.get)
        return None
    catalog = _catalog()
    task = catalog.get(task_id) if catalog is not None else None
    # Kept made: `site_key` joins the sites anew at each call, and a cold index asks once a folder.
    return _CatalogFacts(task.site_key, task.intent) if task is not None else None


def site_of_task(task_id: str, stated: str | None) -> str | None:
    """THE site of a trajectory's task, as every view and export says it: the catalog's site for
    its tasks (the one the pages show), else the one its folder states (task_data.json's).
    """
    facts = _catalog_facts(task_id)
    return facts.site if facts is not None else stated


def intent_of_task(task_id: str, stated: str | None) -> str | None:
    """THE text of a trajectory's task: the catalog's intent for its tasks, else the task as its
    folder states it (task_data.json's).
    """
    facts = _catalog_facts(task_id)
    return facts.intent if facts is not None else stated


def _verdict_tags(source: RowSource) -> str | None:
    verdict = source.summary.verdict
    return "\n".join(verdict.tags) if verdict is not None else None


TRAJECTORY_COLUMNS: tuple[IndexColumn, ...] = (
    _column(
        "key",
        "TEXT PRIMARY KEY",
        "the folder relative to the root, '/'-separated (unique; the other tables' `key`)",
        _summary_field("key"),
    ),
    _column(
        "rel",
        "TEXT NOT NULL UNIQUE",
        "the same folder relative path (link rows to the Trajectory page with run_key and task_id)",
        "rel",
    ),
    _column("run_key", "TEXT NOT NULL", "the run it belongs to (runs.key)", _summary_field("run_key")),
    _column(
        "sort_key",
        "TEXT NOT NULL",
        "the folder name in natural order (task 9 before 10): ORDER BY run_key, sort_key",
        lambda source: sort_key(source.rel),
    ),
    _bookkeeping(
        "dir_mtime_ns",
        "INTEGER NOT NULL",
        "the folder's mtime when last read",
        "seen.dir_mtime_ns",
    ),
    _bookkeeping(
        "scores_mtime_ns",
        "INTEGER NOT NULL",
        "scores/'s mtime when last read (-1: none)",
        "seen.scores_mtime_ns",
    ),
    _bookkeeping(
        "files_print",
        "TEXT",
        "a print of a folder still being written",
        "seen.files_print",
    ),
    _column("task_id", "TEXT NOT NULL", "the task's id", _summary_field("task_id")),
    _column(
        "layout",
        "TEXT",
        "the format that read it: 'fara', 'webarena-verified', ...",
        _summary_field("layout"),
    ),
    _column(
        "outcome", "TEXT", "'answered', 'no_answer', 'aborted' or 'unfinished'", _summary_field("outcome")
    ),
    _column("steps", "INTEGER", "actions the agent took", _summary_field("steps")),
    _column("screenshots", "INTEGER", "screenshot files in the folder", _summary_field("screenshots")),
    _column("duration_s", "REAL", "solver time in seconds (NULL when unknown)", _summary_field("duration_s")),
    _column("prompt_tokens", "INTEGER", "LLM prompt tokens", _summary_field("prompt_tokens")),
    _column("completion_tokens", "INTEGER", "LLM completion tokens", _summary_field("completion_tokens")),
    _column(
        "final_answer",
        "TEXT",
        "the first 400 characters of the agent's answer",
        _summary_field("final_answer"),
    ),
    _column("core_error", "TEXT", "error type of core.log's last error", _summary_field("core_error")),
    _column(
        "crash_reason",
        "TEXT",
        "core.log's last error when that is all a crashed task left",
        _summary_field("crash_reason"),
    ),
    _column(
        "verdict_status",
        "TEXT",
        "WebArena-Verified status ('success', 'failure', 'error', ...)",
        lambda source: source.summary.verdict.status if source.summary.verdict is not None else None,
    ),
    _column("verdict_tags", "TEXT", "WebArena-Verified failure tags, one per line", _verdict_tags),
    _column(
        "verdict_source",
        "TEXT",
        "where the WebArena-Verified verdict was read: a score file's stem (eval hash) or eval_result.json",
        lambda source: source.summary.verdict.source if source.summary.verdict is not None else None,
    ),
    _column("warnings", "INTEGER", "problems met reading the folder", _summary_field("warnings")),
    _column(
        "unreadable",
        "TEXT",
        "why the folder could not be loaded (NULL when it could)",
        _summary_field("unreadable"),
    ),
    _column(
        "site",
        "TEXT",
        "the task's website (the catalog's WebArena site key, else task_data.json's site or URL host)",
        lambda source: site_of_task(source.summary.task_id, source.summary.site),
    ),
    _column(
        "intent",
        "TEXT",
        "what the agent was asked (the catalog's intent, else task_data.json's task)",
        lambda source: intent_of_task(source.summary.task_id, source.summary.task_text),
    ),
    _column(
        "task_text",
        "TEXT",
        "the task as the agent was given it (task_data.json's task_proposal / intent)",
        _summary_field("task_text"),
    ),
    _column(
        "summary",
        "TEXT NOT NULL",
        "the whole summary as JSON (read with json_extract)",
        "document",
    ),
)
"""The `trajectories` table, column by column, in the table's order."""


ROW_COLUMNS: tuple[IndexColumn, ...] = tuple(
    c for c in TRAJECTORY_COLUMNS if isinstance(c.read, str)
) + tuple(c for c in TRAJECTORY_COLUMNS if not isinstance(c.read, str))
"""The columns in the order a row holds them (`row_values`, `insert_statement`): those read by
attribute path first, `key` leading, then the computed ones.
"""
# One attrgetter reads every path in C: a cold index makes 50,000 rows, and a Python call a column
# made a row cost twice what it did when a row was one hand-written tuple.
_READ_PATHS = operator.attrgetter(*(c.read for c in ROW_COLUMNS if isinstance(c.read, str)))
_COMPUTE = tuple(c.read for c in ROW_COLUMNS if not isinstance(c.read, str))


def row_values(source: RowSource) -> tuple[object, ...]:
    """A folder's row of the `trajectories` table, in `ROW_COLUMNS` order."""
    return _READ_PATHS(source) + tuple([compute(source) for compute in _COMPUTE])


def create_table() -> str:
    """The `trajectories` table's CREATE statement."""
    columns = ", ".join(f"{column.name} {column.sql}" for column in TRAJECTORY_COLUMNS)
    return f"CREATE TABLE IF NOT EXISTS trajectories ({columns})"


def insert_statement(on_conflict: str = "REPLACE") -> str:
    """The statement a refresh writes a row (`row_values`) with: a folder read again replaces its
    row ("REPLACE"); "IGNORE" leaves a row another process wrote first.
    """
    names = ", ".join(column.name for column in ROW_COLUMNS)
    marks = ", ".join("?" * len(ROW_COLUMNS))
    return f"INSERT OR {on_conflict} INTO trajectories ({names}) VALUES ({marks})"


def column_docs() -> dict[str, str]:
    """Each column and what it holds, the trajectory's facts first, then the refresh's bookkeeping."""
    ordered = sorted(TRAJECTORY_COLUMNS, key=lambda column: column.bookkeeping)
    return {
        column.name: f"the refresh's bookkeeping: {column.doc}" if column.bookkeeping else column.doc
        for column in ordered
    }


def columns_print() -> str:
    """A digest of the columns' names and types: part of the index's schema version."""
    shape = ";".join(f"{column.name} {column.sql}" for column in TRAJECTORY_COLUMNS)
    return hashlib.sha1(shape.encode()).hexdigest()[:8]


def readme_row() -> str:
    """docs/researchers.md's row for `trajectories` in the table of `webeval query` (what each holds: the
    Query page's table list, `INDEX_TABLES`).
    """
    facts = ", ".join(f"`{c.name}`" for c in TRAJECTORY_COLUMNS if not c.bookkeeping)
    kept = ", ".join(f"`{c.name}`" for c in TRAJECTORY_COLUMNS if c.bookkeeping)
    return f"| `trajectories` | {facts}; and the refresh's {kept} |"
