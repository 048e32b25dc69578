"""The judges side by side in a real browser, on the session's copy of sample_runs/ (its live-web
run in WebTailBench's shape, judged by the Universal Verifier): a failure point opens the replay at
its step; an error category charted on the overview filters the list, which the trajectory page
walks; a judges-disagree cell lists the trajectories two judges differ on, walked from the
trajectory page; a query's rows open their trajectories, walked the same way.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, expect

from tests.browser.conftest import App

LIVE_RUN = "runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebTailBench_sample/0"
"""The sample's live-web run (scripts/samplegen/data/recipes/webtailbench.toml)."""
BOOKED = "opentable_reserve_7"
"""Failure points at step 3 (1.2 Unauthorized substitution) and step 6 (4.2 Critical point violation)."""
AMBIGUOUS = "expedia_flights_12"
"""An ambiguous task (7.1): the verifier's outcome half passes it, its rubric half fails it."""
HEADER_PX, ROW_PX = 35, 35  # Streamlit's grid: a header row, then rows of 35 px


def _grid_row(app: App, grid: Locator, row: int) -> None:
    """Click row `row` (0-based) of a grid whose rows can be selected, on its selection box."""
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    app.page.mouse.click(box["x"] + 12, box["y"] + HEADER_PX + ROW_PX * row + ROW_PX // 2)


def _grid_cells(grid: Locator) -> dict[tuple[str, int], tuple[str, str]]:
    """A grid's cells as its accessible table (inside the canvas) holds the ones on screen: by
    (column header, row from 0), each cell's text and element id.
    """
    expect(grid.locator("td[id^='glide-cell-']").first).to_be_attached()  # drawn after the canvas
    read = "cells => cells.map(c => [c.getAttribute('aria-colindex'), c.id, c.textContent])"
    header = {column: text.strip() for column, _, text in grid.locator("th").evaluate_all(read)}
    return {
        (header.get(column, ""), int(cell_id.rsplit("-", 1)[1])): (text.strip(), cell_id)
        for column, cell_id, text in grid.locator("td[id^='glide-cell-']").evaluate_all(read)
    }


def _walk_to_the_end(app: App, tasks: set[str]) -> None:
    """On a trajectory opened from a list of `tasks`: "1 of n", then Next until "n of n", seeing each."""
    bar = app.page.locator(".st-key-walk_bar")
    total = len(tasks)
    app.wait(bar.get_by_text(f"1 of {total}"))
    seen = set()
    for position in range(1, total + 1):
        if position > 1:
            bar.get_by_role("button", name=re.compile("Next in list")).click()
            app.wait(bar.get_by_text(f"{position} of {total}"))
        heading = app.main.get_by_text(re.compile(r"^Task \S+")).first.inner_text()
        seen.add(heading.split()[1])
    assert seen == tasks
    expect(bar.get_by_role("button", name=re.compile("Next in list"))).to_be_disabled()


def test_a_failure_point_opens_the_replay_at_its_step(app: App) -> None:
    app.goto("trajectory", "First point of failure", "Run report", run=LIVE_RUN, task=BOOKED, tab="Judges")
    app.assert_no_exception()
    expect(app.main.get_by_text("4.2 Critical point violation").first).to_be_attached()
    # The failure points' paragraphs are wrapped below the grid, not in columns it scrolls to.
    accounts = app.main.get_by_text("The agent's reasoning, the evidence and the impact", exact=False)
    accounts.first.click()
    paragraphs = app.main.locator("[data-testid='stTable']")
    expect(paragraphs.get_by_text("evidence", exact=True).first).to_be_visible()
    app.shot("judges-sample-tab")
    # The first grid of the tab is the failure points; its second row is the booking at step 6.
    _grid_row(app, app.main.locator("[data-testid='stDataFrame']").first, 1)
    app.wait(app.main.get_by_text(re.compile(r"^Step 6 of 7")))
    assert "step=6" in app.page.url and "tab=" not in app.page.url  # the Replay, the default tab
    expect(app.main.get_by_text("4.2 Critical point violation", exact=False).first).to_be_visible()
    for step in (3, 6):  # the replay marks every step a judge flagged
        expect(app.main.get_by_role("button", name=f"⚑ {step}").first).to_be_visible()
    app.assert_no_exception()
    app.shot("judges-sample-replay-at-failure", full_page=False)


def test_a_charted_category_filters_the_list_it_walks(app: App) -> None:
    chart = app.page.locator(".st-key-chart_failure_category [data-testid='stPlotlyChart']")
    app.goto("", chart.locator(".main-svg").first, view="Outcomes and failures")
    app.shot("judges-sample-overview-categories")
    chart.scroll_into_view_if_needed()  # after the shot, which lays the page out again
    bars = chart.locator(".bars .point path")
    expect(bars.first).to_be_attached()
    # Categories in the taxonomy's order: the first is 1 Selection (the booking and the flights).
    box = bars.first.bounding_box()
    assert box is not None
    app.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    app.wait(app.main.get_by_text("2 trajectories in the clicked bars"))
    app.assert_no_exception()
    app.shot("judges-sample-overview-clicked")
    _grid_row(app, app.main.locator("[data-testid='stDataFrame']").last, 0)
    _walk_to_the_end(app, {BOOKED, AMBIGUOUS})
    app.assert_no_exception()
    app.shot("judges-sample-walk-category", full_page=False)


def test_a_judges_disagree_cell_lists_what_it_counts_and_the_list_is_walked(app: App) -> None:
    app.goto("disagreements", "Select a cell to list them")
    matrix = app.main.locator("[data-testid='stDataFrame']").first
    cells = _grid_cells(matrix)
    # Rows name the judges in full ("4. mmrubric_0.8-5-3 · outcome"), columns are their numbers.
    judges = {
        text.split(". ", 1)[1]: (row, text.split(". ", 1)[0] + ".")
        for (c, row), (text, _) in cells.items()
        if c == ""
    }
    row, _ = judges["mmrubric_0.8-5-3 · outcome"]
    _, column = judges["mmrubric_0.8-5-3 · rubric"]
    # The verifier's halves disagree on the ambiguous task: its outcome passes, its rubric fails.
    text, _ = cells[column, row]
    assert text.startswith("1 of "), cells
    app.shot("judges-sample-disagreements")
    # The grid is a canvas: click the row's last cell (the grid ends with its last column), then
    # move left to the pair's column with the keyboard, as a keyboard user would.
    numbers = sorted({c for c, _ in cells if c}, key=lambda c: int(c.rstrip(".")))
    listed = app.main.get_by_text(re.compile(r"^1 trajectory where the .* disagree"))
    for _ in range(2):  # a background refresh that read new score files redraws the grid once
        box = matrix.bounding_box()
        assert box is not None
        app.page.mouse.click(box["x"] + box["width"] - 8, box["y"] + HEADER_PX + ROW_PX * row + ROW_PX // 2)
        for _ in range(len(numbers) - 1 - numbers.index(column)):
            app.page.keyboard.press("ArrowLeft")
        app.wait()
        if listed.count():
            break
    app.wait(listed)
    app.assert_no_exception()
    app.shot("judges-sample-disagree-cell")
    _grid_row(app, app.main.locator("[data-testid='stDataFrame']").last, 0)
    _walk_to_the_end(app, {AMBIGUOUS})
    app.assert_no_exception()


def test_a_query_lists_trajectories_that_open_and_are_walked(app: App) -> None:
    sql = (
        "SELECT t.task_id, t.site, f.judge, f.code, t.rel FROM trajectories t"
        " JOIN failure_codes f USING (key) WHERE f.code LIKE '1.%' ORDER BY t.task_id"
    )
    app.goto("query", "The rows name trajectories", sql=sql)
    app.assert_no_exception()
    grid = app.main.locator("[data-testid='stDataFrame']").last
    cells = _grid_cells(grid)
    tasks = [
        text for (column, _), (text, _) in sorted(cells.items(), key=lambda c: c[0][1]) if column == "task_id"
    ]
    assert tasks == [AMBIGUOUS, BOOKED], cells
    app.shot("judges-sample-query")
    _grid_row(app, grid, 0)
    _walk_to_the_end(app, {AMBIGUOUS, BOOKED})
    app.assert_no_exception()
    app.shot("judges-sample-query-walk", full_page=False)
