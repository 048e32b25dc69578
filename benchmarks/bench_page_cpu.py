"""The CPU one page load of the app costs the machine, page by page, beside a one-line Streamlit app's.

    .venv/bin/python benchmarks/bench_page_cpu.py [--loads 4]

The browser tests spend most of the suite's CPU (bench_test_suite.py counts it) and most of
theirs in Chromium loading pages. This opens each page of the app on the scored sample, as a test
does (Debian's Chromium through Playwright, a new browser context, the page's deep link, waiting
until its content shows and the script is idle), `--loads` times after one warm-up, and gives the
median CPU the whole machine spent on one load (Chromium's processes, reparented, escape rusage;
the app's server included) and its wall time. The floor is the same load of a Streamlit app that
writes one line, on a server started the same way: what any Streamlit page costs here. Run it on an
otherwise idle machine. The figures are put at the top of benchmarks/results/page_cpu.txt.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from playwright.sync_api import Browser, expect, sync_playwright

from benchmarks.machine_cpu import machine_busy_seconds
from benchmarks.results_file import add_record_option, publish
from benchmarks.synthetic_roots import REPO, prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import CHROMIUM_ARGS, SCRIPT_IDLE, VIEWPORT, start_server, stop_server
from webeval_core.runs.discovery import discover_runs

TIMEOUT_MS = 60_000
FLOOR_TEXT = "A one-line Streamlit app"
RESULTS = REPO / "benchmarks" / "results" / "page_cpu.txt"


class Target(NamedTuple):
    """One page to load."""

    name: str
    """What the report calls it."""
    path: str
    """Its URL path and query, after the server's address."""
    shown: str
    """A text in the page's main area once it has rendered."""


class Load(NamedTuple):
    """One page load's cost."""

    cpu: float
    """CPU seconds the machine spent on it."""
    wall: float
    """Seconds from navigation until the content shows and the script is idle."""


def targets(root: Path) -> list[Target]:
    """The app's pages as the browser tests open them; the Trajectory page on the root's first task."""
    run = next(run for run in discover_runs(root) if run.trajectory_dirs)
    task = run.trajectory_dirs[0].name
    return [
        Target("Overview", "", "Success by site"),
        Target("Trajectories", "trajectories", "Trajectories"),
        Target("Trajectory", f"trajectory?run={run.key}&task={task}", "Step 1"),
        Target("Tasks", "tasks", "Tasks"),
        Target("Compare runs", "compare", "Compare runs"),
    ]


def load(browser: Browser, url: str, shown: str) -> Load:
    """Open `url` in a new browser context, as a test's `page` fixture does, until it has rendered."""
    started_cpu, started = machine_busy_seconds(), time.monotonic()
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url)
    main = page.locator("[data-testid='stMain']")
    expect(main.get_by_text(shown).first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator(SCRIPT_IDLE)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(page.locator("[data-testid='stSkeleton']")).to_have_count(0, timeout=TIMEOUT_MS)
    wall = time.monotonic() - started
    context.close()
    return Load(machine_busy_seconds() - started_cpu, wall)


def measure(browser: Browser, base: str, target: Target, loads: int) -> list[Load]:
    load(browser, f"{base}/{target.path}", target.shown)  # the server's first render fills its caches
    return [load(browser, f"{base}/{target.path}", target.shown) for _ in range(loads)]


@contextmanager
def server(root: Path, work: Path, name: str, script: Path = REPO / "app.py") -> Iterator[str]:
    process, base = start_server(root, work / f"xdg-{name}", work / f"{name}.log", script=script)
    try:
        yield base
    finally:
        stop_server(process)


def report(rows: list[tuple[str, list[Load]]], loads: int) -> str:
    lines = [
        f"bench_page_cpu: {loads} loads a page after one warm-up, medians; CPU s of the whole machine",
        f"{'page':<28}{'CPU s':>8}{'wall s':>8}",
    ]
    for name, measured in rows:
        cpu = statistics.median(m.cpu for m in measured)
        wall = statistics.median(m.wall for m in measured)
        lines.append(f"{name:<28}{cpu:>8.2f}{wall:>8.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--loads", type=int, default=4)
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    add_record_option(parser)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-page-cpu-") as work_dir:
        work = Path(work_dir)
        root = prepare_sample(args.sample, work)
        floor = work / "floor" / "app.py"
        floor.parent.mkdir()
        floor.write_text(f"import streamlit as st\n\nst.write({FLOOR_TEXT!r})\n", encoding="utf-8")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            with server(root, work, "floor", floor) as base:
                rows = [
                    (
                        "floor: one-line Streamlit app",
                        measure(browser, base, Target("", "", FLOOR_TEXT), args.loads),
                    )
                ]
            with server(root, work, "app") as base:
                rows += [(t.name, measure(browser, base, t, args.loads)) for t in targets(root)]
            browser.close()
    text = report(rows, args.loads)
    publish(RESULTS, text, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
