"""A team on one server: N reviewers at once on a PostgreSQL store, against one reviewer alone.

    .venv/bin/python benchmarks/bench_team_load.py [--reviewers 10] [--seconds 120] [--alone-seconds 60]

Each reviewer is a Chromium browser context walking the sample runs' trajectories the way an
annotator does, over and over until the time is up:

  open       a trajectory by its link (a page load: a new session), until its title is shown
  tab        the Network tab, then the Evidence tab, each until its content is shown
  annotate   the Annotate tab, until its form is shown
  label      an outcome chosen (a button in a fragment), until it is shown chosen
  save       a justification typed and Save pressed, until "Annotation saved" is shown

Every action is timed from the browser's side. The same journey is first walked by one reviewer
alone on the same server (the baseline), then by all of them at once. Printed per action: the
median and 95th percentile of each phase and the loaded/alone ratio of the medians (goal: at most
2). Then: errors shown by any page (a Python exception, a refused save), the rows the store holds
against the saves the pages acknowledged, per reviewer and trajectory (none lost, none doubled:
each save's text is unique, so no save is a repeat), and the server's resident memory (its
process and children, sampled every half second: the peak of each phase).

The server, PostgreSQL and the browser share this machine's cores: with ten browser contexts on
two cores the browsers take much of the CPU the server would have, so the loaded figures are an
upper bound of what ten reviewers on their own machines would see. Nothing is written into the
repository; the root is a scored copy of sample_runs/ in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from playwright.async_api import BrowserContext, Page, async_playwright

from benchmarks.synthetic_roots import prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import CHROMIUM_ARGS, start_server, stop_server
from tests.harness.postgres_server import remove_server
from tests.harness.postgres_server import start_server as start_postgres
from webeval_core.review.annotation_db import open_store
from webeval_core.runs.index import build_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW

REPO = Path(__file__).resolve().parent.parent

ACTIONS = ("open", "tab", "annotate", "label", "save")
GOAL_RATIO = 2.0
TIMEOUT_MS = 60_000
_IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# The tabs a reviewer looks at before annotating, and what shows each has been drawn.
_TABS = (
    ("Network", re.compile("Network checks|no network trace|no network checks")),
    ("Evidence", re.compile(r"Score files \(\d+\)")),
)


@dataclass
class Phase:
    """What one phase measured: seconds per action, acknowledged saves, errors, memory."""

    times: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    saves: collections.Counter[tuple[str, str, str]] = field(default_factory=collections.Counter)
    errors: list[str] = field(default_factory=list)
    peak_rss_mb: float = 0.0
    server_cpu_share: float = 0.0
    """The server's CPU seconds over the machine's (cores x wall) while the phase ran."""


async def _settled(page: Page, text: str | re.Pattern[str]) -> None:
    """The awaited content is on screen and the script is idle with nothing stale left."""
    main = page.locator("[data-testid='stMain']")
    await main.get_by_text(text).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    await page.locator(_IDLE).wait_for(state="attached", timeout=TIMEOUT_MS)
    await page.wait_for_function(
        "() => !document.querySelector(\"[data-stale='true'], [data-testid='stSkeleton']\")",
        timeout=TIMEOUT_MS,
    )


async def _timed(phase: Phase, action: str, step: object) -> None:
    start = time.perf_counter()
    await step  # type: ignore[misc]
    phase.times[action].append(time.perf_counter() - start)


async def _check(page: Page, phase: Phase, where: str) -> None:
    main = page.locator("[data-testid='stMain']")
    if await main.locator("[data-testid='stException']").count():
        phase.errors.append(f"{where}: a Python exception is shown")
    if await main.get_by_text("Not saved").count():
        phase.errors.append(f"{where}: a save was refused")


async def _visit(page: Page, base: str, name: str, item: tuple[str, str], visit: int, phase: Phase) -> None:
    """One trajectory, as an annotator goes through it; every action timed."""
    run, task = item
    url = f"{base}/trajectory?{urlencode({'run': run, 'task': task, 'reviewer': name})}"
    main = page.locator("[data-testid='stMain']")
    await _timed(phase, "open", _open(page, url, task))
    for tab, shown in _TABS:
        await main.get_by_role("tab", name=tab).click()
        await _timed(phase, "tab", _settled(page, shown))
    await main.get_by_role("tab", name="Annotate").click()
    await _timed(phase, "annotate", _settled(page, "Justification"))
    outcome = "agent succeeded" if visit % 2 else "agent failed"
    button = main.get_by_role("button", name=re.compile(f"^{outcome}( Shortcut|$)"))
    await button.click()
    chosen = main.locator("[data-testid='stBaseButton-primary']").filter(has_text=outcome)
    await _timed(phase, "label", chosen.wait_for(state="visible", timeout=TIMEOUT_MS))
    text = f"{name}, visit {visit}"
    await main.get_by_label("Justification").fill(text)
    await main.get_by_role("button", name=re.compile(r"^Save( Shortcut|$)")).click()
    await _timed(phase, "save", _settled(page, "Annotation saved"))
    phase.saves[(name, f"{run}/{task}", text)] += 1
    await _check(page, phase, f"{name} on {run}/{task}")


async def _open(page: Page, url: str, task: str) -> None:
    await page.goto(url)
    await _settled(page, f"Task {task}")


async def _reviewer(
    context: BrowserContext, base: str, name: str, items: list[tuple[str, str]], until: float, phase: Phase
) -> None:
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    visit = 0
    offset = sum(map(ord, name))  # reviewers start on different trajectories, as a team spreads out
    while time.monotonic() < until:
        try:
            await _visit(page, base, name, items[(offset + visit) % len(items)], visit, phase)
        except Exception as exc:  # a timeout is a finding: counted, and the reviewer goes on
            phase.errors.append(f"{name}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        visit += 1


async def _phase(base: str, names: list[str], seconds: float, items: list[tuple[str, str]]) -> Phase:
    phase = Phase()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        contexts = [await browser.new_context(viewport={"width": 1440, "height": 1000}) for _ in names]
        until = time.monotonic() + seconds
        await asyncio.gather(
            *(_reviewer(c, base, n, items, until, phase) for c, n in zip(contexts, names, strict=True))
        )
        await browser.close()
    return phase


def _tree_cpu_s(pid: int) -> float:
    """CPU seconds of a process and its descendants so far, the finished ones included (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for current in _tree(pid):
        try:
            fields = (Path("/proc") / str(current) / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += sum(int(value) for value in fields[11:15]) / tick  # utime stime cutime cstime
    return total


def _tree(pid: int) -> list[int]:
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children[parent].append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, ()))
    return found


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its descendants (from /proc), in MB."""
    total = 0
    for current in _tree(pid):
        try:
            status = (Path("/proc") / str(current) / "status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total / 1024


class _RssSampler:
    """The peak resident memory of the server's process tree while a phase runs."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self.cpu_s = self.wall_s = 0.0

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            self.peak = max(self.peak, _tree_rss_mb(self.pid))

    def __enter__(self) -> _RssSampler:
        self._cpu0, self._wall0 = _tree_cpu_s(self.pid), time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.cpu_s = _tree_cpu_s(self.pid) - self._cpu0
        self.wall_s = time.monotonic() - self._wall0


