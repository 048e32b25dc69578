"""How fast the live view sees a run change, and what watching costs the server while idle.

    .venv/bin/python benchmarks/bench_live.py [--trajectories 10000] [--writing 50] [--idle 60] [--out FILE]

A root of `--trajectories` finished trajectories (`synthetic_roots.build_runs`, runs of 812) gets
one more run, written while measured by `tests/harness/live_writer.LiveWriter`: `--writing` tasks at
once, a step every 0.2-1 s (log lines and screenshots in pieces), each task finishing after its
sample's steps. The app (`streamlit run app.py`, as `webeval app` starts it) shows that run's Live
page in Chromium; the page's "N of M seen over" is read every 50 ms.

- Latency: for the k-th task to finish (the writer's clock when its answer file is written), the
  time until the page first says k or more are over; median and 95th percentile. Goal: <= 5 s.
  Baseline, the same run: the index's refresh of the root (what the Overview showed before: a
  refresh every 30 s), timed here as one warm `refresh_index` of the same root, plus the 30 s
  wait of its cadence (median 15 s).
- Look cost: one `RunWatch.look()` of the live run with file system events (what each page tick
  pays) beside one without (every folder's time stat'ed, what object storage would need).
- Idle CPU: once the writer is done, the server's CPU time (its process group, from /proc) over
  `--idle` seconds while the page stays open; goal: under 5% of one core.
Results are printed and put at the top of --out (default benchmarks/results/live.txt).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

from benchmarks.results_file import record
from benchmarks.synthetic_roots import build_runs, link_tree, prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import CHROMIUM_ARGS, running_server
from tests.harness.live_writer import LiveWriter, Script
from webeval_core.runs import IndexStore, RunWatch, refresh_index

REPO = Path(__file__).resolve().parent.parent

LIVE_RUN = "runs/WebSurfer-live/fara-7b/demo/WebArenaVerified_live/0"
_OVER = re.compile(r"(\d+) of (\d+) seen over")
_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """The server's user and system CPU, with that of its children it reaped (index refreshes)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / _TICKS


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _read_page(page: Page, seen: list[tuple[float, int]], until: Callable[[], bool]) -> None:
    """Record (time, count over) each time the page's count changes, until `until()` (Playwright's
    sync API is read from this thread only).
    """
    last = -1
    while not until():
        try:
            text = page.locator("[data-testid='stMain']").inner_text(timeout=1000)
        except PlaywrightError:  # a rerun replaced the element mid-read
            continue
        found = _OVER.search(text)
        if found and int(found.group(1)) != last:
            last = int(found.group(1))
            seen.append((time.time(), last))
            print(f"{time.strftime('%H:%M:%S')} page says {last} over", flush=True)
        page.wait_for_timeout(50)


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--trajectories", type=int, default=10_000)
    parser.add_argument("--writing", type=int, default=50)
    parser.add_argument("--tasks", type=int, default=150, help="tasks of the live run (default 150)")
    parser.add_argument("--idle", type=float, default=60.0)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "live.txt")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-live-") as work_dir:
        lines = _measure(Path(work_dir), args)
    report = "\n".join([time.strftime("# %Y-%m-%d %H:%M:%S"), *lines, ""])
    print(report)
    record(args.out, report)
    return 0


def _measure(work: Path, args: argparse.Namespace) -> list[str]:
    sample = prepare_sample(REPO / "sample_runs", work / "sample")
    root = work / "root"
    made = build_runs(sample, root, args.trajectories)
    # The run exists (one task done) before the server starts; the writer starts once the page shows it.
    link_tree(_first_sample(sample), root / LIVE_RUN / "traj" / "0")
    store = IndexStore(root, work / "cache" / "webeval")
    refresh_index(store)
    started = time.perf_counter()
    refresh_index(store)
    warm_refresh_s = time.perf_counter() - started
    scripts: dict[str, Script] = {str(k): "finish" for k in range(1, args.tasks + 1)}
    writer = LiveWriter(root / LIVE_RUN, "fara", scripts, parallel=args.writing)
    lines = [f"root: {made} finished trajectories + a live run of {args.tasks} tasks, {args.writing} at once"]
    with running_server(root, work / "cache", work / "server.log") as base_url:
        seen = _watch_page(base_url, writer)
        finishes = sorted(t.finished_at for t in writer.truth.values() if t.finished_at is not None)
        latencies = _latencies(finishes, seen)
        print(f"latencies (s): {sorted(round(x, 2) for x in latencies)}", flush=True)
        lines += _look_costs(root / LIVE_RUN)
        server = _server_pid(base_url)
        before = _cpu_seconds(server)
        time.sleep(args.idle)
        idle_cpu = (_cpu_seconds(server) - before) / args.idle
    median, p95 = statistics.median(latencies), _percentile(latencies, 0.95)
    latency = f"median {median:.2f} s, p95 {p95:.2f} s over {len(latencies)} finishes"
    baseline = f"warm refresh {warm_refresh_s:.2f} s + the cadence's wait (median 15 s)"
    return [
        *lines,
        f"latency folder change -> Live page: {latency} (goal <= 5 s)",
        f"baseline, the index's refresh every 30 s (the Overview before): {baseline}",
        f"server CPU while idle-watching: {idle_cpu:.1%} of one core over {args.idle:.0f} s (goal < 5%)",
    ]


def _watch_page(base_url: str, writer: LiveWriter) -> list[tuple[float, int]]:
    """The Live page in Chromium while the writer runs: (time, count over) at each change."""
    seen: list[tuple[float, int]] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.goto(f"{base_url}/live?live_run={LIVE_RUN}", timeout=300_000)
        page.get_by_text(_OVER).first.wait_for(timeout=300_000)
        writer.start()
        _read_page(page, seen, lambda: writer.done)
        settle = time.time() + 8  # the last finishes reach the page
        _read_page(page, seen, lambda: time.time() > settle)
        browser.close()
    return seen


def _first_sample(sample: Path) -> Path:
    """A finished Fara folder of the sample: the live run's first task, done before it is watched."""
    return next(p.parent for p in sorted(sample.glob("runs/*/*/*/*/*/traj/*/times.json")))


def _latencies(finishes: list[float], seen: list[tuple[float, int]]) -> list[float]:
    """For the k-th finish, the time until the page first said k (plus the task done before) or
    more tasks are over.
    """
    out = []
    for k, finished_at in enumerate(finishes, start=2):
        shown = next((when for when, count in seen if count >= k and when >= finished_at - 0.05), None)
        if shown is not None:
            out.append(max(shown - finished_at, 0.0))
    return out or [float("nan")]


def _look_costs(run_dir: Path) -> list[str]:
    """One look of the finished live run, with events and without (each after a first full read)."""
    figures = []
    for events in (True, False):
        watch = RunWatch(run_dir, events=events)
        watch.look()
        started = time.perf_counter()
        for _ in range(20):
            watch.look()
        figures.append((time.perf_counter() - started) / 20)
        watch.close()
    with_events, without = figures[0] * 1000, figures[1] * 1000
    return [f"one look at the live run: {with_events:.1f} ms with events, {without:.1f} ms without"]


def _server_pid(base_url: str) -> int:
    """The process of the server listening at `base_url`."""
    port = base_url.rsplit(":", 1)[1]
    for stat in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            command = stat.read_bytes().split(b"\0")
        except OSError:
            continue
        line = b" ".join(command)
        if b"streamlit" in line and port.encode() in line:
            return int(stat.parent.name)
    raise RuntimeError(f"no server process on port {port}")


if __name__ == "__main__":
    raise SystemExit(main())
