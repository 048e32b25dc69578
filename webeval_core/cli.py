"""`webeval`: the command-line face of webeval_core (show, ls, score, index, export, app, check,
annotations).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from webeval_core.safe_output import spreadsheet_row, strict_json, terminal_text
from webeval_core.version import __version__

# Each subcommand imports what it uses when it runs: `webeval index` on an unchanged root is
# mostly interpreter start and imports, so it must not pay for pydantic models, the readers,
# the remote layer or the server it does not use.

if TYPE_CHECKING:
    from webeval_core.reading.tasks import TaskCatalog
    from webeval_core.reading.trajectory import Trajectory
    from webeval_core.remote import OpenedRoot
    from webeval_core.runs.discovery import Run
    from webeval_core.runs.index import RootIndex, TrajectorySummary
    from webeval_core.scoring import ScoreOutcome, ScoreSummary


def _print_json(payload: object, out: TextIO) -> None:
    out.write(strict_json(payload, indent=2) + "\n")


def _say(out: TextIO, *lines: str) -> None:
    """Write lines for a person's terminal: whatever came from input has its controls escaped."""
    out.writelines(terminal_text(line) + "\n" for line in lines)


def _complain(command: str, subject: object, problem: object) -> None:
    _say(sys.stderr, f"webeval {command}: {subject}: {problem}")


