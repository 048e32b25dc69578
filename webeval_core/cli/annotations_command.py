"""`webeval annotations list | export | import | agreement | rename-reviewer ROOT`: arguments parsed.

What each action does is in review/annotation_commands.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._store import StoreArgumentError, add_store_arguments, chosen_store

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """`annotations ACTION ROOT [--annotations PATH_OR_URL] ...`, an action per review command."""
    notes = sub.add_parser(
        "annotations", help="human reviews: list, export, import, agreement, rename-reviewer"
    )
    actions = notes.add_subparsers(dest="action", required=True)
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument("root", help="the folder whose trajectories the annotations are about")
    add_store_arguments(store, "the review store")
    actions.add_parser("list", parents=[store], help="every annotation, history included")
    export = actions.add_parser("export", parents=[store], help="one row per (trajectory, reviewer, stage)")
    export.add_argument(
        "--format",
        choices=("csv", "jsonl", "cuaverifierbench"),
        default="csv",
        help="cuaverifierbench: trajectories.csv and annotations.csv into the folder -o names",
    )
    export.add_argument(
        "-o", "--output", help="file to write (default: stdout); a folder for cuaverifierbench"
    )
    export.add_argument(
        "--corrections",
        metavar="FILE",
        help="also write the corrected tasks (dataset JSON) and every proposal (FILE's .proposals.jsonl)",
    )
    export.add_argument(
        "--audit",
        metavar="FILE",
        help="also write the store's history as JSON lines: every annotation, queue and correction,"
        " when, and the identity sign-in verified for whoever wrote it",
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
    rename = actions.add_parser(
        "rename-reviewer",
        parents=[store],
        help="move a name typed before sign-in to the identity that signs in (operator; audited)",
    )
    rename.add_argument("old", help="the reviewer name the annotations were saved under")
    rename.add_argument("new", help="the name they move to (e.g. the email the reviewer signs in with)")
    notes.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run one review command on ROOT's annotations."""
    from webeval_core.review import command_for, run_command

    fmt = "json" if getattr(args, "json", False) else getattr(args, "format", "csv")
    if fmt == "cuaverifierbench" and not args.output:
        # Two tables cannot share stdout; refusing beats writing them into the working folder.
        sys.stderr.write("webeval annotations export: --format cuaverifierbench needs -o DIR\n")
        return 2
    command = command_for(
        args.action,
        fmt,
        getattr(args, "output", None),
        getattr(args, "file", ""),
        getattr(args, "corrections", None),
        getattr(args, "adjudicator", None),
        audit=getattr(args, "audit", None),
        names=(getattr(args, "old", ""), getattr(args, "new", "")),
    )
    try:
        location = chosen_store(args)
    except StoreArgumentError as exc:
        sys.stderr.write(f"webeval annotations: {exc}\n")
        return 2
    return run_command(command, Path(args.root).resolve(), location, out, sys.stderr)
