"""`webeval index ROOT`: refresh the summary index of ROOT (only what changed) and report its counts."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import Progress, say
from webeval_core.cli._roots import FAILED, checked_folder, local_root, no_trajectories
from webeval_core.presentation import plural

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """`index ROOT [--no-cache]`."""
    index = sub.add_parser("index", help="(re)build the cached summary index of a folder")
    index.add_argument("root")
    index.add_argument("--no-cache", action="store_true", help="ignore the existing cache")
    index.set_defaults(handler=run, quick_exit=True)  # see entry.run


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Refresh ROOT's index file and say what it holds; 1 when ROOT is no folder or holds no trajectory."""
    from webeval_core.runs import IndexStore, refresh_index

    given = local_root(args.root, "index")  # a store URL: its local mirror, brought up to date
    root = None if given is None else checked_folder(given, "index")
    if root is None:
        return FAILED
    with contextlib.ExitStack() as stack:
        cache_dir = None
        if args.no_cache:
            import tempfile

            cache_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="webeval-index-")))
        store = IndexStore(root, cache_dir)
        report = refresh_index(store, on_progress=Progress("Reading"))
        counts = store.counts()
    if not counts.trajectories:
        return no_trajectories(root, "index")
    for notice in (report.notice, report.misnamed_notice):
        if notice:
            say(out, notice)
    say(
        out,
        f"Indexed {plural(counts.trajectories, 'trajectory', 'trajectories')}"
        f" in {plural(counts.runs, 'run')} under {root}"
        f" ({counts.unreadable} unreadable; {report.read} read again, {report.removed} removed).",
    )
    return 0