def _shorten(text: str | None, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


class _Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, stream: TextIO = sys.stderr) -> None:
        self.label = label
        self.stream = stream
        self.enabled = stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total == 0:
            return
        width = 30
        filled = int(width * done / total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


# --- roots: a folder, or a remote URL read through its local mirror --------------------------

_PACKAGE_SUFFIXES = (".tar.gz", ".tgz")  # `packages.is_package_file`'s, checked before importing it


def _opened(given: str, command: str) -> OpenedRoot | None:
    """`given` ready to read: a local path as is, a URL's mirror brought up to date (None: said why)."""
    from webeval_core.remote import RemoteUnavailableError, is_remote, mask_secrets, open_root

    if not is_remote(given):
        return _local_package(Path(given), command)
    try:
        opened = open_root(given)
    except (RemoteUnavailableError, ValueError, ImportError) as exc:
        _say(sys.stderr, f"webeval {command}: {mask_secrets(str(exc))}")
        return None
    for problem in opened.problems:  # the cached part is still read: say what is stale
        _say(sys.stderr, f"webeval {command}: {problem}")
    return opened


def _local_package(path: Path, command: str) -> OpenedRoot | None:
    """A folder as is; a submission package tar unpacked into the cache (never read in place)."""
    from webeval_core.diagnostics import UnreadableError
    from webeval_core.remote import OpenedRoot
    from webeval_core.runs.packages import is_package_file, unpacked_package

    if not is_package_file(path):
        return OpenedRoot(path=path)
    try:
        return OpenedRoot(path=unpacked_package(path))
    except UnreadableError as exc:
        _complain(command, exc.path, exc.reason)
        return None


def _local_root(given: str, command: str) -> Path | None:
    if "://" not in given and not given.endswith(_PACKAGE_SUFFIXES):
        return Path(given)  # a plain folder, the usual case: no remote layer, no package reader
    opened = _opened(given, command)
    return None if opened is None else opened.path


# --- show -----------------------------------------------------------------------------------


def _format_trajectory(t: Trajectory) -> list[str]:
    lines = [
        f"Task {t.task_id}  ({t.layout} layout, {t.log_generation or 'no'} log)",
        f"Folder:   {t.path}",
        f"Outcome:  {t.outcome}",
        f"Steps:    {len(t.steps)}    Screenshots: {len(t.screenshots)}"
        + (f"    Duration: {t.duration_s:.1f} s" if t.duration_s is not None else ""),
    ]
    usage = t.token_usage
    if usage.prompt_tokens or usage.completion_tokens:
        lines.append(f"Tokens:   {usage.prompt_tokens} prompt, {usage.completion_tokens} completion")
    lines.append(f"Answer:   {_shorten(t.final_answer_text, 300) or '(none)'}")
    for name, score_file in sorted(t.scores.items()):
        lines.append(f"Score:    {name} = {score_file.score}")
    if t.steps:
        lines.append("")
        lines.append(f"{'#':>4}  {'action':<18} {'arguments':<48} url")
        for step in t.steps:
            args = json.dumps(step.arguments, ensure_ascii=False)
            lines.append(
                f"{step.index:>4}  {step.action:<18} {_shorten(args, 48):<48} {_shorten(step.url, 60)}"
            )
    errors = t.error_lines
    if errors:
        lines.append("")
        lines.append(f"core.log errors ({len(errors)}):")
        lines.extend(f"  line {e.line}: {_shorten(e.message, 120)}" for e in errors)
    if t.warnings:
        lines.append("")
        lines.append(f"Warnings ({len(t.warnings)}):")
        lines.extend(f"  {w}" for w in t.warnings)
    return lines


def _size(n_bytes: int) -> str:
    return f"{n_bytes / 1e6:.1f} MB" if n_bytes >= 1e6 else f"{n_bytes / 1e3:.0f} KB"


def _html_target_problem(target: Path, folder: Path, force: bool) -> str | None:
    """Why the page cannot be written to `target`, checked before the (seconds-long) rendering."""
    if target.resolve().is_relative_to(folder.resolve()):
        return f"is inside the trajectory folder {folder}, which this tool only reads; write it elsewhere"
    if target.is_dir():
        return "is a folder; name the .html file to write"
    if not target.parent.is_dir():
        return f"cannot be written: the folder {target.parent} does not exist"
    if target.exists() and not force:
        return "already exists; pass --force to overwrite it"
    return None


def _refuse_html(target: Path, problem: str) -> int:
    _complain("show", target, problem)
    return 1


def _write_html(trajectory: Trajectory, target: Path, force: bool, out: TextIO) -> int:
    from webeval_core.presentation.report import (
        standalone_page,  # pandas (via explain): only `--html` pays for it
    )

    problem = _html_target_problem(target, trajectory.path, force)
    if problem is not None:
        return _refuse_html(target, problem)
    page = standalone_page(trajectory).encode("utf-8")
    try:
        # "x" even after the check above: a file that appeared meanwhile is still not overwritten.
        with open(target, "wb" if force else "xb") as handle:
            handle.write(page)
    except OSError as exc:
        return _refuse_html(target, f"cannot be written ({exc.strerror})")
    _say(out, f"Wrote {target} ({_size(len(page))}, {len(trajectory.steps)} steps)")
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval show DIR`: one trajectory as text, JSON or a standalone HTML page."""
    from webeval_core.diagnostics import UnreadableError
    from webeval_core.reading.trajectory import load_trajectory, trajectory_json

    folder = _local_root(args.dir, "show")
    if folder is None:
        return 1
    try:
        trajectory = load_trajectory(folder)
    except UnreadableError as exc:
        _complain("show", exc.path, exc.reason)
        return 1
    if args.html:
        return _write_html(trajectory, Path(args.html), args.force, out)
    if args.json:
        _print_json(trajectory_json(trajectory), out)
    else:
        _say(out, *_format_trajectory(trajectory))
    return 0


# --- ls / index / export --------------------------------------------------------------------


def _load_index(args: argparse.Namespace, label: str) -> RootIndex | None:
    from webeval_core.runs.index import build_index

    root = _local_root(args.root, label)
    if root is None:
        return None
    if not root.is_dir():
        _complain(label, root, "not a folder")
        return None
    return build_index(root, use_cache=not getattr(args, "no_cache", False), on_progress=_Progress("Reading"))


def _score_cell(summary: TrajectorySummary) -> str:
    """Scores of other judges; the WebArena-Verified verdict has its own column."""
    verdict_source = summary.verdict.source if summary.verdict else None
    others = sorted((n, s) for n, s in summary.scores.items() if n != verdict_source)
    return ", ".join(f"{name}={score}" for name, score in others) or "-"


def cmd_ls(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval ls ROOT`: the runs and trajectories under ROOT, and the unreadable folders."""
    from webeval_core.runs.index import index_as_json

    index = _load_index(args, "ls")
    if index is None:
        return 1
    if args.json:
        _print_json(index_as_json(index), out)
        return 0
    if not index.summaries:
        _say(out, f"No trajectory folders found under {index.root}")
        return 0
    for run in index.runs:
        _say(out, *_run_lines(run, [s for s in index.summaries if s.run_key == run.key and not s.unreadable]))
    if index.unreadable:
        _say(out, "", f"Unreadable folders ({len(index.unreadable)}):")
        _say(out, *(f"  {s.path}: {s.unreadable}" for s in index.unreadable))
    return 0


def _run_lines(run: Run, members: list[TrajectorySummary]) -> list[str]:
    """One run of `ls`: its key, its metadata, then a row per readable trajectory."""
    lines = ["", f"{run.key}  ({len(members)} trajectories)"]
    meta = ", ".join(f"{k}={v}" for k, v in run.metadata.items() if v)
    if meta:
        lines.append(f"  {meta}")
    lines.append(f"  {'task':<10} {'outcome':<10} {'steps':>5}  {'verdict':<9} other scores")
    for s in members:
        verdict = s.verdict.status if s.verdict else "-"
        lines.append(f"  {s.task_id:<10} {s.outcome or '-':<10} {s.steps:>5}  {verdict:<9} {_score_cell(s)}")
    return lines


def cmd_index(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval index ROOT`: refresh the summary index of ROOT (only what changed) and report its counts."""
    from webeval_core.runs.refresh import refresh_index
    from webeval_core.runs.store import IndexStore

    root = _local_root(args.root, "index")  # a store URL: its local mirror, brought up to date
    if root is None:
        return 1
    if not root.is_dir():
        _complain("index", root, "not a folder")
        return 1
    with contextlib.ExitStack() as stack:
        cache_dir = None
        if getattr(args, "no_cache", False):
            import tempfile

            cache_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="webeval-index-")))
        store = IndexStore(root, cache_dir)
        report = refresh_index(store, on_progress=_Progress("Reading"))
        counts = store.counts()
    if report.notice:
        _say(out, report.notice)
    _say(
        out,
        f"Indexed {counts.trajectories} trajectories in {counts.runs} runs under {root}"
        f" ({counts.unreadable} unreadable; {report.read} read again, {report.removed} removed).",
    )
    return 0


