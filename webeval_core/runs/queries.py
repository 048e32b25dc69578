"""Lists, counts and charts as SQL on a root's index file: the server never holds every row.

Each figure of the overview and each page of the trajectory list is one query (`GROUP BY`,
`WHERE`, `LIMIT/OFFSET`) on the SQLite index (`store.IndexStore`), over a per-row view that
computes what `metrics.trajectory_frame` computes in pandas: the judge used, the result label,
the value a row adds to the success rate (upstream's counting rules) and its failure tags. The
task catalog (site, task type, intent) and each judge's pass mark (`judges.judge_threshold`) are
small temporary tables of the read-only connection. What they answer are the models of
`queryrows` (re-exported here).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from webeval_core.reading.taxonomy import code_label, sorted_codes
from webeval_core.runs import metrics
from webeval_core.runs.index_db import read_connection
from webeval_core.runs.judges import OFFICIAL, judge_threshold
from webeval_core.runs.queryrows import (
    BarChoice,
    BreakdownRow,
    CodeCountRow,
    CountRow,
    ListedTrajectory,
    MeasureStats,
    TrajectoryPage,
    WalkItem,
)
from webeval_core.runs.trajectory_filter import (
    ANSWERED,
    FAIL,
    PASS,
    RESULTS,
    UNREADABLE,
    UNSCORED,
    TrajectoryFilter,
)
from webeval_core.scoring.verdicts import ABORTED, CORE_LOG_PREFIX, NO_ANSWER, SCORING_ERROR, TAGS

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


def code_choice(judge: str, code: str) -> str:
    """A judge's code as the `failure_codes` filter, a chart's bar and a URL name it, readable:
    "<judge>: <code named>" ("mmrubric_0.8-5-3: 2.3 Output fabrication"; a category, "...: 2 Hallucination").
    """
    return f"{judge}: {code_label(code)}"


def parse_code_choice(choice: str) -> tuple[str, str]:
    """(judge, code) of a `code_choice`; "<judge>:<code>" is read too (a link typed by hand)."""
    judge, separator, label = choice.rpartition(": ")
    if not separator:
        judge, _, label = choice.rpartition(":")
    return judge, label.strip().split(" ", 1)[0]


# One row per trajectory, as metrics.trajectory_frame makes it; kept as a temporary table per judge
# (of every run, or of the few runs a page asked for first: {runs} and {keys} filter them).
# `used`: the chosen judge, else the official verdict, else the only judge with a score.
_ROWS = """
WITH judged AS (
  SELECT x.key, MAX(x.judge = :official) AS has_official, COUNT(x.score) AS n_scored,
    MAX(CASE WHEN x.score IS NOT NULL THEN x.judge END) AS only_judge,
    COUNT(DISTINCT CASE WHEN x.score IS NOT NULL THEN x.score >= k.threshold END) > 1 AS disagree
  FROM scores x JOIN temp.marks k ON k.judge = x.judge {keys} GROUP BY x.key
), base AS (
  SELECT t.key, t.rel, t.run_key, t.sort_key, t.task_id, t.outcome, t.steps, t.duration_s,
    t.prompt_tokens, t.completion_tokens, t.final_answer, t.core_error, t.verdict_status, t.verdict_tags,
    t.unreadable, t.site AS task_site, t.task_text, COALESCE(j.disagree, 0) AS judges_disagree,
    COALESCE(:judge, CASE
      WHEN j.has_official THEN :official WHEN j.n_scored = 1 THEN j.only_judge END) AS used
  FROM trajectories t LEFT JOIN judged j ON j.key = t.key {runs}
), scored AS (
  SELECT b.*, s.key IS NOT NULL AS judged, s.score AS score,
    CASE WHEN b.used = :official AND s.key IS NOT NULL THEN b.verdict_status END AS status,
    CASE WHEN s.score IS NULL THEN NULL WHEN s.score >= m.threshold THEN 1.0 ELSE 0.0 END AS pass_value,
    COALESCE(c.site, b.task_site) AS site, c.task_type, COALESCE(c.intent, b.task_text) AS intent,
    c.intent_template
  FROM base b
  LEFT JOIN scores s ON s.key = b.key AND s.judge = b.used
  LEFT JOIN temp.marks m ON m.judge = b.used
  LEFT JOIN temp.tasks c ON c.task_id = b.task_id
), labelled AS (
  SELECT *, CASE
      WHEN COALESCE(unreadable, '') != '' OR outcome IS NULL THEN :unreadable
      WHEN outcome = 'aborted' THEN :aborted
      WHEN outcome = 'no_answer' THEN :no_answer
      WHEN status = 'error' THEN :scoring_error
      WHEN pass_value IS NULL THEN :unscored
      WHEN pass_value >= 1.0 THEN :pass_label ELSE :fail_label END AS result,
    CASE
      WHEN COALESCE(unreadable, '') != '' OR outcome IS NULL OR outcome = 'aborted' THEN NULL
      WHEN outcome = 'no_answer' THEN
        CASE WHEN pass_value IS NOT NULL AND COALESCE(status, '') != 'error' THEN pass_value ELSE 0.0 END
      WHEN status = 'error' THEN NULL
      ELSE pass_value END AS value
  FROM scored
), rows AS (
  SELECT *, prompt_tokens + completion_tokens AS tokens,
    CASE WHEN result IN (:unreadable, :aborted, :no_answer, :scoring_error) THEN result
      WHEN outcome = 'answered' THEN :answered ELSE :unreadable END AS outcome_group
  FROM labelled
)
"""
_RUN_TABLES = 4  # tables of a few runs made before every run's table is made instead
_MEASURES = {"steps": "steps", "duration_s": "duration_s", "tokens": "tokens"}
# The labels the SQL writes and compares, as metrics and judges name them (query parameters).
_NAMES = {
    "aborted": ABORTED,
    "no_answer": NO_ANSWER,
    "scoring_error": SCORING_ERROR,
    "official": OFFICIAL,
    "unreadable": UNREADABLE,
    "unscored": UNSCORED,
    "pass_label": PASS,
    "fail_label": FAIL,
    "answered": ANSWERED,
}
_LIST_COLUMNS = (
    "run, task_id, site, task_type, intent, intent_template, outcome, outcome_group, status, score,"
    " result, value, steps, duration_s, tokens, core_error, final_answer, verdict_tags, rel, key,"
    " CASE WHEN judged THEN used END, judges_disagree, used = :official AND judged"
)


class IndexQueries:
    """The queries of one index file at one generation, describing tasks from `catalog`.

    One read-only connection, used by one thread at a time (a lock), holds the catalog's rows for
    the index's task ids, the judges' pass marks and, once a judge is asked for, every row as that
    judge counts it (a temporary table made by one query, indexed in list order): the queries of
    every page then read that table. Temporary tables live in SQLite's temporary file, not in
    the server's memory. A new generation of the index gets a new object.
    """

    def __init__(self, store: IndexStore, catalog: TaskCatalog | None) -> None:
        self.store = store
        """The index file read."""
        self._catalog = catalog
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._tables: dict[tuple[str | None, tuple[str, ...] | None], str] = {}

    def close(self) -> None:
        """Close the connection (its temporary tables go with it); a later query opens another."""
        with self._lock:
            if self._db is not None:
                self._db.close()
            self._db, self._tables = None, {}

    # --- connection ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._db is None:
                db = read_connection(self.store, shared=True)
                db.create_function("casefold", 1, _casefold, deterministic=True)
                _temp_tables(db, self._catalog)
                self._db = db
            yield self._db

    def _table(self, db: sqlite3.Connection, judge: str | None, runs: Sequence[str] | None) -> str:
        """The temporary table of the rows of `runs` as `judge` counts them (made on first use).

        Every run's table serves every query once made; before that, a query of a few runs (the
        overview's first page) makes a table of those runs only, a fraction of the work.
        """
        few = runs is not None and (judge, None) not in self._tables and len(self._tables) < _RUN_TABLES
        chosen = tuple(sorted(runs)) if few and runs is not None else None
        name = self._tables.get((judge, chosen))
        if name is None:
            name = f"rows_{len(self._tables)}"
            sql = _ROWS.format(
                runs="WHERE t.run_key IN (SELECT value FROM json_each(:runs))" if chosen else "",
                keys="WHERE x.key IN (SELECT key FROM trajectories WHERE run_key IN"
                " (SELECT value FROM json_each(:runs)))"
                if chosen
                else "",
            )
            params = {**_NAMES, "judge": judge, "runs": json.dumps(chosen or [])}
            db.execute(f"CREATE TEMP TABLE {name} AS {sql} SELECT * FROM rows", params)
            db.execute(f"CREATE INDEX temp.{name}_order ON {name} (run_key, sort_key)")
            self._tables[judge, chosen] = name
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
        params = {**_NAMES, "pool": None, "runs": json.dumps(list(runs or ())), **(args or {})}
        with self._connect() as db:
            table = self._table(db, judge, runs)
            rows = f"WITH rows AS (SELECT *, COALESCE(:pool, run_key) AS run FROM {table} {where}) "
            return db.execute(rows + select, params).fetchall()

    # --- counts and charts --------------------------------------------------------------------

    def headlines(self, runs: Sequence[str] | None, judge: str | None) -> dict[str, metrics.Headline]:
        """The headline numbers of each run (in run key order)."""
        rows = self._query(f"SELECT run, {_HEADLINE} FROM rows GROUP BY run ORDER BY run", runs, judge)
        return {row[0]: _headline(row[1:]) for row in rows}

    def headline(
        self,
        runs: Sequence[str] | None,
        judge: str | None,
        criteria: TrajectoryFilter | None = None,
    ) -> metrics.Headline:
        """The headline numbers of the trajectories of `runs` pooled (those `criteria` keeps)."""
        where, args = _where(criteria or TrajectoryFilter(), ())
        return _headline(self._query(f"SELECT {_HEADLINE} FROM rows {where}", runs, judge, args)[0])

    def breakdown(
        self, runs: Sequence[str] | None, judge: str | None, by: str, pool: str | None = None
    ) -> tuple[BreakdownRow, ...]:
        """Success per run and value of a catalog column (`CATALOG_COLUMNS`), ordered by run and value.

        `pool`: the runs counted together, as one "run" of this name.
        """
        if by not in CATALOG_COLUMNS:
            raise ValueError(f"no breakdown by {by!r}; one of {', '.join(CATALOG_COLUMNS)}")
        select = (
            f"SELECT run, COALESCE({by}, :unknown) AS v, COUNT(*), COUNT(value),"
            " COUNT(CASE WHEN value >= 1.0 THEN 1 END), AVG(value) FROM rows GROUP BY run, v ORDER BY run, v"
        )
        rows = self._query(select, runs, judge, {"unknown": metrics.UNKNOWN, "pool": pool})
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
        # Few distinct combinations of verdict tags, outcome and core.log error: grouped in SQL,
        # each combination's tags read by `_tags`, the one reading of a row's tags.
        select = (
            "SELECT run, CASE WHEN used = :official AND judged THEN verdict_tags END AS vt, outcome,"
            " core_error, COUNT(*) FROM rows GROUP BY run, vt, outcome, core_error"
        )
        tally: dict[tuple[str, str], int] = {}
        for run, verdict_tags, outcome, core_error, n in self._query(select, runs, judge, {"pool": pool}):
            for tag in _tags(verdict_tags, outcome, core_error):
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
        """The values of a filter's column present under the root (`(unknown)` for a missing one;
        `missing=False`: values only).
        """
        if column not in metrics.FILTER_COLUMNS.values():
            raise ValueError(f"no filter column {column!r}")
        select = f"SELECT DISTINCT COALESCE({column}, :unknown) FROM rows"
        if not missing:
            select += f" WHERE {column} IS NOT NULL"
        return tuple(str(row[0]) for row in self._query(select, None, judge, {"unknown": metrics.UNKNOWN}))

    def tags(self, judge: str | None) -> tuple[str, ...]:
        """Tags present under the root: taxonomy tags in their order, then core.log error types."""
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
        """
        where, args = _where(criteria or TrajectoryFilter(), bars)
        runs = sorted(criteria.runs) if criteria is not None and criteria.runs else None
        select = (
            f"SELECT {_LIST_COLUMNS} FROM rows {where} ORDER BY run_key, sort_key LIMIT :limit OFFSET :offset"
        )
        args |= {"limit": -1 if limit is None else limit, "offset": offset}
        found = self._query(select, runs, judge, args)
        total = self._query(f"SELECT COUNT(*) FROM rows {where}", runs, judge, args)[0][0]
        return TrajectoryPage(total=total, rows=tuple(self._listed(row) for row in found))

    def frame(self, judge: str | None, criteria: TrajectoryFilter | None = None) -> pd.DataFrame:
        """The trajectories `criteria` keeps as a trajectory frame (`metrics.COLUMNS`), in list order.

        The way a page gets pandas rows: only the rows asked for are read (two runs compared, the
        items of a queue), so its memory follows them, not the root.
        """
        return metrics.listed_frame(self.page(judge, criteria).rows)

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
            return metrics.listed_frame(())
        return self.frame(judge, TrajectoryFilter(keys=keys))

    def task_attempts(self, judge: str | None) -> dict[str, tuple[int, int]]:
        """Each attempted task's id -> (attempts, passed) over every run, as `judge` counts them."""
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
        """Every trajectory matching `criteria`, in list order, as a walk through it needs them."""
        where, args = _where(criteria or TrajectoryFilter(), ())
        runs = sorted(criteria.runs) if criteria is not None and criteria.runs else None
        select = f"SELECT key, value IS NOT NULL AND value < 1 FROM rows {where} ORDER BY run_key, sort_key"
        found = self._query(select, runs, judge, args)
        return tuple(WalkItem.model_construct(key=k, failed=bool(f)) for k, f in found)  # our own columns

    def paths(
        self,
        judge: str | None,
        criteria: TrajectoryFilter | None = None,
        bars: Sequence[Sequence[BarChoice]] = (),
    ) -> list[str]:
        """The folders of every trajectory matching `criteria` and `bars`, in list order."""
        where, args = _where(criteria or TrajectoryFilter(), bars)
        runs = sorted(criteria.runs) if criteria is not None and criteria.runs else None
        select = f"SELECT rel FROM rows {where} ORDER BY run_key, sort_key"
        return [self.store.path_text(rel) for (rel,) in self._query(select, runs, judge, args)]

    def run_of(self, key: str) -> str | None:
        """The run key of the trajectory with summary key `key`; None when the index has none."""
        with self._connect() as db:
            found = db.execute("SELECT run_key FROM trajectories WHERE key = ?", (key,)).fetchone()
        return None if found is None else str(found[0])

    def _listed(self, row: tuple[Any, ...]) -> ListedTrajectory:
        (run, task_id, site, task_type, intent, template, outcome, group, status, score, result, value,
         steps, duration, tokens, core_error, answer, verdict_tags, rel, key, judge, disagree,
         official) = row  # fmt: skip
        return ListedTrajectory.model_construct(  # built from our own query's columns
            run=run,
            task_id=task_id,
            site=site,
            task_type=task_type,
            intent=intent,
            intent_template=template,
            outcome=outcome,
            outcome_group=group,
            status=status,
            score=score,
            result=result,
            value=value,
            steps=steps,
            duration_s=duration,
            tokens=tokens,
            core_error=core_error,
            answer=answer,
            tags=_tags(verdict_tags if official else None, outcome, core_error),
            path=self.store.path_text(rel),
            key=key,
            judge=judge,
            judges_disagree=bool(disagree),
        )


