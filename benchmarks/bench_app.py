"""Speed of the app in a real browser (Debian's Chromium through Playwright): prints goal vs measured.

    .venv/bin/python benchmarks/bench_app.py [--trajectories 1000] [--repeats 5] [--cold-repeats 3]
    .venv/bin/python benchmarks/bench_app.py --only trajectory,floor     # a subset of the measures
    .venv/bin/python benchmarks/bench_app.py --screenshot docs/screenshot.png   # + README image

What is measured, each from the browser's side (time from navigation or click until the content
is on screen, the image decoded):

(a) the trajectory page of a 100-step trajectory shows its first step's screenshot (goal 1.5 s);
(b) the overview of 1,000 trajectories shows its metrics and charts, with the summary index
    already built on disk (goal 2 s);
(c) stepping to the next step shows the new step's screenshot (goal 0.3 s).
(a') and (b') are the same pages reached inside the app, without a page load: choosing the
    trajectory in the Task box of the trajectory page, clicking Overview in the sidebar.
(floor) what Streamlit itself costs on this machine: a bare Streamlit app of the same shape
    (multipage navigation; same server config, browser and conditions) showing only what (a)
    waits for (a heading and the same step image, opened by a deep link) or what (b) waits for
    (a metric and two Plotly bar charts, on the default page). A goal below its floor cannot be
    met by any Streamlit app of that shape here; the distance to the floor is what the app adds.

Three conditions: "cold" = the first visit of a just-started server in a new browser profile
(Python imports, empty Streamlit caches; only the on-disk summary index exists); "server warm, new
browser" = the server has served the page before but the browser profile is new (Streamlit's and
Plotly's JavaScript are fetched and compiled again); "warm" = both have. For stepping, "cold" is a
step whose overlay was never drawn and "warm" one drawn before, and for (a') and (b') "cold" is the
first time on that server. Medians (and ranges) of the repeats.

Roots are built in a temporary folder from sample_runs/ (generated there when the repository has
none), scored once with the official evaluator: "many runs" replicates its two Fara runs into run
folders 0, 1, 2, ... (hard links) up to --trajectories; "two runs" grows each of the two runs to
--trajectories/2 tasks by filing sample folders under other catalog task ids. The 100-step
trajectory is the sample's longest. Nothing is written into the repository except --screenshot.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from benchmarks.synthetic_roots import build_many_runs, build_two_runs, prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import CHROMIUM_ARGS, running_server
from webeval_core.presentation.overlay import frame_image
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.runs.discovery import discover_runs
from webeval_core.runs.index import build_index
from webeval_core.support.diagnostics import UnreadableError

REPO = Path(__file__).resolve().parent.parent

VIEWPORT = {"width": 1440, "height": 1000}
TIMEOUT_MS = 120_000
POLL_MS = 20  # how often the page is checked for the awaited content

GOALS = {"trajectory": 1.5, "overview": 2.0, "step": 0.3}
MEASURES = ("trajectory", "overview", "floor", "in-app")

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
    const text = main ? main.textContent : "";
    return Boolean(image && image.getAttribute("src") !== oldSrc && text.includes(heading));
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


@dataclass(frozen=True)
class Target:
    """The trajectory the trajectory-page measures open: the sample's longest."""

    run: str
    """Its run's key, as the app's `run` query parameter takes it."""
    task: str
    """Its task id, as the app's `task` query parameter takes it."""
    steps: int
    """How many steps it has (all with a screenshot)."""
    first_step: int
    """The index of its first step, whose screenshot the page must show."""
    folder: Path
    """Its trajectory folder."""


def longest_trajectory(root: Path) -> Target:
    best: Target | None = None
    for run in discover_runs(root):
        if run.run_id not in (None, "0"):
            continue
        for folder in run.trajectory_dirs:
            try:
                trajectory = load_trajectory(folder)
            except UnreadableError:
                continue
            steps = trajectory.steps
            if steps and (best is None or len(steps) > best.steps) and all(s.screenshot for s in steps):
                best = Target(run.key, trajectory.task_id, len(steps), steps[0].index, folder)
    if best is None:
        raise SystemExit(f"no trajectory with steps under {root}")
    return best


# --- the server -----------------------------------------------------------------------------


# --- measurements ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Visit:
    """How long one visit of a page took, from the browser's side."""

    shown: float
    """Seconds until the measured content was on screen."""
    idle: float
    """Seconds until the script run had finished and nothing was stale."""


