"""Browser views added for issue 11, saved as screenshots for a person to look at: two runs'
statistics on the compare page, and a rubric judge's verdict with its items wrapped."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import App

FARA_RUN = "runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebArenaVerified_sample/0"


def test_compare_shows_paired_statistics(app: App) -> None:
    app.goto("compare", "Is the difference real?", re.compile(r"On the \d+ tasks scored in both runs"))
    app.assert_no_exception()
    expect(app.main.get_by_text(re.compile("McNemar's exact test")).first).to_be_visible()
    app.main.get_by_text("Is the difference real?").scroll_into_view_if_needed()
    app.shot("compare-statistics", full_page=False)


def test_a_rubric_verdict_is_readable(app: App) -> None:
    app.goto("trajectory", "Score files", run=FARA_RUN, task="11", tab="Evidence")
    table = app.main.locator("[data-testid='stTable']").first
    expect(table).to_be_visible()
    expect(table.get_by_text("Answered 5; the grid says 6 records found.")).to_be_visible()
    expect(app.main.get_by_text("First point of failure")).to_be_visible()
    app.assert_no_exception()
    table.scroll_into_view_if_needed()
    app.shot("evidence-rubric", full_page=False)
