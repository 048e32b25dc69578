"""Review mode in the app: a blind queue locks every view, keys never do two things, what was shown counts."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from webeval_core.review import (
    OFFICIAL,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    read_queues,
    save_queue,
)
from webeval_core.review.annotations import Revealed
from webeval_core.runs.index import build_index
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_ui.page_links import PAGES
from webeval_ui.state import Key, label_key, review_field_key
from webeval_ui.trajectory_tabs.tab_registry import TABS

OpenPage = Callable[..., AppTest]
QUEUE = "blind all"
TRAJECTORY_PAGE = PAGES["trajectory"]


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    location = str(tmp_path / "annotations.sqlite")
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", location)
    # Ann's: a blind queue open to anyone would hold its items on every list cat opens (Gate.elsewhere).
    queue = ReviewQueue(name=QUEUE, stage=Stage.BLIND, criteria=TrajectoryFilter(), reviewers=("ann",))
    save_queue(open_store(location), queue)
    return location


def _queue_made_after(store_file: str, reviewer: str) -> str:
    """A blind queue over everything for `reviewer`, made now (after what they saw)."""
    name = f"blind for {reviewer}"
    queue = ReviewQueue(name=name, stage=Stage.BLIND, criteria=TrajectoryFilter(), reviewers=(reviewer,))
    save_queue(open_store(store_file), queue)
    return name


def _scored_item(sample: Sample) -> tuple[str, str]:
    judged = judge_verdicts(build_index(sample.root))
    return min(item for item, verdicts in judged.items() if OFFICIAL in verdicts)


def _texts(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.title, *at.warning]
    return "\n".join(str(p.value) for p in parts)


@pytest.mark.parametrize(
    "page",
    [
        "pages/overview.py",
        "pages/tasks.py",
        "pages/compare.py",
        "pages/agreement.py",
        "pages/disagreements.py",
        "pages/query.py",
        "pages/live.py",
    ],
)
def test_pages_made_of_verdicts_stay_closed_in_a_blind_review(
    app: OpenPage, store_file: str, page: str
) -> None:
    at = app(page, queue=QUEUE, reviewer="ann")
    assert "this page shows verdicts, so it stays closed" in _texts(at)
    assert not at.dataframe and not at.get("plotly_chart") and not at.metric
    assert at.button(key=Key.LEAVE_REVIEW).label == "Leave review mode"
    at.button(key=Key.LEAVE_REVIEW).click().run()  # leaving opens it again
    assert "stays closed" not in _texts(at)
    assert "queue" not in at.query_params


def test_the_list_in_a_blind_review_has_no_verdict_column_filter_or_headline(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    # A crafted link filtering on verdicts is ignored, not obeyed.
    at = app("pages/trajectories.py", queue=QUEUE, reviewer="ann", statuses="failure", results="fail")
    labels = {w.label for w in at.multiselect}
    assert {"Result", "Verdict status", "Failure tag", "Human outcome"}.isdisjoint(labels)
    assert not [t for t in at.toggle if t.label == "Judges disagree"]
    table = next(df.value for df in at.dataframe if "task_id" in df.value.columns)
    hidden = {"result", "status", "score", "tags", "human", "disagree", "value", "counted"}
    assert hidden.isdisjoint(table.columns)
    assert len(table) == len(build_index(sample.root).summaries)  # the status filter did nothing
    assert f"{len(table)} of {len(table)} trajectories · select a row to open it" in _texts(
        at
    )  # no rate, no judge
    assert "success rate" not in _texts(at)


def test_the_list_outside_review_mode_records_what_it_showed(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    item = _scored_item(sample)
    app("pages/trajectories.py", reviewer="Cat")
    # Cat saw the item's verdict in the list: her later save from a blind queue is informed.
    queue = _queue_made_after(store_file, "cat")
    at = app("pages/trajectory.py", run=item[0], task=item[1], tab="Annotate", queue=queue, reviewer="cat")
    at.button(key=label_key(review_field_key(Key.REVIEW_OUTCOME, *item), "success")).click().run()
    at.button(key=Key.REVIEW_SAVE).click().run()
    (saved,) = open_store(store_file).annotations(OUTSIDE_REVIEW)
    assert (saved.reviewer, saved.stage, saved.revealed) == ("cat", Stage.INFORMED, Revealed.VERDICT)
    assert any("Saved as informed" in s.value for s in at.success)


def test_a_blind_queue_to_work_keeps_its_items_blank_on_the_lists_a_reviewer_opens_first(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    """Issue 49: a sign-in lands on the Overview; a reviewer's blind queue not yet opened must not be
    spent by it. Its items show no verdict there and are not recorded, so the later save is blind;
    the list says why, and the trajectory page offers to show them."""
    item = _scored_item(sample)
    queue = _queue_made_after(store_file, "dan")
    at = app("pages/overview.py", reviewer="dan")
    assert not at.exception, [e.value for e in at.exception]
    assert f'pending in your blind queue "{queue}"' in _texts(at)
    assert open_store(store_file).revealed("dan") == set()
    at = app("pages/trajectory.py", run=item[0], task=item[1], tab="Annotate", reviewer="dan")
    assert "still to be judged blind" in _texts(at) and at.button(key=Key.RELEASE)
    at.button(key=label_key(review_field_key(Key.REVIEW_OUTCOME, *item), "success")).click().run()
    at.button(key=Key.REVIEW_SAVE).click().run()
    (saved,) = open_store(store_file).annotations(OUTSIDE_REVIEW)
    assert (saved.reviewer, saved.stage, saved.revealed) == ("dan", Stage.BLIND, Revealed.NONE)


def test_show_its_verdicts_releases_one_held_item_recorded_first(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    item = _scored_item(sample)
    _queue_made_after(store_file, "dan")
    at = app("pages/trajectory.py", run=item[0], task=item[1], tab="Judges", reviewer="dan")
    at.button(key=Key.RELEASE).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert open_store(store_file).revealed("dan") == {item}
    assert "still to be judged blind" not in _texts(at)


def test_the_annotate_tab_owns_its_keys_and_the_walk_bar_gives_up_f(app: OpenPage, sample: Sample) -> None:
    at = app("pages/trajectories.py")
    at.session_state[Key.TRAJECTORIES_TABLE] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    at.switch_page("pages/trajectory.py")
    at.query_params["reviewer"] = "ann"
    at.session_state[Key.TAB] = "Annotate"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shortcuts = [b.proto.shortcut.lower() for b in at.button if b.proto.shortcut]
    assert "f" in shortcuts and len(shortcuts) == len(set(shortcuts)), shortcuts
    assert at.button(key=Key.LIST_NEXT_FAILURE).proto.shortcut == ""
    at.session_state[Key.TAB] = "Replay"
    at.run()
    assert at.button(key=Key.LIST_NEXT_FAILURE).proto.shortcut.lower() == "f"  # F is the list's again


def test_a_link_to_an_unknown_run_or_task_says_so(app: OpenPage, sample: Sample) -> None:
    at = app("pages/trajectory.py", run="no/such/run", task="1")
    assert "names the run no/such/run" in _texts(at).replace("\\", "")
    run = build_index(sample.root).runs[0].key
    at = app("pages/trajectory.py", run=run, task="999999")
    assert "names the task 999999" in _texts(at).replace("\\", "")


@pytest.mark.parametrize(
    ("page", "query"),
    [
        ("pages/compare.py", {}),
        ("pages/query.py", {"sql": "SELECT run_key, task_id, verdict_status FROM trajectories"}),
        ("pages/query.py", {"sql": "SELECT t.rel FROM trajectories t JOIN scores s USING (key)"}),
        ("pages/tasks.py", {}),
    ],
)
def test_a_page_that_shows_verdicts_records_them_before_a_blind_save(
    app: OpenPage, sample: Sample, store_file: str, page: str, query: dict[str, str]
) -> None:
    """Issue 34, item 1: Compare and Query (and Tasks) went around the record; the gate does not."""
    item = _scored_item(sample)
    app(page, reviewer="Cat", **query)
    assert item in open_store(store_file).revealed("cat")
    queue = _queue_made_after(store_file, "cat")
    at = app("pages/trajectory.py", run=item[0], task=item[1], tab="Annotate", queue=queue, reviewer="cat")
    assert "blind review: verdicts hidden" not in _texts(at)  # revealed: done with its blind pass
    at.button(key=label_key(review_field_key(Key.REVIEW_OUTCOME, *item), "success")).click().run()
    at.button(key=Key.REVIEW_SAVE).click().run()
    (saved,) = open_store(store_file).annotations(OUTSIDE_REVIEW)
    assert (saved.stage, saved.revealed) == (Stage.INFORMED, Revealed.VERDICT)


def test_a_query_that_reads_no_verdict_records_nothing(app: OpenPage, store_file: str) -> None:
    at = app("pages/query.py", reviewer="cat", sql="SELECT run_key, task_id, site FROM trajectories")
    assert at.dataframe
    assert open_store(store_file).revealed("cat") == set()


def test_the_queue_tools_of_a_blind_pass_select_and_order_by_no_verdict(
    app: OpenPage, store_file: str
) -> None:
    at = app("pages/review.py", queue=QUEUE, reviewer="ann")
    labels = {w.label for w in at.multiselect}
    assert "Runs" in labels and {"Verdicts", "Failure tags"}.isdisjoint(labels)
    assert "scoring error" not in next(w for w in at.multiselect if w.label == "Outcomes").options
    assert not [c for c in at.checkbox if c.label == "Failures first"]
    # A taken name is refused, and the queue keeps its settings.
    at.radio(key=Key.QUEUE_STAGE).set_value(Stage.INFORMED).run()
    at.text_input(key=Key.QUEUE_NAME).input(QUEUE.upper())  # a form: fields arrive with the click
    at.button(key=Key.QUEUE_CREATE).click().run()
    assert any("exists already" in e.value for e in at.error)
    assert read_queues(open_store(store_file))[QUEUE].stage == Stage.BLIND


def test_a_viewer_is_not_offered_a_queue_to_work(
    app: OpenPage, store_file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text('[roles]\n"ann" = "reviewer"\n', encoding="utf-8")
    monkeypatch.setenv("WEBEVAL_ROLES", str(roles))
    at = app("pages/review.py", queue=QUEUE, reviewer="vic")
    text = _texts(at)
    assert "vic is a viewer here" in text and "still counts" not in text
    assert not [b for b in at.button if b.key == Key.QUEUE_OPEN]


def test_the_annotate_form_keeps_its_draft_across_tab_switches(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    """Issue 34, item 4: F, 2, a failing step, a code and a justification; Replay; Annotate; save."""
    item = _scored_item(sample)
    at = app("pages/trajectory.py", run=item[0], task=item[1], tab="Annotate", reviewer="ann")
    at.button(key=label_key(review_field_key(Key.REVIEW_OUTCOME, *item), "failure")).click().run()
    at.button(key=label_key(review_field_key(Key.REVIEW_PROCESS, *item), "harmless_mistake")).click().run()
    at.text_input(key=review_field_key(Key.REVIEW_STEPS, *item)).input("4").run()
    at.multiselect(key=review_field_key(Key.REVIEW_ERROR_CODES, *item)).select("3.1").run()
    at.text_area(key=review_field_key(Key.REVIEW_JUSTIFICATION, *item)).input("clicked the wrong tab").run()
    for tab in ("Replay", "Annotate"):
        at.query_params["tab"] = tab
        at.session_state[Key.TAB] = tab
        at.run()
        assert not at.exception
    assert (
        at.text_area(key=review_field_key(Key.REVIEW_JUSTIFICATION, *item)).value == "clicked the wrong tab"
    )
    at.button(key=Key.REVIEW_SAVE).click().run()
    (saved,) = open_store(store_file).annotations(OUTSIDE_REVIEW)
    assert (saved.outcome, saved.process) == ("failure", "harmless_mistake")
    assert (saved.failing_steps, saved.error_codes, saved.justification) == (
        (4,),
        ("3.1",),
        "clicked the wrong tab",
    )


def _main_text(at: AppTest) -> str:
    """Everything the main area says (tables included), not the sidebar."""
    parts = [
        *at.main.markdown,
        *at.main.caption,
        *at.main.info,
        *at.main.title,
        *at.main.warning,
        *at.main.text,
    ]
    tables = [df.value.to_csv() for df in at.main.dataframe]
    badges = [str(b.proto) for b in at.main.get("badge")]
    # Markdown escapes its punctuation ("webarena\\-verified"): read as a person would.
    return "\n".join([*(str(p.value) for p in parts), *tables, *badges]).replace("\\", "")


@pytest.mark.parametrize("page", sorted(PAGES))
def test_no_page_shows_a_verdict_while_a_blind_item_is_pending(
    app: OpenPage, sample: Sample, store_file: str, page: str
) -> None:
    """Every page the app has (a new page is walked here without being named), opened by a reviewer
    whose blind pass has items pending: no judge's name or verdict, no rate, no human label."""
    item = _scored_item(sample)
    query = {"run": item[0], "task": item[1]} if page == "trajectory" else {}
    at = app(PAGES[page], queue=QUEUE, reviewer="ann", **query)
    _assert_blind(at, page)


