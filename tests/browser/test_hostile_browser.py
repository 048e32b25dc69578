"""The app in a real browser on a root of hostile folders: every page and every tab of a hostile
trajectory render without an exception, nothing is fetched beyond the app's own server, and no
link or image made of input text reaches the page.

Screenshots go to test-artifacts/browser/hostile-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, Request

from tests.browser.conftest import ARTIFACTS, RENDER_MS, App
from tests.browser.hostile_text import IMAGE_NAME, RUNS, build_hostile_root
from tests.browser.streamlit_server import start_server, stop_server
from webeval_core.runs.index import build_index

if TYPE_CHECKING:
    from webeval_core.runs.index import RootIndex

pytestmark = pytest.mark.browser

TABS = ("Replay", "Expected vs actual", "Network", "Evidence", "Re-score", "Annotate")
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@pytest.fixture(scope="module")
def hostile_index(tmp_path_factory: pytest.TempPathFactory) -> RootIndex:
    return build_index(build_hostile_root(tmp_path_factory.mktemp("hostile") / "root"))


@pytest.fixture(scope="module")
def hostile_server(hostile_index: RootIndex, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    cache_home = tmp_path_factory.mktemp("hostile-cache")
    process, base_url = start_server(hostile_index.root, cache_home, ARTIFACTS / "server-hostile.log")
    try:
        yield base_url
    finally:
        stop_server(process)


@pytest.fixture
def requests_seen(page: Page) -> list[str]:
    seen: list[str] = []

    def record(request: Request) -> None:
        seen.append(request.url)

    page.on("request", record)
    return seen


def _visit(app: App, name: str, path: str, *expected: str, **query: object) -> None:
    app.goto(path, *expected, timeout=60_000, **query)
    app.page.wait_for_timeout(500)  # images and late elements: what they fetch is recorded too
    app.assert_no_exception()
    dom = app.page.locator("a[href*='example.invalid'], img[src*='example.invalid']")
    assert dom.count() == 0, [dom.nth(i).evaluate("e => e.outerHTML") for i in range(dom.count())]
    app.shot(f"hostile-{name}")


def _run_key(index: RootIndex, model: str) -> str:
    return next(run.key for run in index.runs if model in run.key)


def test_every_page_on_a_hostile_root(
    page: Page, hostile_server: str, hostile_index: RootIndex, requests_seen: list[str]
) -> None:
    page.set_default_timeout(RENDER_MS)
    app = App(page, hostile_server)
    run_a = _run_key(hostile_index, RUNS[0])

    _visit(app, "overview", "", "Overview")
    _visit(app, "trajectories", "trajectories", "Trajectories")
    for tab in TABS:
        slug = tab.lower().replace(" ", "-")
        _visit(
            app, f"trajectory-{slug}", "trajectory", f"Task {IMAGE_NAME}", run=run_a, task=IMAGE_NAME, tab=tab
        )
    _visit(app, "tasks", "tasks", "Tasks")
    _visit(app, "compare", "compare", "Compare runs")
    _visit(
        app,
        "compare-pair",
        "compare",
        "Side by side",
        a=run_a,
        b=_run_key(hostile_index, RUNS[1]),
        pair=IMAGE_NAME,
    )

    outside = sorted({url for url in requests_seen if not url.startswith(("data:", "blob:"))
                      and urlparse(url).hostname not in LOOPBACK})  # fmt: skip
    assert outside == []
    assert any(urlparse(url).hostname in LOOPBACK for url in requests_seen)


def test_both_trajectories_of_a_repeated_task_id_open(
    page: Page, hostile_server: str, hostile_index: RootIndex
) -> None:
    page.set_default_timeout(RENDER_MS)
    app = App(page, hostile_server)
    run_a = _run_key(hostile_index, RUNS[0])
    for folder, steps in (("108", "5 steps"), ("108-retry", "2 steps")):
        path = next(s.path for s in hostile_index.summaries if s.run_key == run_a and s.path.name == folder)
        task = f"108 ({path.relative_to(hostile_index.root).as_posix()})"
        _visit(app, f"duplicate-{folder}", "trajectory", steps, run=run_a, task=task, tab="Replay")
