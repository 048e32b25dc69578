"""Speed of the app in a real browser (Debian's Chromium through Playwright): prints goal vs measured.

    .venv/bin/python benchmarks/bench_app.py [--trajectories 1000] [--repeats 5] [--cold-repeats 3]
    .venv/bin/python benchmarks/bench_app.py --screenshot docs/screenshot.png   # + README image

What is measured, each from the browser's side (time from navigation or click until the content
is on screen, the image decoded):

(a) the trajectory page of a 100-step trajectory shows its first step's screenshot (goal 1.5 s);
(b) the overview of 1,000 trajectories shows its metrics and charts, with the summary index
    already built on disk (goal 2 s);
(c) stepping to the next step shows the new step's screenshot (goal 0.3 s).

"cold" = the first visit of a freshly started server (Python imports, Streamlit caches empty;
only the on-disk summary index exists) or, for stepping, a step whose overlay was never drawn;
"warm" = the same visit again on the running server in a new browser session, or a step already
drawn. Every visit uses a new browser context (no HTTP cache). Medians over the repeats.

The root is built in a temporary folder from sample_runs/: it is scored once with the official
evaluator, then its Fara trajectory folders are replicated (hard links) into as many run folders
as it takes to reach --trajectories. The 100-step trajectory is sample_runs' longest one. Nothing
is written into the repository except --screenshot.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Browser, Page, sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from webeval_core.index import build_index  # noqa: E402
from webeval_core.runs import discover_runs  # noqa: E402
from webeval_core.trajectory import load_trajectory  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1440, "height": 1000}
TIMEOUT_MS = 120_000

GOALS = {"trajectory": 1.5, "overview": 2.0, "step": 0.3}

# The step's screenshot: the first full-size image of the main area (filmstrip thumbnails are small).
_MAIN_IMAGE = """
(() => {
    const images = document.querySelectorAll("[data-testid='stMain'] [data-testid='stImage'] img");
    return [...images].find((img) => img.complete && img.naturalWidth >= 800) || null;
})()
"""
_STEP_SHOWN_JS = (
    """([heading, oldSrc]) => {
    const image = """
    + _MAIN_IMAGE
    + """;
    const main = document.querySelector("[data-testid='stMain']");
    return Boolean(image && image.getAttribute("src") !== oldSrc && main && main.innerText.includes(heading));
}"""
)
_MAIN_SRC_JS = "() => { const image = " + _MAIN_IMAGE + "; return image ? image.getAttribute('src') : null; }"
# Overview: the headline metrics and every chart of the open tab drawn (bars in their SVG).
_OVERVIEW_SHOWN_JS = """(charts) => {
    const main = document.querySelector("[data-testid='stMain']");
    if (!main || !main.querySelector("[data-testid='stMetric']")) return false;
    const drawn = [...main.querySelectorAll("[data-testid='stPlotlyChart']")]
        .filter((chart) => chart.querySelector(".main-svg .bars .point path"));
    return drawn.length >= charts;
}"""
_IDLE_JS = """() => Boolean(
    document.querySelector("[data-testid='stApp'][data-test-script-state='notRunning']")
    && !document.querySelector("[data-stale='true'], [data-testid='stSkeleton']")
)"""
_EXCEPTION = "[data-testid='stException']"


# --- the data -------------------------------------------------------------------------------


def _link_tree(source: Path, target: Path) -> None:
    """Copy a folder with hard links (fast, no extra space); plain copies where links fail."""

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, target, symlinks=True, copy_function=link)


def prepare_sample(sample: Path, work: Path) -> Path:
    """A scored copy of the sample (generated first when the repository has none)."""
    target = work / "sample"
    if sample.is_dir() and any(sample.iterdir()):
        shutil.copytree(sample, target, symlinks=True)
    else:
        print(f"{sample} is empty: generating a sample into {target} ...", flush=True)
        script = REPO / "scripts" / "make_sample_runs.py"
        subprocess.run([sys.executable, str(script), "--out", str(target)], check=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "score-cache")}
    command = [sys.executable, "-m", "webeval_core.cli", "score", str(target), "--jobs", "2"]
    subprocess.run(command, cwd=REPO, env=env, check=False, capture_output=True)
    return target


def build_big_root(sample: Path, root: Path, wanted: int) -> int:
    """Replicate the sample's Fara runs into run folders 0, 1, 2, ... until `wanted` trajectories."""
    fara_runs = [run for run in discover_runs(sample) if run.run_id is not None]
    if not fara_runs:
        raise SystemExit(f"no Fara-layout runs under {sample}")
    made = 0
    copy = 0
    while made < wanted:
        for run in fara_runs:
            relative = run.path.relative_to(sample)
            run_dir = root / relative.parent / str(copy) / "traj"
            for folder in run.trajectory_dirs:
                if made >= wanted:
                    return made
                _link_tree(folder, run_dir / folder.name)
                made += 1
        copy += 1
    return made


