"""The app on large roots in Chromium: first overview, list and trajectory page, beside the floor.

    .venv/bin/python benchmarks/bench_app_scale.py [--sizes 10000,50000] [--repeats 3] [--roots DIR]

For each size a root of runs of 812 catalog tasks is built (`synthetic_roots.build_runs`, hard
links; reused from --roots DIR/root-N when it is there, with its index in DIR/cache-N) and indexed
with `webeval index`, as after a first opening. Then, on a just-started server each time:

- first overview: the first page load of the server, until the headline metric and both charts of
  the open tab are drawn; "again": later loads in the same browser (medians of --repeats);
- list: the Trajectories page, until its first page of rows is drawn (first load, then again);
- trajectory page: a deep link to a trajectory of the first run, until its first step's image;
- server RSS after ten trajectory pages (ten different trajectories), from /proc.

Beside each figure, the framework's floor measured in the same run: a bare Streamlit app of the
same shape (multipage navigation) showing only what the measure waits for: a metric and two Plotly
bar charts; a title and a 500-row table of text; a heading and the same step image. The goal of
issue 12 is each page within 1.3 times its floor. Results are printed and written to --out.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Browser, BrowserContext, sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_app import (  # noqa: E402
    _IDLE_JS,
    _OVERVIEW_SHOWN_JS,
    _STEP_SHOWN_JS,
    POLL_MS,
    Target,
    Visit,
    _context,
    _first_heading,
    _visit,
    longest_trajectory,
    write_floor_app,
)
from benchmarks.synthetic_roots import build_runs, prepare_sample  # noqa: E402
from tests.browser.streamlit_server import CHROMIUM, CHROMIUM_ARGS, start_server, stop_server  # noqa: E402
from webeval_core.runs.discovery import discover_runs  # noqa: E402

# The list: its caption and the first rows of the table drawn (the grid's canvas holds cells).
_LIST_SHOWN_JS = """(text) => {
    const main = document.querySelector("[data-testid='stMain']");
    if (!main || !main.textContent.includes(text)) return false;
    return Boolean(main.querySelector("[data-testid='stDataFrame'] canvas"));
}"""
_LIST_TEXT = "select a row to open it"
_TABLE_ROWS = 500
# The floor's list page: the same caption and a table of as many rows of text as the app's page.
_FLOOR_LIST = """

def table_page():
    import pandas as pd
    st.title("Trajectories")
    st.caption("50000 trajectories · select a row to open it")
    rows = [{"run": f"model · bench · run {i % 62}", "task": str(i), "result": "pass", "site": "gitlab",
             "type": "retrieve", "intent": "Find the longest trail in Yosemite " * 3, "outcome": "answered",
             "status": "success", "score": 1.0, "steps": i % 40, "duration (s)": 60.0 + i, "tokens": 1000 + i,
             "failure tags": "", "answer": "The answer is " * 10} for i in range(ROWS)]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
"""


def _with_list_page(floor_app: Path) -> Path:
    """The bench_app floor app with its Trajectories page showing a table instead of the image."""
    text = floor_app.read_text()
    text = text.replace("\npages = [", _FLOOR_LIST.replace("ROWS", str(_TABLE_ROWS)) + "\npages = [", 1)
    table = '[st.Page(table_page, title="Trajectories", url_path="trajectories")]'
    text = text.replace(
        'for name in ("trajectories", "trajectory")]', f'for name in ("trajectory",)]\npages += {table}'
    )
    floor_app.write_text(text)
    return floor_app


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Pages:
    """The URLs and checks of one root's measures."""

    def __init__(self, target: Target, others: list[str]) -> None:
        self.target = target
        self.others = others

    def overview(self, context: BrowserContext, base: str) -> Visit:
        """The overview until its metric and two charts are drawn."""
        return _visit(context, f"{base}/", _OVERVIEW_SHOWN_JS, 2, "overview")

    def listing(self, context: BrowserContext, base: str) -> Visit:
        """The Trajectories page until its caption and table are drawn."""
        return _visit(context, f"{base}/trajectories", _LIST_SHOWN_JS, _LIST_TEXT, "list")

    def trajectory(self, context: BrowserContext, base: str) -> Visit:
        """The long trajectory's page until its first step's image shows."""
        query = urlencode({"run": self.target.run, "task": self.target.task})
        heading = [_first_heading(self.target), None]
        return _visit(context, f"{base}/trajectory?{query}", _STEP_SHOWN_JS, heading, "trajectory")


