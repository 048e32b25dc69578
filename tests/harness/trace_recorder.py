"""Record real Playwright traces for tests: Debian's Chromium driven against a loopback site.

The site is a page with a stylesheet, an image and a form; the recording loads it, submits the
form (a form-encoded POST page load) and sends one JSON fetch, so a trace holds documents,
static assets and request bodies that Playwright keeps apart from its entries. Nothing is
copied from elsewhere: every trace is made by the test that uses it.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from dev import CHROMIUM

PAGE = (
    "<html><head><title>shop</title><link rel=stylesheet href=style.css></head><body>"
    "<form method=post action=/cart><input name=sku value=B07X><input name=qty value=2>"
    "<button id=add>add</button></form><img src=logo.png></body></html>"
)
JSON_BODY = '{"query": "pants"}'


class _Site(http.server.SimpleHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", "0")))
        body = b'{"added": true}'
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


@contextmanager
def loopback_site(folder: Path) -> Iterator[str]:
    """Serve the test site from `folder` on 127.0.0.1; yields the page's URL."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(PAGE)
    (folder / "style.css").write_text("body { margin: 0 }")
    (folder / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Site, directory=str(folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/index.html"
    finally:
        server.shutdown()
        server.server_close()


def record_trace(workdir: Path, out: Path) -> Path:
    """Record the site's visit as a Playwright trace zip at `out` (skips without Chromium). Tests
    take the recording from the session fixture `playwright_trace` (tests/conftest.py), which
    marks them `browser`: a quick run starts no Chromium.

    Playwright records the network only when tracing with snapshots; without them
    `trace.network` stays empty, so snapshots are on. The recording runs in a thread of its own:
    the browser tests' Playwright session keeps an event loop running in the main thread, where
    the sync API refuses to start.
    """
    from tests.conftest import refuse_in_quick_run

    refuse_in_quick_run("Chromium (a Playwright trace)", mark="browser")
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}: a Playwright trace cannot be recorded")
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(_record, workdir, out).result()


def _record(workdir: Path, out: Path) -> Path:
    from playwright.sync_api import sync_playwright

    with loopback_site(workdir / "site") as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context()
        context.tracing.start(snapshots=True)
        page = context.new_page()
        page.goto(url)
        with page.expect_navigation():
            page.click("#add")
        page.evaluate(
            "body => fetch('/search', {method: 'POST', headers: {'content-type': 'application/json'}, body})",
            JSON_BODY,
        )
        page.wait_for_load_state("networkidle")
        context.tracing.stop(path=str(out))
        browser.close()
    return out
