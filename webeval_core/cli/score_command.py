"""`webeval score PATH...`: score trajectory folders with the official evaluator, write their score
files and print a tally per site and task type.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import Progress, complain, print_json, say, shorten
from webeval_core.cli._roots import FAILED, checked_folder, no_trajectories, opened
from webeval_core.support import percent

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.reading import TaskCatalog
    from webeval_core.remote import OpenedRoot
    from webeval_core.scoring import FlipReport, ScoreOutcome, ScoreSummary, SeenVerdict


def add_parser(sub: Subparsers) -> None:
    """`score PATH... [--config FILE] [--tasks FILE] [--jobs N] [--force] [--json] [--write-remote]
    [--cluster tcp://HOST:PORT] [--against HASH] [--flips FILE]`.
    """
    score = sub.add_parser("score", help="score trajectories with the official WebArena-Verified evaluator")
    score.add_argument(
        "paths", nargs="+", metavar="PATH", help="a trajectory folder or any folder holding them"
    )
    score.add_argument(
        "--config", help="URL config (default: webarena-verified-config.json in a parent folder)"
    )
    score.add_argument("--tasks", help="dataset file of the same shape (default: the installed 812 tasks)")
    score.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cores)"
    )
    score.add_argument(
        "--force", action="store_true", help="re-evaluate even when a score file is up to date"
    )
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.add_argument(
        "--write-remote",
        action="store_true",
        help="for a remote root (az://, s3://, gs://): also write the score files to the store"
        " (default: only into its local mirror)",
    )
    score.add_argument(
        "--cluster",
        metavar="tcp://HOST:PORT",
        help="score on this Dask scheduler's workers (default: $WEBEVAL_DASK_SCHEDULER, else this machine)",
    )
    score.add_argument(
        "--against",
        metavar="HASH",
        help="report flips against this eval hash's score files (default: the verdicts in force before)",
    )
    score.add_argument("--flips", metavar="FILE", help="write every changed verdict, both sides, as JSON")
    score.set_defaults(handler=run, quick_exit=True)  # see entry.run


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Score trajectory folders with the official evaluator and write their score files."""
    from webeval_core.reading import load_catalog
    from webeval_core.runs import iter_trajectory_dirs
    from webeval_core.scoring import scheduler_address, score_trajectories, summarize_scores, verdicts_before
    from webeval_core.support import UnreadableError

    try:
        catalog = load_catalog(args.tasks)
    except UnreadableError as exc:
        complain("score", exc.path, exc.reason)
        return 1
    roots = _score_roots(args.paths)
    if roots is None:
        return FAILED
    found = [(root.path, list(iter_trajectory_dirs(root.path))) for root in roots]
    for path, folders in found:
        if not folders:
            return no_trajectories(path, "score")
    batches = _finished_only(found)
    before = verdicts_before([folder for _, found in batches for folder in found], args.against)
    mirrored = [root for root in roots if root.url]
    if scheduler_address(args.cluster):
        outcomes: list[ScoreOutcome] | None = _on_cluster(
            args, roots, [found for _, found in batches], catalog
        )
    else:
        outcomes = [
            outcome
            for path, folders in batches
            for outcome in score_trajectories(
                folders,
                config=args.config,
                config_root=path,  # a URL config is looked for up to the folder named, never above it
                catalog=catalog,
                jobs=args.jobs,
                force=args.force,
                on_progress=Progress("Scoring"),
                evaluations=False,  # the score files hold them; this command only tallies
            )
        ]
    if outcomes is None or (mirrored and not _write_back(mirrored, outcomes, args.write_remote)):
        return 1
    summary = summarize_scores(outcomes)
    _warn_about(outcomes)
    flips = _record_flips(args, batches, before, outcomes)
    if flips is None:
        return 1
    _print_results(args, outcomes, summary, flips, out)
    return 0


def _print_results(
    args: argparse.Namespace,
    outcomes: list[ScoreOutcome],
    summary: ScoreSummary,
    flips: FlipReport,
    out: TextIO,
) -> None:
    """The scoring as one JSON object (`--json`), else as text: the tally, the files, the flips."""
    if args.json:
        results = [
            {k: getattr(o, k) for k in ("task_id", "status", "score", "eval_hash", "reason")}
            | {"path": str(o.path)}
            for o in outcomes
        ]
        flipped = flips.model_dump(mode="json")
        print_json({"results": results, "summary": summary.model_dump(mode="json"), "flips": flipped}, out)
    else:
        say(out, *_score_report(outcomes, summary), flips.summary())


def _record_flips(
    args: argparse.Namespace,
    batches: list[tuple[Path, list[Path]]],
    before: dict[Path, SeenVerdict],
    outcomes: list[ScoreOutcome],
) -> FlipReport | None:
    """The scoring's flips: recorded per root for the app, written to `--flips`, returned whole;
    None when `--flips` cannot be written (said why).
    """
    from webeval_core.runs import ScoringLogError, record_flips
    from webeval_core.scoring import flip_report

    for root, found in batches:
        inside = set(found)
        try:
            record_flips(root, before, [o for o in outcomes if o.path in inside], args.against)
        except (
            ScoringLogError
        ) as exc:  # a cache that cannot be written costs the app's view, not the verdicts
            say(sys.stderr, f"webeval score: {exc}")
    report = flip_report(before, outcomes, args.against)
    if args.flips:
        try:
            Path(args.flips).write_text(report.model_dump_json(indent=1), encoding="utf-8")
        except OSError as exc:
            complain("score", args.flips, f"cannot be written: {exc.strerror or exc}")
            return None
        say(sys.stderr, f"webeval score: wrote {len(report.flips)} flip(s) to {args.flips}")
    return report


