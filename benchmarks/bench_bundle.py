"""What a static bundle costs and how soon its list shows rows.

    .venv/bin/python benchmarks/bench_bundle.py [--rows 100000] [--out FILE]

- The sample runs and an 812-task run (`synthetic_roots.build_runs`): `webeval bundle` as its own
  process (wall time), the site's bytes beside the root's (goal: the sample runs' site at most 35%),
  and beside it, measured in the same run, the root's bytes read once (`cat` of every file: the
  floor of any bundle that looks at everything).
- First rows of a 100,000-trajectory list: the 812-task bundle's list grown to `--rows` rows
  (its rows repeated under new keys, in chunks of `bundle.CHUNK`, as `write_bundle` writes them:
  the viewer reads no other file for the list), opened from the disk in Chromium; the time from
  navigation to the first row drawn (goal: under 2 s), beside the same for the 812-row list.
Results are printed and put at the top of --out (default benchmarks/results/bundle.txt).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from benchmarks.results_file import record
from benchmarks.synthetic_roots import build_runs, prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import CHROMIUM_ARGS
from webeval_core.presentation.bundle import CHUNK

REPO = Path(__file__).resolve().parent.parent


def _bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _read_all(folder: Path) -> float:
    """Seconds to read every file of the folder once (the floor of any bundle)."""
    started = time.perf_counter()
    for path in folder.rglob("*"):
        if path.is_file():
            path.read_bytes()
    return time.perf_counter() - started


def _bundle(root: Path, site: Path, work: Path) -> float:
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache")}
    command = [sys.executable, "-m", "webeval_core.cli", "bundle", str(root), "-o", str(site)]
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    return time.perf_counter() - started


def _grow(site: Path, rows: int) -> None:
    """The site's list grown to `rows` rows (its rows repeated, new keys), in chunks of CHUNK."""
    data = site / "data"
    runs = _read(data / "runs.js")
    base = [row for k in range(runs["chunks"]) for row in _read(data / f"list-{k}.js")]
    grown = [{**base[i % len(base)], "key": f"{base[i % len(base)]['key']}#{i}"} for i in range(rows)]
    for k in range(runs["chunks"]):
        (data / f"list-{k}.js").unlink()
    chunks = [grown[i : i + CHUNK] for i in range(0, rows, CHUNK)]
    for k, chunk in enumerate(chunks):
        (data / f"list-{k}.js").write_text(f"webeval.put({json.dumps(f'list-{k}')},{json.dumps(chunk)});\n")
    runs.update(chunks=len(chunks), total=rows)
    (data / "runs.js").write_text(f'webeval.put("runs",{json.dumps(runs)});\n')


def _read(path: Path) -> Any:
    """The JSON a data file hands the viewer."""
    text = path.read_text()
    return json.loads(text[text.index(",") + 1 : -3])


def _first_rows(site: Path, repeats: int = 5) -> float:
    """The best of `repeats`: seconds from navigation to the list's first row, from the disk."""
    best = float("inf")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for _ in range(repeats):
            page = browser.new_page()
            started = time.perf_counter()
            page.goto((site / "index.html").as_uri() + "#/list", wait_until="commit")
            page.locator("table tr td a").first.wait_for(timeout=60_000)
            best = min(best, time.perf_counter() - started)
            page.close()
        browser.close()
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "bundle.txt")
    args = parser.parse_args(argv)
    lines = []
    with tempfile.TemporaryDirectory(prefix="bench-bundle-") as work_dir:
        work = Path(work_dir)
        sample = prepare_sample(REPO / "sample_runs", work / "sample")
        big = work / "big"
        build_runs(sample, big, 812)
        for name, root in (("sample runs", sample), ("812-task run", big)):
            site = work / f"site-{name.replace(' ', '-')}"
            seconds, floor = _bundle(root, site, work), _read_all(root)
            ratio = _bytes(site) / _bytes(root)
            lines.append(
                f"{name}: bundle {seconds:.1f} s (reading every file once: {floor:.2f} s),"
                f" site {_bytes(site) / 1e6:.1f} MB = {ratio:.0%} of the root's {_bytes(root) / 1e6:.1f} MB"
                + (" (goal <= 35%)" if name == "sample runs" else "")
            )
        site = work / "site-812-task-run"
        small = _first_rows(site)
        _grow(site, args.rows)
        grown = _first_rows(site)
        said = f"{grown:.2f} s at {args.rows} rows (goal < 2 s), {small:.2f} s at 812"
        lines.append(f"first list rows from file://: {said}")
    report = "\n".join([time.strftime("# %Y-%m-%d %H:%M:%S"), *lines, ""])
    print(report)
    record(args.out, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
