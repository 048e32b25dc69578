"""`webeval index ROOT`: refresh the summary index of ROOT (only what changed) and report its counts."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import Progress, complain, say
from webeval_core.cli._roots import local_root
from webeval_core.presentation.wording import plural

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """`index ROOT [--no-cache]`."""
    index = sub.add_parser("index", help="(re)build the cached summary index of a folder")
    index.add_argument("root")
    index.add_argument("--no-cache", action="store_true", help="ignore the existing cache")
    index.set_defaults(handler=run, quick_exit=True)  # see entry.run


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Refresh ROOT's index file and say what it holds; 1 when ROOT is no folder."""
    from webeval_core.runs.index_db import IndexStore
    from webeval_core.runs.refresh import refresh_index

    root = local_root(args.root, "index")  # a store URL: its local mirror, brought up to date
    if root is None:
        return 1
    if not root.is_dir():
        complain("index", root, "not a folder")
        return 1
    with contextlib.ExitStack() as stack:
        cache_dir = None
        if args.no_cache:
            import tempfile

            cache_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="webeval-index-")))
        store = IndexStore(root, cache_dir)
        report = refresh_index(store, on_progress=Progress("Reading"))
        counts = store.counts()
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
