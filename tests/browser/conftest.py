"""Browser tests: the real Streamlit server driven by Debian's Chromium through Playwright.

Nothing is installed here. `python3 dev.py test` installs Chromium when it can; when
`/usr/bin/chromium` is still missing every test in this folder is skipped with that reason.

The server browses a private copy of the session's scored `sample_runs/` (tests write score
files, never into the repository nor into the shared copy) and keeps its summary-index cache in a
temporary XDG_CACHE_HOME. Screenshots go to `<repo>/test-artifacts/browser/` (gitignored) so a
person can look at what the tests saw.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from dev import CHROMIUM
from tests.browser.streamlit_server import (
    CHROMIUM_ARGS,
    REPO,
    SCRIPT_IDLE,
    VIEWPORT,
    start_server,
    stop_server,
)
from tests.conftest import Sample, private_copy

ARTIFACTS = REPO / "test-artifacts" / "browser"
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
"""Under pytest-xdist each worker has its own servers; their logs are named for it."""
# WEBEVAL_TEST_SAMPLE_RUNS: another tree to copy (e.g. a freshly generated one); default sample_runs/.
SAMPLE_RUNS = Path(os.environ.get("WEBEVAL_TEST_SAMPLE_RUNS") or REPO / "sample_runs")
# The first render of a page loads pandas/plotly and builds the summary index: be generous.
FIRST_RENDER_MS = 60_000
RENDER_MS = 20_000
SKIP_REASON = (
    f"Chromium not found at {CHROMIUM}: browser tests need Debian's chromium-headless-shell package "
    "(`python3 dev.py test` installs it when run as root with apt-get)"
)
# An assertion on a page waits as long as a rerun may take on a loaded two-core CI machine, not
# Playwright's 5 s: a rerun there has taken longer, and a true assertion passes as soon as it holds.
expect.set_options(timeout=RENDER_MS)

_THIS_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip this folder's tests, and only these, when the system Chromium is absent."""
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if _THIS_DIR in Path(item.path).resolve().parents:
            item.add_marker(skip)


# --- the server -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def runs_copy(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private scored copy of sample_runs/: the tests write score files into it.

    It copies the session's scored sample (tests/conftest.py), so nothing is scored again. Another
    tree given by WEBEVAL_TEST_SAMPLE_RUNS is copied and scored with `webeval score`, as a user would.
    """
    target = tmp_path_factory.mktemp("webeval-root") / "sample_runs"
    if SAMPLE_RUNS == REPO / "sample_runs":
        scored_sample: Sample = request.getfixturevalue("scored_sample")
        return private_copy(scored_sample.root, target)
    if not (SAMPLE_RUNS.is_dir() and any(SAMPLE_RUNS.iterdir())):
        pytest.skip(f"{SAMPLE_RUNS} is empty: run scripts/make_sample_runs.py first")
    private_copy(SAMPLE_RUNS, target)
    env = {**os.environ, "XDG_CACHE_HOME": str(target.parent / "score-cache")}
    command = [sys.executable, "-m", "webeval_core.cli", "score", str(target), "--jobs", "2"]
    scored = subprocess.run(
        command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    # Exit 1 means some trajectories scored as errors, which the sample has on purpose.
    assert scored.returncode in (0, 1), f"webeval score failed:\n{scored.stdout}\n{scored.stderr}"
    return target


@pytest.fixture(scope="session")
def streamlit_server(runs_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a free loopback port, browsing the copy; yields its base URL."""
    cache_home = tmp_path_factory.mktemp("xdg-cache")
    # Tests type or link other roots in their own temporary folders: all of them are allowed, as
    # `webeval app --allow-root <pytest's temporary folder>` would.
    allowed = [tmp_path_factory.getbasetemp()]
    process, base_url = start_server(runs_copy, cache_home, _log("server"), allowed=allowed)
    try:
        yield base_url
    finally:
        stop_server(process)


def _log(name: str) -> Path:
    """Where a server shared by this folder's files logs: one file per pytest-xdist worker."""
    return ARTIFACTS / (f"{name}-{_WORKER}.log" if _WORKER else f"{name}.log")


# --- the browser (pytest-playwright fixtures, pointed at the system Chromium) ---------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": VIEWPORT}


# --- helpers --------------------------------------------------------------------------------


Expected = str | re.Pattern[str] | Locator
MAX_SHOT_HEIGHT = 6000
_CONTENT_HEIGHT_JS = """() => {
    const main = document.querySelector("[data-testid='stMain']");
    const scroller = document.querySelector("[data-testid='stAppScrollToBottomContainer']") || main;
    return Math.max(document.documentElement.scrollHeight, main ? main.scrollHeight : 0,
                    scroller ? scroller.scrollHeight : 0);
}"""


