"""`webeval export ROOT`: one row per trajectory as CSV or JSON lines (the app's list and its
download: the same columns, `runs.list_columns`, and writers, `support.row_files`; with its reviews
when asked), or a run's report as a folder of HTML pages.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from webeval_core.cli._output import Progress, say, size
from webeval_core.cli._redaction import add_redaction_arguments, redactor_for, write_report
from webeval_core.cli._roots import load_index, root_queries
from webeval_core.cli._store import StoreArgumentError, add_store_arguments, chosen_store
from webeval_core.support import ROW_FORMATS, rows_text

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.presentation import RedactionProfile, RedactionReport, Redactor
    from webeval_core.review import AnnotationStore, ResultLine
    from webeval_core.runs import IndexQueries, RootIndex, TrajectorySummary


def add_parser(sub: Subparsers) -> None:
    """`export ROOT [--format csv|jsonl|html] [-o PATH] [--run KEY] [--annotations PATH_OR_URL] ...`."""
    export = sub.add_parser("export", help="export one row per trajectory as CSV or JSON lines")
    export.add_argument("root")
    export.add_argument("--format", choices=(*ROW_FORMATS, "html", "atif"), default="csv")
    export.add_argument("-o", "--output", help="file to write (default: stdout); for html and atif, a folder")
    export.add_argument("--run", help="the run key of an html report (see webeval ls)")
    export.add_argument("--force", action="store_true", help="html: write into a non-empty folder")
    export.add_argument("--jobs", type=int, default=0, help="html: processes drawing pages (0: one per core)")
    export.add_argument(
        "--with-annotations",
        action="store_true",
        help="add each trajectory's reviews (count, majority outcome, who said what) as columns",
    )
    add_store_arguments(export, "the review store those columns come from (implies --with-annotations)")
    add_redaction_arguments(export)
    export.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Rows to `-o FILE` or `out`, or a run report into `-o FOLDER`; 1 when ROOT or the store fails."""
    if args.format == "html":
        return _export_run_report(args, out)
    if args.format == "atif":
        return _export_atif(args, out)
    return _export_table(args, out)


def _export_table(args: argparse.Namespace, out: TextIO) -> int:
    """A row per trajectory as the app's list downloads it (its columns, `runs.list_columns`), in
    a format of `ROW_FORMATS`, its texts redacted.
    """
    try:  # an argument refused (a password on the command line) before any folder is read
        location = chosen_store(args)
    except StoreArgumentError as exc:
        say(sys.stderr, f"webeval export: {exc}")
        return 2
    redactor = redactor_for(args, "export")
    queries = root_queries(args, "export") if redactor is not None else None
    if redactor is None or queries is None:
        return 1
    rows = _export_rows(queries)
    if args.with_annotations or location:
        reviewed = _with_reviews(rows, queries.store.root, location)
        if reviewed is None:
            return 1
        rows = reviewed
    rows = [_redacted_row(row, redactor) for row in rows]
    _write_rows(rows, args.format, args.output, out)
    if args.output:
        said = write_report(redactor, Path(args.output))
        say(sys.stderr, f"Wrote {len(rows)} rows to {args.output}; {said}")
    else:
        say(sys.stderr, f"webeval export: {redactor.report().summary()}")
    return 0


def _redacted_row(row: dict[str, Any], redactor: Redactor) -> dict[str, Any]:
    """A row with its texts' secrets masked (counted under the trajectory's run and task)."""
    where = f"{row.get('run')} · {row.get('task_id')}: export row"
    return {key: _redacted(value, redactor, where) for key, value in row.items()}


def _redacted(value: Any, redactor: Redactor, where: str) -> Any:
    if isinstance(value, str):
        return redactor.text(value, where)
    if isinstance(value, list):
        return [_redacted(v, redactor, where) for v in value]
    return value


def _export_rows(queries: IndexQueries) -> list[dict[str, Any]]:
    """Every trajectory's row as the app's list downloads it (the judge used: the default)."""
    from webeval_core.runs import export_records, listed_frame

    try:
        return export_records(listed_frame(queries.page(None).rows))
    finally:
        queries.close()


def _with_reviews(
    rows: list[dict[str, Any]], root: Path, location: str | None
) -> list[dict[str, Any]] | None:
    """The rows with the review columns of `location`'s store; None when it cannot be opened (said why)."""
    from webeval_core.review import (
        PUBLICATION_COLUMNS,
        REVIEW_COLUMNS,
        StoreError,
        open_annotations,
        review_columns,
    )
    from webeval_core.runs import OUTSIDE_REVIEW

    try:
        store, problems = open_annotations(location, root)
    except StoreError as exc:
        say(sys.stderr, f"webeval export: {exc}")
        return None
    say(sys.stderr, *(f"webeval export: {problem}" for problem in problems))
    try:
        reviews = review_columns(store.annotations(OUTSIDE_REVIEW))
        published = _published(root, store)
    finally:
        store.close()
    empty = dict.fromkeys(REVIEW_COLUMNS)
    nothing = dict.fromkeys(PUBLICATION_COLUMNS)
    return [
        row
        | reviews.get((row["run"], row["task_id"]), empty)
        | published.get((row["run"], row["task_id"]), nothing)
        for row in rows
    ]


