"""`webeval query ROOT "SELECT ..."`: one read-only SQL query over ROOT's index, as a table, JSON or CSV.

Exit codes: 0 the query ran; 1 ROOT is no folder; 2 the query was refused (not a single SELECT,
or one that would write) or SQLite could not run it; 3 it ran past its time limit.
"""

from __future__ import annotations

import argparse
import csv
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import Progress, complain, print_json, say, shorten, table
from webeval_core.cli._roots import FAILED, checked_folder, local_root, no_trajectories
from webeval_core.presentation import plural

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.runs import QueryResult

_CELL_WIDTH = 60  # a summary JSON cell would make the terminal table unreadable: cut, as `ls` does


def add_parser(sub: Subparsers) -> None:
    """`query ROOT SQL [--json | --csv] [--limit N] [--timeout S] [--no-refresh]`."""
    query = sub.add_parser(
        "query",
        help="run one read-only SELECT over a folder's index",
        description="Tables: trajectories, scores, failure_codes, runs"
        " (see docs/researchers.md, 'webeval query').",
    )
    query.add_argument("root")
    query.add_argument("sql", help="one SELECT (or WITH ... SELECT) statement")
    shape = query.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="columns, rows, truncated, elapsed_s as JSON")
    shape.add_argument("--csv", action="store_true", help="the rows as CSV with a header line")
    query.add_argument("--limit", type=int, default=1000, help="rows at most (default 1000)")
    query.add_argument("--timeout", type=float, default=5.0, help="seconds at most (default 5)")
    query.add_argument("--no-refresh", action="store_true", help="query the index as it is")
    query.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Bring ROOT's index up to date, run the query, print its rows (exit codes: the module's)."""
    from webeval_core.runs import IndexStore, QueryError, QueryTimeoutError, refresh_index, run_query

    given = local_root(args.root, "query")
    root = None if given is None else checked_folder(given, "query")
    if root is None:
        return FAILED
    store = IndexStore(root)
    if not args.no_refresh:
        refresh_index(store, on_progress=Progress("Reading"))
    if not store.counts().trajectories:
        return no_trajectories(root, "query")
    try:
        result = run_query(store, args.sql, max_rows=max(args.limit, 0), timeout_s=args.timeout)
    except QueryError as exc:
        complain("query", "refused" if not isinstance(exc, QueryTimeoutError) else "stopped", exc)
        return 3 if isinstance(exc, QueryTimeoutError) else 2
    _print(result, args, out)
    return 0


def _print(result: QueryResult, args: argparse.Namespace, out: TextIO) -> None:
    if args.json:
        print_json(result.model_dump(mode="json"), out)
        return
    if args.csv:
        # CSV keeps every character of every cell (a spreadsheet, not a terminal, reads it).
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(result.columns)
        writer.writerows(["" if cell is None else cell for cell in row] for row in result.rows)
    else:
        cells = [[_text(cell) for cell in row] for row in result.rows]
        say(out, *table(list(result.columns), cells))
        say(out, f"({plural(len(result.rows), 'row')} in {result.elapsed_s:.3f} s)")
    if result.truncated:
        complain("query", "truncated", f"only the first {len(result.rows)} rows (--limit)")


def _text(cell: object) -> str:
    return "NULL" if cell is None else shorten(str(cell), _CELL_WIDTH)
