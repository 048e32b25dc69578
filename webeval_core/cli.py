"""`webeval`: the command-line face of webeval_core (show, ls, score, index, export, app, check)."""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from webeval_core.diagnostics import UnreadableError
from webeval_core.parallel import map_in_processes, worker_count
from webeval_core.presentation.safe_output import spreadsheet_row, strict_json, terminal_text
from webeval_core.reading.trajectory import Trajectory, load_trajectory, trajectory_json
from webeval_core.review.annotations import annotations_as_rows, default_annotations_file, read_annotations
from webeval_core.runs.index import RootIndex, TrajectorySummary, build_index, index_as_json
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.store import IndexStore
from webeval_core.server import AppServer, app_file, default_root, port_in_use, streamlit_command
from webeval_core.version import __version__

if TYPE_CHECKING:
    from webeval_core.runs.discovery import Run
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
    try:
        trajectory = load_trajectory(Path(args.dir))
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
    root = Path(args.root)
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
    root = Path(args.root)
    if not root.is_dir():
        _complain("index", root, "not a folder")
        return 1
    with contextlib.ExitStack() as stack:
        cache_dir = None
        if getattr(args, "no_cache", False):
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


def _annotation_rows(root: Path, file: str | None) -> list[dict[str, Any]]:
    path = Path(file) if file else default_annotations_file(root)
    annotations, problems = read_annotations(path)
    for problem in problems:
        _say(sys.stderr, f"webeval export: {problem}")
    return annotations_as_rows(annotations)


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
        rows = _annotation_rows(Path(args.root), args.annotations_file)
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
    from webeval_core.reading.tasks import load_catalog
    from webeval_core.runs.discovery import iter_trajectory_dirs
    from webeval_core.scoring import score_trajectories, summarize_scores

    try:
        catalog = load_catalog(args.tasks)
    except UnreadableError as exc:
        _complain("score", exc.path, exc.reason)
        return 1
    batches: list[tuple[Path, list[Path]]] = []
    for given in args.paths:
        path = Path(given)
        if not path.is_dir():
            _complain("score", path, "not a folder")
            return 1
        batches.append((path, list(iter_trajectory_dirs(path))))
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


def _score_report(outcomes: Sequence[ScoreOutcome], summary: ScoreSummary) -> list[str]:
    """`score`'s text: the engine, a tally per site and task type, the files written, the errors."""
    hashes = sorted({o.eval_hash for o in outcomes if o.eval_hash})
    lines = [f"Scored {len(outcomes)} trajectories with {', '.join(hashes) or 'no evaluator run'}", ""]
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
    root = Path(args.root).resolve() if args.root else default_root()
    if not root.is_dir():
        _complain("app", root, "not a folder")
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
    env = {**os.environ, "WEBEVAL_ROOT": str(root)}
    _say(out, f"Opening {root} at http://{args.host}:{args.port}")
    out.flush()
    return AppServer(command, env).run()


# --- check (what the official packager would reject) -----------------------------------------


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval check FOLDER`: what `create-submission-pkg` would leave out; exit 1 when anything."""
    from webeval_core.scoring.packaging import check_submission

    try:
        report = check_submission(Path(args.folder), args.tasks)
    except UnreadableError as exc:
        sys.stderr.write(f"webeval check: {exc}\n")
        return 2
    if args.json:
        _print_json({**report.model_dump(mode="json"), "rejected": list(report.rejected)}, out)
        return 1 if report.rejected else 0
    out.write(f"{report.path}: {len(report.packaged)} task(s) packaged of {report.expected} in the dataset\n")
    for issue in report.issues:
        shown = ", ".join(map(str, issue.task_ids[:20])) + (" ..." if len(issue.task_ids) > 20 else "")
        mark = "REJECTED" if issue.blocks_packaging else "warning"
        out.write(f"  {mark}: {issue.label} ({len(issue.task_ids)}): {shown}\n")
    if report.missing_from_output:
        out.write(f"  not in the output: {len(report.missing_from_output)} dataset task(s) have no folder\n")
    out.write(
        f"{len(report.rejected)} task(s) would be left out of the package\n"
        if report.rejected
        else "Nothing would be left out of the package.\n"
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
    export.add_argument("--annotations-file", help="annotations file (default: the root's, see README)")
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
    score.set_defaults(handler=cmd_score)

    app = sub.add_parser("app", help="open the Streamlit inspector on a folder")
    app.add_argument(
        "root",
        nargs="?",
        help="folder to browse (default: a checkout's sample_runs/, else the current folder)",
    )
    app.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    app.add_argument("--port", type=int, default=8501)
    app.set_defaults(handler=cmd_app)
    _add_check_parser(sub)
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