def _published(root: Path, store: AnnotationStore) -> dict[tuple[str, str], dict[str, object]]:
    """Each trajectory's published verdict and the edit or exclusion behind it (export columns)."""
    from webeval_core.reading import installed_catalog
    from webeval_core.review import publication_columns, published_root
    from webeval_core.runs import OUTSIDE_REVIEW, IndexQueries, IndexStore

    # load_index brought it up to date
    queries = IndexQueries(IndexStore(root), installed_catalog(), viewer=OUTSIDE_REVIEW)
    return {(t.row.run, t.row.task_id): publication_columns(t) for t in published_root(queries, None, store)}


def _write_rows(rows: list[dict[str, Any]], fmt: str, output: str | None, out: TextIO) -> None:
    from webeval_core.runs import exported_columns

    # Without rows, the header still names the list's columns.
    text = rows_text(rows, fmt, None if rows else exported_columns())
    if output:
        with open(output, "w", newline="", encoding="utf-8") as target:
            target.write(text)
    else:
        out.write(text)


# --- a run's report (--format html) -----------------------------------------------------------


def _report_problem(args: argparse.Namespace, index: RootIndex) -> str | None:
    """Why the run report cannot be written where asked, or None."""
    if index.run(args.run or "") is None:
        keys = ", ".join(found.key for found in index.runs) or "none"
        return f"--format html needs --run KEY, one of the runs under {index.root}: {keys}"
    if not args.output:
        return "--format html writes a folder: give it with -o FOLDER"
    target = Path(args.output)
    if target.exists() and (not target.is_dir() or any(target.iterdir())) and not args.force:
        return f"{target} already exists and is not empty; pass --force to write into it"
    return None


def _write_report_page(
    job: tuple[Path, int, TrajectorySummary, RedactionProfile | None],
) -> tuple[int, RedactionReport]:
    """One trajectory's page of a run report (in a worker): its size and what its redactor masked."""
    from webeval_core.presentation import Redactor, page_name, trajectory_page
    from webeval_core.reading import installed_catalog

    folder, position, summary, profile = job
    redactor = Redactor(profile)
    # The catalog is inherited from the parent when forked: no re-read per page.
    html = trajectory_page(summary, installed_catalog(), redactor).encode("utf-8")
    (folder / page_name(position, summary)).write_bytes(html)
    return len(html), redactor.report()


def _run_line(args: argparse.Namespace, root: Path) -> ResultLine | None:
    """The run's results line with the review store's edits and exclusions (the report says its
    rate as published beside the scored one); None when no store can be opened (said why).
    """
    from webeval_core.cli._store import store_for
    from webeval_core.reading import installed_catalog
    from webeval_core.review import published_runs, result_line
    from webeval_core.runs import OUTSIDE_REVIEW, IndexQueries, IndexStore

    store = store_for(args, root, "export")
    if store is None:
        return None
    try:
        queries = IndexQueries(IndexStore(root), installed_catalog(), viewer=OUTSIDE_REVIEW)
        return result_line(args.run, published_runs(queries, None, store, [args.run]))
    finally:
        store.close()


def _export_run_report(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval export ROOT --run KEY --format html -o FOLDER`: a run's report and its trajectory pages."""
    from webeval_core.presentation import (
        PAGES_FOLDER,
        redacted_report,
        run_members,
        run_report_html,
    )
    from webeval_core.reading import installed_catalog
    from webeval_core.support import map_in_processes, worker_count

    redactor = redactor_for(args, "export")
    index = load_index(args, "export") if redactor is not None else None
    if redactor is None or index is None:
        return 1
    problem = _report_problem(args, index)
    if problem is not None:
        say(sys.stderr, f"webeval export: {problem}")
        return 1
    catalog = installed_catalog()
    folder = Path(args.output)
    (folder / PAGES_FOLDER).mkdir(parents=True, exist_ok=True)
    published = _run_line(args, index.root)
    report = redacted_report(run_report_html(index, args.run, catalog, published), redactor, args.run)
    (folder / "index.html").write_text(report, encoding="utf-8")
    members = run_members(index, args.run)
    jobs = [
        (folder, position, summary, redactor.profile) for position, summary in enumerate(members, start=1)
    ]
    written = map_in_processes(
        _write_report_page,
        jobs,
        workers=worker_count(args.jobs, len(jobs)),
        parallel_from=8,
        on_progress=Progress("Writing pages"),
    )
    for _, masked in written:
        redactor.absorb(masked)
    total = sum(n for n, _ in written)
    said = write_report(redactor, folder)
    say(
        out,
        f"Wrote {folder / 'index.html'} and {len(written)} trajectory pages ({size(total)})"
        f" in {folder / PAGES_FOLDER}; {said}",
    )
    return 0


# --- ATIF (--format atif) ----------------------------------------------------------------------


def _export_atif(args: argparse.Namespace, out: TextIO) -> int:
    """`webeval export ROOT --format atif -o DIR [--run KEY]`: an ATIF document per trajectory."""
    from webeval_core.presentation import write_atif_folder

    if not args.output:
        say(sys.stderr, "webeval export: --format atif writes a folder: give it with -o DIR")
        return 1
    redactor = redactor_for(args, "export")
    if redactor is None:
        return 1
    index = load_index(args, "export")
    if index is None:
        return 1
    folder = Path(args.output)
    runs = frozenset([args.run] if args.run else [])
    written = write_atif_folder(index, folder, redactor, runs, on_progress=Progress("Writing ATIF"))
    report = write_report(redactor, folder)
    say(out, f"Wrote {len(written)} ATIF documents under {folder}; {report}")
    return 0
