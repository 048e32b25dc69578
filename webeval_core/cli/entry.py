"""The `webeval` entry point: a parser built from each command module's `add_parser`, and `main`."""

# No `from __future__ import annotations` here: it would shadow the `annotations` command module.
import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from webeval_core.cli import annotations, app, check, export, index, ls, score, show
from webeval_core.version import __version__

# Each command module imports what it uses when it runs: `webeval index` on an unchanged root is
# mostly interpreter start and imports, so it must not pay for pydantic models, the readers,
# the remote layer or the server it does not use.
COMMANDS = (show, ls, score, index, export, app, check, annotations)
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
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, out or sys.stdout)
    except BrokenPipeError:  # `webeval ls | head` must not print a traceback
        return 0
