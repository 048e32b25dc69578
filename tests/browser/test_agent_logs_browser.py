"""A user's journey over WebArena-Verified agent logs the official CLI judged (no screenshots, no
steps: an answer, a HAR and eval_result.json per task, tests/harness/agent_logs.py), in Chromium:

the header's verdict says what eval_result.json says (never "not scored"); Expected vs actual diffs
the answer's list element by element; Compare puts both runs' answers and network checks side by
side; a blind queue is made, and its Network tab keeps the requests and the task's
checks while hiding the verdict. Screenshots are saved under test-artifacts/browser/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.streamlit_server import REPO, start_server, stop_server
from tests.harness.agent_logs import agent_log_runs
from webeval_core.review import open_store, read_queues

if TYPE_CHECKING:
    from conftest import App
else:
    from tests.browser.conftest import App

ARTIFACTS = REPO / "test-artifacts" / "browser"


@pytest.fixture(scope="module")
def logs_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, str]]:
    """A server on two runs of agent logs, with an empty annotation store: (URL, root, store)."""
    folder = tmp_path_factory.mktemp("agent-logs")
    root = agent_log_runs(folder / "logs")
    store = str(folder / "annotations.sqlite")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBEVAL_ANNOTATIONS", store)
        process, base_url = start_server(root, folder / "cache", ARTIFACTS / "server-agent-logs.log")
    try:
        yield base_url, root, store
    finally:
        stop_server(process)


@pytest.fixture
def logs_app(browser: Browser, logs_server: tuple[str, Path, str]) -> Iterator[App]:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        yield App(context.new_page(), logs_server[0])
    finally:
        context.close()


def test_a_verdict_of_the_official_cli_is_shown_and_its_list_diffed(logs_app: App) -> None:
    app = logs_app
    app.goto("trajectory", "Task 107", run="run-b", task="107", tab="Expected vs actual")
    expect(app.main.get_by_text("eval_result.json: failure")).to_be_visible()
    expect(app.main.get_by_text("not scored")).to_have_count(0)
    app.wait("retrieved_data, element by element")
    app.assert_no_exception()
    app.shot("agent-logs-expected")


def test_compare_puts_both_answers_and_checks_side_by_side(logs_app: App) -> None:
    app = logs_app
    app.goto("compare", "Compare runs")
    app.goto("compare", "their answers and verdicts", a="run-a", b="run-b", pair="44")
    expect(app.main.get_by_text("Final answer")).to_have_count(2)
    expect(app.main.get_by_text("Network check 1: success")).to_be_visible()
    expect(app.main.get_by_text("Network check 1: failure")).to_be_visible()
    app.assert_no_exception()
    app.shot("agent-logs-compare")


def test_a_blind_queue_keeps_the_network_evidence(logs_app: App, logs_server: tuple[str, Path, str]) -> None:
    app = logs_app
    app.goto("review", "Review", reviewer="ann")
    expander = app.main.locator("[data-testid='stExpander']").filter(has_text="New queue")
    if not expander.get_by_label("Name").is_visible():  # an empty store opens it already
        expander.get_by_text("New queue").click()
    expect(expander.get_by_label("Name")).to_be_visible()
    app.wait()
    expander.get_by_label("Name").fill("navigate, blind")
    expander.get_by_label("Name").press("Enter")  # keyboard first: Enter in the name creates the queue
    app.wait("Open next")
    assert "navigate, blind" in read_queues(open_store(logs_server[2]))
    app.main.get_by_role("button", name="Open next").click()
    app.wait("blind review: verdicts hidden")
    app.page.get_by_role("tab", name="Network").click()
    app.wait("What the task checks in the trace")
    expect(app.main.get_by_text("check 1: passed")).to_have_count(0)
    expect(app.main.get_by_text("check 1: failed")).to_have_count(0)
    expect(app.main.get_by_text("eval_result.json:")).to_have_count(0)
    app.assert_no_exception()
    app.shot("agent-logs-blind-network")
