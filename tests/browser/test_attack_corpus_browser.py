"""The app in Chromium on issue 13's whole attack corpus (`tests/harness/hostile.py`): every page, and the
trajectory page of every folder of the root, render without an exception and fetch nothing beyond
the app's own server; nothing outside the root changes. Screenshots: test-artifacts/browser/corpus-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, Request

from tests.browser.conftest import ARTIFACTS, RENDER_MS, App
from tests.browser.streamlit_server import start_server, stop_server
from tests.harness.hostile import HostileRoot, hostile_root, snapshot_tree
from webeval_core.presentation.picks import trajectory_choices
from webeval_core.runs.index import RootIndex, build_index

pytestmark = pytest.mark.browser

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HostileRoot, RootIndex]]:
    with hostile_root(tmp_path_factory.mktemp("corpus")) as built:
        cache = tmp_path_factory.mktemp("corpus-cache")
        yield built, build_index(built.root, cache_dir=cache)


@pytest.fixture(scope="module")
def corpus_server(
    corpus: tuple[HostileRoot, RootIndex], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    process, base_url = start_server(
        corpus[0].root, tmp_path_factory.mktemp("corpus-xdg"), ARTIFACTS / "server-corpus.log"
    )
    try:
        yield base_url
    finally:
        stop_server(process)


def _visit(app: App, shot: str | None, path: str, *expected: str, **query: object) -> None:
    app.goto(path, *expected, timeout=60_000, **query)
    app.assert_no_exception()
    if shot:
        app.shot(f"corpus-{shot}")


def test_every_page_and_every_trajectory_of_the_corpus(
    page: Page, corpus_server: str, corpus: tuple[HostileRoot, RootIndex]
) -> None:
    built, index = corpus
    outside_before = snapshot_tree(built.outside)
    seen: list[str] = []

    def record(request: Request) -> None:
        seen.append(request.url)

    page.on("request", record)
    page.set_default_timeout(RENDER_MS)
    app = App(page, corpus_server)
    _visit(app, "overview", "", "Overview")
    _visit(app, "trajectories", "trajectories", "Trajectories")
    _visit(app, "tasks", "tasks", "Tasks")
    _visit(app, "compare", "compare", "Compare runs")
    opened = 0
    for run in index.runs:
        members = [s for s in index.summaries if s.run_key == run.key and not s.unreadable]
        for name in trajectory_choices(members):
            _visit(app, None, "trajectory", "Task", run=run.key, task=name)
            opened += 1
    app.shot("corpus-last-trajectory")

    assert opened >= len(built.normal)
    assert snapshot_tree(built.outside) == outside_before
    outside = sorted(
        {u for u in seen if not u.startswith(("data:", "blob:")) and urlparse(u).hostname not in LOOPBACK}
    )
    assert outside == []
