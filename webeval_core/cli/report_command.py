"""`webeval report ROOT`: the results table a team publishes, per run or per site, as published
and as scored, with intervals and provenance (webeval_core/presentation/results_table.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import complain, say
from webeval_core.cli._roots import FAILED, root_queries
from webeval_core.cli._store import add_store_arguments, store_for

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """`report ROOT [--by run|site] [--format md|csv|latex|json] [--judge J] [-o FILE]`."""
    report = sub.add_parser(
        "report",
        help="the results table: rates as published and as scored, intervals, provenance",
        description="One line per run (or site): trajectories, finished, excluded, edits, the success rate"
        " as published (verdict edits and exclusions of the review store applied) and as scored, each"
        " with 95% intervals, and the judges, eval hashes, library versions and dataset checksums.",
    )
    report.add_argument("root")
    report.add_argument(
        "--by", choices=["run", "site"], default="run", help="one line per run (default) or site"
    )
    report.add_argument(
        "--format",
        choices=["md", "csv", "latex", "json"],
        default="md",
        help="the table's format (default md)",
    )
    report.add_argument(
        "--judge",
        help="the judge whose verdicts count (default: the official evaluator when it judged any"
        " trajectory, else the first judge by name: the one every view uses)",
    )
    report.add_argument("-o", "--output", help="write the table to FILE instead of stdout")
    add_store_arguments(report, "the review store holding verdict edits and exclusions")
    report.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print (or write) ROOT's results table."""
    from webeval_core.presentation import TableFormat, render_results
    from webeval_core.review import GroupBy, engines_of, published_root, results

    queries = root_queries(args, "report")
    if queries is None:
        return 1
    store = store_for(args, queries.store.root, "report")
    if store is None:
        return 1
    try:
        trajectories = published_root(queries, args.judge, store)
    finally:
        store.close()
    if not trajectories:  # a root without trajectories is said by root_queries: here all are excluded
        complain("report", queries.store.root, "every trajectory is excluded from the published figures")
        return FAILED
    by = GroupBy(args.by)
    text = render_results(results(trajectories, by), engines_of(trajectories), by, TableFormat(args.format))
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        say(sys.stderr, f"webeval report: wrote {args.output}")
    else:
        out.write(text)
    return 0
