"""The overview of a root of many runs in Chromium: it opens on the latest runs, pools its charts
beyond eight runs, pages its runs table, and a click on a pooled bar narrows the list."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from benchmarks.synthetic_roots import build_many_runs, fara_runs
from tests.browser.conftest import ARTIFACTS, RENDER_MS, App
from tests.browser.streamlit_server import REPO, start_server, stop_server
from tests.browser.test_app_browser import _click_tallest_bar, _narrowed
from webeval_core.runs.discovery import discover_runs, natural_key

if TYPE_CHECKING:
    from playwright.sync_api import Locator

RUNS = 12  # more than the overview opens on
OPENED = 8  # pages/overview.LATEST_RUNS


@pytest.fixture(scope="module")
def many_runs(runs_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A root of RUNS runs (hard-linked copies of the sample's Fara runs), indexed; (root, cache)."""
    work = tmp_path_factory.mktemp("many-runs")
    root, cache = work / "root", work / "xdg-cache"
    per_copy = sum(len(r.trajectory_dirs) for r in fara_runs(runs_copy))
    build_many_runs(runs_copy, root, per_copy * RUNS // 2)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    command = [sys.executable, "-m", "webeval_core.cli", "index", str(root)]
    subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True, timeout=300)
    return root, cache


@pytest.fixture
def many_app(page: Page, many_runs: tuple[Path, Path]) -> Iterator[App]:
    root, cache = many_runs
    process, base_url = start_server(root, cache, ARTIFACTS / "server-many-runs.log")
    page.set_default_timeout(RENDER_MS)
    try:
        yield App(page, base_url)
    finally:
        stop_server(process)


def _traces(app: App, key: str) -> list[str]:
    """The names of a chart's traces, read from the figure Plotly drew."""
    chart: Locator = app.main.locator(f".st-key-{key} .js-plotly-plot").first
    expect(chart).to_be_attached()
    return list(chart.evaluate("(plot) => plot.data.map((trace) => trace.name)"))


def test_a_root_of_many_runs_opens_on_its_latest_runs(many_app: App, many_runs: tuple[Path, Path]) -> None:
    runs = discover_runs(many_runs[0])
    assert len(runs) == RUNS
    many_app.goto("", "Overview", f"All {OPENED} runs, pooled", "Success by site")
    picker = many_app.main.locator("[data-testid='stMultiSelect']").first
    chips = picker.locator("[data-tag]")
    expect(chips).to_have_count(OPENED)
    latest = [r.key for r in sorted(runs, key=lambda r: natural_key(r.run_id or ""))[-OPENED:]]
    for run in runs:  # the runs with the highest run ids (copies 2 to 5 of both models)
        expect(chips.get_by_text(re.compile(rf"run {run.run_id}$"))).to_have_count(
            sum(1 for other in runs if other.run_id == run.run_id and other.key in latest)
        )
    shown = sum(len(r.trajectory_dirs) for r in runs if r.key in latest)
    expect(many_app.main.get_by_text(f"All {shown} trajectories of the chosen runs")).to_be_visible()
    assert len(_traces(many_app, "chart_site")) == OPENED  # eight runs: a trace each
    many_app.assert_no_exception()
    many_app.shot("overview-many-runs-latest")


def test_every_run_chosen_pools_each_chart_into_one_trace(
    many_app: App, many_runs: tuple[Path, Path]
) -> None:
    runs = discover_runs(many_runs[0])
    total = sum(len(r.trajectory_dirs) for r in runs)
    many_app.goto("", "Success by site")
    # Choosing every run from the picker, as a user would: the dropdown lists the runs not chosen.
    picker = many_app.main.locator("[data-testid='stMultiSelect']").first.locator("input")
    for _ in range(RUNS - OPENED):
        picker.click()
        many_app.page.locator("[role='option']").first.click()
        many_app.wait()
    many_app.wait(f"All {total} trajectories of the chosen runs", f"All {RUNS} runs, pooled")
    assert _traces(many_app, "chart_site") == [f"{RUNS} runs together"]
    assert _traces(many_app, "chart_task_type") == [f"{RUNS} runs together"]
    many_app.assert_no_exception()
    many_app.shot("overview-many-runs-pooled")
    # A pooled bar stands for every chosen run: clicking it narrows the list to its site.
    _click_tallest_bar(many_app, "chart_site")
    narrowed = _narrowed(many_app)
    assert 0 < narrowed < total
    many_app.assert_no_exception()
    many_app.shot("overview-many-runs-pooled-bar-clicked")
    link = many_app.main.get_by_role("link", name=re.compile("Open this selection on the Trajectories page"))
    link.click()
    many_app.wait(many_app.main.get_by_text(re.compile(rf"{narrowed} of {total} trajectories")))
    many_app.assert_no_exception()


def test_the_runs_table_opens_with_every_run(many_app: App) -> None:
    many_app.goto("", "Success by site")
    tables = many_app.main.locator("[data-testid='stDataFrame']")
    before = tables.count()
    many_app.main.get_by_text(f"{RUNS} runs under").click()
    many_app.wait(many_app.main.get_by_text("Run report"))
    expect(tables).to_have_count(before + 1)
    many_app.assert_no_exception()
    many_app.shot("overview-many-runs-table")
