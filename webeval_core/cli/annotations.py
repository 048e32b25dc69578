"""`webeval annotations list | export | import | agreement ROOT` (what each does: review/commands.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """`annotations ACTION ROOT [--annotations PATH_OR_URL] ...`, an action per review command."""
    notes = sub.add_parser("annotations", help="human reviews: list, export, import, agreement")
    actions = notes.add_subparsers(dest="action", required=True)
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument("root", help="the folder whose trajectories the annotations are about")
    store.add_argument(
        "--annotations",
        metavar="PATH_OR_URL",
        help="SQLite file or postgresql:// URL (default: $WEBEVAL_ANNOTATIONS, else the user's data folder)",
    )
    actions.add_parser("list", parents=[store], help="every annotation, history included")
    export = actions.add_parser("export", parents=[store], help="one row per (trajectory, reviewer, stage)")
    export.add_argument("--format", choices=("csv", "jsonl"), default="csv")
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    export.add_argument(
        "--corrections",
        metavar="FILE",
        help="also write the corrected tasks (dataset JSON) and every proposal (FILE's .proposals.jsonl)",
    )
    imported = actions.add_parser(
        "import", parents=[store], help="rows of a CSV / JSON-lines file, all or none"
    )
    imported.add_argument("file", help="a .csv or .jsonl file with the export's columns")
    agreement = actions.add_parser("agreement", parents=[store], help="reviewer and judge agreement")
    agreement.add_argument("--json", action="store_true", help="print one JSON object")
    agreement.add_argument(
        "--adjudicator", metavar="REVIEWER", help="whose outcome settles a tie between reviewers"
    )
    notes.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run one review command on ROOT's annotations."""
    from webeval_core.review import commands

    fmt = "json" if getattr(args, "json", False) else getattr(args, "format", "csv")
    command = commands.command_for(
        args.action,
        fmt,
        getattr(args, "output", None),
        getattr(args, "file", ""),
        getattr(args, "corrections", None),
        getattr(args, "adjudicator", None),
    )
    return commands.run_command(command, Path(args.root).resolve(), args.annotations, out, sys.stderr)