_EXPORT_COLUMNS = (
    "run_key",
    "task_id",
    "path",
    "layout",
    "outcome",
    "steps",
    "screenshots",
    "duration_s",
    "prompt_tokens",
    "completion_tokens",
    "core_error",
    "warnings",
    "unreadable",
    "final_answer",
)


def _export_rows(index: RootIndex) -> list[dict[str, Any]]:
    rows = []
    for s in index.summaries:
        row = {column: getattr(s, column) for column in _EXPORT_COLUMNS}
        row["path"] = str(s.path)
        row["verdict"] = s.verdict.status if s.verdict else None
        row["verdict_score"] = s.verdict.score if s.verdict else None
        row["failure_tags"] = "; ".join(s.verdict.tags) if s.verdict else ""
        row.update({f"score:{name}": score for name, score in sorted(s.scores.items())})
        rows.append(row)
    return rows


def _annotation_rows(root: Path, location: str | None) -> list[dict[str, Any]]:
    from webeval_core.review.exchange import export_rows
    from webeval_core.review.judges import judge_verdicts
    from webeval_core.review.legacy import open_annotations
    from webeval_core.runs.index import build_index

    store, problems = open_annotations(location, root)
    for problem in problems:
        _say(sys.stderr, f"webeval export: {problem}")
    try:
        return export_rows(store.annotations(), judge_verdicts(build_index(root)))
    finally:
        store.close()


def _report_problem(args: argparse.Namespace, index: RootIndex) -> str | None:
    """Why the run report cannot be written where asked, or None."""
    if index.run(args.run or "") is None:
        keys = ", ".join(run.key for run in index.runs) or "none"
        return f"--format html needs --run KEY, one of the runs under {index.root}: {keys}"
    if not args.output:
        return "--format html writes a folder: give it with -o FOLDER"
    target = Path(args.output)
    if target.exists() and (not target.is_dir() or any(target.iterdir())) and not args.force:
        return f"{target} already exists and is not empty; pass --force to write into it"
    return None