@pytest.mark.parametrize("tab", TABS)
def test_no_trajectory_tab_shows_a_verdict_of_a_pending_item(
    app: OpenPage, sample: Sample, store_file: str, tab: str
) -> None:
    item = _scored_item(sample)
    at = app(PAGES["trajectory"], queue=QUEUE, reviewer="ann", run=item[0], task=item[1], tab=tab)
    _assert_blind(at, tab)
    assert open_store(store_file).revealed("ann") == set()


def _assert_blind(at: AppTest, where: str) -> None:
    text = _main_text(at)
    leaked = [pattern.pattern for pattern in _VERDICT_TEXTS if pattern.search(text)]
    assert not leaked, f"{where} showed {leaked} during a blind pass"


_VERDICT_TEXTS = tuple(
    re.compile(pattern)
    for pattern in (
        r"webarena-verified[\w.-]*: ",  # a judge's caption
        r"(evaluator|judge) \([^)]*\): ",  # a judge's badge (verdict_badges)
        r"success rate",
        r"Informed:",
        r"score [01]",
        r"pass → fail|fail → pass",
        r"\b(success|failure),",  # a status or human outcome cell in a table's CSV
    )
)
"""What a verdict on the sample's pages reads as: a judge's badge, a rate, the informed caption."""


def test_a_blind_reviewer_keeps_the_network_evidence_without_its_verdict(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    """Blind hides the verdict, not the evidence: a network-checked task's requests and the task's
    checks as it states them, with no check marked passed or failed and no request marked kept."""
    from webeval_core.reading import load_catalog

    catalog = load_catalog()
    summary = next(
        s
        for s in build_index(sample.root).summaries
        if s.verdict is not None and (task := catalog.get(s.task_id)) is not None and task.network_checks
    )
    at = app(
        TRAJECTORY_PAGE, queue=QUEUE, reviewer="ann", run=summary.run_key, task=summary.task_id, tab="Network"
    )
    assert any(str(s.value).startswith("What the task checks in the trace") for s in at.subheader)
    tables = [df.value for df in at.main.dataframe]
    assert any("url" in t.columns and "method" in t.columns for t in tables)  # the requests
    assert any("must not happen" in t.columns for t in tables)  # the task's checks
    # Beside the requests, no column that reads as a mark on them (issue 49: a "check" column).
    marks = {"check", "status", "match", "matched", "kept", "passed"}
    assert all(marks.isdisjoint(t.columns) for t in tables if "must not happen" in t.columns)
    assert not [b for b in at.main.get("badge") if "check " in str(b.proto)]  # no check's verdict
    _assert_blind(at, "Network")
    assert open_store(store_file).revealed("ann") == set()