@dataclass(frozen=True)
class Server:
    """How to start the server measured."""

    root: Path
    """The root it browses."""
    cache: Path
    """Its XDG_CACHE_HOME (the index file)."""
    log: Path
    """Its output."""
    script: Path | None = None
    """The floor app instead of the app."""


def _first_and_again(
    browser: Browser, server: Server, visit: Callable[..., Visit], repeats: int
) -> tuple[float, float]:
    """A just-started server: its first visit, then the median of `repeats` more in the same browser."""
    process, base = (
        start_server(server.root, server.cache, server.log, script=server.script)
        if server.script
        else start_server(server.root, server.cache, server.log)
    )
    try:
        context = _context(browser)
        try:
            first = visit(context, base).shown
            again = statistics.median(visit(context, base).shown for _ in range(repeats))
        finally:
            context.close()
    finally:
        stop_server(process)
    return first, again


def _rss_after_trajectories(browser: Browser, root: Path, cache: Path, log: Path, pages: Pages) -> float:
    process, base = start_server(root, cache, log)
    try:
        context = _context(browser)
        try:
            pages.overview(context, base)
            for task in pages.others[:10]:  # some have no screenshot: each until the page is idle
                page = context.new_page()
                query = urlencode({"run": pages.target.run, "task": task})
                page.goto(f"{base}/trajectory?{query}")
                page.wait_for_function(_IDLE_JS, polling=POLL_MS, timeout=120_000)
                page.close()
        finally:
            context.close()
        return _rss_mb(process.pid)
    finally:
        stop_server(process)


def measure(browser: Browser, sample: Path, work: Path, roots: Path, size: int, repeats: int) -> list[str]:
    root = roots / f"root-{size}"
    if not root.is_dir():
        build_runs(sample, root, size)
    cache = roots / f"cache-{size}"  # kept beside a kept root: its index is then warm
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "webeval_core.cli", "index", str(root)], env=env, cwd=REPO, check=True
    )
    print(f"{size}: indexed in {time.perf_counter() - started:.0f} s", flush=True)
    first_run = discover_runs(root)[0]
    target = longest_trajectory(root)
    others = [d.name for d in first_run.trajectory_dirs if d.name != target.task][:10]
    pages = Pages(target, others)
    floor_app = _with_list_page(write_floor_app(work, target))
    log = work / "server.log"
    lines = []
    for label, visit, floor_visit in (
        ("overview", pages.overview, pages.overview),
        ("list", pages.listing, pages.listing),
        (
            "trajectory page",
            pages.trajectory,
            lambda c, b: _visit(
                c, f"{b}/trajectory", _STEP_SHOWN_JS, [_first_heading(target), None], "floor"
            ),
        ),
    ):
        first, again = _first_and_again(browser, Server(root, cache, log), visit, repeats)
        floor = Server(root, cache, log, floor_app)
        floor_first, floor_again = _first_and_again(browser, floor, floor_visit, repeats)
        lines.append(
            f"{size:>7}  {label:<16} first {first:6.2f} s (floor {floor_first:5.2f},"
            f" x{first / floor_first:4.2f})   again {again:6.2f} s (floor {floor_again:5.2f},"
            f" x{again / floor_again:4.2f})"
        )
        print(lines[-1], flush=True)
    rss = _rss_after_trajectories(browser, root, cache, log, pages)
    lines.append(f"{size:>7}  server RSS after ten trajectory pages: {rss:.0f} MB")
    print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,50000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    parser.add_argument("--roots", type=Path, help="keep (and reuse) the built roots here")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "app_scale.txt")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"Chromium not found at {CHROMIUM}; nothing measured.")
        return 1
    work = Path(tempfile.mkdtemp(prefix="webeval-bench-scale-"))
    roots = args.roots or work
    roots.mkdir(parents=True, exist_ok=True)
    lines = [f"bench_app_scale: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            sample = prepare_sample(args.sample, work).resolve()
            for size in map(int, args.sizes.split(",")):
                lines += measure(browser, sample, work, roots.resolve(), size, args.repeats)
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines.append(f"load after: {os.getloadavg()[0]:.1f}")
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
