"""The verifier in full in a real browser, on a root of hand-written Universal Verifier files
(tests/verifier_files.py): a failure point opens the replay at its step, and an error category
charted on the overview filters the list, which the trajectory page then walks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, RENDER_MS, App
from tests.browser.streamlit_server import start_server, stop_server
from tests.verifier_files import RUN, SECOND, TASK, verifier_root


@pytest.fixture
def judged(page: Page, tmp_path: Path) -> Iterator[App]:
    """A server of its own browsing the hand-written verifier root."""
    root = verifier_root(tmp_path)
    process, base_url = start_server(root, tmp_path / "xdg-cache", ARTIFACTS / "server-judges.log")
    page.set_default_timeout(RENDER_MS)
    try:
        yield App(page, base_url)
    finally:
        stop_server(process)


def test_a_failure_point_opens_the_replay_at_its_step(judged: App) -> None:
    app = judged
    app.goto("trajectory", "First point of failure", "Run report: ", run=RUN, task=TASK, tab="Judges")
    app.assert_no_exception()
    app.shot("judges-tab")
    grid = app.main.locator("[data-testid='stDataFrame']").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    # A canvas grid: the second failure point's selection box (35 px header, 35 px rows).
    app.page.mouse.click(box["x"] + 12, box["y"] + 35 + 35 + 17)
    app.wait(app.main.get_by_text(re.compile(r"^Step 3 of 5")))
    assert "step=3" in app.page.url and "tab=" not in app.page.url  # the Replay, the default tab
    expect(app.main.get_by_text("3.2.1 API-sniffing", exact=False).first).to_be_visible()
    expect(app.main.get_by_role("button", name="⚑ 2").first).to_be_visible()
    app.assert_no_exception()
    app.shot("judges-replay-at-failure", full_page=False)


def test_a_charted_category_filters_the_list_it_walks(judged: App) -> None:
    app = judged
    chart = app.page.locator(".st-key-chart_failure_category [data-testid='stPlotlyChart']")
    app.goto("", chart.locator(".main-svg").first, view="Outcomes and failures")
    app.shot("judges-overview-categories")
    chart.scroll_into_view_if_needed()  # after the shot, which lays the page out again
    bars = chart.locator(".bars .point path")
    expect(bars.first).to_be_attached()
    box = bars.first.bounding_box()  # the first category: 2 Hallucination, both failed trajectories
    assert box is not None
    app.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    narrowed = app.main.get_by_text("2 trajectories in the clicked bars")
    app.wait(narrowed)
    app.assert_no_exception()
    # The overview's list opens a trajectory with the list in its URL; walk it.
    grid = app.main.locator("[data-testid='stDataFrame']").last
    grid.scroll_into_view_if_needed()
    grid_box = grid.bounding_box()
    assert grid_box is not None
    app.page.mouse.click(grid_box["x"] + 12, grid_box["y"] + 35 + 17)
    bar = app.page.locator(".st-key-walk_bar")
    app.wait(bar.get_by_text("1 of 2"))
    expect(app.main.get_by_text(f"Task {TASK}")).to_be_visible()
    bar.get_by_role("button", name=re.compile("Next in list")).click()
    app.wait(bar.get_by_text("2 of 2"), app.main.get_by_text(f"Task {SECOND}"))
    app.assert_no_exception()
    app.shot("judges-walk-category", full_page=False)