def _check(page: Page, what: str) -> None:
    if page.locator(_EXCEPTION).count():
        raise SystemExit(
            f"{what}: the page shows an exception:\n{page.locator(_EXCEPTION).first.inner_text()}"
        )


def _context(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]


def _page(context: BrowserContext) -> Page:
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def _trajectory_url(base: str, target: Target) -> str:
    return f"{base}/trajectory?" + urlencode({"run": target.run, "task": target.task})


def _visit(context: BrowserContext, url: str, shown_js: str, arg: object, what: str) -> Visit:
    """Open `url` in a new tab and time it until `shown_js(arg)` holds, then until idle."""
    page = _page(context)
    try:
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(shown_js, arg=arg, polling=POLL_MS)
        shown = time.perf_counter() - start
        page.wait_for_function(_IDLE_JS, polling=POLL_MS)
        idle = time.perf_counter() - start
        _check(page, what)
        return Visit(shown, idle)
    finally:
        page.close()


def _first_heading(target: Target) -> str:
    return f"Step {target.first_step} of {target.steps}"


def visit_trajectory(context: BrowserContext, base: str, target: Target) -> Visit:
    heading = _first_heading(target)
    return _visit(context, _trajectory_url(base, target), _STEP_SHOWN_JS, [heading, None], "trajectory page")


def visit_overview(context: BrowserContext, base: str, charts: int = 2) -> Visit:
    return _visit(context, f"{base}/", _OVERVIEW_SHOWN_JS, charts, "overview")


# --- the floor: what Streamlit itself costs here ------------------------------------------------

# A bare Streamlit app with what each goal waits for and nothing of ours: the step's image under
# its heading, or a metric and two Plotly bar charts. It has the app's shape, because that has a
# cost of its own: a multipage navigation in the sidebar, the charts on the default page at "/",
# the image on a page opened by a deep link (the browser first probes "/trajectory/_stcore/health"
# for a base path, then "/" after a 100 ms back-off). Same server config, browser and conditions.
_FLOOR_APP = """
import json
from pathlib import Path

import streamlit as st

st.set_page_config(layout="wide")
settings = json.loads(Path(__file__).with_name("floor.json").read_text())
heading, image, figure = settings["heading"], Path(settings["image"]), settings["figure"]


def charts():
    st.title("Overview")
    st.metric("Trajectories", 1000)
    for number, column in enumerate(st.columns(2)):
        column.plotly_chart(figure, key=f"chart-{number}", width="stretch")


def step():
    st.title("Task")
    st.markdown(f"**{heading}**")
    st.image(image.read_bytes(), width="stretch")


pages = [st.Page(charts, title="Overview", url_path="home", default=True)]
pages += [st.Page(step, title=name.title(), url_path=name) for name in ("trajectories", "trajectory")]
pages += [st.Page(charts, title=name.title(), url_path=name) for name in ("compare", "tasks")]
st.navigation(pages).run()
"""


def write_floor_app(work: Path, target: Target) -> Path:
    """The floor app in `work`, with its settings beside it: the long trajectory's first frame as
    the trajectory page draws it, and a grouped bar chart like the overview's site chart.
    """
    trajectory = load_trajectory(target.folder)
    step = trajectory.steps[0]
    assert step.screenshot is not None
    point = (step.point.x, step.point.y) if step.point else None
    image = work / "floor-frame.jpg"
    image.write_bytes(frame_image(trajectory.path / step.screenshot, point))
    sites = ["shopping", "shopping_admin", "gitlab", "reddit", "map", "wikipedia"]
    traces = [
        {"type": "bar", "name": f"run {n}", "x": sites, "y": [40 + 5 * n + i for i in range(6)]}
        for n in range(2)
    ]
    figure = {"data": traces, "layout": {"barmode": "group", "height": 360}}
    settings = {"heading": _first_heading(target), "image": str(image), "figure": figure}
    (work / "floor.json").write_text(json.dumps(settings))
    script = work / "floor_app.py"
    script.write_text(_FLOOR_APP)
    return script


