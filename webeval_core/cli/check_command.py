"""`webeval check FOLDER`: what the official packager (`create-submission-pkg`) would leave out.

Exit codes: 0 nothing would be left out, 1 some task would be, 2 nothing could be checked (the
folder is unreadable, or holds no WebArena-Verified task folder).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import complain, print_json, say

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers

_NOTHING_TO_CHECK = (
    "nothing to check: no folder in it is named by a WebArena-Verified task id (<task_id>/ as the"
    " official CLI writes them), and it is no submission package"
)


def add_parser(sub: Subparsers) -> None:
    """`check FOLDER [--tasks FILE] [--json]`."""
    check = sub.add_parser(
        "check", help="what `webarena-verified create-submission-pkg` would reject, before submitting"
    )
    check.add_argument("folder", help="a run's output folder (<task_id>/ folders), or a package")
    check.add_argument("--tasks", help="dataset file of the same shape (default: the installed 812 tasks)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """What `create-submission-pkg` would leave out; exit 1 when anything, 2 when nothing was checked."""
    from webeval_core.scoring import check_submission
    from webeval_core.support import UnreadableError

    try:
        report = check_submission(Path(args.folder), args.tasks)
    except UnreadableError as exc:
        complain("check", exc.path, exc.reason)
        return 2
    # Nothing packaged and nothing flagged: not a clean run but no run at all (a Fara run, a typo).
    nothing = not report.packaged and not report.issues
    if args.json:
        print_json({**report.model_dump(mode="json"), "rejected": list(report.rejected)}, out)
    if nothing:
        complain("check", report.path, _NOTHING_TO_CHECK)
        return 2
    if args.json:
        return 1 if report.rejected else 0
    say(out, f"{report.path}: {len(report.packaged)} task(s) packaged of {report.expected} in the dataset")
    for issue in report.issues:
        shown = ", ".join(map(str, issue.task_ids[:20])) + (" ..." if len(issue.task_ids) > 20 else "")
        mark = "REJECTED" if issue.blocks_packaging else "warning"
        say(out, f"  {mark}: {issue.label} ({len(issue.task_ids)}): {shown}")
    if report.missing_from_output:
        say(out, f"  not in the output: {len(report.missing_from_output)} dataset task(s) have no folder")
    say(
        out,
        f"{len(report.rejected)} task(s) would be left out of the package"
        if report.rejected
        else "Nothing would be left out of the package.",
    )
    return 1 if report.rejected else 0
