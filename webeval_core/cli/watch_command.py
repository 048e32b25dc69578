"""`webeval watch ROOT`: a run's progress while it runs, in a terminal (runs/run_watch.py, worded by
presentation/live_words.py, the lines the app's live view shows).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import say
from webeval_core.cli._roots import FAILED, checked_folder, no_trajectories

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.runs import Headline, IndexStore, LiveProgress, RunWatch

_CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen: the live table redrawn in place
_RATE_EVERY_S = 10.0  # the index (the success rate) is brought up to date at most this often


def add_parser(sub: Subparsers) -> None:
    """`watch ROOT [--run KEY] [--expected N] [--window S] [--every S] [--once]`."""
    watch = sub.add_parser(
        "watch",
        help="a run's progress while it runs: finished, crashed, running, stalled, rate, pace",
        description="Follow the runs under ROOT while they run: tasks over of expected, running and"
        " stalled, the success rate so far among finished tasks, tasks an hour and the finish it points"
        " to, and each stalled task with its silence and last step. A live table on a terminal, plain"
        " lines (printed when something changes) otherwise. Ends when every run watched is over, or on"
        " Ctrl-C.",
    )
    watch.add_argument("root", help="a local folder of runs")
    watch.add_argument("--run", action="append", default=[], metavar="KEY", help="watch this run only")
    watch.add_argument("--expected", type=int, help="tasks the run will hold (default: the folders seen)")
    watch.add_argument(
        "--window",
        type=float,
        default=600.0,
        metavar="S",
        help="seconds a task may stay silent and still be running (default 600)",
    )
    watch.add_argument(
        "--every", type=float, default=2.0, metavar="S", help="seconds between looks (default 2)"
    )
    watch.add_argument("--once", action="store_true", help="print where the runs stand once, then end")
    watch.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Follow ROOT's runs until they are over (or Ctrl-C)."""
    from webeval_core.runs import IndexStore, RunWatch, discover_runs

    if "://" in args.root:
        say(sys.stderr, f"webeval watch: {args.root}: not a local folder (watch follows local folders)")
        return FAILED
    root = checked_folder(Path(args.root), "watch")
    if root is None:
        return FAILED
    runs = [r for r in discover_runs(root) if not args.run or r.key in args.run]
    if not runs and not args.run:
        return no_trajectories(root, "watch")
    if not runs:
        say(sys.stderr, f"webeval watch: {root}: no run found named {', '.join(args.run)}")
        return FAILED
    watches = {
        r.key: RunWatch(r.path, expected=args.expected, window_s=args.window, events=not args.once)
        for r in runs
    }
    try:
        _follow(watches, IndexStore(root), out, args)
    except KeyboardInterrupt:
        say(out, "webeval watch: stopped")
    finally:
        for watch in watches.values():
            watch.close()
    return 0


def _follow(watches: dict[str, RunWatch], store: IndexStore, out: TextIO, args: argparse.Namespace) -> None:
    """Look at every run each `args.every` seconds and print what changed, until all are over."""
    from webeval_core.reading import installed_catalog
    from webeval_core.runs import OUTSIDE_REVIEW, IndexQueries, default_judge, refresh_index

    live = out.isatty() and not args.once
    catalog = installed_catalog()
    said: tuple[str, ...] = ()
    rated_at: float | None = None
    queries: IndexQueries | None = None
    judge: str | None = None
    while True:
        if rated_at is None or time.monotonic() - rated_at >= _RATE_EVERY_S:
            refresh_index(store)
            # A new index generation: new queries.
            queries = IndexQueries(store, catalog, viewer=OUTSIDE_REVIEW)
            judge = default_judge(store.judges())  # the root's, as every view takes it
            rated_at = time.monotonic()
        looks = {key: watch.look() for key, watch in watches.items()}
        lines = _lines(looks, queries.headlines(list(looks), judge) if queries else {}, judge)
        if live:
            out.write(_CLEAR)
            say(out, f"webeval watch · {datetime.now():%H:%M:%S} · Ctrl-C ends", *lines)
        elif lines != said:
            say(out, *lines)
        out.flush()
        said = lines
        if args.once or all(look.done for look in looks.values()):
            return
        time.sleep(args.every)


def _lines(looks: dict[str, LiveProgress], heads: dict[str, Headline], judge: str | None) -> tuple[str, ...]:
    """Each run's key, then its lines, indented (the rate's judge named)."""
    from webeval_core.presentation import live_lines

    lines: list[str] = []
    for key, look in looks.items():
        lines.append(f"{key}{' (over)' if look.done else ''}")
        lines.extend(f"  {line}" for line in live_lines(look, heads.get(key), judge))
    return tuple(lines)
