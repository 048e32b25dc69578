"""`webeval ls ROOT`: the runs and trajectories under ROOT, and the unreadable folders."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import print_json, say, shorten, table
from webeval_core.cli._roots import load_index
from webeval_core.presentation import plural, states_in_words

if TYPE_CHECKING:
    from pathlib import Path

    from webeval_core.cli._output import Subparsers
    from webeval_core.runs import Run, TrajectorySummary


def add_parser(sub: Subparsers) -> None:
    """`ls ROOT [--json] [--no-cache]`."""
    ls = sub.add_parser("ls", help="list runs and trajectories under a folder")
    ls.add_argument("root")
    ls.add_argument("--json", action="store_true")
    ls.add_argument("--no-cache", action="store_true", help="re-read every folder")
    ls.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """The runs and trajectories under ROOT as a table per run (or JSON); 1 when ROOT is no folder or
    holds no trajectory (`_roots`).
    """
    from webeval_core.runs import index_as_json

    index = load_index(args, "ls")
    if index is None:
        return 1
    if args.json:
        print_json(index_as_json(index), out)
        return 0
    for found in index.runs:
        members = [s for s in index.summaries if s.run_key == found.key and not s.unreadable]
        say(out, *run_lines(found, members), *_report_lines(members, index.root))
    if index.unreadable:
        say(out, "", f"Unreadable folders ({len(index.unreadable)}):")
        say(out, *(f"  {s.path}: {s.unreadable}" for s in index.unreadable))
    return 0


def run_lines(found: Run, members: list[TrajectorySummary]) -> list[str]:
    """One run of `ls`: its key, its metadata, then a row per readable trajectory (columns as wide
    as their widest cell, so long task ids keep them aligned).
    """
    count = plural(len(members), "trajectory", "trajectories")
    lines = ["", f"{found.key}  ({count}{_formats_cell(members)})"]
    meta = ", ".join(f"{k}={v}" for k, v in found.metadata.items() if v)
    if meta:
        lines.append(f"  {meta}")
    from webeval_core.runs import run_counts, summary_state

    lines.append(f"  {states_in_words(run_counts(members))}")
    rows = [
        [
            s.task_id,
            summary_state(s).value,  # finished, aborted, crashed, running, stalled: as of now
            s.outcome or "-",
            str(s.steps),
            str(s.verdict.status) if s.verdict else "-",
            _score_cell(s),
        ]
        for s in members
    ]
    header = ["task", "state", "outcome", "steps", "verdict", "other scores"]
    lines += [f"  {line}" for line in table(header, rows, right=(3,))]
    return lines


def _formats_cell(members: list[TrajectorySummary]) -> str:
    """The formats the run's trajectories were read as ("; AgentLab / BrowserGym episode")."""
    from webeval_core.reading import format_named

    names = sorted({s.layout for s in members if s.layout})
    titles = [found.title if (found := format_named(name)) is not None else name for name in names]
    return f"; {', '.join(titles)}" if titles else ""


def _verdict_cell(summary: TrajectorySummary) -> str:
    return str(summary.verdict.status) if summary.verdict else "-"


def _score_cell(summary: TrajectorySummary) -> str:
    """Scores of other judges; the WebArena-Verified verdict has its own column."""
    verdict_source = summary.verdict.source if summary.verdict else None
    others = sorted((n, s) for n, s in summary.scores.items() if n != verdict_source)
    return ", ".join(f"{name}={score}" for name, score in others) or "-"


def _report_lines(members: list[TrajectorySummary], root: Path) -> list[str]:
    """The run's verify_report.jsonl, when its verifier wrote one: its rows, and each row whose
    verification went wrong (a trajectory then has no verifier's verdict, and this is where it says why).
    """
    from webeval_core.reading import find_verify_reports, read_verify_report

    reports = find_verify_reports(members[0].path, root) if members else []
    lines = []
    for path in reports:
        report, problems = read_verify_report(path)
        errors = [row for row in report.rows if row.is_error]
        lines.append(
            f"  {path.relative_to(root)}: {plural(len(report.rows), 'row')},"
            f" {plural(len(errors), 'error')}"
            + (f", {plural(len(problems), 'unreadable line')}" if problems else "")
        )
        for row in errors:
            what = row.task_id or row.folder or f"line {row.line}"
            lines.append(f"    line {row.line} ({what}): {row.status}: {shorten(row.error or '', 160)}")
    return lines
