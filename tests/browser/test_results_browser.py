"""An adjudicator's journey to a published number, in Chromium: a verdict edited with a reason on
the trajectory's Published tab; the Overview says the rate as published beside the rate as scored;
a task corrected in a copy of the dataset and the root re-scored (`webeval score`, as a team does)
marks the edit to re-check; the Results page lists the scoring's flips, and a flip opens the
trajectory whose two score files show both verdicts. Screenshots under test-artifacts/browser/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.browser.streamlit_server import REPO, start_server, stop_server
from tests.conftest import SAMPLE_RUNS, private_copy
from tests.core.cli.helpers import run_cli
from tests.harness.datasets import changed_dataset
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review import open_store, read_edits
from webeval_core.runs import discover_runs

if TYPE_CHECKING:
    from conftest import App
else:
    from tests.browser.conftest import App

ARTIFACTS = REPO / "test-artifacts" / "browser"
TASK = "11"
"""A task the official evaluator failed in the Fara WebArena-Verified sample run."""
HEADER_PX, ROW_PX = 35, 35


@pytest.fixture(scope="module")
def results_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path, str]]:
    """A server on a private copy of the sample runs: (URL, root, its cache folder, the store)."""
    folder = tmp_path_factory.mktemp("results")
    root = private_copy(SAMPLE_RUNS, folder / "sample_runs")
    store = str(folder / "annotations.sqlite")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBEVAL_ANNOTATIONS", store)
        process, base_url = start_server(root, folder / "cache", ARTIFACTS / "server-results.log")
    try:
        yield base_url, root, folder / "cache", store
    finally:
        stop_server(process)


@pytest.fixture
def results_app(browser: Browser, results_server: tuple[str, Path, Path, str]) -> Iterator[App]:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        yield App(context.new_page(), results_server[0])
    finally:
        context.close()


def _grid_row(app: App, grid: Locator, row: int) -> None:
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    app.page.mouse.click(box["x"] + 12, box["y"] + HEADER_PX + ROW_PX * row + ROW_PX // 2)


def test_an_edit_is_published_then_marked_to_recheck_by_a_rescore(
    results_app: App, results_server: tuple[str, Path, Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = results_app
    _, root, cache, store = results_server
    runs = discover_runs(root)
    run = next(r.key for r in runs if r.run_id is not None and "fara-7b/demo/WebArena" in r.key)

    # 1. The adjudicator publishes a success, keyboard first: the reason, then Enter submits.
    app.goto("trajectory", "Task 11", run=run, task=TASK, tab="Published", reviewer="ann")
    app.wait("Published verdict")
    form = app.main.locator("[data-testid='stForm']").filter(has_text="Edit the published verdict")
    form.get_by_label("Reason (recorded)").fill("the right total, written in words")
    form.get_by_role("button", name="Set").click()
    app.wait("pass by ann (edit)")
    app.assert_no_exception()
    app.shot("published-edit")
    (edit,) = read_edits(open_store(store))
    assert (edit.task_id, edit.status, edit.author) == (TASK, "success", "ann")

    # 2. The Overview says both figures, and how many edits separate them.
    app.goto("", "Overview", reviewer="ann")
    app.wait("as published")
    expect(app.main.get_by_text("1 edit", exact=False).first).to_be_visible()
    app.shot("overview-two-figures")

    # 3. The task corrected in a copy of the dataset, the root re-scored from the command line.
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))  # the server's cache: its scorings are read there
    dataset = changed_dataset(load_catalog(), [int(TASK)], cache.parent / "dataset")
    code, said = run_cli("score", str(root), "--tasks", str(dataset), "--jobs", "2")
    assert code == 0 and "verdict(s) changed" in said
    new_hash = re.search(r"webarena-verified-[\w.]+-[0-9a-f]{8}", said)
    assert new_hash is not None and new_hash.group(0) != edit.replaced.source

    # 4. Results: the edit is to re-check; the last scoring's flips open the trajectory.
    app.goto("published", "Results", reviewer="ann")
    app.page.get_by_role("button", name="Reload from disk").click()
    app.wait("Last scoring")
    expect(app.main.get_by_text("verdict(s) changed", exact=False).first).to_be_visible()
    app.shot("results-last-scoring")
    _grid_row(app, app.main.locator(".st-key-_results_flips"), 0)
    link = app.main.get_by_role("link", name="both score files on its Evidence tab")
    expect(link).to_be_visible()
    link.click()
    app.wait(new_hash.group(0))  # both verdicts: the new score file and the one it flipped from
    assert edit.replaced.source is not None
    expect(app.main.get_by_text(edit.replaced.source).first).to_be_visible()
    app.assert_no_exception()
    app.shot("flip-opens-evidence")

    app.goto("trajectory", "Task 11", run=run, task=TASK, tab="Published", reviewer="ann")
    app.wait("To re-check")
    app.shot("published-to-recheck")