def _step_through(page: Page, target: Target, steps: int) -> tuple[list[float], list[float]]:
    """From the first step: Next through `steps` new steps (cold: never drawn), then Previous
    back over them (warm: drawn before).
    """
    cold: list[float] = []
    warm: list[float] = []
    main = page.locator("[data-testid='stMain']")
    current = target.first_step
    for button, direction, times in (("Next ▶", 1, cold), ("◀ Previous", -1, warm)):
        for _ in range(steps):
            src = page.evaluate(_MAIN_SRC_JS)
            current += direction
            heading = f"Step {current} of {target.steps}"
            start = time.perf_counter()
            main.get_by_role("button", name=button).click()
            page.wait_for_function(_STEP_SHOWN_JS, arg=[heading, src], polling=POLL_MS)
            times.append(time.perf_counter() - start)
            page.wait_for_function(_IDLE_JS, polling=POLL_MS)
    return cold, warm


_TEXT_SHOWN_JS = """(text) => {
    const main = document.querySelector("[data-testid='stMain']");
    return Boolean(main && main.textContent.includes(text));
}"""


def _choose_task(page: Page, task: str) -> None:
    box = page.get_by_role("combobox", name="Task")
    box.click()
    box.fill(task)
    page.get_by_role("option", name=task, exact=True).click()


def in_app(
    context: BrowserContext, base: str, target: Target, other: str, steps: int, repeats: int
) -> dict[str, Series]:
    """Within one browser tab, as a person moves around the app (no page loads): open the long
    trajectory from the Task box, step through it, and open the Overview from the sidebar. The
    first of each is cold (nothing of it cached on the server yet), the repeats warm.
    """
    page = _page(context)
    series = {"trajectory": Series(), "overview": Series(), "step": Series()}
    heading = f"Step {target.first_step} of {target.steps}"
    try:
        page.goto(f"{base}/trajectory?" + urlencode({"run": target.run, "task": other}))
        page.wait_for_function(_STEP_SHOWN_JS, arg=["Step ", None], polling=POLL_MS)
        page.wait_for_function(_IDLE_JS, polling=POLL_MS)
        for attempt in range(repeats + 1):
            if attempt:
                _choose_task(page, other)
                page.wait_for_function(_TEXT_SHOWN_JS, arg=f"Task {other}", polling=POLL_MS)
                page.wait_for_function(_IDLE_JS, polling=POLL_MS)
            src = page.evaluate(_MAIN_SRC_JS)
            start = time.perf_counter()
            _choose_task(page, target.task)
            page.wait_for_function(_STEP_SHOWN_JS, arg=[heading, src], polling=POLL_MS)
            (series["trajectory"].warm if attempt else series["trajectory"].cold).append(
                time.perf_counter() - start
            )
            page.wait_for_function(_IDLE_JS, polling=POLL_MS)
            if not attempt:
                series["step"].cold, series["step"].warm = _step_through(page, target, steps)
        nav = page.locator("[data-testid='stSidebarNav']")
        for attempt in range(repeats + 1):
            if attempt:
                nav.get_by_role("link", name="Trajectories").click()
                page.wait_for_function(_TEXT_SHOWN_JS, arg="select a row to open it", polling=POLL_MS)
                page.wait_for_function(_IDLE_JS, polling=POLL_MS)
            start = time.perf_counter()
            nav.get_by_role("link", name="Overview").click()
            page.wait_for_function(_OVERVIEW_SHOWN_JS, arg=2, polling=POLL_MS)
            (series["overview"].warm if attempt else series["overview"].cold).append(
                time.perf_counter() - start
            )
            page.wait_for_function(_IDLE_JS, polling=POLL_MS)
        _check(page, "in-app navigation")
        return series
    finally:
        page.close()


@dataclass
class Series:
    """One measure in three conditions (see the module docstring)."""

    cold: list[float] = field(default_factory=list)
    """Seconds until shown, first visit of a just-started server in a new browser profile."""
    new_browser: list[float] = field(default_factory=list)
    """Seconds until shown, server warm but a new browser profile."""
    warm: list[float] = field(default_factory=list)
    """Seconds until shown, server and browser both warm."""
    cold_idle: list[float] = field(default_factory=list)
    """Seconds until idle, in the cold condition."""
    warm_idle: list[float] = field(default_factory=list)
    """Seconds until idle, in the warm condition."""


@dataclass(frozen=True)
class Repeats:
    """How often each condition of a page measure is repeated."""

    cold: int
    """Fresh servers started, one cold visit each."""
    warm: int
    """Visits on a warm server (each with a new browser, then with the warm one)."""