@dataclass(frozen=True)
class Target:
    run: str
    task: str
    steps: int
    first_step: int


def longest_trajectory(root: Path) -> Target:
    best: Target | None = None
    for run in discover_runs(root):
        if run.run_id not in (None, "0"):
            continue
        for folder in run.trajectory_dirs:
            try:
                trajectory = load_trajectory(folder)
            except Exception:
                continue
            steps = trajectory.steps
            if steps and (best is None or len(steps) > best.steps) and all(s.screenshot for s in steps):
                best = Target(run.key, trajectory.task_id, len(steps), steps[0].index)
    if best is None:
        raise SystemExit(f"no trajectory with steps under {root}")
    return best


# --- the server -----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def server(root: Path, cache_home: Path, log: Path) -> Iterator[str]:
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(REPO / "app.py"),
        "--server.headless=true",
        "--server.address=127.0.0.1",
        f"--server.port={port}",
        "--browser.gatherUsageStats=false",
        "--server.fileWatcherType=none",
    ]
    env = {**os.environ, "WEBEVAL_ROOT": str(root), "XDG_CACHE_HOME": str(cache_home)}
    base = f"http://127.0.0.1:{port}"
    with open(log, "ab") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise SystemExit(f"streamlit exited ({process.returncode}); see {log}")
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"streamlit not healthy after 60 s; see {log}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- measurements ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Visit:
    shown: float  # seconds until the measured content was on screen
    idle: float  # seconds until the script run had finished and nothing was stale


def _check(page: Page, what: str) -> None:
    if page.locator(_EXCEPTION).count():
        raise SystemExit(
            f"{what}: the page shows an exception:\n{page.locator(_EXCEPTION).first.inner_text()}"
        )


def _new_page(browser: Browser) -> Page:
    page = browser.new_context(viewport=VIEWPORT).new_page()  # type: ignore[arg-type]
    page.set_default_timeout(TIMEOUT_MS)
    return page


def visit_trajectory(browser: Browser, base: str, target: Target) -> Visit:
    page = _new_page(browser)
    try:
        url = f"{base}/trajectory?" + urlencode({"run": target.run, "task": target.task})
        heading = f"Step {target.first_step} of {target.steps}"
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(_STEP_SHOWN_JS, arg=[heading, None], polling="raf")
        shown = time.perf_counter() - start
        page.wait_for_function(_IDLE_JS, polling="raf")
        idle = time.perf_counter() - start
        _check(page, "trajectory page")
        return Visit(shown, idle)
    finally:
        page.context.close()


def visit_overview(browser: Browser, base: str, charts: int = 2) -> Visit:
    page = _new_page(browser)
    try:
        start = time.perf_counter()
        page.goto(f"{base}/", wait_until="commit")
        page.wait_for_function(_OVERVIEW_SHOWN_JS, arg=charts, polling="raf")
        shown = time.perf_counter() - start
        page.wait_for_function(_IDLE_JS, polling="raf")
        idle = time.perf_counter() - start
        _check(page, "overview")
        return Visit(shown, idle)
    finally:
        page.context.close()


def stepping(browser: Browser, base: str, target: Target, steps: int) -> tuple[list[float], list[float]]:
    """Next through `steps` new steps (cold: never drawn), then Previous back over them (warm)."""
    page = _new_page(browser)
    cold: list[float] = []
    warm: list[float] = []
    try:
        url = f"{base}/trajectory?" + urlencode({"run": target.run, "task": target.task})
        page.goto(url)
        first = target.first_step
        page.wait_for_function(_STEP_SHOWN_JS, arg=[f"Step {first} of {target.steps}", None], polling="raf")
        page.wait_for_function(_IDLE_JS, polling="raf")
        main = page.locator("[data-testid='stMain']")
        for button, direction, times in (("Next ▶", 1, cold), ("◀ Previous", -1, warm)):
            for _ in range(steps):
                current = int(page.evaluate("() => new URL(location.href).searchParams.get('step') || '0'"))
                current = current or first
                src = page.evaluate(_MAIN_SRC_JS)
                heading = f"Step {current + direction} of {target.steps}"
                start = time.perf_counter()
                main.get_by_role("button", name=button).click()
                page.wait_for_function(_STEP_SHOWN_JS, arg=[heading, src], polling="raf")
                times.append(time.perf_counter() - start)
                page.wait_for_function(_IDLE_JS, polling="raf")
        _check(page, "stepping")
        return cold, warm
    finally:
        page.context.close()


def take_screenshot(browser: Browser, base: str, run: str, task: str, step: int, path: Path) -> None:
    """The README's picture: the trajectory page at one step, overlay drawn, 1440 px wide."""
    context = browser.new_context(viewport={"width": 1440, "height": 1180}, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{base}/")  # the home page first: the app shell, not a bare page script
        page.wait_for_function(_IDLE_JS, polling="raf")
        page.goto(f"{base}/trajectory?" + urlencode({"run": run, "task": task, "step": step}))
        page.wait_for_function(_STEP_SHOWN_JS, arg=[f"Step {step} of", None], polling="raf")
        page.wait_for_function(_IDLE_JS, polling="raf")
        page.wait_for_timeout(500)  # let fonts and the filmstrip settle
        _check(page, "screenshot")
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))
    finally:
        context.close()