_HEADLINE = (
    "COUNT(*), COUNT(value), COUNT(CASE WHEN value >= 1.0 THEN 1 END), AVG(value),"
    " COUNT(CASE WHEN result = :no_answer THEN 1 END), COUNT(CASE WHEN result = :aborted THEN 1 END),"
    " COUNT(CASE WHEN result = :scoring_error THEN 1 END), COUNT(CASE WHEN result = :unscored THEN 1 END),"
    " COUNT(CASE WHEN result = :unreadable THEN 1 END)"
)


def _headline(row: Sequence[Any]) -> metrics.Headline:
    n, counted, passed, rate, no_answer, aborted, errors, unscored, unreadable = row
    return metrics.Headline(
        trajectories=n,
        counted=counted,
        passed=passed,
        success_rate=rate,
        no_answer=no_answer,
        aborted=aborted,
        scoring_errors=errors,
        unscored=unscored,
        unreadable=unreadable,
    )


def _has_tag(i: int) -> str:
    """SQL: whether a row carries tag number `i` of TAGS (parameter :tag<i>)."""
    verdict = (
        f"(used = :official AND judged AND instr(char(10) || COALESCE(verdict_tags, '') || char(10),"
        f" char(10) || :tag{i} || char(10)) > 0)"
    )
    by_outcome = {NO_ANSWER: "outcome = 'no_answer'", ABORTED: "outcome = 'aborted'"}.get(TAGS[i])
    return f"({verdict} OR {by_outcome})" if by_outcome else verdict


