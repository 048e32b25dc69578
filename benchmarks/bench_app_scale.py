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
issue 12 is each page within 1.3 times its floor. Each page is also measured beside a floor of
its own shape ("its own shape": every kind of element it draws, with made-up data: widgets,
metrics, tabs, tables, images and the sidebar's), which tells what of its time is Streamlit's
drawing of such a page and what is ours. Results are printed and written to --out.
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

from benchmarks.bench_app import (
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
from benchmarks.synthetic_roots import build_runs, prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import CHROMIUM_ARGS, start_server, stop_server
from webeval_core.runs.discovery import discover_runs

REPO = Path(__file__).resolve().parent.parent

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

def made_up_rows(runs):
    import pandas as pd
    return pd.DataFrame([
        {"run": f"model · bench · run {i % runs}", "task": str(i), "result": "pass", "site": "gitlab",
         "type": "retrieve", "intent": "Find the longest trail in Yosemite " * 3, "outcome": "answered",
         "status": "success", "score": 1.0, "steps": i % 40, "duration (s)": 60.0 + i, "tokens": 1000 + i,
         "failure tags": "", "answer": "The answer is " * 10} for i in range(ROWS)
    ])


def table_page():
    st.title("Trajectories")
    st.caption("50000 trajectories · select a row to open it")
    st.dataframe(made_up_rows(62), hide_index=True, width="stretch")
"""

# The floor of the overview's own shape: every kind of element the overview of a root of many runs
# draws (its latest eight, pooled), with made-up data and nothing of ours. The bench_app floor of a
# metric and two charts leaves out the tables, widgets and sidebar, whose JavaScript the browser
# loads and runs on a first visit; this one tells what of the overview's time is Streamlit's.
_FLOOR_OVERVIEW = """

def overview_page():
    import pandas as pd
    runs = [f"model · bench · run {n}" for n in range(62)]
    sidebar()
    st.title("Overview")
    st.expander("62 runs under /root", key="runs-box", on_change="rerun")
    st.multiselect("Runs", runs, default=runs[-8:])
    st.caption("Verdicts of the official evaluator.")
    st.markdown("**All 8 runs, pooled**")
    with st.container(horizontal=True, gap="medium"):
        for label, value in (("Trajectories", 6496), ("Success rate", "41.2%"), ("Passed", "2676 / 6496"),
                             ("No answer", 310), ("Aborted", 0), ("Scoring errors", 0)):
            st.metric(label, value, help="What it counts.", width="content")
    heads = [{"run": run, "trajectories": 812, "success_rate": 41.2, "passed": 334, "counted": 812,
              "no_answer": 39, "aborted": 0, "scoring_errors": 0} for run in runs[-8:]]
    st.dataframe(pd.DataFrame(heads), hide_index=True, width="stretch")
    success, *_ = st.tabs(["Success", "Outcomes and failures", "Intent templates", "Distributions"])
    with success:
        for number, column in enumerate(st.columns(2)):
            column.plotly_chart(figure, key=f"chart-{number}", width="stretch")
    st.subheader("Trajectories")
    st.caption("All 6496 trajectories of the chosen runs; click a bar above to narrow the list.")
    left, right = st.columns([1, 4], vertical_alignment="bottom")
    left.number_input("Page", min_value=1, max_value=13, step=1)
    right.caption("Rows 1–500 of 6496.")
    st.dataframe(made_up_rows(8), hide_index=True, width="stretch", on_select="rerun",
                 selection_mode="single-row")
"""
# The list's and the trajectory page's own shapes, alike: their widgets, tables, tabs and images.
_FLOOR_SHAPED_PAGES = """

def sidebar():
    with st.sidebar:
        st.expander("Root folder: root", key="root-box", on_change="rerun")
        st.button("Reload from disk")
        st.expander("Reviewer: (not named)", key="reviewer-box", on_change="rerun")


def list_page():
    sidebar()
    st.title("Trajectories")
    st.selectbox("Judge", ["official evaluator", "mmrubric"])
    st.text_input("Search")
    names = ["Run", "Site", "Task type", "Outcome", "Result", "Verdict status", "Failure tag",
             "Intent template"]
    for row in (names[:5], names[5:]):
        for column, name in zip(st.columns(len(row)), row):
            column.multiselect(name, [f"{name} {n}" for n in range(8)])
    st.toggle("Judges disagree")
    left, middle, right = st.columns([1, 2, 1])
    left.segmented_control("Annotated by me", ["yes", "no"])
    middle.multiselect("Human outcome", ["pass", "fail", "unsure"])
    right.checkbox("Disagrees with the evaluator")
    st.caption("50000 of 50000 trajectories · success rate 63.9% · select a row to open it")
    left, right = st.columns([1, 4], vertical_alignment="bottom")
    left.number_input("Page", min_value=1, max_value=100, step=1)
    right.caption("Rows 1–500 of 50000.")
    st.dataframe(made_up_rows(62), hide_index=True, width="stretch", on_select="rerun",
                 selection_mode="single-row")
    st.download_button("Download these rows (CSV)", "run,task", file_name="trajectories.csv")


def step_page():
    frame = image.read_bytes()
    sidebar()
    left, right = st.columns(2)
    left.selectbox("Run", ["model · bench · run 0"])
    left.caption("model · bench · run 0")
    right.selectbox("Task", ["0", "1", "2"])
    st.title("Task 0")
    st.text("Get the top-1 best-selling product name(s) in 2022")
    st.caption("sites: shopping_admin · type: retrieve")
    st.markdown(":green-badge[answered] :red-badge[official: 0]")
    replay, *_ = st.tabs(["Replay", "Expected vs actual", "Network", "Evidence", "Re-score", "Annotate"])
    with replay:
        with st.container(horizontal=True):
            st.button("◀ Previous")
            st.button("Next ▶")
            st.select_slider("Step", options=list(range(1, 41)))
        left, right = st.columns(2)
        left.toggle("Also show the page after this action")
        right.segmented_control("Zoom on the action", ["off", "2x"])
        st.image(frame, width="stretch")
        st.caption("screenshot0.png")
        text, requests = st.columns(2)
        text.markdown(f"**{heading}** · left_click")
        text.caption("2025-11-14 21:24:46 UTC (+0.0 s)")
        text.text("http://localhost:7780/admin/admin/dashboard/")
        text.markdown("**Thought**")
        text.text("Product reviews are managed under Marketing.")
        requests.expander("Requests during this step (0)")
        for number, column in enumerate(st.columns(9)):
            if number < 4:
                column.image(frame, width=120)
                column.button(str(number + 1), key=f"thumb-{number}")
"""
_SHAPED = {"overview": "shaped-overview", "list": "shaped-list", "trajectory page": "shaped-trajectory"}
"""The floor app's URL paths of the pages of each measured page's own shape."""


def _with_scale_pages(floor_app: Path) -> Path:
    """The bench_app floor app with its Trajectories page showing a table instead of the image, and
    a page of each measured page's own shape (`_SHAPED`).
    """
    text = floor_app.read_text()
    pages = (_FLOOR_LIST + _FLOOR_OVERVIEW + _FLOOR_SHAPED_PAGES).replace("ROWS", str(_TABLE_ROWS))
    text = text.replace("\npages = [", pages + "\npages = [", 1)
    table = '[st.Page(table_page, title="Trajectories", url_path="trajectories")]'
    for function, path in zip(("overview_page", "list_page", "step_page"), _SHAPED.values(), strict=True):
        table += f' + [st.Page({function}, title="{path}", url_path="{path}")]'
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


def _against_shaped_floor(
    browser: Browser, floor: Server, label: str, app: tuple[float, float], repeats: int, target: Target
) -> str:
    """A page's figures beside the floor of its own shape (`_FLOOR_OVERVIEW`, `_FLOOR_SHAPED_PAGES`)."""
    path, (first, again) = _SHAPED[label], app
    shown_js, arg = {
        "overview": (_OVERVIEW_SHOWN_JS, 2),
        "list": (_LIST_SHOWN_JS, _LIST_TEXT),
        "trajectory page": (_STEP_SHOWN_JS, [_first_heading(target), None]),
    }[label]
    shaped_first, shaped_again = _first_and_again(
        browser, floor, lambda c, b: _visit(c, f"{b}/{path}", shown_js, arg, "floor"), repeats
    )
    return (
        f"{'':>7}  {'  its own shape':<16} first {first:6.2f} s (floor {shaped_first:5.2f},"
        f" x{first / shaped_first:4.2f})   again {again:6.2f} s (floor {shaped_again:5.2f},"
        f" x{again / shaped_again:4.2f})"
    )


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
    floor_app = _with_scale_pages(write_floor_app(work, target))
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
        lines.append(_against_shaped_floor(browser, floor, label, (first, again), repeats, target))
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
