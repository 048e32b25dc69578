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
from webeval_core.cli._store import add_store_arguments, chosen_store, store_for

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.presentation import Writer


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
    bundle.add_argument(
        "--with-annotations",
        action="store_true",
        help="show each trajectory's published verdict (and why) and its reviews' majority label",
    )
    bundle.add_argument(
        "--with-reviewers",
        action="store_true",
        help="with annotations: who decided and said what",
    )
    add_store_arguments(bundle, "the review store those annotations come from (implies --with-annotations)")
    add_redaction_arguments(bundle)
    bundle.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Write the site; 1 when ROOT, the profile or SITE cannot be used (said why)."""
    from webeval_core.presentation import BundleOptions, write_bundle
    from webeval_core.reading import installed_catalog
    from webeval_core.remote import RemoteReadError

    redactor = redactor_for(args, "bundle")
    index = load_index(args, "bundle") if redactor is not None else None
    if redactor is None or index is None:
        return 1
    unknown = sorted(set(args.run) - {r.key for r in index.runs})
    if unknown:
        say(sys.stderr, f"webeval bundle: no run {', '.join(unknown)} under {index.root}")
        return 1
    annotations = _annotations(args, index.root) if args.with_annotations or chosen_store(args) else {}
    write = _writer(args) if annotations is not None else None
    if write is None or annotations is None:
        return 1
    try:
        options = BundleOptions(
            runs=frozenset(args.run), image_format=args.images, quality=max(1, min(args.quality, 100))
        )
        report = write_bundle(
            index,
            write,
            installed_catalog(),
            redactor,
            options,
            annotations=annotations,
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
    from webeval_core.presentation import clear_folder, folder_writer
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


def _annotations(args: argparse.Namespace, root: Path) -> dict[tuple[str, str], dict[str, object]] | None:
    """Per trajectory (run, task id): its published verdict and why, its reviews and their majority
    label, and who said what only with --with-reviewers; None when the store cannot be opened.
    """
    from webeval_core.reading import installed_catalog
    from webeval_core.review import published_root, review_columns
    from webeval_core.runs import OUTSIDE_REVIEW, IndexQueries, IndexStore

    store = store_for(args, root, "bundle")
    if store is None:
        return None
    try:
        reviews = review_columns(store.annotations(OUTSIDE_REVIEW))
        published = published_root(
            IndexQueries(IndexStore(root), installed_catalog(), viewer=OUTSIDE_REVIEW), None, store
        )
    finally:
        store.close()
    found: dict[tuple[str, str], dict[str, object]] = {}
    for item in published:
        key = (item.row.run, item.row.task_id)
        why = item.edit.edit.reason if item.edit else item.exclusion.reason if item.exclusion else None
        said = reviews.get(key, {})
        found[key] = {
            "published": item.verdict_said(names=args.with_reviewers),
            "why": why,
            "reviews": said.get("reviews") or 0,
            "majority": said.get("review_majority"),
            "reviewers": said.get("reviewers") if args.with_reviewers else None,
        }
    return found
