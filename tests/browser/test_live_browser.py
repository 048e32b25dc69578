"""A run watched while it is written, in Chromium: the Overview's counts and rate move as tasks end,
the Live page flags the hung task within its window, and a running trajectory is followed to its
last step with no error shown. Screenshots under test-artifacts/browser/live-*.png.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.browser.streamlit_server import running_server
from tests.harness.live_writer import LiveWriter, Script

if TYPE_CHECKING:
    from conftest import App
else:
    from tests.browser.conftest import App

RUN = "runs/WebSurfer-live/fara-7b/demo/WebArenaVerified_live/0"
SCRIPTS: dict[str, Script] = {
    "1": "finish",
    "2": "hang",
    "3": "crash",
    "4": "resume",
    "5": "finish",
    "6": "finish",
    "7": "finish",
    "8": "finish",
    "9": "finish",
}
WAIT_MS = 90_000
_FOLLOWED = "9"
"""The task followed: it waits after its second step until the test has opened it."""
_OVER = re.compile(r"(\d+) of 9 seen over")


@pytest.fixture
def live_run(tmp_path: Path) -> Iterator[tuple[str, LiveWriter]]:
    """A server on a root whose one run is being written (three tasks at a time, scored as they end)."""
    root = tmp_path / "root"
    writer = LiveWriter(
        root / RUN, "fara", SCRIPTS, pace=(0.4, 1.0), parallel=3, scored=True, held={_FOLLOWED: 2}
    )
    # The first task's folder exists before the server starts: the root holds a run to show.
    writer.start()
    expect_folder = root / RUN / "traj"
    while not any(expect_folder.glob("*/web_surfer.log")):
        time.sleep(0.05)
    with running_server(root, tmp_path / "cache", tmp_path / "server.log") as base_url:
        yield base_url, writer
    writer.join()


def _over(page: Page) -> int:
    text = page.locator("[data-testid='stMain']").get_by_text(_OVER).first.inner_text()
    found = _OVER.search(text)
    assert found is not None
    return int(found.group(1))


def test_a_run_is_watched_while_it_is_written(page: Page, live_run: tuple[str, LiveWriter]) -> None:
    base_url, writer = live_run
    app = App(page, base_url)

    # 1. The Overview: unfinished tasks apart, never in the rate; the counts move without a reload.
    app.goto("", "Overview", _OVER)
    expect(app.main.get_by_text("Unfinished").first).to_be_visible()
    first = _over(page)
    app.shot("live-overview-start")
    expect(app.main.get_by_text(_OVER).first).not_to_have_text(re.compile(rf"^{first} of 9"), timeout=WAIT_MS)
    expect(app.main.get_by_text(re.compile(r"\d+\.\d%")).first).to_be_visible(timeout=WAIT_MS)  # a rate
    app.assert_no_exception()
    app.shot("live-overview-moved")

    # 2. The Live page, keyboard first: a short window, then the hung task is flagged stalled.
    page.get_by_role("link", name="Watch it live").first.click()
    app.wait("Tasks expected")
    window = app.main.get_by_label("Stalled after this many silent minutes")
    window.fill("0.1")
    window.press("Enter")
    expect(app.main.get_by_text(re.compile(r"task 2 · stalled, silent"))).to_be_visible(timeout=WAIT_MS)
    # Task 2 hung for good; the held task is silent too once the window has passed.
    expect(app.main.get_by_text(re.compile(r"^Stalled \([12]\)$"))).to_be_visible()
    app.assert_no_exception()
    app.shot("live-page-stalled")

    # 3. A task still going (silent for now: the agent thinks) followed from the Live page to its
    # last step, which arrives while the page is open.
    going = app.main.get_by_role("link", name=re.compile(rf"task {_FOLLOWED} · (running|stalled)"))
    expect(going.first).to_be_visible(timeout=WAIT_MS)
    going.first.click()
    expect(app.main.get_by_text("Follow the newest step")).to_be_visible(timeout=WAIT_MS)
    writer.release(_FOLLOWED)
    expect(app.main.get_by_text("The task finished")).to_be_visible(timeout=WAIT_MS)
    total = re.compile(r"Step (\d+) of \1\b")
    expect(app.main.get_by_text(total).first).to_be_visible(timeout=WAIT_MS)
    expect(
        app.page.locator("[data-testid='stException'], [data-testid='stAlertContentError']")
    ).to_have_count(0)
    app.shot("live-followed")
    assert writer.truth[_FOLLOWED].finished
