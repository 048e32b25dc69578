"""`webeval bundle ROOT -o SITE`: the runs as a static site any static host serves, or a folder
opened from the disk (webeval_core/presentation/bundle.py); SITE may be a store URL.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import Progress, say, size
from webeval_core.cli._redaction import add_redaction_arguments, redactor_for
from webeval_core.cli._roots import load_index

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.presentation.bundle import Writer


def add_parser(sub: Subparsers) -> None:
    """`bundle ROOT -o SITE [--run KEY ...] [--images webp|jpeg] [--quality Q] [--force] [--redact P]`."""
    bundle = sub.add_parser(
        "bundle",
        help="the runs as a static site: no server, no outside request, secrets removed",
        description="Write ROOT's runs as a static site (index.html, the viewer and its data): the runs"
        " with their figures, the trajectory list with search, filters and sort, and a page per"
        " trajectory with its steps replayed. It opens from the disk or from any static host (a bucket,"
        " GitHub Pages); links to a run, a filtered list or a trajectory are index.html#... addresses.",
    )
    bundle.add_argument("root")
    bundle.add_argument(
        "-o", "--output", required=True, help="a folder, or a store URL (az://, s3://, gs://)"
    )
    bundle.add_argument(
        "--run", action="append", default=[], metavar="KEY", help="this run only (repeat for more)"
    )
    bundle.add_argument(
        "--images", choices=("webp", "jpeg"), default="webp", help="screenshots re-encoded as"
    )
    bundle.add_argument("--quality", type=int, default=60, help="their quality, 1-100 (default 60)")
    bundle.add_argument("--force", action="store_true", help="replace a folder that is not empty")
    add_redaction_arguments(bundle)
    bundle.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Write the site; 1 when ROOT, the profile or SITE cannot be used (said why)."""
    from webeval_core.presentation.bundle import write_bundle
    from webeval_core.reading.task_catalog import installed_catalog
    from webeval_core.remote import RemoteReadError

    redactor = redactor_for(args, "bundle")
    index = load_index(args, "bundle") if redactor is not None else None
    if redactor is None or index is None:
        return 1
    unknown = sorted(set(args.run) - {r.key for r in index.runs})
    if unknown:
        say(sys.stderr, f"webeval bundle: no run {', '.join(unknown)} under {index.root}")
        return 1
    write = _writer(args)
    if write is None:
        return 1
    try:
        report = write_bundle(
            index,
            write,
            installed_catalog(),
            redactor,
            runs=frozenset(args.run),
            image_format=args.images,
            quality=max(1, min(args.quality, 100)),
            on_progress=Progress("Writing pages"),
        )
    except RemoteReadError as exc:
        say(sys.stderr, f"webeval bundle: {exc}")
        return 1
    say(
        out,
        f"Wrote {args.output}: {report.trajectories} trajectories, {report.pages} pages, {report.images}"
        f" screenshots ({size(report.bytes_written)}); {redactor.report().summary()}",
    )
    return 0


def _writer(args: argparse.Namespace) -> Writer | None:
    """Where the site's files go: a store URL, or a local folder (empty, or replaced with --force)."""
    from webeval_core.presentation.bundle import clear_folder, folder_writer
    from webeval_core.remote import is_remote, store_writer

    if is_remote(args.output):
        try:
            return store_writer(args.output)
        except (ImportError, ValueError) as exc:
            say(sys.stderr, f"webeval bundle: {exc}")
            return None
    site = Path(args.output)
    if site.exists() and (not site.is_dir() or any(site.iterdir())):
        if not args.force:
            say(
                sys.stderr,
                f"webeval bundle: {site} already exists and is not empty; pass --force to replace it",
            )
            return None
        clear_folder(site)
    site.mkdir(parents=True, exist_ok=True)
    return folder_writer(site)