def _quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _report(
    alone: Phase, loaded: Phase, reviewers: int, rows: collections.Counter[tuple[str, str, str]]
) -> bool:
    head = f"{reviewers} at once p50"
    print(f"\n{'action':10} {'alone p50':>10} {'p95':>7} {'n':>5}   {head:>17} {'p95':>7} {'n':>5}   ratio")
    met = True
    for action in ACTIONS:
        a, b = alone.times.get(action, []), loaded.times.get(action, [])
        if not a or not b:
            print(f"{action:10} not measured")
            met = False
            continue
        (a50, a95), (b50, b95) = _quantiles(a), _quantiles(b)
        ratio = b50 / a50
        met &= ratio <= GOAL_RATIO
        alone_text = f"{a50:10.2f} {a95:7.2f} {len(a):5}"
        print(f"{action:10} {alone_text}   {b50:17.2f} {b95:7.2f} {len(b):5}   {ratio:5.2f}")
    acknowledged = alone.saves + loaded.saves
    lost = acknowledged - rows
    doubled = rows - acknowledged
    print(
        f"\nsaves acknowledged {sum(acknowledged.values())}, rows in the store {sum(rows.values())}:"
        f" lost {sum(lost.values())}, doubled or unexpected {sum(doubled.values())}"
    )
    errors = alone.errors + loaded.errors
    print(f"errors shown: {len(errors)}")
    for error in errors[:20]:
        print(f"  {error}")
    print(
        f"server RSS peak: alone {alone.peak_rss_mb:.0f} MB, {reviewers} at once {loaded.peak_rss_mb:.0f} MB"
    )
    shares = f"alone {alone.server_cpu_share:.0%}, {reviewers} at once {loaded.server_cpu_share:.0%}"
    print(f"server's share of the machine's CPU (the rest: browsers, PostgreSQL, this script): {shares}")
    print(
        f"goal (each action's median at most {GOAL_RATIO:g}x alone, nothing lost or doubled, no error):"
        f" {'met' if met and not lost and not doubled and not errors else 'NOT met'}"
    )
    return met and not lost and not doubled and not errors


def _store_rows(url: str) -> collections.Counter[tuple[str, str, str]]:
    store = open_store(url)
    try:
        return collections.Counter(
            (a.reviewer, f"{a.run}/{a.task_id}", a.justification) for a in store.annotations(OUTSIDE_REVIEW)
        )
    finally:
        store.close()


def _items(root: Path) -> list[tuple[str, str]]:
    """Every readable trajectory of the root: (run key, task id)."""
    return [(s.run_key, s.task_id) for s in build_index(root).summaries if s.unreadable is None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reviewers", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the team walks")
    parser.add_argument("--alone-seconds", type=float, default=60.0, help="how long one reviewer walks first")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="webeval-team-load-"))
    root = prepare_sample(REPO / "sample_runs", work)
    postgres = start_postgres()
    store = postgres.new_database()
    os.environ["WEBEVAL_ANNOTATIONS"] = store
    process, base = start_server(root, work / "cache", work / "server.log")
    try:
        items = _items(root)
        print(
            f"{len(items)} trajectories; server {base}; store PostgreSQL; {os.cpu_count()} cores", flush=True
        )
        with _RssSampler(process.pid) as rss:
            alone = asyncio.run(_phase(base, ["solo"], args.alone_seconds, items))
        alone.peak_rss_mb = rss.peak
        alone.server_cpu_share = rss.cpu_s / (rss.wall_s * (os.cpu_count() or 1))
        names = [f"reviewer{i:02}" for i in range(args.reviewers)]
        with _RssSampler(process.pid) as rss:
            loaded = asyncio.run(_phase(base, names, args.seconds, items))
        loaded.peak_rss_mb = rss.peak
        loaded.server_cpu_share = rss.cpu_s / (rss.wall_s * (os.cpu_count() or 1))
        met = _report(alone, loaded, args.reviewers, _store_rows(store))
    finally:
        stop_server(process)
        remove_server(postgres)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
