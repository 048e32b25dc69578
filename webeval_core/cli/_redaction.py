"""What every exporting command removes, and how it says so: `--redact PROFILE`, `--no-redact`, and
the report written beside the export (webeval_core/presentation/redaction.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.cli._output import complain, say

if TYPE_CHECKING:
    from webeval_core.presentation import Redactor


def add_redaction_arguments(parser: argparse.ArgumentParser) -> None:
    """`--redact PROFILE` and `--no-redact`."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--redact",
        metavar="PROFILE",
        help="a TOML file adding patterns, names, keys or headers to the default redaction",
    )
    group.add_argument(
        "--no-redact",
        action="store_true",
        help="write secrets as found (cookies, tokens, passwords, e-mail addresses); the output says so",
    )


def redactor_for(args: argparse.Namespace, command: str) -> Redactor | None:
    """The export's redactor (none active with --no-redact); None when the profile is unusable (said why)."""
    from webeval_core.presentation import Redactor, load_profile
    from webeval_core.support import UnreadableError

    if getattr(args, "no_redact", False):
        say(sys.stderr, f"webeval {command}: --no-redact: nothing is removed from this export")
        return Redactor(None)
    try:
        return Redactor(load_profile(getattr(args, "redact", None)))
    except UnreadableError as exc:
        complain(command, exc.path, exc.reason)
        return None


def write_report(redactor: Redactor, beside: Path) -> str:
    """The redaction report, in a folder written (its report file) or beside a file (FILE.redaction.json);
    its one-line summary.
    """
    from webeval_core.presentation import REPORT_NAME

    report = redactor.report()
    target = beside / REPORT_NAME if beside.is_dir() else beside.with_name(beside.name + ".redaction.json")
    report.write(target)
    return f"{report.summary()} ({target.name})"