def _tags(verdict_tags: str | None, outcome: str | None, core_error: str | None) -> tuple[str, ...]:
    tags = set(verdict_tags.split("\n")) if verdict_tags else set()
    if outcome == "no_answer":
        tags.add(NO_ANSWER)
    elif outcome == "aborted":
        tags.add(ABORTED)
    tagged = [t for t in TAGS if t in tags]
    if core_error:
        tagged.append(CORE_LOG_PREFIX + core_error)
    return tuple(tagged)


def _where(criteria: TrajectoryFilter, bars: Sequence[Sequence[BarChoice]]) -> tuple[str, dict[str, Any]]:
    """The WHERE clause of a filter and clicked bars, with its parameters."""
    clauses: list[str] = []
    args: dict[str, Any] = {"unknown": metrics.UNKNOWN}
    for name, column in metrics.FILTER_COLUMNS.items():
        values: frozenset[str] = getattr(criteria, name)
        if values:
            args[name] = json.dumps(sorted(values))
            clauses.append(f"COALESCE({column}, :unknown) IN (SELECT value FROM json_each(:{name}))")
    if criteria.tags:
        clauses.append(_any_tag(criteria.tags, args, "f"))
    needle = criteria.text.strip().casefold()
    if needle:
        args["needle"] = needle
        clauses.append(
            "(instr(casefold(task_id), :needle) OR instr(casefold(intent), :needle)"
            " OR instr(casefold(final_answer), :needle))"
        )
    if criteria.judges_disagree:
        clauses.append("judges_disagree")
    if criteria.keys:
        args["keys"] = json.dumps(sorted(criteria.keys))
        clauses.append("key IN (SELECT value FROM json_each(:keys))")
    if criteria.failure_codes:
        codes = [_has_code(f"fc{i}_", c, args) for i, c in enumerate(sorted(criteria.failure_codes))]
        clauses.append("(" + " OR ".join(codes) + ")")
    for chart, picked in enumerate(bars):
        clauses.append("(" + " OR ".join(_bar(chart, i, bar, args) for i, bar in enumerate(picked)) + ")")
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", args


