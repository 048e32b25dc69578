"""Speed of human review at team size, on SQLite and PostgreSQL: prints goal vs measured.

    .venv/bin/python benchmarks/bench_annotations.py [--trajectories 2000] [--reviewers 5] [--repeats 5]

10,000 annotations by 5 reviewers over 2,000 trajectories (each reviewer judges every trajectory
once, blind or informed by turn, outcomes drawn with a fixed seed), stored in each store:
(a) the Agreement page's computation: every annotation read from the store, each judge's verdict
    per trajectory from the summary index (built once, as the app caches it), every figure
    (goal 0.5 s);
(b) save-and-next in the browser: on a blind queue of all trajectories, one key for the outcome
    then Ctrl+Enter; the time from Ctrl+Enter to the next item's form on screen, the page idle
    (goal 0.5 s); the outcome key's own rerun (the form only, a fragment) is shown beside it.
The root replicates sample_runs/ (hard links, scored once) as bench_app.py does; PostgreSQL is a
throwaway server in a temporary folder. Medians (and ranges) of the repeats.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playwright.sync_api import Browser, expect, sync_playwright

from benchmarks.synthetic_roots import build_many_runs, prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import CHROMIUM_ARGS, running_server
from tests.harness.postgres_server import postgres_binary, remove_server, start_server
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review import (
    Annotation,
    Outcome,
    ReviewQueue,
    Stage,
    agreement_report,
    judge_verdicts,
    open_store,
    queue_items,
    save_queue,
)
from webeval_core.runs.index import RootIndex, build_index
from webeval_core.runs.metrics import trajectory_frame
from webeval_core.runs.viewing import OUTSIDE_REVIEW

REPO = Path(__file__).resolve().parent.parent

QUEUE = "bench"
GOAL_AGREEMENT_S = 0.5
GOAL_SAVE_NEXT_S = 0.5
_IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def fill(location: str, index: RootIndex, reviewers: int) -> float:
    """Store one annotation per (reviewer, trajectory); seconds taken."""
    chance = random.Random(10)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    annotations = [
        Annotation(
            run=s.run_key,
            task_id=s.task_id,
            reviewer=f"reviewer-{r}",
            stage=Stage.BLIND if (n + r) % 2 else Stage.INFORMED,
            outcome=chance.choice(list(Outcome)),
            created=start + timedelta(seconds=n * reviewers + r),
        )
        for n, s in enumerate(index.summaries)
        for r in range(reviewers)
    ]
    began = time.perf_counter()
    open_store(location).add_many(annotations)
    return time.perf_counter() - began


def time_agreement(location: str, index: RootIndex, repeats: int) -> list[float]:
    """Seconds to read every annotation and compute every figure, per repeat (a fresh store each)."""
    times = []
    for _ in range(repeats):
        store = open_store(location)
        began = time.perf_counter()
        report = agreement_report(store.annotations(OUTSIDE_REVIEW), judge_verdicts(index))
        times.append(time.perf_counter() - began)
        store.close()
        assert report.reviewers
        assert report.judges
    return times


def time_save_and_next(
    browser: Browser, root: Path, location: str, work: Path, repeats: int
) -> tuple[list[float], list[float]]:
    """Seconds from the outcome key to the enabled save button, and from Ctrl+Enter to the next
    item's form with the page idle, per save, in a real browser.
    """
    import os

    index = build_index(root)
    queue = ReviewQueue(name=QUEUE, stage=Stage.BLIND)
    save_queue(open_store(location), queue)
    first = queue_items(trajectory_frame(index, load_catalog()), queue, judge_verdicts(index))[0]
    os.environ["WEBEVAL_ANNOTATIONS"] = location
    try:
        with running_server(root, work / "xdg", work / "server.log") as base:
            page = browser.new_page(viewport={"width": 1440, "height": 1000})
            query = f"run={first[0]}&task={first[1]}&queue={QUEUE}&reviewer=bench&tab=Annotate"
            page.goto(f"{base}/trajectory?{query}")
            expect(page.get_by_text("blind review: verdicts hidden").first).to_be_visible(timeout=120_000)
            labels, saves = [], []
            for _ in range(repeats + 1):  # the first save warms the server's caches: not counted
                expect(page.get_by_role("button", name="agent failed")).to_be_visible(timeout=30_000)
                expect(page.locator(_IDLE)).to_have_count(1, timeout=30_000)
                page.locator("[data-testid='stMain'] h1").first.click()  # focus the page, not a box
                url = page.url
                began = time.perf_counter()
                page.keyboard.press("f")
                chosen = page.get_by_role("button", name="agent failed")
                expect(chosen).to_have_attribute("data-testid", "stBaseButton-primary", timeout=30_000)
                labels.append(time.perf_counter() - began)
                began = time.perf_counter()
                page.keyboard.press("Control+Enter")
                expect(page).not_to_have_url(url, timeout=30_000)
                expect(chosen).to_have_attribute("data-testid", "stBaseButton-secondary", timeout=30_000)
                expect(page.locator(_IDLE)).to_have_count(1, timeout=30_000)
                saves.append(time.perf_counter() - began)
            page.close()
    finally:
        os.environ.pop("WEBEVAL_ANNOTATIONS", None)
    return labels[1:], saves[1:]


@contextmanager
def stores(work: Path) -> Iterator[dict[str, str]]:
    """The two stores: a SQLite file and, when installed, a database on a throwaway server."""
    found = {"SQLite": str(work / "annotations.sqlite")}
    server = start_server() if postgres_binary("initdb") else None
    try:
        if server is not None:
            found["PostgreSQL"] = server.new_database()
        yield found
    finally:
        if server is not None:
            remove_server(server)


def _row(what: str, goal: float, values: list[float]) -> str:
    median = statistics.median(values)
    verdict = "ok" if median <= goal else "OVER"
    spread = f"({min(values):.3f}-{max(values):.3f})"
    return f"  {what:<34} goal {goal:.2f} s   median {median:.3f} s  {spread}  {verdict}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trajectories", type=int, default=2000)
    parser.add_argument("--reviewers", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-browser", action="store_true", help="measure (a) only")
    parser.add_argument("--only", choices=("SQLite", "PostgreSQL"), help="one store only")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="webeval-bench-review-"))
    try:
        sample = prepare_sample(REPO / "sample_runs", work).resolve()
        root = work / "root"
        made = build_many_runs(sample, root, args.trajectories)
        index = build_index(root)
        print(f"{made} trajectories, {made * args.reviewers} annotations by {args.reviewers} reviewers")
        measure: Callable[[Browser | None], None]

        def measure(browser: Browser | None) -> None:
            with stores(work) as found:
                for name, location in found.items():
                    if args.only and name != args.only:
                        continue
                    filled = fill(location, index, args.reviewers)
                    print(f"{name}: stored in {filled:.1f} s")
                    print(
                        _row(
                            "(a) agreement page computed",
                            GOAL_AGREEMENT_S,
                            time_agreement(location, index, args.repeats),
                        )
                    )
                    if browser is not None:
                        labels, saves = time_save_and_next(browser, root, location, work / name, args.repeats)
                        print(_row("(b) save-and-next in the browser", GOAL_SAVE_NEXT_S, saves))
                        print(_row("    (an outcome key before it)", GOAL_SAVE_NEXT_S, labels))

        if args.no_browser or not CHROMIUM.exists():
            measure(None)
        else:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                measure(browser)
                browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