def _finished_only(batches: list[tuple[Path, list[Path]]]) -> list[tuple[Path, list[Path]]]:
    """The folders whose task is over (`reading.task_state`): a running or stalled task of a live
    run is skipped, said on stderr, and scored by a later run of the command once it finishes.
    """
    from webeval_core.presentation import plural
    from webeval_core.reading import task_progress

    kept: list[tuple[Path, list[Path]]] = []
    skipped = 0
    for root, folders in batches:
        over = [folder for folder in folders if not task_progress(folder).state.unfinished]
        skipped += len(folders) - len(over)
        kept.append((root, over))
    if skipped:
        said = plural(skipped, "unfinished trajectory", "unfinished trajectories")
        say(sys.stderr, f"webeval score: skipped {said} (running or stalled): score again once they finish")
    return kept


def _on_cluster(
    args: argparse.Namespace, roots: list[OpenedRoot], folders: list[list[Path]], catalog: TaskCatalog
) -> list[ScoreOutcome] | None:
    """`score --cluster`: the folders scored on a Dask cluster, then each root's index refreshed once."""
    from webeval_core.runs import IndexStore, refresh_index
    from webeval_core.scoring import ClusterError, cluster_root, scheduler_address, score_on_cluster

    try:
        outcomes = score_on_cluster(
            scheduler_address(args.cluster) or "",
            [(cluster_root(root.path, root.url), found) for root, found in zip(roots, folders, strict=True)],
            catalog=catalog,
            config=args.config,
            force=args.force,
            on_progress=Progress("Scoring"),
            evaluations=False,  # the score files hold them; this command only tallies
        )
    except ClusterError as exc:
        say(sys.stderr, f"webeval score: {exc}")
        return None
    for root in roots:
        refresh_index(IndexStore(root.path))
    return outcomes


def _score_roots(given: Sequence[str]) -> list[OpenedRoot] | None:
    """The folders `score` was given, a URL's as its mirror; None when one is not a folder (said why)."""
    roots: list[OpenedRoot] = []
    for text in given:
        root = opened(text, "score")
        if root is None or checked_folder(root.path, "score") is None:
            return None
        roots.append(root)
    return roots


def _write_back(mirrored: list[OpenedRoot], outcomes: Sequence[ScoreOutcome], write_remote: bool) -> bool:
    """Score files of remote roots: uploaded with --write-remote, else said to stay in the mirror."""
    from webeval_core.remote import RemoteReadError, upload

    for root in mirrored:
        files = [o.score_file for o in outcomes if o.score_file and o.score_file.is_relative_to(root.path)]
        if not write_remote:
            say(
                sys.stderr,
                f"Score files of {root.url} are in its local mirror {root.path} (the app reads them"
                " there); pass --write-remote to write them to the store.",
            )
            continue
        try:
            written = upload(root, files)
        except RemoteReadError as exc:
            say(sys.stderr, f"webeval score: {exc}")
            return False
        say(sys.stderr, f"Wrote {len(written)} score files to {root.url}")
    return True


def _warn_about(outcomes: Sequence[ScoreOutcome]) -> None:
    """What the user should know about how the verdicts were made (a URL the evaluator guessed, a
    trace it could not read), on stderr whatever the output format: each note once, with the
    trajectories it concerns.
    """
    from webeval_core.presentation import plural

    concerned: dict[str, list[str]] = {}
    for outcome in outcomes:
        for note in outcome.notes:
            concerned.setdefault(note, []).append(outcome.task_id)
    for note, tasks in concerned.items():
        named = ", ".join(tasks[:5]) + (f" and {len(tasks) - 5} more" if len(tasks) > 5 else "")
        complain("score", f"{plural(len(tasks), 'trajectory', 'trajectories')} ({named})", note)


def _score_report(outcomes: Sequence[ScoreOutcome], summary: ScoreSummary) -> list[str]:
    """`score`'s text: the engine, a tally per site and task type, the files written, the errors."""
    from webeval_core.presentation import plural

    hashes = sorted({o.eval_hash for o in outcomes if o.eval_hash})
    found = plural(len(outcomes), "trajectory", "trajectories")
    if hashes:
        header = f"Scored {found} with {', '.join(hashes)}"
    elif outcomes and all(o.status == "excluded" for o in outcomes):
        header = f"Nothing scored: {found} found, none with an official evaluator to run"
    else:
        header = f"Scored {found}; the official evaluator ran on none of them"
    lines = [header, ""]
    lines.append(
        # "not run": aborted trajectories and tasks the official evaluator has no task for; not
        # "excluded", which is `report`'s word for a reviewer's exclusion from the published rate.
        f"{'':<28} {'scored':>7} {'success':>8} {'failure':>8} {'error':>6} {'not run':>9} {'rate':>7}"
    )
    groups = [("overall", summary.overall)]
    groups += [(f"site {name}", tally) for name, tally in summary.per_site.items()]
    groups += [(f"type {name}", tally) for name, tally in summary.per_task_type.items()]
    for label, tally in groups:
        rate = percent(tally.success_rate)
        lines.append(
            f"{shorten(label, 28):<28} {tally.scored:>7} {tally.success:>8} {tally.failure:>8}"
            f" {tally.error:>6} {tally.excluded:>9} {rate:>7}"
        )
    written = sum(1 for o in outcomes if o.score_file and not o.reused)
    reused = sum(1 for o in outcomes if o.reused)
    lines += ["", f"Score files: {written} written, {reused} already up to date."]
    errors = [o for o in outcomes if o.status == "error"]
    if errors:
        lines += ["", f"Errors ({len(errors)}):", *(f"  {o.path}: {o.reason}" for o in errors)]
    return lines