# --- report ---------------------------------------------------------------------------------


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s" if values else "-"


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}" if values else "-"


def _verdict(values: list[float], goal: float) -> str:
    return "-" if not values else "yes" if statistics.median(values) <= goal else "NO"


def report(rows: list[tuple[str, float, list[float], list[float]]]) -> None:
    print()
    header = (
        f"{'measure':<54} {'goal':>6} {'cold median':>12} {'(range)':>11}"
        f" {'warm median':>12} {'(range)':>11}  met (cold/warm)"
    )
    print(header)
    print("-" * len(header))
    for name, goal, cold, warm in rows:
        print(
            f"{name:<54} {goal:>5.1f}s {_median(cold):>12} {_spread(cold):>11}"
            f" {_median(warm):>12} {_spread(warm):>11}  {_verdict(cold, goal)}/{_verdict(warm, goal)}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs", help="tree to replicate")
    parser.add_argument("--trajectories", type=int, default=1000, help="size of the overview's root")
    parser.add_argument("--repeats", type=int, default=5, help="warm visits per page")
    parser.add_argument("--cold-repeats", type=int, default=3, help="fresh servers per page")
    parser.add_argument("--steps", type=int, default=10, help="Next clicks (then as many Previous)")
    parser.add_argument("--screenshot", type=Path, help="also write the README screenshot here")
    parser.add_argument("--screenshot-task", default="108", help="task of the screenshot (fara-7b run)")
    parser.add_argument("--screenshot-step", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the temporary root and print where")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"Chromium not found at {CHROMIUM} (apt-get install chromium); nothing measured.")
        return 1

    work = Path(tempfile.mkdtemp(prefix="webeval-bench-"))
    try:
        t = time.perf_counter()
        sample = prepare_sample(args.sample, work)
        root = (work / "root").resolve()
        made = build_big_root(sample, root, args.trajectories)
        target = longest_trajectory(root)
        cache_home = work / "xdg-cache"
        os.environ["XDG_CACHE_HOME"] = str(cache_home)
        index = build_index(root)
        print(
            f"root: {made} trajectories in {len(index.runs)} runs ({time.perf_counter() - t:.0f} s to build,"
            f" summary index cached); long trajectory: task {target.task}, {target.steps} steps",
            flush=True,
        )
        log = work / "server.log"
        traj_cold: list[Visit] = []
        over_cold: list[Visit] = []
        traj_warm: list[Visit] = []
        over_warm: list[Visit] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for i in range(args.cold_repeats):
                with server(root, cache_home, log) as base:
                    traj_cold.append(visit_trajectory(browser, base, target))
                with server(root, cache_home, log) as base:
                    over_cold.append(visit_overview(browser, base))
                print(f"  cold {i + 1}/{args.cold_repeats} done", flush=True)
            with server(root, cache_home, log) as base:
                visit_overview(browser, base)  # fill the caches once
                visit_trajectory(browser, base, target)
                for _ in range(args.repeats):
                    over_warm.append(visit_overview(browser, base))
                    traj_warm.append(visit_trajectory(browser, base, target))
                step_cold, step_warm = stepping(browser, base, target, args.steps)
                print("  warm visits and stepping done", flush=True)
            if args.screenshot:
                with server(sample.resolve(), work / "xdg-shot", log) as base:
                    run = next(r.key for r in discover_runs(sample.resolve()) if r.model == "fara-7b")
                    take_screenshot(
                        browser, base, run, args.screenshot_task, args.screenshot_step, args.screenshot
                    )
                print(f"wrote {args.screenshot}")
            browser.close()

        report(
            [
                (
                    f"(a) trajectory page, {target.steps} steps: first step shown",
                    GOALS["trajectory"],
                    [v.shown for v in traj_cold],
                    [v.shown for v in traj_warm],
                ),
                (
                    f"(b) overview of {made} trajectories: metrics+charts shown",
                    GOALS["overview"],
                    [v.shown for v in over_cold],
                    [v.shown for v in over_warm],
                ),
                ("(c) next step shown (cold: first visit of the step)", GOALS["step"], step_cold, step_warm),
            ]
        )
        print("\nFor information, until the script run finished (nothing stale):")
        for name, cold_visits, warm_visits in (
            ("trajectory page", traj_cold, traj_warm),
            ("overview", over_cold, over_warm),
        ):
            print(
                f"  {name:<16} cold {_median([v.idle for v in cold_visits])}"
                f"   warm {_median([v.idle for v in warm_visits])}"
            )
        print(
            f"\n{args.cold_repeats} fresh servers per cold figure, {args.repeats} warm visits,"
            f" {args.steps} steps; every visit in a new browser context."
        )
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