def _bar(chart: int, i: int, bar: BarChoice, args: dict[str, Any]) -> str:
    name = f"b{chart}_{i}_"
    args[f"{name}run"] = bar.run
    run = f"COALESCE(:{name}run = run, 1)"  # a pooled bar (no run) keeps every run's rows
    if bar.field == "tags":
        return f"({run} AND {_any_tag([bar.value], args, name)})"
    if bar.field == "failure_codes":
        return f"({run} AND {_has_code(name, bar.value, args)})"
    args[f"{name}value"] = bar.value
    return f"({run} AND COALESCE({metrics.FILTER_COLUMNS[bar.field]}, :unknown) = :{name}value)"


def _has_code(name: str, choice: str, args: dict[str, Any]) -> str:
    """SQL: one of the row's verifiers (the judge of `choice`) gives its code or one under it."""
    args[f"{name}judge"], args[f"{name}code"] = parse_code_choice(choice)
    return (
        f"EXISTS (SELECT 1 FROM failure_codes f WHERE f.key = rows.key AND f.judge = :{name}judge"
        f" AND (f.code = :{name}code OR f.code LIKE :{name}code || '.%'))"
    )


def _any_tag(tags: Iterable[str], args: dict[str, Any], prefix: str) -> str:
    """SQL: a row carries any of `tags` (verdict and outcome tags, `core.log: ` error types)."""
    wanted = set(tags)
    parts = []
    for i, tag in enumerate(TAGS):
        if tag in wanted:
            args[f"tag{i}"] = tag
            parts.append(_has_tag(i))
    logged = [t.removeprefix(CORE_LOG_PREFIX) for t in wanted if t.startswith(CORE_LOG_PREFIX)]
    if logged:
        args[f"{prefix}logged"] = json.dumps(sorted(logged))
        parts.append(f"core_error IN (SELECT value FROM json_each(:{prefix}logged))")
    return "(" + (" OR ".join(parts) or "0") + ")"