def measure_page(
    browser: Browser,
    root: Path,
    cache_home: Path,
    log: Path,
    visit: Callable[[BrowserContext, str], Visit],
    repeats: Repeats,
    *,
    script: Path = REPO / "app.py",
) -> Series:
    """Time `visit` of the app (or of `script`) serving `root` in the three conditions."""
    series = Series()
    for _ in range(repeats.cold):
        with running_server(root, cache_home, log, script) as base:
            context = _context(browser)
            try:
                first = visit(context, base)
            finally:
                context.close()
            series.cold.append(first.shown)
            series.cold_idle.append(first.idle)
    with running_server(root, cache_home, log, script) as base:
        context = _context(browser)
        try:
            visit(context, base)  # fill the server's caches and this browser's HTTP cache
            for _ in range(repeats.warm):
                fresh = _context(browser)
                try:
                    series.new_browser.append(visit(fresh, base).shown)
                finally:
                    fresh.close()
                again = visit(context, base)
                series.warm.append(again.shown)
                series.warm_idle.append(again.idle)
        finally:
            context.close()
    return series


def take_screenshot(browser: Browser, base: str, run: str, task: str, step: int, path: Path) -> None:
    """The README's picture: the trajectory page at one step, overlay drawn, 1440 px wide."""
    context = browser.new_context(viewport={"width": 1440, "height": 1150}, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{base}/")  # the home page first: the app shell, not a bare page script
        page.wait_for_function(_IDLE_JS, polling="raf")
        page.goto(f"{base}/trajectory?" + urlencode({"run": run, "task": task, "step": step}))
        page.wait_for_function(_STEP_SHOWN_JS, arg=[f"Step {step} of", None], polling="raf")
        page.wait_for_function(_IDLE_JS, polling="raf")
        # Sidebar folded away: the replay gets the whole width (and no temporary path shows).
        page.locator("[data-testid='stSidebar']").hover()
        page.locator("[data-testid='stSidebarCollapseButton'] button").click()
        page.locator("[data-testid='stExpandSidebarButton']").wait_for()
        page.wait_for_timeout(800)  # let the layout, fonts and the filmstrip settle
        _check(page, "screenshot")
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))
    finally:
        context.close()


# --- report ---------------------------------------------------------------------------------


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s" if values else "-"


def _spread(values: list[float]) -> str:
    return f"({min(values):.2f}-{max(values):.2f})" if len(values) > 1 else ""


def _cell(values: list[float], goal: float) -> str:
    if not values:
        return "-"
    mark = "" if statistics.median(values) <= goal else " !"
    return f"{_median(values)} {_spread(values)}{mark}"


def report(rows: list[tuple[str, float, Series]]) -> None:
    columns = ("cold", "server warm, new browser", "warm")
    print()
    header = f"{'measure':<50} {'goal':>6}  " + "  ".join(f"{c:<26}" for c in columns)
    print(header)
    print("-" * len(header))
    for name, goal, series in rows:
        cells = (series.cold, series.new_browser, series.warm)
        print(f"{name:<50} {goal:>5.1f}s  " + "  ".join(f"{_cell(c, goal):<26}" for c in cells))
    print("median (min-max); ! = over the goal")


