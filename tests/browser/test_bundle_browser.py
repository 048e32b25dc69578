"""A bundle of the sample runs in Chromium, from a static HTTP server on loopback and from file://,
with every request to anywhere else refused: the runs, search, a filter, the sort, a deep link to a
filtered list and to a trajectory's step, and the replay's keys all work, and the page asked for
nothing outside the site. Screenshots under test-artifacts/browser/bundle-*.png.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

from tests.conftest import Sample
from tests.core.cli.helpers import run_cli

if TYPE_CHECKING:
    from conftest import App
else:
    from tests.browser.conftest import App

WAIT_MS = 15_000
_FRAME_LOADED_JS = """() => {
    const img = document.querySelector("#replay img");
    return img !== null && img.complete && img.naturalWidth > 0;
}"""


@pytest.fixture(scope="module")
def site(scored_sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bundle") / "site"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder.parent / "cache"))
        assert run_cli("bundle", str(scored_sample.root), "-o", str(folder))[0] == 0
    return folder


@pytest.fixture(scope="module")
def static_server(site: Path) -> Iterator[str]:
    """Python's static file server on a free loopback port, serving the site and nothing else."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _fence(page: Page, allowed: str) -> list[str]:
    """Refuse every request outside `allowed` (the site's origin or file://); the refused URLs."""
    refused: list[str] = []

    def handle(route: Route) -> None:
        if route.request.url.startswith(allowed):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    return refused


def _journey(page: Page, base: str, name: str) -> None:
    app = App(page, base)
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"{base}/index.html")
    expect(page.get_by_role("heading", name="Runs")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_text("Success by site").first).to_be_visible()
    app.shot(f"bundle-{name}-runs")
    # Search, keyboard first: type, Enter.
    page.get_by_role("link", name="Trajectories").click()
    search = page.get_by_label("Search")
    search.fill("merge request")
    search.press("Enter")
    expect(page.locator("#count")).to_have_text(re.compile(r"^\d+ trajectories"), timeout=WAIT_MS)
    rows = page.locator("tbody tr, table tr").filter(has=page.locator("td"))
    expect(rows.first).to_contain_text("merge request", ignore_case=True)
    # A filter and the sort, then the address they leave is a deep link that opens the same list.
    page.get_by_label("Verdict").select_option("fail")
    page.get_by_label("Sort").select_option("steps")
    expect(page.locator("#count")).to_have_text(re.compile(r"^\d+ trajectories"))
    assert "result=fail" in page.url and "sort=steps" in page.url and "q=merge" in page.url
    count = page.locator("#count").inner_text()
    app.shot(f"bundle-{name}-list")
    deep = page.url
    page.goto(f"{base}/index.html")
    page.goto(deep)
    expect(page.locator("#count")).to_have_text(count, timeout=WAIT_MS)
    # A trajectory, its replay stepped by keys, its step in the address.
    page.goto(f"{base}/index.html#/list?site=gitlab")
    page.locator("table a").first.click()
    expect(page.get_by_text(re.compile(r"^Step 1 of \d+"))).to_be_visible(timeout=WAIT_MS)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text(re.compile(r"^Step 2 of \d+"))).to_be_visible()
    assert "step=2" in page.url
    expect(page.locator("#replay img")).to_be_visible()
    # Loaded, not only laid out: a step's frame arrives after its heading.
    page.wait_for_function(_FRAME_LOADED_JS, timeout=WAIT_MS)
    expect(page.get_by_text("Expected vs actual")).to_be_visible()
    # A trajectory without reviews shows no part for them (not a stray "null").
    assert page.locator("#main").evaluate("m => [...m.childNodes].every((n) => n.nodeType !== 3)")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_text(re.compile(r"^Step 1 of \d+"))).to_be_visible()
    app.shot(f"bundle-{name}-trajectory")
    assert problems == []


def test_the_bundle_from_a_static_server(page: Page, static_server: str) -> None:
    refused = _fence(page, static_server)
    _journey(page, static_server, "http")
    assert refused == []


def test_the_bundle_from_file(page: Page, site: Path) -> None:
    refused = _fence(page, "file://")
    _journey(page, site.as_uri(), "file")
    assert refused == []
