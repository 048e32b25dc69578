"""The benchmarks' results files: each run's figures put at the top, the earlier runs kept below."""

from __future__ import annotations

import argparse
from pathlib import Path


def record(out: Path, text: str) -> None:
    """Put a run's results at the top of `out`, the earlier runs kept below."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():
        text = f"{text}\n\n{out.read_text(encoding='utf-8')}"
    out.write_text(text, encoding="utf-8")
    print(f"written to {out}", flush=True)


def add_record_option(parser: argparse.ArgumentParser) -> None:
    """The `--no-record` option `publish` reads."""
    parser.add_argument("--no-record", action="store_true", help="print only; do not write results/")


def publish(out: Path, text: str, args: argparse.Namespace) -> None:
    """Print a run's results and, unless `--no-record` was given, put them at the top of `out`."""
    print(text, flush=True)
    if not args.no_record:
        record(out, text)