def _measures(text: str) -> set[str]:
    chosen = set(text.split(","))
    if unknown := chosen - set(MEASURES):
        raise argparse.ArgumentTypeError(
            f"unknown measure(s) {', '.join(sorted(unknown))}; choose from {MEASURES}"
        )
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs", help="tree to replicate")
    parser.add_argument("--trajectories", type=int, default=1000, help="size of the overview's root")
    parser.add_argument("--repeats", type=int, default=5, help="warm visits per page")
    parser.add_argument("--cold-repeats", type=int, default=3, help="fresh servers per page")
    parser.add_argument("--steps", type=int, default=10, help="Next clicks (then as many Previous)")
    parser.add_argument(
        "--only",
        type=_measures,
        default=set(MEASURES),
        help=f"comma-separated subset of {','.join(MEASURES)} (default: all)",
    )
    parser.add_argument("--screenshot", type=Path, help="also write the README screenshot here")
    parser.add_argument("--screenshot-only", action="store_true", help="measure nothing")
    parser.add_argument("--screenshot-task", default="108", help="task of the screenshot (fara-7b run)")
    parser.add_argument("--screenshot-step", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the temporary root and print where")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"Chromium not found at {CHROMIUM} (apt-get install chromium); nothing measured.")
        return 1

    work = Path(tempfile.mkdtemp(prefix="webeval-bench-"))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            sample = prepare_sample(args.sample, work).resolve()
            if not args.screenshot_only:
                run_benchmark(browser, sample, work, args)
            if args.screenshot:
                with running_server(sample, work / "xdg-shot", work / "server.log") as base:
                    run = next(r.key for r in discover_runs(sample) if r.model == "fara-7b")
                    task, step = args.screenshot_task, args.screenshot_step
                    take_screenshot(browser, base, run, task, step, args.screenshot)
                print(f"wrote {args.screenshot}")
            browser.close()
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def run_benchmark(browser: Browser, sample: Path, work: Path, args: argparse.Namespace) -> None:
    load_before = os.getloadavg()
    started = time.perf_counter()
    roots = {"many runs": work / "many-runs", "two runs": work / "two-runs"}
    made = {
        "many runs": build_many_runs(sample, roots["many runs"], args.trajectories),
        "two runs": build_two_runs(sample, roots["two runs"], args.trajectories),
    }
    cache_home = work / "xdg-cache"
    os.environ["XDG_CACHE_HOME"] = str(cache_home)  # where the app finds the summary index
    runs = {shape: len(build_index(root.resolve()).runs) for shape, root in roots.items()}
    target = longest_trajectory(roots["many runs"])
    print(
        f"roots built and indexed in {time.perf_counter() - started:.0f} s: "
        + "; ".join(f"{made[s]} trajectories in {runs[s]} runs" for s in roots)
        + f". Long trajectory: task {target.task}, {target.steps} steps.",
        flush=True,
    )
    log = work / "server.log"
    big = roots["many runs"].resolve()

    def trajectory(context: BrowserContext, base: str) -> Visit:
        return visit_trajectory(context, base, target)

    rows: list[tuple[str, float, Series]] = []
    repeats = Repeats(cold=args.cold_repeats, warm=args.repeats)
    if "trajectory" in args.only:
        series = measure_page(browser, big, cache_home, log, trajectory, repeats)
        rows.append((f"(a) trajectory, {target.steps} steps: first step shown", GOALS["trajectory"], series))
        print("  (a) done", flush=True)
    if "overview" in args.only:
        for shape, root in roots.items():
            series = measure_page(browser, root.resolve(), cache_home, log, visit_overview, repeats)
            label = f"(b) overview, {made[shape]} traj. in {runs[shape]} runs"
            rows.append((label, GOALS["overview"], series))
            print(f"  (b) {shape} done", flush=True)
    if "floor" in args.only:
        floor_app = write_floor_app(work, target)

        def floor_image(context: BrowserContext, base: str) -> Visit:
            heading = [_first_heading(target), None]
            return _visit(context, f"{base}/trajectory", _STEP_SHOWN_JS, heading, "floor")

        def floor_charts(context: BrowserContext, base: str) -> Visit:
            return _visit(context, f"{base}/", _OVERVIEW_SHOWN_JS, 2, "floor")

        for label, goal, visit in (
            ("(floor) bare multipage app: heading and that image", GOALS["trajectory"], floor_image),
            ("(floor) bare multipage app: two Plotly bar charts", GOALS["overview"], floor_charts),
        ):
            series = measure_page(browser, big, cache_home, log, visit, repeats, script=floor_app)
            rows.append((label, goal, series))
        print("  floors done", flush=True)
    if "in-app" in args.only:
        other = next(d.name for d in discover_runs(big)[0].trajectory_dirs if d.name != target.task)
        with running_server(big, cache_home, log) as base:
            context = _context(browser)
            try:
                moves = in_app(context, base, target, other, args.steps, args.repeats)
            finally:
                context.close()
        rows.append(("(c) step shown (cold: Next, new; warm: Previous)", GOALS["step"], moves["step"]))
        label = f"(a') in the app: pick the {target.steps}-step one in Task"
        rows.append((label, GOALS["trajectory"], moves["trajectory"]))
        label = f"(b') in the app: sidebar -> Overview ({runs['many runs']} runs)"
        rows.append((label, GOALS["overview"], moves["overview"]))
    report(rows)
    print(
        "\ncold: first visit of a just-started server in a new browser profile (Python imports, empty"
        " caches; the summary index on disk). server warm, new browser: the server has served the page"
        " before, the browser has not (no HTTP cache: Streamlit's and Plotly's JavaScript are fetched"
        " and compiled again). warm: both have."
    )
    print(
        f"{args.cold_repeats} fresh servers per cold figure, {args.repeats} visits per warm figure,"
        f" {args.steps} steps each way. Load average before {load_before[0]:.1f},"
        f" after {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs."
    )


if __name__ == "__main__":
    sys.exit(main())
