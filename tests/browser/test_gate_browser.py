"""The gate is not optional, in a browser (issue 49, point 1): a reviewer who names herself on the
Overview has seen its list's verdicts, so her save from a blind queue over those items is recorded
informed, with what was revealed; a second reviewer who saw nothing saves blind. Keyboard first:
the name typed and Enter, the labels by their keys, Ctrl+Enter to save.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.streamlit_server import REPO, VIEWPORT, start_server, stop_server
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review import (
    Annotation,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    queue_items,
    save_queue,
)
from webeval_core.review.annotations import Revealed
from webeval_core.runs.index import build_index
from webeval_core.runs.metrics import trajectory_frame
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW

if TYPE_CHECKING:
    from conftest import App
else:
    from tests.browser.conftest import App

ARTIFACTS = REPO / "test-artifacts" / "browser"
QUEUE = "blind after the overview"


class Server:
    """The app's server, its annotation store and the blind queue's items."""

    def __init__(self, base_url: str, store: str, items: list[tuple[str, str]], queue: ReviewQueue) -> None:
        self.base_url = base_url
        self.store = store
        self.items = items
        self.queue = queue
        """The blind queue, saved (as the Review page saves one) once cat has seen the list."""

    def save_queue(self) -> None:
        store = open_store(self.store)
        try:
            save_queue(store, self.queue)
        finally:
            store.close()

    def rows(self, reviewer: str) -> list[Annotation]:
        store = open_store(self.store)
        try:
            return [a for a in store.annotations(OUTSIDE_REVIEW) if a.reviewer == reviewer]
        finally:
            store.close()

    def revealed(self, reviewer: str) -> set[tuple[str, str]]:
        store = open_store(self.store)
        try:
            return store.revealed(reviewer)
        finally:
            store.close()


@pytest.fixture(scope="module")
def server(runs_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("gate")
    store = str(folder / "annotations.sqlite")
    index = build_index(runs_copy)
    queue = ReviewQueue(name=QUEUE, stage=Stage.BLIND, criteria=TrajectoryFilter(runs={index.runs[0].key}))
    judged = judge_verdicts(index)
    # The items some judge gave a verdict (an aborted task has none to show).
    items = [i for i in queue_items(trajectory_frame(index, load_catalog()), queue, judged) if judged.get(i)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBEVAL_ANNOTATIONS", store)
        process, base_url = start_server(runs_copy, folder / "cache", ARTIFACTS / "server-gate.log")
    try:
        yield Server(base_url, store, items, queue)
    finally:
        stop_server(process)


def _key(app: App, key: str) -> None:
    """Press a key with the focus on the page, not in a text box."""
    app.main.locator("h1").first.click()
    app.wait()
    app.page.keyboard.press(key)
    app.wait()


def _annotate(app: App, server: Server, reviewer: str, item: tuple[str, str], *expected: str) -> None:
    """Open a queue item's Annotate tab as `reviewer`, as the Review page's link does."""
    query = {"run": item[0], "task": item[1], "queue": QUEUE, "reviewer": reviewer, "tab": "Annotate"}
    app.goto("trajectory", *expected, **query)


def test_a_reviewer_named_on_the_overview_saves_informed_one_who_saw_nothing_blind(
    browser: Browser, server: Server
) -> None:
    item = server.items[0]
    cat = App(browser.new_page(viewport=VIEWPORT), server.base_url)
    dan = App(browser.new_page(viewport=VIEWPORT), server.base_url)
    try:
        _named_on_the_overview(cat, server, item)
        server.save_queue()  # then the blind queue over the items she saw
        _her_blind_save_is_informed(cat, server, item)
        _named_after_the_queue_spends_none_of_it(dan, server)
        _one_who_saw_nothing_saves_blind(dan, server, item)
    finally:
        cat.page.close()
        dan.page.close()


def _named_on_the_overview(cat: App, server: Server, item: tuple[str, str]) -> None:
    """Cat opens the Overview, names herself in the sidebar (typed, Enter): the list's verdicts are
    recorded as shown to her before they are drawn."""
    cat.goto("", "Overview", "Trajectories")
    assert server.revealed("cat") == set()
    sidebar = cat.page.locator("[data-testid='stSidebar']")
    box = sidebar.locator("summary", has_text="Reviewer: (not named)")
    box.focus()
    cat.page.keyboard.press("Enter")  # the expander opens from the keyboard (its content drawn on open)
    cat.wait()
    name = sidebar.get_by_label("Your name")
    expect(name).to_be_visible()
    name.press_sequentially("cat")
    name.press("Enter")
    cat.wait("Trajectories")
    expect(sidebar.get_by_text("Reviewer: cat")).to_be_visible()
    expect(cat.main.locator("[data-testid='stDataFrame']").last).to_be_visible()
    cat.shot("gate-overview-named")
    assert set(server.items) <= server.revealed("cat"), "the Overview's list went around the gate"
    assert item in server.revealed("cat")


def _named_after_the_queue_spends_none_of_it(dan: App, server: Server) -> None:
    """Dan names himself on the Overview once the blind queue exists: its items show no verdict in
    the list (the list says why) and none is recorded as shown, so his blind pass is whole."""
    dan.goto("", "Overview", "Trajectories")
    sidebar = dan.page.locator("[data-testid='stSidebar']")
    sidebar.locator("summary", has_text="Reviewer: (not named)").focus()
    dan.page.keyboard.press("Enter")
    dan.wait()
    name = sidebar.get_by_label("Your name")
    name.press_sequentially("dan")
    name.press("Enter")
    dan.wait(f'pending in your blind queue "{QUEUE}"')
    dan.shot("gate-overview-holds-the-queue")
    assert not server.revealed("dan") & set(server.items), "the Overview spent dan's blind pass"


def _her_blind_save_is_informed(cat: App, server: Server, item: tuple[str, str]) -> None:
    """The blind queue over the items she saw: the item is no longer blind for her (its verdicts
    show), and her save is stored informed, saying what was revealed."""
    _annotate(cat, server, "cat", item, re.compile("Informed: "))
    assert "blind review: verdicts hidden" not in cat.main.inner_text()
    _key(cat, "f")
    _key(cat, "Control+Enter")
    cat.wait("Saved as informed (not blind)")
    cat.shot("gate-informed-save")
    (row,) = server.rows("cat")
    assert (row.item, row.stage, row.outcome) == (item, Stage.INFORMED, "failure")
    assert row.revealed in (Revealed.VERDICT, Revealed.BOTH)


def _one_who_saw_nothing_saves_blind(dan: App, server: Server, item: tuple[str, str]) -> None:
    """Dan opens the same item from the queue having seen nothing: blind, saved blind."""
    _annotate(dan, server, "dan", item, "blind review")
    text = dan.main.inner_text()
    leaked = [t for t in ("webarena-verified", "Informed:", "success rate") if t in text]
    assert not leaked, f"verdicts shown to a reviewer in his blind pass: {leaked}"
    _key(dan, "s")
    _key(dan, "Control+Enter")
    dan.wait("Annotation saved (blind)")
    dan.shot("gate-blind-save")
    (row,) = server.rows("dan")
    assert (row.item, row.stage, row.revealed, row.outcome) == (item, Stage.BLIND, Revealed.NONE, "success")
    assert not server.revealed("dan") & set(server.items)  # the other runs' rows he saw are recorded
