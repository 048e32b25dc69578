"""Browser test of the network inspector: a request picked in the grid opens its detail."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import App


def test_a_selected_request_opens_its_detail(app: App) -> None:
    # An official-CLI folder of the sample: its HAR has no steps, so requests are placed by time.
    app.goto(
        "trajectory",
        app.main.get_by_text(re.compile(r"\d+ of \d+ requests")),
        run="webarena-verified-cli",
        task="108",
        tab="Network",
    )
    expect(app.main.get_by_text("+s: seconds from the first request").first).to_be_visible()
    app.main.get_by_label("Search requests").fill("GET")
    app.main.get_by_label("Search requests").press("Enter")
    app.wait(app.main.get_by_text(re.compile(r"\d+ of \d+ requests")))
    grid = app.main.locator("[data-testid='stDataFrame']").first
    box = grid.bounding_box()
    assert box is not None
    # The grid is a canvas: the first row's selection box lies under the 35 px header.
    app.page.mouse.click(box["x"] + 12, box["y"] + 35 + 17)
    app.wait(app.main.get_by_text(re.compile(r"^Request \d+$")), "Request headers", "Response headers")
    app.assert_no_exception()
    detail = app.main.locator(".st-key-request_detail")
    expect(detail.get_by_text("Response body (beginning, as text)")).to_be_visible()
    detail.scroll_into_view_if_needed()
    app.shot("network-request-detail")
