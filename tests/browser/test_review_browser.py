"""Two reviewers work one blind queue at once, with the keyboard, in two browser contexts.

Each saves three items with one key for the outcome and Ctrl+Enter to save and open the next;
before each save the page is checked for any verdict, score or failure tag. Both sets persist.
Also the Review page's own journey: queues created one after another (the form empties each
time), review mode left and the same queue chosen again, shortcut keys typed in the text boxes
staying text, and a save outside a queue emptying the whole form on screen.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.streamlit_server import REPO, start_server, stop_server
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review import (
    OFFICIAL,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    queue_items,
    read_queues,
    save_queue,
)
from webeval_core.runs.index import build_index
from webeval_core.runs.metrics import trajectory_frame
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW

if TYPE_CHECKING:
    from conftest import App
else:
    from tests.browser.conftest import App

ARTIFACTS = REPO / "test-artifacts" / "browser"
QUEUE = "blind pair"
# Texts only a verdict shows: the official engine's score files and statuses, judges' names.
VERDICT_TEXTS = ("webarena-verified", "mmrubric", "gpt_eval", "score ", "wrong values", "network request")


@pytest.fixture(scope="module")
def review_server(runs_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server of its own with an empty annotation store holding one blind queue: (URL, store)."""
    folder = tmp_path_factory.mktemp("review")
    store = str(folder / "annotations.sqlite")
    index = build_index(runs_copy)
    run = index.runs[0].key
    save_queue(
        open_store(store), ReviewQueue(name=QUEUE, stage=Stage.BLIND, criteria=TrajectoryFilter(runs={run}))
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBEVAL_ANNOTATIONS", store)
        process, base_url = start_server(runs_copy, folder / "cache", ARTIFACTS / "server-review.log")
    try:
        yield base_url, store
    finally:
        stop_server(process)


def _first_item(root: Path) -> tuple[str, str]:
    index = build_index(root)
    queue = ReviewQueue(name=QUEUE, stage=Stage.BLIND, criteria=TrajectoryFilter(runs={index.runs[0].key}))
    return queue_items(trajectory_frame(index, load_catalog()), queue, judge_verdicts(index))[0]


def _judged_outside_the_queue(root: Path) -> tuple[str, str]:
    """A trajectory the official evaluator judged, of another run than the blind queue's (which,
    open to anyone, holds its own items for a reviewer outside it)."""
    index = build_index(root)
    judged = judge_verdicts(index)
    return min(i for i, verdicts in judged.items() if OFFICIAL in verdicts and i[0] != index.runs[0].key)


def _open(page: Page, base_url: str, reviewer: str, item: tuple[str, str]) -> App:
    app = App(page, base_url)
    query = {"run": item[0], "task": item[1], "queue": QUEUE, "reviewer": reviewer, "tab": "Annotate"}
    app.goto("trajectory", "blind review", **query)
    return app


def _check_blind(app: App) -> None:
    text = app.main.inner_text()
    assert "blind review: verdicts hidden until you save" in text
    shown = [t for t in VERDICT_TEXTS if t in text]
    assert not shown, f"verdict text visible before saving: {shown}"


def _save_with_keys(app: App, key: str) -> float:
    """Choose the outcome by its key, save with Ctrl+Enter; seconds until the next item is shown."""
    task = app.page.url
    app.main.locator("h1").first.click()  # focus the page, not a text box
    app.page.keyboard.press(key)
    app.wait()  # the label's rerun (the labels' fragment)
    expect(
        app.main.get_by_role("button", name="agent failed" if key == "f" else "agent succeeded")
    ).to_have_attribute("data-testid", "stBaseButton-primary")
    started = time.perf_counter()
    app.page.keyboard.press("Control+Enter")
    expect(app.page).not_to_have_url(task, timeout=20_000)
    app.wait("blind review")
    return time.perf_counter() - started


def test_two_reviewers_work_one_blind_queue_with_the_keyboard(
    browser: Browser, review_server: tuple[str, str], runs_copy: Path
) -> None:
    base_url, store = review_server
    first = _first_item(runs_copy)
    contexts = [browser.new_context(viewport={"width": 1440, "height": 1000}) for _ in range(2)]
    try:
        apps = [
            _open(c.new_page(), base_url, name, first)
            for c, name in zip(contexts, ("ann", "bob"), strict=True)
        ]
        timings = []
        for number in range(3):  # interleaved: both sessions are open and saving at the same time
            for app, key in zip(apps, ("f", "s"), strict=True):
                _check_blind(app)
                if number == 0:
                    app.shot(f"review-blind-{key}")
                timings.append(_save_with_keys(app, key))
        apps[0].shot("review-after-three")
    finally:
        for context in contexts:
            context.close()
    saved = open_store(store).annotations(OUTSIDE_REVIEW)
    by_reviewer = {name: [a for a in saved if a.reviewer == name] for name in ("ann", "bob")}
    assert [len(v) for v in by_reviewer.values()] == [3, 3]
    assert {a.outcome for a in by_reviewer["ann"]} == {"failure"}
    assert {a.outcome for a in by_reviewer["bob"]} == {"success"}
    assert all(a.stage == Stage.BLIND for a in saved)
    assert len({a.item for a in by_reviewer["ann"]}) == 3  # each save moved on to another item
    print(f"save-and-next: {', '.join(f'{t:.2f}' for t in timings)} s")


def _in_review_mode(app: App, name: str) -> None:
    """The sidebar says the session works queue `name`."""
    sidebar = app.page.locator("[data-testid='stSidebar']")
    expect(sidebar.get_by_text(f"Review mode · queue {name}")).to_be_visible()


def _label_button(app: App, label: str) -> Locator:
    """The Annotate tab's button of one label (its accessible name ends with its shortcut)."""
    return app.main.get_by_role("button", name=re.compile(f"^{re.escape(label)} Shortcut"))


def _queue_form(app: App) -> Locator:
    """The "New queue" expander, opened (a rerun that draws more above it draws it closed)."""
    expander = app.main.locator("[data-testid='stExpander']").filter(has_text="New queue")
    if not expander.get_by_label("Name").is_visible():
        expander.get_by_text("New queue").click()
    expect(expander.get_by_label("Name")).to_be_visible()
    return expander


def _create_queue(app: App, name: str) -> None:
    """Fill in "New queue" and press its button, as a new user would."""
    expander = _queue_form(app)
    field = expander.get_by_label("Name")
    field.fill(name)
    # One click right after typing: the name and the click arrive together (the form's submit).
    button = expander.get_by_role("button", name="Create queue")
    # Seen before it is pressed, as a user scrolls to it: a click sent while the page still
    # scrolls the button into view can land beside it.
    button.scroll_into_view_if_needed()
    button.click()
    app.wait()
    app.assert_no_exception()
    _in_review_mode(app, name)
    _queue_form(app)
    expect(field).to_have_value("")  # saved: the form is empty again


def test_queues_created_one_after_another_are_saved_and_chosen(
    browser: Browser, review_server: tuple[str, str]
) -> None:
    """Issue 24: a second queue and a third after a reload, each saved, chosen and shown, no exception."""
    base_url, store = review_server
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        app = App(context.new_page(), base_url)
        app.goto("review", "Review", reviewer="ann")
        for name in ("second queue", "third queue"):
            _create_queue(app, name)
            app.assert_no_exception()
            expect(app.main.get_by_role("combobox", name="Queue")).to_have_value(name)
        app.page.reload()
        app.wait("Review")
        _create_queue(app, "after reload")
        app.assert_no_exception()
        expect(app.main.get_by_role("combobox", name="Queue")).to_have_value("after reload")
        app.shot("review-queues-created")
    finally:
        context.close()
    names = set(read_queues(open_store(store)))
    assert {QUEUE, "second queue", "third queue", "after reload"} <= names


def _pick_queue(app: App, name: str) -> None:
    """Choose a queue in the Review page's picker, as a reviewer would."""
    picker = app.main.get_by_role("combobox", name="Queue")
    picker.click()
    app.page.get_by_role("option", name=name, exact=True).click()
    app.wait()
    _in_review_mode(app, name)
    expect(app.main.get_by_role("button", name="Open next item")).to_be_visible()


def test_leaving_review_mode_empties_the_picker_and_the_queue_can_be_chosen_again(
    browser: Browser, review_server: tuple[str, str]
) -> None:
    """Left from the Review page, the picker no longer shows the queue (nothing is worked), and
    choosing the same queue again enters its review mode again.
    """
    base_url, _ = review_server
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        app = App(context.new_page(), base_url)
        app.goto("review", "Review", reviewer="ann")
        _pick_queue(app, QUEUE)
        app.page.get_by_role("button", name="Leave review mode").click()
        app.wait()
        app.assert_no_exception()
        expect(app.page.get_by_text("Review mode · queue")).to_have_count(0)
        expect(app.main.get_by_role("combobox", name="Queue")).to_have_value("")
        expect(app.main.get_by_role("button", name="Open next item")).to_have_count(0)
        app.shot("review-left")
        _pick_queue(app, QUEUE)
        app.assert_no_exception()
    finally:
        context.close()


LABELS = (
    "agent succeeded",
    "agent failed",
    "cannot tell",
    "behaved correctly",
    "mistake that did not change the outcome",
    "unsafe or unwanted action",
    "fine",
    "ambiguous",
    "expected answer wrong",
    "infeasible",
    "environment problem",
    "no environment problem",
)
"""The Annotate tab's label buttons, each with a one-key shortcut (S F U, 1-3, 4-7, E N)."""


def test_keys_typed_in_the_text_boxes_are_text_not_labels(
    browser: Browser, review_server: tuple[str, str], runs_copy: Path
) -> None:
    """Every shortcut key typed in the step box and the justification is text: no label changes,
    and the row saved holds the one label chosen and exactly what was typed."""
    base_url, store = review_server
    item = _first_item(runs_copy)
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    typed = "Success? 1 2 3 4 5 6 7: unsafe, fine, EN"  # every shortcut key, both cases
    try:
        app = _open(context.new_page(), base_url, "cat", item)
        app.main.locator("h1").first.click()
        app.page.keyboard.press("f")
        app.wait()
        steps = app.main.get_by_role("textbox", name="First failing step(s)")
        steps.click()
        app.page.keyboard.type("4, 5")
        box = app.main.get_by_label("Justification")
        box.click()  # leaving the step box commits it: a run of its own
        app.wait()
        app.page.keyboard.type(typed)
        expect(box).to_have_value(typed)
        for label in LABELS:
            chosen = "stBaseButton-primary" if label == "agent failed" else "stBaseButton-secondary"
            expect(_label_button(app, label)).to_have_attribute("data-testid", chosen)
        app.page.keyboard.press("Control+Enter")
        app.wait("Annotation saved (blind)")
    finally:
        context.close()
    (row,) = [a for a in open_store(store).annotations(OUTSIDE_REVIEW) if a.reviewer == "cat"]
    assert (row.item, row.outcome, row.process, row.task, row.environment_problem) == (
        item,
        "failure",
        None,
        None,
        None,
    )
    assert (row.failing_steps, row.justification) == ((4, 5), typed)


def test_a_save_outside_a_queue_empties_the_whole_form_on_screen(
    browser: Browser, review_server: tuple[str, str], runs_copy: Path
) -> None:
    """Saved outside a queue, the item stays on screen: every field of the form is emptied there
    too, so a second save (a revision) holds exactly what the reviewer sees and typed again."""
    base_url, store = review_server
    item = _judged_outside_the_queue(runs_copy)
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        app = App(context.new_page(), base_url)
        app.goto("trajectory", "Task", run=item[0], task=item[1], reviewer="dan", tab="Annotate")
        release = app.main.get_by_role("button", name="Show its verdicts")
        if release.count():  # the blind queues earlier tests made for anyone hold it: asked for
            release.click()
        app.wait("Informed:")
        steps = app.main.get_by_role("textbox", name="First failing step(s)")
        box = app.main.get_by_label("Justification")
        app.main.locator("h1").first.click()
        app.page.keyboard.press("f")
        app.wait()
        steps.fill("3")
        box.fill("dan: first look")  # leaving the step box commits it: a run of its own, which a
        app.wait()  # reviewer's typing outlasts (a save pressed within it went unanswered once, under load)
        box.press("Control+Enter")
        app.wait("Annotation saved (informed)")
        expect(steps).to_have_value("")
        expect(box).to_have_value("")
        expect(_label_button(app, "agent failed")).to_have_attribute("data-testid", "stBaseButton-secondary")
        app.shot("review-saved-outside-queue")
        app.main.locator("h1").first.click()
        app.page.keyboard.press("s")
        app.wait()
        box.fill("dan: on second thought")
        box.press("Control+Enter")
        app.wait("Annotation saved (informed)")  # the first save's message may still be shown:
        expect(box).to_have_value("")  # the box emptied is this save's
    finally:
        context.close()
    rows = [a for a in open_store(store).annotations(OUTSIDE_REVIEW) if a.reviewer == "dan"]
    assert [(r.outcome, r.failing_steps, r.justification) for r in rows] == [
        ("failure", (3,), "dan: first look"),
        ("success", (), "dan: on second thought"),
    ]


def test_a_queue_assigned_to_two_reviewers_tells_them_from_anyone_else(
    browser: Browser, review_server: tuple[str, str], runs_copy: Path
) -> None:
    """A queue assigned to bob and to an identity (made as the Review page's form makes it; the
    form itself: tests/app/test_review.py): carol, whose page was open before, finds it assigned
    to others (said, not refused) and each reviewer's progress; bob, typed in another case, finds
    it his, in a session of his own at the same time.
    """
    base_url, store = review_server
    name = "for bob and dee"
    contexts = [browser.new_context(viewport={"width": 1440, "height": 1000}) for _ in range(2)]
    try:
        carol, bob = (App(c.new_page(), base_url) for c in contexts)
        carol.goto("review", "Review", reviewer="carol")
        run = build_index(runs_copy).runs[0].key
        queue = ReviewQueue(
            name=name,
            stage=Stage.BLIND,
            criteria=TrajectoryFilter(runs={run}),
            reviewers=("bob", "Dee@Example.org"),
        )
        save_queue(open_store(store), queue)

        carol.page.reload()
        carol.wait("Review")
        _pick_queue(carol, name)
        expect(
            carol.main.get_by_text("This queue is assigned to bob, Dee@Example.org, not to you.")
        ).to_be_visible()
        carol.shot("review-assigned-carol")

        bob.goto("review", "Review", reviewer="BOB", queue=name)
        expect(bob.main.get_by_role("button", name="Open next item")).to_be_visible()
        expect(bob.main.get_by_text("not to you")).to_have_count(0)
        bob.shot("review-assigned-bob")
    finally:
        for context in contexts:
            context.close()
    assert read_queues(open_store(store))[name].reviewers == ("bob", "Dee@Example.org")
