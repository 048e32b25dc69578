"""A researcher's journeys in a real browser: walk a filtered list with keys, open a root from a
link (and be refused one the server may not open), read the headline metrics whole at 1280 and
1440 px, and look at a step's screenshot at full width, zoomed, and before / after side by side.

Screenshots of each view go to test-artifacts/browser/journey-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from webeval_core.presentation.picks import choice_of
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.index import build_index
from webeval_core.runs.metrics import filter_frame, trajectory_frame

if TYPE_CHECKING:
    from conftest import App

pytestmark = pytest.mark.browser

_METRICS_CUT_JS = """() => [...document.querySelectorAll("[data-testid='stMetricValue']")]
    .map((el) => {
        const inner = el.querySelector("div") || el;
        return {text: el.innerText, cut: inner.scrollWidth > inner.clientWidth + 1 ||
                el.scrollWidth > el.clientWidth + 1};
    })"""
_IMAGE_WIDTHS_JS = """() => [
        ...document.querySelectorAll("[data-testid='stMain'] [data-testid='stImage'] img")]
    .filter((img) => img.complete && img.naturalWidth >= 800)
    .map((img) => img.getBoundingClientRect().width)"""


@pytest.mark.parametrize("width", [1280, 1440])
def test_headline_metrics_are_never_cut(app: App, width: int) -> None:
    app.page.set_viewport_size({"width": width, "height": 1000})
    app.goto("", "Overview", "Success by site")
    values = app.page.evaluate(_METRICS_CUT_JS)
    assert len(values) >= 7  # the sample's eight runs pooled in one row of seven metrics
    assert not [v for v in values if v["cut"] or "…" in v["text"]], values
    rates = [v["text"] for v in values if "%" in v["text"]]
    assert rates and all(rate.rstrip("%").replace(".", "").isdigit() for rate in rates), rates
    app.assert_no_exception()
    app.shot(f"journey-overview-{width}", full_page=False)


def _failures_list(root: Path) -> tuple[list[str], dict[str, tuple[str, str]]]:
    """Keys of the sample's failed trajectories in list order, and each key's (run, task choice)."""
    index = build_index(root)
    listed = filter_frame(trajectory_frame(index, load_catalog()), statuses=["failure"])
    summaries = {s.key: s for s in index.summaries}
    opened = {
        key: (
            summaries[key].run_key,
            choice_of(summaries[key], [s for s in index.summaries if s.run_key == summaries[key].run_key]),
        )
        for key in listed["key"]
    }
    return list(listed["key"]), opened


def test_walk_a_filtered_list_with_keys(app: App, runs_copy: Path) -> None:
    keys, opened = _failures_list(runs_copy)
    assert len(keys) >= 3
    run, task = opened[keys[0]]
    app.goto("trajectory", f"1 of {len(keys)}", run=run, task=task, list="shown", list_statuses="failure")
    bar = app.page.locator(".st-key-walk_bar")
    expect(bar.get_by_role("button", name="◀ Previous in list")).to_be_disabled()
    app.shot("journey-walk-first", full_page=False)
    app.main.get_by_role("heading").first.click()  # focus the page, not a widget
    app.page.keyboard.press("Shift+ArrowRight")
    app.wait(f"2 of {len(keys)}", f"Task {opened[keys[1]][1]}")
    query = parse_qs(urlparse(app.page.url).query)
    assert query["task"] == [opened[keys[1]][1]] and query["list_statuses"] == ["failure"]
    assert "step" not in query  # a new trajectory opens at its first step
    app.page.keyboard.press("Shift+ArrowRight")
    app.wait(f"3 of {len(keys)}", f"Task {opened[keys[2]][1]}")
    app.page.keyboard.press("Shift+ArrowLeft")
    app.wait(f"2 of {len(keys)}")
    # Every trajectory of this list failed: the next failure is the next one.
    app.page.keyboard.press("f")
    app.wait(f"3 of {len(keys)}")
    app.assert_no_exception()
    app.shot("journey-walk-third", full_page=False)
    bar.get_by_role("link", name="Back to the list").click()
    app.wait("Trajectories", f"{len(keys)} of ")
    assert parse_qs(urlparse(app.page.url).query)["statuses"] == ["failure"]


def test_a_link_opens_the_root_it_names_and_refuses_one_not_allowed(app: App, runs_copy: Path) -> None:
    under = runs_copy / "runs"
    app.goto("", "Success by site", root=str(under))
    sidebar = app.page.locator("[data-testid='stSidebar']")
    expect(sidebar.get_by_text("Root folder: runs")).to_be_visible()
    assert parse_qs(urlparse(app.page.url).query)["root"] == [str(under)]
    app.assert_no_exception()
    app.goto("", "was not opened", root="/etc")
    expect(app.main.get_by_text("--allow-root /etc")).to_be_visible()
    expect(sidebar.get_by_text("Root folder: sample_runs")).to_be_visible()
    app.shot("journey-root-refused", full_page=False)


def _stepper(root: Path) -> tuple[str, str]:
    index = build_index(root)
    summary = next(
        s for s in index.summaries if s.steps >= 4 and s.outcome == "answered" and s.task_id.isdigit()
    )
    return summary.run_key, summary.task_id


def test_the_screenshot_takes_the_full_width_zooms_and_stands_beside_the_next(
    app: App, runs_copy: Path
) -> None:
    run, task = _stepper(runs_copy)
    app.goto("trajectory", "Thought", run=run, task=task, step=2)
    content = app.main.locator("[data-testid='stTabs']").first.bounding_box()  # the content's width
    assert content is not None
    (full,) = app.page.wait_for_function(
        f"() => {{ const w = ({_IMAGE_WIDTHS_JS})(); return w.length ? w : null; }}"
    ).json_value()
    assert full >= content["width"] * 0.95, (full, content["width"])
    app.shot("journey-screen-full", full_page=False)

    app.main.get_by_text("2×", exact=True).click()
    app.wait("around the action")
    app.shot("journey-screen-zoom", full_page=False)

    app.main.get_by_text("Also show the page after this action").click()
    app.wait("after it")
    widths = app.page.wait_for_function(
        f"() => {{ const w = ({_IMAGE_WIDTHS_JS})(); return w.length === 2 ? w : null; }}"
    ).json_value()
    # At 1440 px the content (beside the sidebar) has no room for two readable frames: stacked.
    assert len(widths) == 2 and all(w >= 600 for w in widths), (widths, content["width"])
    app.assert_no_exception()
    app.shot("journey-screen-before-after")
    app.page.set_viewport_size({"width": 1920, "height": 1000})  # room for both: side by side
    boxes = [app.main.locator("[data-testid='stImage'] img").nth(i).bounding_box() for i in (0, 1)]
    assert boxes[0] and boxes[1] and boxes[0]["y"] == boxes[1]["y"] and boxes[0]["x"] < boxes[1]["x"]
    app.shot("journey-screen-before-after-1920", full_page=False)
