"""Lists, counts and charts as SQL on a root's index file: the server never holds every row.

Each figure of the overview and each page of the trajectory list is one query (`GROUP BY`,
`WHERE`, `LIMIT/OFFSET`) on the SQLite index (`index_db.IndexStore`), over a per-row view that
computes what `metrics.trajectory_frame` computes in pandas: the judge used, the result label,
the value a row adds to the success rate (upstream's counting rules) and its failure tags. The
task catalog (site, task type, intent) and each judge's pass mark (`judges.judge_threshold`) are
small temporary tables of the read-only connection. What they answer are the models of
`answers` (re-exported here).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from webeval_core.reading.taxonomy import sorted_codes
from webeval_core.runs import metrics
from webeval_core.runs.index_db import read_connection
from webeval_core.runs.judges import default_judge
from webeval_core.runs.listing.answers import (
    BarChoice,
    BreakdownRow,
    CodeCountRow,
    CountRow,
    ListedTrajectory,
    MeasureStats,
    TrajectoryPage,
    WalkItem,
)
from webeval_core.runs.listing.list_columns import (
    listed_row,
    path_params,
    select_sql,
    tags_of,
    verdict_columns,
)
from webeval_core.runs.listing.row_sql import (
    HEADLINE,
    NAMES,
    casefold,
    code_choice,
    headline_of,
    parse_code_choice,
    rows_sql,
    temp_tables,
    where_clause,
)
from webeval_core.runs.trajectory_filter import (
    RESULTS,
    TrajectoryFilter,
    without_verdicts,
)
from webeval_core.runs.viewing import Viewer, Withheld
from webeval_core.scoring.verdicts import CORE_LOG_PREFIX, TAGS
from webeval_core.support.vocabulary import UNKNOWN

if TYPE_CHECKING:
    import pandas as pd

    from webeval_core.reading.task_catalog import TaskCatalog
    from webeval_core.runs.index_db import IndexStore

__all__ = [
    "CATALOG_COLUMNS",
    "BarChoice",
    "BreakdownRow",
    "CodeCountRow",
    "CountRow",
    "IndexQueries",
    "ListedTrajectory",
    "MeasureStats",
    "TrajectoryPage",
    "WalkItem",
    "code_choice",
    "parse_code_choice",
]

CATALOG_COLUMNS = ("site", "task_type", "intent_template")
"""The breakdowns read from the task catalog (`metrics.breakdown`'s `by`)."""


_RUN_TABLES = 4  # tables of a few runs made before every run's table is made instead
_MEASURES = {"steps": "steps", "duration_s": "duration_s", "tokens": "tokens"}


class _Connection:
    """The read-only connection of one index generation and its temporary tables, shared by the
    queries of every viewer (`IndexQueries.seen_by`).
    """

    def __init__(self, catalog: TaskCatalog | None) -> None:
        self.catalog = catalog
        self.lock = threading.Lock()
        self.db: sqlite3.Connection | None = None
        self.tables: dict[tuple[str | None, tuple[str, ...] | None], str] = {}


class IndexQueries:
    """The queries of one index file at one generation, describing tasks from `catalog`.

    One read-only connection, used by one thread at a time (a lock), holds the catalog's rows for
    the index's task ids, the judges' pass marks and, once a judge is asked for, every row as that
    judge counts it (a temporary table made by one query, indexed in list order): the queries of
    every page then read that table. Temporary tables live in SQLite's temporary file, not in
    the server's memory. A new generation of the index gets a new object.

    Verdicts, scores, tags, judges' codes and rates are answered only to a `viewer`
    (`runs.viewing`): the one given, or the one `seen_by` gives a copy sharing this connection.
    Without one, rows come without their verdicts and figures of verdicts come empty.
    """

    def __init__(self, store: IndexStore, catalog: TaskCatalog | None, viewer: Viewer | None = None) -> None:
        self.store = store
        """The index file read."""
        self.viewer = viewer
        """Who is shown the answers (records what of verdicts they are shown); None: nobody asked."""
        self._shared = _Connection(catalog)

    def seen_by(self, viewer: Viewer) -> IndexQueries:
        """These queries as `viewer` is answered (the same connection and temporary tables)."""
        seen = copy.copy(self)
        seen.viewer = viewer
        return seen

    def close(self) -> None:
        """Close the connection (its temporary tables go with it); a later query opens another."""
        shared = self._shared
        with shared.lock:
            if shared.db is not None:
                shared.db.close()
            shared.db = None
            shared.tables.clear()

    def _closed(self) -> Withheld | None:
        """Why figures of many trajectories' verdicts are not answered now; None when they are."""
        if self.viewer is None:
            return Withheld.NO_VIEWER
        return Withheld.BLIND_PASS if self.viewer.closed() else None

    # --- connection ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        shared = self._shared
        with shared.lock:
            if shared.db is None:
                db = read_connection(self.store, shared=True)
                db.create_function("casefold", 1, casefold, deterministic=True)
                temp_tables(db, shared.catalog)
                shared.db = db
            yield shared.db

    def _table(self, db: sqlite3.Connection, judge: str | None, runs: Sequence[str] | None) -> str:
        """The temporary table of the rows of `runs` as `judge` counts them (made on first use).

        Every run's table serves every query once made; before that, a query of a few runs (the
        overview's first page) makes a table of those runs only, a fraction of the work. No judge
        asked for: the root's default one (`judges.default_judge`), so no rate mixes two.
        """
        if judge is None:
            judge = default_judge(row[0] for row in db.execute("SELECT judge FROM temp.marks"))
        tables = self._shared.tables
        few = runs is not None and (judge, None) not in tables and len(tables) < _RUN_TABLES
        chosen = tuple(sorted(runs)) if few and runs is not None else None
        name = tables.get((judge, chosen))
        if name is None:
            name = f"rows_{len(tables)}"
            sql = rows_sql(
                runs="WHERE t.run_key IN (SELECT value FROM json_each(:runs))" if chosen else "",
                keys="WHERE x.key IN (SELECT key FROM trajectories WHERE run_key IN"
                " (SELECT value FROM json_each(:runs)))"
                if chosen
                else "",
            )
            params = {**NAMES, "judge": judge, "runs": json.dumps(chosen or [])}
            db.execute(f"CREATE TEMP TABLE {name} AS {sql} SELECT * FROM rows", params)
            db.execute(f"CREATE INDEX temp.{name}_order ON {name} (run_key, sort_key)")
            tables[judge, chosen] = name
        return name

    def _query(
        self,
        select: str,
        runs: Sequence[str] | None,
        judge: str | None,
        args: Mapping[str, Any] | None = None,
    ) -> list[tuple[Any, ...]]:
        """`select` (reading `rows`) over the trajectories of `runs` (None: all) judged by `judge`."""
        where = "WHERE run_key IN (SELECT value FROM json_each(:runs))" if runs is not None else ""
        params = {**NAMES, "pool": None, "runs": json.dumps(list(runs or ())), **(args or {})}
        with self._connect() as db:
            table = self._table(db, judge, runs)
            rows = f"WITH rows AS (SELECT *, COALESCE(:pool, run_key) AS run FROM {table} {where}) "
            return db.execute(rows + select, params).fetchall()

    # --- counts and charts --------------------------------------------------------------------

    def headlines(self, runs: Sequence[str] | None, judge: str | None) -> dict[str, metrics.Headline]:
        """The headline numbers of each run (in run key order); none when verdicts are withheld."""
        if self._closed():
            return {}
        rows = self._query(f"SELECT run, {HEADLINE} FROM rows GROUP BY run ORDER BY run", runs, judge)
        return {row[0]: headline_of(row[1:]) for row in rows}

    def headline(
        self,
        runs: Sequence[str] | None,
        judge: str | None,
        criteria: TrajectoryFilter | None = None,
    ) -> metrics.Headline | None:
        """The headline numbers of the trajectories of `runs` pooled (those `criteria` keeps); None
        when verdicts are withheld.
        """
        if self._closed():
            return None
        where, args = where_clause(criteria or TrajectoryFilter(), ())
        return headline_of(self._query(f"SELECT {HEADLINE} FROM rows {where}", runs, judge, args)[0])

    def breakdown(
        self, runs: Sequence[str] | None, judge: str | None, by: str, pool: str | None = None
    ) -> tuple[BreakdownRow, ...]:
        """Success per run and value of a catalog column (`CATALOG_COLUMNS`), ordered by run and value.

        `pool`: the runs counted together, as one "run" of this name.
        """
        if by not in CATALOG_COLUMNS:
            raise ValueError(f"no breakdown by {by!r}; one of {', '.join(CATALOG_COLUMNS)}")
        if self._closed():
            return ()
        select = (
            f"SELECT run, COALESCE({by}, :unknown) AS v, COUNT(*), COUNT(value),"
            " COUNT(CASE WHEN value >= 1.0 THEN 1 END), AVG(value) FROM rows GROUP BY run, v ORDER BY run, v"
        )
        rows = self._query(select, runs, judge, {"unknown": UNKNOWN, "pool": pool})
        return tuple(
            BreakdownRow(run=r, value=v, trajectories=n, counted=c, passed=p, success_rate=rate)
            for r, v, n, c, p, rate in rows
        )

    def results(
        self, runs: Sequence[str] | None, judge: str | None, pool: str | None = None
    ) -> tuple[CountRow, ...]:
        """Trajectories per run (or `pool`) and result, results in `RESULTS` order."""
        return self._counts("result", RESULTS, runs, judge, pool)

    def _counts(
        self,
        column: str,
        order: Sequence[str],
        runs: Sequence[str] | None,
        judge: str | None,
        pool: str | None,
    ) -> tuple[CountRow, ...]:
        if self._closed():
            return ()
        select = f"SELECT run, {column}, COUNT(*) FROM rows GROUP BY run, {column}"
        rows = self._query(select, runs, judge, {"pool": pool})
        rank = {name: i for i, name in enumerate(order)}
        rows.sort(key=lambda row: (row[0], rank.get(row[1], len(rank))))
        return tuple(CountRow(run=r, value=v, trajectories=n) for r, v, n in rows)

    def taxonomy(
        self, runs: Sequence[str] | None, judge: str | None, pool: str | None = None
    ) -> tuple[CountRow, ...]:
        """Trajectories per run and failure tag, in `metrics.taxonomy`'s order.

        Verdict and outcome tags first, then core.log error types; most frequent first in each.
        """
        if self._closed():
            return ()
        # Few distinct combinations of verdict tags, outcome and core.log error: grouped in SQL,
        # each combination's tags read by `tags_of`, the one reading of a row's tags.
        select = (
            "SELECT run, CASE WHEN used = :official AND judged THEN verdict_tags END AS vt, outcome,"
            " core_error, COUNT(*) FROM rows GROUP BY run, vt, outcome, core_error"
        )
        tally: dict[tuple[str, str], int] = {}
        for run, verdict_tags, outcome, core_error, n in self._query(select, runs, judge, {"pool": pool}):
            for tag in tags_of(verdict_tags, outcome, core_error):
                tally[run, tag] = tally.get((run, tag), 0) + n
        counts = [(run, tag, n) for (run, tag), n in tally.items()]
        totals: dict[str, int] = {}
        for _, tag, n in counts:
            totals[tag] = totals.get(tag, 0) + n
        counts.sort(key=lambda c: (c[1].startswith(CORE_LOG_PREFIX), -totals[c[1]], c[1], c[0]))
        return tuple(CountRow(run=r, value=v, trajectories=n) for r, v, n in counts)

    def failure_codes(
        self,
        runs: Sequence[str] | None,
        judge: str | None,
        *,
        by_category: bool = True,
        pool: str | None = None,
    ) -> tuple[CodeCountRow, ...]:
        """Trajectories per run (or `pool`), verifier and error-taxonomy category (or code).

        Every verifier's codes are counted, whichever judge `judge` (the one the rates use) is.
        Ordered by run, judge, then the taxonomy's order.
        """
        if self._closed():
            return ()
        value = "CASE WHEN instr(f.code, '.') THEN substr(f.code, 1, instr(f.code, '.') - 1) ELSE f.code END"
        select = (
            f"SELECT r.run, f.judge, {value if by_category else 'f.code'} AS v, COUNT(DISTINCT r.key)"
            " FROM rows r JOIN failure_codes f ON f.key = r.key GROUP BY r.run, f.judge, v"
        )
        found = self._query(select, runs, judge, {"pool": pool})
        order = {code: i for i, code in enumerate(sorted_codes([row[2] for row in found]))}
        found.sort(key=lambda row: (row[0], row[1], order[row[2]]))
        return tuple(CodeCountRow(run=r, judge=j, code=c, trajectories=n) for r, j, c, n in found)

    def distribution(
        self, runs: Sequence[str] | None, judge: str | None, measure: str
    ) -> tuple[MeasureStats, ...]:
        """Count / mean / min / median / max of `measure` (steps, duration_s, tokens) per run."""
        column = _MEASURES[measure]
        select = f"""
        SELECT * FROM (WITH valued AS (SELECT run, {column} AS v FROM rows WHERE {column} IS NOT NULL),
        ranked AS (SELECT run, v, ROW_NUMBER() OVER (PARTITION BY run ORDER BY v) AS at,
                   COUNT(*) OVER (PARTITION BY run) AS n FROM valued),
        middle AS (SELECT run, AVG(v) AS median FROM ranked WHERE at IN ((n + 1) / 2, (n + 2) / 2)
                   GROUP BY run)
        SELECT r.run, COUNT(v.v), AVG(v.v), MIN(v.v), m.median, MAX(v.v)
        FROM (SELECT DISTINCT run FROM rows) r LEFT JOIN valued v ON v.run = r.run
        LEFT JOIN middle m ON m.run = r.run GROUP BY r.run ORDER BY r.run)"""
        return tuple(
            MeasureStats(run=r, count=n, mean=mean, min=low, median=mid, max=high)
            for r, n, mean, low, mid, high in self._query(select, runs, judge)
        )

    def measure_values(
        self, runs: Sequence[str] | None, judge: str | None, measure: str, pool: str | None = None
    ) -> dict[str, list[float]]:
        """Every value of `measure` per run or `pool` (a histogram's input), missing values left out."""
        column = _MEASURES[measure]
        values: dict[str, list[float]] = {}
        select = f"SELECT run, {column} FROM rows WHERE {column} IS NOT NULL ORDER BY run_key, sort_key"
        for run, v in self._query(select, runs, judge, {"pool": pool}):
            values.setdefault(run, []).append(v)
        return values

    def distinct(self, column: str, judge: str | None, *, missing: bool = True) -> tuple[str, ...]:
        """The values of a filter's column present under the root (`UNKNOWN` for a missing one;
        `missing=False`: values only).
        """
        if column not in metrics.FILTER_COLUMNS.values():
            raise ValueError(f"no filter column {column!r}")
        if column in verdict_columns() and self._closed():
            return ()
        select = f"SELECT DISTINCT COALESCE({column}, :unknown) FROM rows"
        if not missing:
            select += f" WHERE {column} IS NOT NULL"
        return tuple(str(row[0]) for row in self._query(select, None, judge, {"unknown": UNKNOWN}))

    def tags(self, judge: str | None) -> tuple[str, ...]:
        """Tags present under the root: taxonomy tags in their order, then core.log error types
        (none when verdicts are withheld).
        """
        present = {row.value for row in self.taxonomy(None, judge)}
        return tuple([t for t in TAGS if t in present] + sorted(present - set(TAGS)))

    # --- lists --------------------------------------------------------------------------------

    def page(
        self,
        judge: str | None,
        criteria: TrajectoryFilter | None = None,
        bars: Sequence[Sequence[BarChoice]] = (),
        offset: int = 0,
        limit: int | None = None,
    ) -> TrajectoryPage:
        """The trajectories matching `criteria` and clicked `bars`, `limit` of them from `offset`.

        `bars`: per clicked chart, its clicked bars; a row must be in one bar of every chart.

        The rows' verdicts are the viewer's (`runs.viewing`): recorded as shown before they are
        returned, or left out (`TrajectoryPage.withheld` says why), and then no criterion or bar
        of verdicts chose the rows either.
        """
        wanted = (judge, criteria or TrajectoryFilter(), bars, offset, limit)
        closed = self._closed()
        if closed is not None:
            return self._page(*wanted, verdicts=False).withheld_as(closed)
        page = self._page(*wanted, verdicts=True)
        chosen_by_verdict = wanted[1].uses_verdicts or any(map(_reads_verdict, (b for c in bars for b in c)))
        judged = [(r.run, r.task_id) for r in page.rows if chosen_by_verdict or r.judge is not None]
        disclosed = self.viewer.disclose(judged) if judged and self.viewer is not None else None
        if disclosed is None or disclosed.why is None:
            return page
        if disclosed.why == Withheld.BLIND_PASS and not chosen_by_verdict:
            return page.holding(disclosed.withheld, disclosed.detail)  # held row by row (runs.viewing)
        if chosen_by_verdict:  # being chosen told the rows' verdicts: chosen again, by the rest
            page = self._page(*wanted, verdicts=False)
        return page.withheld_as(disclosed.why, disclosed.detail)

    def _page(
        self,
        judge: str | None,
        criteria: TrajectoryFilter,
        bars: Sequence[Sequence[BarChoice]],
        offset: int,
        limit: int | None,
        *,
        verdicts: bool,
    ) -> TrajectoryPage:
        """`page`'s rows, chosen by every criterion (`verdicts`) or by those reading no verdict."""
        criteria, bars = seen_criteria(criteria, bars, verdicts=verdicts)
        where, args = where_clause(criteria, bars)
        runs = sorted(criteria.runs) if criteria.runs else None
        select = (
            f"SELECT {select_sql()} FROM rows {where} ORDER BY run_key, sort_key LIMIT :limit OFFSET :offset"
        )
        args |= {"limit": -1 if limit is None else limit, "offset": offset}
        args |= path_params(self.store.path_text("."), os.sep)
        found = self._query(select, runs, judge, args)
        total = self._query(f"SELECT COUNT(*) FROM rows {where}", runs, judge, args)[0][0]
        return TrajectoryPage(total=total, rows=tuple(map(listed_row, found)))

    def frame(self, judge: str | None, criteria: TrajectoryFilter | None = None) -> pd.DataFrame:
        """The trajectories `criteria` keeps as a trajectory frame (the list's columns), in list order.

        The way a page gets pandas rows: only the rows asked for are read (two runs compared, the
        items of a queue), so its memory follows them, not the root. Without the columns of
        verdicts when those are withheld (`page`).
        """
        page = self.page(judge, criteria)
        return metrics.page_frame(page)

    def items_frame(self, judge: str | None, items: Iterable[tuple[str, str]]) -> pd.DataFrame:
        """The rows of the trajectories `items` name ((run key, task id) pairs, as reviews and
        judges name them) as a trajectory frame, in list order; none named, none read.
        """
        wanted = json.dumps(sorted({(str(run), str(task)) for run, task in items}))
        select = (
            "SELECT t.key FROM trajectories t JOIN json_each(:items) j"
            " ON t.run_key = json_extract(j.value, '$[0]') AND t.task_id = json_extract(j.value, '$[1]')"
        )
        with self._connect() as db:
            keys = frozenset(key for (key,) in db.execute(select, {"items": wanted}))
        if not keys:  # an empty key filter would keep every trajectory
            return metrics.page_frame(TrajectoryPage(total=0, rows=(), withheld=self._closed()))
        return self.frame(judge, TrajectoryFilter(keys=keys))

    def task_attempts(self, judge: str | None) -> dict[str, tuple[int, int]]:
        """Each attempted task's id -> (attempts, passed) over every run, as `judge` counts them;
        none when verdicts are withheld.
        """
        if self._closed():
            return {}
        select = "SELECT task_id, COUNT(*), SUM(result = :pass_label) FROM rows GROUP BY task_id"
        return {str(task): (int(n), int(passed)) for task, n, passed in self._query(select, None, judge)}

    def run_tasks(self) -> dict[str, frozenset[str]]:
        """Each run's task ids (which runs share tasks), read from the index alone."""
        found: dict[str, set[str]] = {}
        with self._connect() as db:
            for run, task_id in db.execute("SELECT DISTINCT run_key, task_id FROM trajectories"):
                found.setdefault(run, set()).add(task_id)
        return {run: frozenset(tasks) for run, tasks in found.items()}

    def walk_items(self, judge: str | None, criteria: TrajectoryFilter | None = None) -> tuple[WalkItem, ...]:
        """Every trajectory matching `criteria`, in list order, as a walk through it needs them.

        With verdicts withheld, chosen by no criterion of verdicts, and none `failed`.
        """
        verdicts = self._closed() is None
        criteria, _ = seen_criteria(criteria or TrajectoryFilter(), (), verdicts=verdicts)
        where, args = where_clause(criteria, ())
        runs = sorted(criteria.runs) if criteria.runs else None
        failed = "value IS NOT NULL AND value < 1" if verdicts else "0"
        select = f"SELECT key, run_key, task_id, {failed} FROM rows {where} ORDER BY run_key, sort_key"
        found = self._query(select, runs, judge, args)
        # "Next failure" landing on a trajectory held blind would tell its verdict: not a stop there.
        held = (
            self.viewer.holds((str(r), str(t)) for _, r, t, f in found if f) if self.viewer else frozenset()
        )
        return tuple(  # our own columns
            WalkItem.model_construct(key=k, failed=bool(f) and (str(r), str(t)) not in held)
            for k, r, t, f in found
        )

    def paths(
        self,
        judge: str | None,
        criteria: TrajectoryFilter | None = None,
        bars: Sequence[Sequence[BarChoice]] = (),
    ) -> list[str]:
        """The folders of every trajectory matching `criteria` and `bars`, in list order (with
        verdicts withheld, matching those that read no verdict).
        """
        verdicts = self._closed() is None
        criteria, bars = seen_criteria(criteria or TrajectoryFilter(), bars, verdicts=verdicts)
        where, args = where_clause(criteria, bars)
        runs = sorted(criteria.runs) if criteria.runs else None
        select = f"SELECT rel FROM rows {where} ORDER BY run_key, sort_key"
        return [self.store.path_text(rel) for (rel,) in self._query(select, runs, judge, args)]

    def coded(self, category: str) -> tuple[tuple[str, str, str, str], ...]:
        """(run, task id, judge, code) of every error-taxonomy code of `category` ("8": codes 8.x)
        a verifier gave a trajectory, in run and folder order; recorded as shown to the viewer
        first, none when they are withheld.
        """
        if self._closed():
            return ()
        select = (
            "SELECT t.run_key, t.task_id, f.judge, f.code FROM failure_codes f"
            " JOIN trajectories t ON t.key = f.key WHERE f.code LIKE :prefix"
            " ORDER BY t.run_key, t.sort_key, f.judge, f.code"
        )
        with self._connect() as db:
            found = db.execute(select, {"prefix": f"{category}.%"}).fetchall()
        items = [(str(r), str(t)) for r, t, _, _ in found]
        disclosed = self.viewer.disclose(items) if items and self.viewer is not None else None
        if disclosed is not None and disclosed.why not in (None, Withheld.BLIND_PASS):
            return ()
        held = disclosed.withheld if disclosed is not None else frozenset()
        return tuple((str(r), str(t), str(j), str(c)) for r, t, j, c in found if (str(r), str(t)) not in held)

    def verdict_sources(self) -> dict[str, str]:
        """Each WebArena-Verified trajectory's verdict source (a score file stem: its eval hash, or
        eval_result.json), by summary key; what a verdict edit records it replaced.
        """
        with self._connect() as db:
            found = db.execute(
                "SELECT key, verdict_source FROM trajectories WHERE verdict_source IS NOT NULL"
            )
            return {str(key): str(source) for key, source in found}

    def run_of(self, key: str) -> str | None:
        """The run key of the trajectory with summary key `key`; None when the index has none."""
        with self._connect() as db:
            found = db.execute("SELECT run_key FROM trajectories WHERE key = ?", (key,)).fetchone()
        return None if found is None else str(found[0])


def seen_criteria(
    criteria: TrajectoryFilter, bars: Sequence[Sequence[BarChoice]], *, verdicts: bool
) -> tuple[TrajectoryFilter, Sequence[Sequence[BarChoice]]]:
    """`criteria` and clicked `bars` as a query chooses rows by: all of them when `verdicts` may be
    shown, else only those reading no verdict (choosing by one would tell it).
    """
    if verdicts:
        return criteria, bars
    kept = [[bar for bar in chart if not _reads_verdict(bar)] for chart in bars]
    return without_verdicts(criteria), [chart for chart in kept if chart]


def _reads_verdict(bar: BarChoice) -> bool:
    """Whether choosing a clicked bar's trajectories reads a verdict (a result's, a tag's bar)."""
    return TrajectoryFilter.model_validate({bar.field: [bar.value]}).uses_verdicts