def _write_report_page(job: tuple[Path, int, TrajectorySummary]) -> int:
    from webeval_core.presentation.runreport import page_name, trajectory_page
    from webeval_core.reading.tasks import installed_catalog

    folder, position, summary = job
    # The catalog is inherited from the parent when forked: no re-read per page.
    html = trajectory_page(summary, installed_catalog()).encode("utf-8")
    (folder / page_name(position, summary)).write_bytes(html)
    return len(html)


def _export_run_report(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval export ROOT --run KEY --format html -o FOLDER`: a run's report and its trajectory pages."""
    from webeval_core.parallel import map_in_processes, worker_count
    from webeval_core.presentation.runreport import PAGES_FOLDER, run_members, run_report_html
    from webeval_core.reading.tasks import installed_catalog

    index = _load_index(args, "export")
    if index is None:
        return 1
    problem = _report_problem(args, index)
    if problem is not None:
        _say(sys.stderr, f"webeval export: {problem}")
        return 1
    catalog = installed_catalog()
    folder = Path(args.output)
    (folder / PAGES_FOLDER).mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(run_report_html(index, args.run, catalog), encoding="utf-8")
    members = run_members(index, args.run)
    jobs = [(folder, position, summary) for position, summary in enumerate(members, start=1)]
    sizes = map_in_processes(
        _write_report_page,
        jobs,
        workers=worker_count(args.jobs, len(jobs)),
        parallel_from=8,
        on_progress=_Progress("Writing pages"),
    )
    _say(
        out,
        f"Wrote {folder / 'index.html'} and {len(sizes)} trajectory pages ({_size(sum(sizes))})"
        f" in {folder / PAGES_FOLDER}",
    )
    return 0


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval export ROOT`: one row per trajectory (or annotation) as CSV or JSON lines, or a run report."""
    if args.format == "html":
        return _export_run_report(args, out)
    if args.annotations:
        root = _local_root(args.root, "export")
        if root is None:
            return 1
        rows = _annotation_rows(root, args.annotations_file)
    else:
        index = _load_index(args, "export")
        if index is None:
            return 1
        rows = _export_rows(index)
    target: TextIO = open(args.output, "w", newline="", encoding="utf-8") if args.output else out  # noqa: SIM115
    try:
        if args.format == "jsonl":
            target.writelines(strict_json(row) + "\n" for row in rows)
        else:
            columns = list(dict.fromkeys(key for row in rows for key in row)) or list(_EXPORT_COLUMNS)
            writer = csv.DictWriter(target, fieldnames=columns)
            writer.writeheader()
            # Formula-like text is shown as text by a spreadsheet; numbers stay numbers.
            writer.writerows(spreadsheet_row(row) for row in rows)
    finally:
        if target is not out:
            target.close()
    if args.output:
        _say(sys.stderr, f"Wrote {len(rows)} rows to {args.output}")
    return 0


# --- score ----------------------------------------------------------------------------------


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    """Score trajectory folders with the official evaluator and write their score files."""
    from webeval_core.diagnostics import UnreadableError
    from webeval_core.reading.tasks import load_catalog
    from webeval_core.runs.discovery import iter_trajectory_dirs
    from webeval_core.scoring import score_trajectories, summarize_scores
    from webeval_core.scoring.cluster import scheduler_address

    try:
        catalog = load_catalog(args.tasks)
    except UnreadableError as exc:
        _complain("score", exc.path, exc.reason)
        return 1
    roots = _score_roots(args.paths)
    if roots is None:
        return 1
    batches = [(opened.path, list(iter_trajectory_dirs(opened.path))) for opened in roots]
    mirrored = [opened for opened in roots if opened.url]
    if scheduler_address(args.cluster):
        outcomes: list[ScoreOutcome] | None = _score_on_cluster(
            args, roots, [folders for _, folders in batches], catalog
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
                on_progress=_Progress("Scoring"),
            )
        ]
    if outcomes is None or (mirrored and not _write_back(mirrored, outcomes, args.write_remote)):
        return 1
    summary = summarize_scores(outcomes)
    if args.json:
        results = [
            {k: getattr(o, k) for k in ("task_id", "status", "score", "eval_hash", "reason")}
            | {"path": str(o.path)}
            for o in outcomes
        ]
        _print_json({"results": results, "summary": summary.model_dump(mode="json")}, out)
        return 0
    if not outcomes:
        _say(out, "No trajectory folders found.")
        return 0
    _say(out, *_score_report(outcomes, summary))
    return 0


def _score_on_cluster(
    args: argparse.Namespace, roots: list[OpenedRoot], folders: list[list[Path]], catalog: TaskCatalog
) -> list[ScoreOutcome] | None:
    """`score --cluster`: the folders scored on a Dask cluster, then each root's index refreshed once."""
    from webeval_core.runs.refresh import refresh_index
    from webeval_core.runs.store import IndexStore
    from webeval_core.scoring.cluster import ClusterError, cluster_root, scheduler_address, score_on_cluster

    try:
        outcomes = score_on_cluster(
            scheduler_address(args.cluster) or "",
            [(cluster_root(o.path, o.url), found) for o, found in zip(roots, folders, strict=True)],
            catalog=catalog,
            config=args.config,
            force=args.force,
            on_progress=_Progress("Scoring"),
        )
    except ClusterError as exc:
        _say(sys.stderr, f"webeval score: {exc}")
        return None
    for opened in roots:
        refresh_index(IndexStore(opened.path))
    return outcomes


def _score_roots(given: Sequence[str]) -> list[OpenedRoot] | None:
    """The folders `score` was given, a URL's as its mirror; None when one is not a folder (said why)."""
    roots: list[OpenedRoot] = []
    for text in given:
        opened = _opened(text, "score")
        if opened is None:
            return None
        if not opened.path.is_dir():
            _complain("score", opened.path, "not a folder")
            return None
        roots.append(opened)
    return roots


def _write_back(mirrored: list[OpenedRoot], outcomes: Sequence[ScoreOutcome], write_remote: bool) -> bool:
    """Score files of remote roots: uploaded with --write-remote, else said to stay in the mirror."""
    from webeval_core.remote import RemoteReadError, upload

    for opened in mirrored:
        files = [o.score_file for o in outcomes if o.score_file and o.score_file.is_relative_to(opened.path)]
        if not write_remote:
            _say(
                sys.stderr,
                f"Score files of {opened.url} are in its local mirror {opened.path} (the app reads them"
                " there); pass --write-remote to write them to the store.",
            )
            continue
        try:
            written = upload(opened, files)
        except RemoteReadError as exc:
            _say(sys.stderr, f"webeval score: {exc}")
            return False
        _say(sys.stderr, f"Wrote {len(written)} score files to {opened.url}")
    return True


def _score_report(outcomes: Sequence[ScoreOutcome], summary: ScoreSummary) -> list[str]:
    """`score`'s text: the engine, a tally per site and task type, the files written, the errors."""
    hashes = sorted({o.eval_hash for o in outcomes if o.eval_hash})
    if hashes:
        header = f"Scored {len(outcomes)} trajectories with {', '.join(hashes)}"
    elif outcomes and all(o.status == "excluded" for o in outcomes):
        header = f"Nothing scored: none of the {len(outcomes)} trajectories has an official evaluator to run"
    else:
        header = f"Scored {len(outcomes)} trajectories; the official evaluator ran on none of them"
    lines = [header, ""]
    lines.append(
        f"{'':<28} {'scored':>7} {'success':>8} {'failure':>8} {'error':>6} {'excluded':>9} {'rate':>7}"
    )
    groups = [("overall", summary.overall)]
    groups += [(f"site {name}", tally) for name, tally in summary.per_site.items()]
    groups += [(f"type {name}", tally) for name, tally in summary.per_task_type.items()]
    for label, tally in groups:
        rate = f"{tally.success_rate:.1%}" if tally.success_rate is not None else "-"
        lines.append(
            f"{_shorten(label, 28):<28} {tally.scored:>7} {tally.success:>8} {tally.failure:>8}"
            f" {tally.error:>6} {tally.excluded:>9} {rate:>7}"
        )
    written = sum(1 for o in outcomes if o.score_file and not o.reused)
    reused = sum(1 for o in outcomes if o.reused)
    lines += ["", f"Score files: {written} written, {reused} already up to date."]
    errors = [o for o in outcomes if o.status == "error"]
    if errors:
        lines += ["", f"Errors ({len(errors)}):", *(f"  {o.path}: {o.reason}" for o in errors)]
    return lines


# --- app ------------------------------------------------------------------------------------


def cmd_app(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval app [ROOT]`: serve the Streamlit inspector on ROOT until stopped."""
    from webeval_core.remote import is_remote
    from webeval_core.server import (
        AppServer,
        app_file,
        default_root,
        port_in_use,
        root_environment,
        streamlit_command,
    )

    url = args.root if args.root and is_remote(args.root) else None
    opened = _opened(args.root, "app") if args.root else None
    if args.root and opened is None:
        return 1
    root = opened.path.resolve() if opened is not None else default_root()
    if not root.is_dir():
        _complain("app", root, "not a folder")
        return 1
    allowed = [Path(path).resolve() for path in args.allow_root]
    for path in allowed:
        if not path.is_dir():
            _complain("app", path, "not a folder (--allow-root)")
            return 1
    if port_in_use(args.host, args.port):
        _say(
            sys.stderr,
            f"webeval app: port {args.port} on {args.host} is already in use"
            " (another `webeval app`?); choose another with --port",
        )
        return 1
    try:
        script = app_file()
    except FileNotFoundError as exc:  # a broken install: say what is missing, not a traceback
        _say(sys.stderr, f"webeval app: {exc}")
        return 1
    command = streamlit_command(script, args.host, args.port)
    # A URL root: the app mirrors it itself (its Reload lists the store again); the sync above made it warm.
    env = {**os.environ, **root_environment(url or str(root), allowed)}
    if args.annotations:  # the server's review pages open this store (never printed: it may hold a password)
        from webeval_core.review.store import ENV_VARIABLE  # SQLAlchemy: only `app --annotations` pays

        env[ENV_VARIABLE] = args.annotations
    _say(out, f"Opening {url or root} at http://{args.host}:{args.port}")
    out.flush()
    return AppServer(command, env).run()


# --- check (what the official packager would reject) -----------------------------------------


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval check FOLDER`: what `create-submission-pkg` would leave out; exit 1 when anything."""
    from webeval_core.diagnostics import UnreadableError
    from webeval_core.scoring.packaging import check_submission

    try:
        report = check_submission(Path(args.folder), args.tasks)
    except UnreadableError as exc:
        _complain("check", exc.path, exc.reason)
        return 2
    if args.json:
        _print_json({**report.model_dump(mode="json"), "rejected": list(report.rejected)}, out)
        return 1 if report.rejected else 0
    _say(out, f"{report.path}: {len(report.packaged)} task(s) packaged of {report.expected} in the dataset")
    for issue in report.issues:
        shown = ", ".join(map(str, issue.task_ids[:20])) + (" ..." if len(issue.task_ids) > 20 else "")
        mark = "REJECTED" if issue.blocks_packaging else "warning"
        _say(out, f"  {mark}: {issue.label} ({len(issue.task_ids)}): {shown}")
    if report.missing_from_output:
        _say(out, f"  not in the output: {len(report.missing_from_output)} dataset task(s) have no folder")
    _say(
        out,
        f"{len(report.rejected)} task(s) would be left out of the package"
        if report.rejected
        else "Nothing would be left out of the package.",
    )
    return 1 if report.rejected else 0


def _add_check_parser(sub: Any) -> None:
    check = sub.add_parser(
        "check", help="what `webarena-verified create-submission-pkg` would reject, before submitting"
    )
    check.add_argument("folder", help="a run's output folder (<task_id>/ folders), or a package")
    check.add_argument("--tasks", help="dataset file of the same shape (default: the installed 812 tasks)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(handler=cmd_check)


# --- annotations (the logic is review/commands.py) --------------------------------------------


def cmd_annotations(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval annotations list | export | import | agreement ROOT`."""
    from webeval_core.review import commands

    fmt = "json" if getattr(args, "json", False) else getattr(args, "format", "csv")
    command = commands.command_for(
        args.action,
        fmt,
        getattr(args, "output", None),
        getattr(args, "file", ""),
        getattr(args, "corrections", None),
    )
    return commands.run_command(command, Path(args.root).resolve(), args.annotations, out, sys.stderr)


def _add_annotations_parser(sub: Any) -> None:
    notes = sub.add_parser("annotations", help="human reviews: list, export, import, agreement")
    actions = notes.add_subparsers(dest="action", required=True)
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument("root", help="the folder whose trajectories the annotations are about")
    store.add_argument(
        "--annotations",
        metavar="PATH_OR_URL",
        help="SQLite file or postgresql:// URL (default: $WEBEVAL_ANNOTATIONS, else the user's data folder)",
    )
    actions.add_parser("list", parents=[store], help="every annotation, history included")
    export = actions.add_parser("export", parents=[store], help="one row per (trajectory, reviewer, stage)")
    export.add_argument("--format", choices=("csv", "jsonl"), default="csv")
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    export.add_argument(
        "--corrections", metavar="FILE", help="also write proposed task corrections (dataset JSON)"
    )
    imported = actions.add_parser(
        "import", parents=[store], help="rows of a CSV / JSON-lines file, all or none"
    )
    imported.add_argument("file", help="a .csv or .jsonl file with the export's columns")
    agreement = actions.add_parser("agreement", parents=[store], help="reviewer and judge agreement")
    agreement.add_argument("--json", action="store_true", help="print one JSON object")
    notes.set_defaults(handler=cmd_annotations)


# --- parser ---------------------------------------------------------------------------------

Handler = Callable[[argparse.Namespace, TextIO], int]


def build_parser() -> argparse.ArgumentParser:
    """The `webeval` argument parser: one subcommand per handler, plus `--version`."""
    parser = argparse.ArgumentParser(prog="webeval", description="Inspect and score web-agent trajectories.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    show = sub.add_parser("show", help="summarise one trajectory folder")
    show.add_argument("dir", help="a trajectory folder")
    shape = show.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="print one JSON object")
    shape.add_argument(
        "--html", metavar="FILE", help="write the whole trajectory as one standalone HTML page"
    )
    show.add_argument("--force", action="store_true", help="with --html: overwrite FILE if it exists")
    show.set_defaults(handler=cmd_show)

    ls = sub.add_parser("ls", help="list runs and trajectories under a folder")
    ls.add_argument("root")
    ls.add_argument("--json", action="store_true")
    ls.add_argument("--no-cache", action="store_true", help="re-read every folder")
    ls.set_defaults(handler=cmd_ls)

    index = sub.add_parser("index", help="(re)build the cached summary index of a folder")
    index.add_argument("root")
    index.add_argument("--no-cache", action="store_true", help="ignore the existing cache")
    index.set_defaults(handler=cmd_index)

    export = sub.add_parser("export", help="export one row per trajectory as CSV or JSON lines")
    export.add_argument("root")
    export.add_argument("--format", choices=("csv", "jsonl", "html"), default="csv")
    export.add_argument("-o", "--output", help="file to write (default: stdout); for html, a folder")
    export.add_argument("--run", help="the run key of an html report (see webeval ls)")
    export.add_argument("--force", action="store_true", help="html: write into a non-empty folder")
    export.add_argument("--jobs", type=int, default=0, help="html: processes drawing pages (0: one per core)")
    export.add_argument("--annotations", action="store_true", help="export annotator verdicts instead")
    export.add_argument("--annotations-file", help="annotation store: SQLite file or postgresql:// URL")
    export.set_defaults(handler=cmd_export)

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
    score.set_defaults(handler=cmd_score)

    app = sub.add_parser("app", help="open the Streamlit inspector on a folder")
    app.add_argument(
        "root",
        nargs="?",
        help="folder to browse (default: a checkout's sample_runs/, else the current folder)",
    )
    app.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    app.add_argument("--port", type=int, default=8501)
    app.add_argument(
        "--annotations",
        metavar="PATH_OR_URL",
        help="the review store, a SQLite file or postgresql:// URL (default: $WEBEVAL_ANNOTATIONS)",
    )
    app.add_argument(
        "--allow-root",
        action="append",
        default=[],
        metavar="PATH",
        help="another folder the app may open (from the sidebar or a link's ?root=); repeatable."
        " By default only ROOT and folders under it",
    )
    app.set_defaults(handler=cmd_app)
    _add_check_parser(sub)
    _add_annotations_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run `webeval` with `argv` (default: the command line), writing results to `out`; the exit code."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, out or sys.stdout)
    except BrokenPipeError:  # `webeval ls | head` must not print a traceback
        return 0


if __name__ == "__main__":
    sys.exit(main())
