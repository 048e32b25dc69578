"""`webeval judge ROOT --judge NAME --endpoint PROFILE`: judge trajectories again with an LLM
judge behind any OpenAI-compatible endpoint, write its score files beside the others, and print
what it cost and which verdicts it changed (the flip summary of `webeval score`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import Progress, complain, print_json, say
from webeval_core.cli._roots import checked_folder, no_trajectories

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.llm_judging import JudgeOutcome, JudgeSession

INTERRUPTED = 130
"""The exit code of a run stopped by Ctrl-C (the shell's, for SIGINT)."""


def add_parser(sub: Subparsers) -> None:
    """`judge ROOT --judge NAME --endpoint PROFILE [--profiles FILE] [--run KEY] [--tasks ID...]
    [--dry-run] [--concurrency N] [--no-cache] [--again] [--against JUDGE] [--json]`.
    """
    from webeval_core.llm_judging import METHOD_WORDS  # names and words only: no method is imported

    judge = sub.add_parser(
        "judge",
        help="judge trajectories again with an LLM judge (any OpenAI-compatible endpoint)",
        description="Judges: " + "; ".join(f"{name}: {words}" for name, words in METHOD_WORDS.items()),
    )
    judge.add_argument("root", metavar="ROOT", help="a trajectory folder or any folder holding them")
    judge.add_argument("--judge", required=True, choices=sorted(METHOD_WORDS), help="the judging method")
    judge.add_argument("--endpoint", required=True, metavar="PROFILE", help="the endpoint profile's name")
    judge.add_argument(
        "--profiles",
        metavar="FILE",
        help="the profiles file (default: $WEBEVAL_JUDGE_PROFILES, else ~/.config/webeval/judges.toml)",
    )
    judge.add_argument(
        "--run", metavar="KEY", help="only this run's trajectories (its key, as `webeval ls` shows)"
    )
    judge.add_argument("--tasks", nargs="+", metavar="ID", help="only these task ids (folder names)")
    judge.add_argument(
        "--dry-run", action="store_true", help="say the requests, images and tokens it would send; send none"
    )
    judge.add_argument(
        "--concurrency", type=int, metavar="N", help="requests in flight (default: the profile's)"
    )
    judge.add_argument("--no-cache", action="store_true", help="send every request, even one answered before")
    judge.add_argument("--again", action="store_true", help="judge trajectories this judge judged before too")
    judge.add_argument(
        "--against",
        metavar="JUDGE",
        help="report flips against this judge's score files (default: the verdicts in force before;"
        " where there are none, the judge the run's figures use)",
    )
    judge.add_argument("--json", action="store_true", help="print one JSON object")
    judge.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Judge the chosen trajectories, or only estimate them with --dry-run."""
    from webeval_core.llm_judging import estimate_run

    folders = _chosen(args)
    session = _session(args)
    if folders is None or session is None:
        return 1
    if args.dry_run:
        estimate = estimate_run(session, folders, again=args.again)
        if args.json:
            print_json({"judge_id": session.judge_id, "estimate": estimate.model_dump(mode="json")}, out)
        else:
            say(out, f"{session.judge_id}: {estimate.summary()} (dry run: nothing sent)")
        return 0
    return _judge(args, session, folders, out)


def _chosen(args: argparse.Namespace) -> list[Path] | None:
    """The trajectory folders the arguments name; None (said why) when there are none to be had."""
    from webeval_core.runs import discover_runs, iter_trajectory_dirs

    root = checked_folder(Path(args.root), "judge")
    if root is None:
        return None
    if args.run:
        runs = {run.key: run for run in discover_runs(root)}
        if args.run not in runs:
            complain("judge", root, f"has no run {args.run!r} (it has: {', '.join(sorted(runs)) or 'none'})")
            return None
        folders = list(runs[args.run].trajectory_dirs)
    else:
        folders = list(iter_trajectory_dirs(root))
        if not folders:
            no_trajectories(root, "judge")
            return None
    if args.tasks:
        wanted = set(args.tasks)
        folders = [folder for folder in folders if folder.name in wanted]
    return folders


def _session(args: argparse.Namespace) -> JudgeSession | None:
    from webeval_core.llm_judging import ChatTransport, JudgeSession, ReplyCache, load_profile, make_judge
    from webeval_core.support import UnreadableError

    try:
        profile = load_profile(args.endpoint, args.profiles)
        if not args.dry_run:
            profile.api_key()  # said now, once, rather than as every trajectory's error
    except UnreadableError as exc:
        complain("judge", exc.path, exc.reason)
        return None
    if args.concurrency is not None:
        if args.concurrency < 1:
            complain("judge", "--concurrency", "must be at least 1")
            return None
        profile = profile.model_copy(update={"concurrency": args.concurrency})
    cache = None if args.no_cache else ReplyCache()
    return JudgeSession(make_judge(args.judge), profile, ChatTransport(profile, cache=cache))


def _judge(args: argparse.Namespace, session: JudgeSession, folders: list[Path], out: TextIO) -> int:
    from webeval_core.llm_judging import judged_flips, run_totals

    started = time.monotonic()
    report = _Report(len(folders))
    try:
        outcomes = session.judge_folders(folders, again=args.again or args.no_cache, on_outcome=report)
    except KeyboardInterrupt:
        say(
            sys.stderr,
            f"webeval judge: interrupted after {report.done} of {len(folders)}; the verdicts decided are"
            " written; run the same command again to go on",
        )
        return INTERRUPTED
    totals = run_totals(outcomes, session.transport.counts(), session.profile, time.monotonic() - started)
    flips = judged_flips(outcomes, args.against, root=Path(args.root))
    errors = [o for o in outcomes if o.reason is not None]
    if args.json:
        print_json(
            {
                "judge_id": session.judge_id,
                "results": [_row(o) for o in outcomes],
                "totals": totals.model_dump(mode="json"),
                "flips": flips.model_dump(mode="json"),
            },
            out,
        )
    else:
        lines = [f"{o.task_id}: error: {o.reason}" for o in errors]
        say(out, *lines, f"{session.judge_id}: {totals.summary()}", flips.summary())
    return 1 if errors else 0


def _row(outcome: JudgeOutcome) -> dict[str, object]:
    return {
        "task_id": outcome.task_id,
        "path": str(outcome.folder),
        "status": outcome.status.value,
        "score": outcome.score,
        "reason": outcome.reason,
        "score_file": str(outcome.written) if outcome.written else None,
        **outcome.cost.model_dump(),
    }


class _Report:
    """Each trajectory as it ends: the progress bar on a terminal, else a plain line on stderr."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.bar = Progress("Judging")

    def __call__(self, outcome: JudgeOutcome) -> None:
        self.done += 1
        if self.bar.enabled:
            self.bar(self.done, self.total)
            return
        said = outcome.status.value + (f" ({outcome.reason})" if outcome.reason else "")
        say(sys.stderr, f"judged {self.done}/{self.total}: {outcome.task_id}: {said}")