class App:
    """A Playwright page on the running app, with the waits Streamlit needs."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url

    def url(self, path: str = "", **query: object) -> str:
        url = f"{self.base_url}/{path.lstrip('/')}"
        return f"{url}?{urlencode({k: str(v) for k, v in query.items()})}" if query else url

    def goto(
        self, path: str = "", *expected: Expected, timeout: float = FIRST_RENDER_MS, **query: object
    ) -> None:
        self.page.goto(self.url(path, **query))
        self.wait(*expected, timeout=timeout)

    @property
    def main(self) -> Locator:
        """The page body (without the sidebar), where the views render."""
        return self.page.locator("[data-testid='stMain']")

    def wait(self, *expected: Expected, timeout: float = RENDER_MS) -> None:
        """Wait until the script is idle and each expected text (a substring or pattern, looked
        for in the main area) or locator is visible.

        Right after a click the old state can still read notRunning, so the expected content,
        not the script state alone, is what proves the rerun finished.
        """
        exception = self.page.locator("[data-testid='stException']").first
        for item in expected:
            locator = item.first if isinstance(item, Locator) else self.main.get_by_text(item).first
            # Either the content or a Python exception: an exception fails at once, with its text.
            expect(locator.or_(exception).first).to_be_visible(timeout=timeout)
            if exception.is_visible():
                self.shot("exception")
                pytest.fail(f"the page shows an exception instead of {item!r}:\n{exception.inner_text()}")
        expect(self.page.locator(SCRIPT_IDLE)).to_have_count(1, timeout=timeout)
        # Elements of the previous run fade out as stale until the rerun replaces them, and an
        # element whose code is still loading shows a skeleton.
        expect(self.page.locator("[data-stale='true']")).to_have_count(0, timeout=timeout)
        expect(self.page.locator("[data-testid='stSkeleton']")).to_have_count(0, timeout=timeout)

    def assert_app_shell(self) -> None:
        """app.py ran: its navigation (page titles, not file names) and root picker are in the sidebar."""
        sidebar = self.page.locator("[data-testid='stSidebar']")
        expect(sidebar.get_by_text("Root folder")).to_be_visible()
        nav = self.page.locator("[data-testid='stSidebarNav']")
        for title in ("Overview", "Trajectories", "Trajectory", "Compare runs", "Tasks"):
            expect(nav.get_by_text(title, exact=True)).to_be_visible()
        expect(nav.get_by_text("common", exact=True)).to_have_count(0)

    def assert_no_exception(self) -> None:
        exceptions = self.page.locator("[data-testid='stException']")
        if exceptions.count():
            self.shot("exception")
        expect(exceptions, "the page shows a Python exception").to_have_count(0)

    def download(self, button: Locator, folder: Path, *, timeout: float = RENDER_MS) -> Path:
        """Click a download button and save the file under `folder`; its path.

        A lazily built download is registered anew on each rerun and the previous registration is
        revoked, so a click landing just as a rerun (the index's poll, a fragment) replaces the
        button fails in Streamlit and the browser cancels it; a person clicks again, and so does this.
        """
        for attempt in (1, 2):
            with self.page.expect_download(timeout=timeout) as started:
                button.click()
            failure = started.value.failure()
            if failure is None:
                saved = folder / started.value.suggested_filename
                started.value.save_as(saved)
                return saved
            if attempt == 2:
                pytest.fail(f"the download failed twice: {failure}")
            self.wait()
        raise AssertionError("unreachable")

    def shot(self, name: str, *, full_page: bool = True) -> Path:
        """Save a screenshot to test-artifacts/browser/<name>.png.

        Streamlit scrolls inside its main area, so a "full page" screenshot of the window would
        stop at the viewport: the window is made as tall as the content for the shot instead.
        """
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        viewport = self.page.viewport_size
        height = int(self.page.evaluate(_CONTENT_HEIGHT_JS)) if full_page else 0
        if viewport and height > viewport["height"]:
            self.page.set_viewport_size({"width": viewport["width"], "height": min(height, MAX_SHOT_HEIGHT)})
            self.page.wait_for_timeout(400)  # let charts and tables lay out again
            try:
                self.page.screenshot(path=str(path))
            finally:
                self.page.set_viewport_size(viewport)
        else:
            self.page.screenshot(path=str(path))
        return path


@pytest.fixture(scope="session")
def warm_server(streamlit_server: str, browser: Browser) -> str:
    """The server after one visit of its home page: imports done, caches and index filled.

    Opening a deep link as the very first visit of a fresh server is a case of its own
    (test_deep_link_on_a_fresh_server); every other test starts from a server in use.
    """
    page = browser.new_page(viewport=VIEWPORT)
    try:
        App(page, streamlit_server).goto("", "Overview", "Success by site")
    finally:
        page.close()
    return streamlit_server


@pytest.fixture
def app(page: Page, warm_server: str) -> App:
    page.set_default_timeout(RENDER_MS)
    return App(page, warm_server)


@pytest.fixture
def fresh_app(page: Page, runs_copy: Path, tmp_path: Path) -> Iterator[App]:
    """A page on a server of its own that no browser has visited yet (cold caches, cold index)."""
    process, base_url = start_server(runs_copy, tmp_path / "xdg-cache", _log("server-fresh"))
    page.set_default_timeout(RENDER_MS)
    try:
        yield App(page, base_url)
    finally:
        stop_server(process)