def _temp_tables(db: sqlite3.Connection, catalog: TaskCatalog | None) -> None:
    """The judges' pass marks and the catalog's facts of the index's task ids, as temporary tables."""
    judges = [row[0] for row in db.execute("SELECT DISTINCT judge FROM scores")]
    db.execute("CREATE TEMP TABLE marks (judge TEXT PRIMARY KEY, threshold REAL)")
    db.executemany("INSERT INTO temp.marks VALUES (?, ?)", [(name, judge_threshold(name)) for name in judges])
    ids = [row[0] for row in db.execute("SELECT DISTINCT task_id FROM trajectories")]
    db.execute(
        "CREATE TEMP TABLE tasks (task_id TEXT PRIMARY KEY, site TEXT, task_type TEXT, intent TEXT,"
        " intent_template TEXT)"
    )
    db.executemany("INSERT INTO temp.tasks VALUES (?, ?, ?, ?, ?)", _task_rows(ids, catalog))


def _casefold(text: object) -> str | None:
    return None if text is None else str(text).casefold()


def _task_rows(
    task_ids: Iterable[str], catalog: TaskCatalog | None
) -> Iterator[tuple[str, str, str, str, str]]:
    """The catalog's facts of each task id the index holds, as `catalog.get` reads an id."""
    if catalog is None:
        return
    for task_id in task_ids:
        task = catalog.get(task_id)
        if task is not None:
            yield task_id, task.site_key, task.task_type, task.intent, task.intent_template
