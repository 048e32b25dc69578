"""THE SQL of the app's rows: one row per trajectory as a judge counts it (its result, value,
outcome group, tags: the same as `metrics.trajectory_frame`, held so by test_queries), the WHERE
clause of a filter and of clicked bars, and the temporary tables they read (the catalog's facts of
the index's task ids, each judge's pass mark). `queries.IndexQueries` asks its questions of them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from webeval_core.reading.taxonomy import code_label
from webeval_core.runs import metrics
from webeval_core.runs.judges import OFFICIAL, judge_threshold
from webeval_core.runs.listing.answers import BarChoice
from webeval_core.runs.listing.list_columns import held_facts
from webeval_core.runs.trajectory_filter import (
    ANSWERED,
    FAIL,
    PASS,
    UNFINISHED,
    UNREADABLE,
    UNSCORED,
    TrajectoryFilter,
)
from webeval_core.scoring.verdicts import ABORTED, CORE_LOG_PREFIX, NO_ANSWER, SCORING_ERROR, TAGS
from webeval_core.support.vocabulary import UNKNOWN

if TYPE_CHECKING:
    from webeval_core.reading.task_catalog import TaskCatalog


_BASE = (
    "key",
    "rel",
    "run_key",
    "sort_key",
    "task_id",
    "outcome",
    "steps",
    "duration_s",
    "prompt_tokens",
    "completion_tokens",
    "final_answer",
    "core_error",
    "verdict_status",
    "verdict_tags",
    "unreadable",
    "site",
    "intent",
    "crash_reason",
)
"""The index columns `ROWS` reads for its own rules (counting, filters, the text search)."""


def rows_sql(runs: str = "", keys: str = "") -> str:
    """`ROWS` with its run and key filters (WHERE clauses, or none), reading the index columns it
    needs and those the list's columns read as they are (`list_columns.held_facts`).
    """
    base = ", ".join(f"t.{name}" for name in dict.fromkeys(_BASE + held_facts()))
    return ROWS.format(runs=runs, keys=keys, base=base)


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
# (of every run, or of the few runs a page asked for first: {runs} and {keys} filter them; {base}:
# the index columns it reads, `rows_sql`).
# `used`: the judge asked for (the queries ask the root's default one, `judges.default_judge`, for None).
ROWS = """
WITH judged AS (
  SELECT x.key, COUNT(DISTINCT CASE WHEN x.score IS NOT NULL THEN x.score >= k.threshold END) > 1 AS disagree
  FROM scores x JOIN temp.marks k ON k.judge = x.judge {keys} GROUP BY x.key
), base AS (
  SELECT {base}, COALESCE(j.disagree, 0) AS judges_disagree, :judge AS used
  FROM trajectories t LEFT JOIN judged j ON j.key = t.key {runs}
), scored AS (
  SELECT b.*, s.key IS NOT NULL AS judged, s.score AS score,
    CASE WHEN b.used = :official AND s.key IS NOT NULL THEN b.verdict_status END AS status,
    CASE WHEN s.score IS NULL THEN NULL WHEN s.score >= m.threshold THEN 1.0 ELSE 0.0 END AS pass_value,
    c.task_type, c.intent_template
  FROM base b
  LEFT JOIN scores s ON s.key = b.key AND s.judge = b.used
  LEFT JOIN temp.marks m ON m.judge = b.used
  LEFT JOIN temp.tasks c ON c.task_id = b.task_id
), labelled AS (
  SELECT *, CASE
      WHEN COALESCE(unreadable, '') != '' OR outcome IS NULL THEN :unreadable
      WHEN outcome = 'aborted' THEN :aborted
      WHEN outcome = 'unfinished' THEN :unfinished
      WHEN outcome = 'no_answer' THEN :no_answer
      WHEN status = 'error' THEN :scoring_error
      WHEN pass_value IS NULL THEN :unscored
      WHEN pass_value >= 1.0 THEN :pass_label ELSE :fail_label END AS result,
    CASE
      WHEN COALESCE(unreadable, '') != '' OR outcome IS NULL OR outcome IN ('aborted', 'unfinished') THEN NULL
      WHEN outcome = 'no_answer' THEN
        CASE WHEN pass_value IS NOT NULL AND COALESCE(status, '') != 'error' THEN pass_value ELSE 0.0 END
      WHEN status = 'error' THEN NULL
      ELSE pass_value END AS value
  FROM scored
), rows AS (
  SELECT *, NULLIF(prompt_tokens + completion_tokens, 0) AS tokens,  -- TrajectorySummary.tokens
    CASE WHEN result IN (:unreadable, :aborted, :no_answer, :scoring_error, :unfinished) THEN result
      WHEN outcome = 'answered' THEN :answered ELSE :unreadable END AS outcome_group
  FROM labelled
)
"""


# The labels the SQL writes and compares, as metrics and judges name them (query parameters).
NAMES = {
    "aborted": ABORTED,
    "no_answer": NO_ANSWER,
    "scoring_error": SCORING_ERROR,
    "official": OFFICIAL,
    "unreadable": UNREADABLE,
    "unscored": UNSCORED,
    "unfinished": UNFINISHED,
    "pass_label": PASS,
    "fail_label": FAIL,
    "answered": ANSWERED,
}


HEADLINE = (
    "COUNT(*), COUNT(value), COUNT(CASE WHEN value >= 1.0 THEN 1 END), AVG(value),"
    " COUNT(CASE WHEN result = :no_answer THEN 1 END), COUNT(CASE WHEN result = :aborted THEN 1 END),"
    " COUNT(CASE WHEN result = :scoring_error THEN 1 END), COUNT(CASE WHEN result = :unscored THEN 1 END),"
    " COUNT(CASE WHEN result = :unreadable THEN 1 END), COUNT(CASE WHEN result = :unfinished THEN 1 END),"
    # Crashed: aborted, its last attempt raised (the readers keep a crash_reason then: task_state).
    " COUNT(CASE WHEN result = :aborted AND crash_reason IS NOT NULL THEN 1 END)"
)


def headline_of(row: Sequence[Any]) -> metrics.Headline:
    """The headline numbers of a row of `HEADLINE`."""
    n, counted, passed, rate, no_answer, aborted, errors, unscored, unreadable, unfinished, crashed = row
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
        unfinished=unfinished,
        crashed=crashed,
    )


def _has_tag(i: int) -> str:
    """SQL: whether a row carries tag number `i` of TAGS (parameter :tag<i>)."""
    verdict = (
        f"(used = :official AND judged AND instr(char(10) || COALESCE(verdict_tags, '') || char(10),"
        f" char(10) || :tag{i} || char(10)) > 0)"
    )
    by_outcome = {NO_ANSWER: "outcome = 'no_answer'", ABORTED: "outcome = 'aborted'"}.get(TAGS[i])
    return f"({verdict} OR {by_outcome})" if by_outcome else verdict


def where_clause(
    criteria: TrajectoryFilter, bars: Sequence[Sequence[BarChoice]]
) -> tuple[str, dict[str, Any]]:
    """The WHERE clause of a filter and clicked bars, with its parameters."""
    clauses: list[str] = []
    args: dict[str, Any] = {"unknown": UNKNOWN}
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


def temp_tables(db: sqlite3.Connection, catalog: TaskCatalog | None) -> None:
    """The judges' pass marks and the catalog's facts of the index's task ids, as temporary tables."""
    judges = [row[0] for row in db.execute("SELECT DISTINCT judge FROM scores")]
    db.execute("CREATE TEMP TABLE marks (judge TEXT PRIMARY KEY, threshold REAL)")
    db.executemany("INSERT INTO temp.marks VALUES (?, ?)", [(name, judge_threshold(name)) for name in judges])
    ids = [row[0] for row in db.execute("SELECT DISTINCT task_id FROM trajectories")]
    db.execute("CREATE TEMP TABLE tasks (task_id TEXT PRIMARY KEY, task_type TEXT, intent_template TEXT)")
    db.executemany("INSERT INTO temp.tasks VALUES (?, ?, ?)", _task_rows(ids, catalog))


def casefold(text: object) -> str | None:
    """SQL's `casefold(text)`: text compared as Python case-folds it (SQLite's lower is ASCII only)."""
    return None if text is None else str(text).casefold()


def _task_rows(task_ids: Iterable[str], catalog: TaskCatalog | None) -> Iterator[tuple[str, str, str]]:
    """The catalog's facts of each task id the index holds, as `catalog.get` reads an id (its site
    and intent are the index's own columns: `index_columns.site_of_task`, `intent_of_task`).
    """
    if catalog is None:
        return
    for task_id in task_ids:
        task = catalog.get(task_id)
        if task is not None:
            yield task_id, task.task_type, task.intent_template
