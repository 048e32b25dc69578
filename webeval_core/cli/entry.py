"""The `webeval` entry point: a parser built from each command module's `add_parser`, and `main`."""

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from webeval_core.cli import (
    annotations_command,
    app_command,
    bundle_command,
    check_command,
    export_command,
    index_command,
    judge_command,
    ls_command,
    query_command,
    report_command,
    score_command,
    show_command,
    verdicts_command,
    watch_command,
)
from webeval_core.version import __version__

# Each command module imports what it uses when it runs: `webeval index` on an unchanged root is
# mostly interpreter start and imports, so it must not pay for pydantic models, the readers,
# the remote layer or the server it does not use.
COMMANDS = (
    show_command,
    ls_command,
    watch_command,
    score_command,
    judge_command,
    index_command,
    export_command,
    bundle_command,
    app_command,
    check_command,
    annotations_command,
    verdicts_command,
    report_command,
    query_command,
)
"""The command modules, in the order `webeval --help` lists them."""

Handler = Callable[[argparse.Namespace, TextIO], int]


def build_parser() -> argparse.ArgumentParser:
    """The `webeval` argument parser: one subcommand per command module, plus `--version`."""
    parser = argparse.ArgumentParser(prog="webeval", description="Inspect and score web-agent trajectories.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run `webeval` with `argv` (default: the command line), writing results to `out`; the exit code."""
    return _handle(build_parser().parse_args(argv), out or sys.stdout)


def run() -> NoReturn:
    """The `webeval` console script and `python -m webeval_core.cli`: `main`, then the process ends.

    A command that sets `quick_exit` (score, index) holds nothing open once it returns, and ends
    without the interpreter's teardown, which frees every object it loaded one at a time (the
    evaluator's modules, a run's rows): 0.4 s of a 6 s `webeval score` of 812 tasks, for memory
    the system takes back at once. Logs and output are flushed first; the exit code is main's.
    """
    args = build_parser().parse_args()
    code = _handle(args, sys.stdout)
    if getattr(args, "quick_exit", False):
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream has nothing to flush
                stream.flush()
        os._exit(code)
    sys.exit(code)


def _handle(args: argparse.Namespace, out: TextIO) -> int:
    from webeval_core.cli._output import say
    from webeval_core.support import unsaid_notices

    handler: Handler = args.handler
    try:
        return handler(args, out)
    except BrokenPipeError:  # `webeval ls | head` must not print a traceback
        return 0
    finally:
        for notice in unsaid_notices():  # a cache folder that could not be written: said, not fatal
            say(sys.stderr, f"webeval {args.command}: {notice}")
