"""Review in the app: the Annotate tab, blind queues, the Review and Agreement pages, the list columns."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from tests.harness.builders import snapshot
from tests.harness.postgres_server import PASSWORD, PostgresServer, running_postgres
from tests.harness.verifier_files import JUDGE, SECOND, verifier_root
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review import (
    OFFICIAL,
    Annotation,
    Outcome,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    read_corrections,
    read_queues,
    save_queue,
)
from webeval_core.runs.index import build_index
from webeval_core.runs.judges import judge_label
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_ui.state import Key, correction_field_key, label_key, review_field_key

TRAJECTORY = "pages/trajectory.py"
OpenPage = Callable[..., AppTest]


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    location = str(tmp_path / "annotations.sqlite")
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", location)
    return location


def _scored_items(sample: Sample) -> list[tuple[str, str]]:
    judged = judge_verdicts(build_index(sample.root))
    return sorted(item for item, verdicts in judged.items() if OFFICIAL in verdicts)


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]
    return "\n".join(str(p) for p in parts)


def _click_label(at: AppTest, item: tuple[str, str], group: Key, value: str) -> None:
    at.button(key=label_key(review_field_key(group, *item), value)).click().run()


def _text_box_key(item: tuple[str, str]) -> str:
    return review_field_key(Key.REVIEW_JUSTIFICATION, *item)


def test_annotating_needs_a_reviewer_and_an_outcome_and_keeps_the_reviewer(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    run, task = _scored_items(sample)[0]
    before = snapshot(sample.root)
    at = app(TRAJECTORY, run=run, task=task, tab="Annotate")
    assert "Name yourself in the sidebar" in _texts(at)
    at = app(TRAJECTORY, run=run, task=task, tab="Annotate", reviewer="ann *bold*")
    # The overview's judge is the official evaluator here: its verdict alone is named.
    (informed,) = [c.value for c in at.caption if c.value.startswith("Informed:")]
    assert re.fullmatch(r"Informed: the official verdict in force is \w+ \(from .+\)\.", informed)
    at.button(key=Key.REVIEW_SAVE).click().run()  # nothing preselected: no outcome, no save
    assert ["Choose an outcome first" in e.value for e in at.error] == [True]
    assert open_store(store_file).annotations(OUTSIDE_REVIEW) == []
    _click_label(at, (run, task), Key.REVIEW_OUTCOME, "failure")
    _click_label(at, (run, task), Key.REVIEW_PROCESS, "unsafe")
    at.text_area(key=_text_box_key((run, task))).input("deleted the *wrong* <b>repo</b>")
    at.button(key=Key.REVIEW_SAVE).click().run()
    assert not at.exception
    (saved,) = open_store(store_file).annotations(OUTSIDE_REVIEW)
    assert (saved.run, saved.task_id, saved.reviewer, saved.stage) == (
        run,
        task,
        "ann *bold*",
        Stage.INFORMED,
    )
    assert (saved.outcome, saved.process, saved.task) == (Outcome.FAILURE, "unsafe", None)
    assert saved.justification == "deleted the *wrong* <b>repo</b>"
    assert saved.verdict_source is not None
    assert "Name yourself" not in _texts(at)  # a save never clears the reviewer
    # the labels and the text were cleared for the next judgement
    assert review_field_key(Key.REVIEW_OUTCOME, run, task) not in at.session_state
    assert at.text_area(key=_text_box_key((run, task))).value == ""
    history = next(df.value for df in at.dataframe if "justification" in df.value.columns)
    assert history["justification"].tolist() == ["deleted the *wrong* <b>repo</b>"]  # as plain text
    assert snapshot(sample.root) == before  # annotations never touch the runs


def test_the_failure_in_the_taxonomy_is_saved_with_the_judgement(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    item = _scored_items(sample)[0]
    at = app(TRAJECTORY, run=item[0], task=item[1], tab="Annotate", reviewer="ann")
    _click_label(at, item, Key.REVIEW_OUTCOME, "failure")
    steps = at.text_input(key=review_field_key(Key.REVIEW_STEPS, *item))
    steps.input("four").run()
    at.button(key=Key.REVIEW_SAVE).click().run()  # steps that are not numbers: nothing saved
    assert any("failing steps as numbers" in e.value for e in at.error)
    assert open_store(store_file).annotations(OUTSIDE_REVIEW) == []
    at.text_input(key=review_field_key(Key.REVIEW_STEPS, *item)).input("5, 4").run()
    codes = at.multiselect(key=review_field_key(Key.REVIEW_ERROR_CODES, *item))
    # Codes are named; task codes (7.x, 8.x) have their own box.
    assert "2.1 Output contradiction" in codes.options
    assert not any(option.startswith(("7.", "8.")) for option in codes.options)
    codes.select("2.1").run()
    at.multiselect(key=review_field_key(Key.REVIEW_TASK_CODES, *item)).select("7.1").run()
    at.button(key=Key.REVIEW_SAVE).click().run()
    assert not at.exception
    (saved,) = open_store(store_file).annotations(OUTSIDE_REVIEW)
    assert (saved.failing_steps, saved.error_codes, saved.task_codes) == ((4, 5), ("2.1",), ("7.1",))
    assert at.text_input(key=review_field_key(Key.REVIEW_STEPS, *item)).value == ""  # cleared for the next
    assert at.multiselect(key=review_field_key(Key.REVIEW_ERROR_CODES, *item)).value == []


def _blind_queue(store_file: str, sample: Sample, items: list[tuple[str, str]]) -> ReviewQueue:
    queue = ReviewQueue(
        name="blind three",
        stage=Stage.BLIND,
        criteria=TrajectoryFilter(runs=frozenset({items[0][0]})),
    )
    save_queue(open_store(store_file), queue)
    return queue


def test_a_blind_queue_hides_verdicts_until_saved_then_moves_to_the_next_item(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    items = _scored_items(sample)
    _blind_queue(store_file, sample, items)
    at = app("pages/review.py", reviewer="bob")
    at.selectbox(key=Key.QUEUE_PICK).select("blind three").run()
    assert "0 / " in at.get("progress")[0].proto.text
    at.button(key=Key.QUEUE_OPEN).click().run()
    assert not at.exception
    first = (at.query_params["run"], at.query_params["task"])
    assert at.query_params["queue"] == "blind three"
    text = _texts(at)
    assert "blind review: verdicts hidden" in text
    assert "webarena-verified" not in text and "score" not in text.lower().replace("scored", "")
    for tab in ("Network", "Evidence", "Re-score", "Annotate"):
        at = app(TRAJECTORY, run=first[0], task=first[1], queue="blind three", reviewer="bob", tab=tab)
        if tab in ("Evidence", "Re-score"):  # the Network tab keeps its evidence (test_review_mode)
            assert "Blind review: this tab shows verdicts" in _texts(at), tab
    _click_label(at, first, Key.REVIEW_OUTCOME, "success")
    at.button(key=Key.REVIEW_SAVE).click().run()
    assert not at.exception
    second = (at.query_params["run"], at.query_params["task"])
    assert second != first
    (saved,) = open_store(store_file).annotations(OUTSIDE_REVIEW)
    assert (saved.item, saved.stage, saved.reviewer) == (first, Stage.BLIND, "bob")


def test_a_queue_assigned_to_two_reviewers_shows_their_progress_and_tells_anyone_else(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    items = _scored_items(sample)
    first_day = datetime(2026, 11, 20, tzinfo=UTC)
    note = Annotation(
        run=items[0][0],
        task_id=items[0][1],
        reviewer="Ann",
        stage=Stage.BLIND,
        outcome=Outcome.SUCCESS,
        created=first_day,
    )
    open_store(store_file).add(note)
    at = app("pages/review.py", reviewer="carol")
    assert at.multiselect(key=Key.QUEUE_REVIEWERS).options == ["Ann", "carol"]  # known names, and you
    at.text_input(key=Key.QUEUE_NAME).input("ann and bob")
    at.multiselect(key=Key.QUEUE_REVIEWERS).select("Ann").select("bob")  # bob: typed, a new name
    at.button(key=Key.QUEUE_CREATE).click().run()
    assert not at.exception

    (queue,) = read_queues(open_store(store_file)).values()
    assert (queue.name, queue.stage, queue.reviewers) == ("ann and bob", Stage.BLIND, ("Ann", "bob"))
    table = at.dataframe[0].value
    assert table.loc[0, "assigned to"] == "Ann, bob"
    assert ["assigned to Ann, bob, not to you" in w.value for w in at.warning] == [True]
    progress = at.dataframe[1].value
    total = len(build_index(sample.root).summaries)  # the queue keeps every trajectory: no filter
    assert progress.to_dict("records") == [
        {"reviewer": "Ann", "assigned": "yes", "done": 1, "of": total},
        {"reviewer": "bob", "assigned": "yes", "done": 0, "of": total},
    ]
    at = app("pages/review.py", reviewer="BOB", queue="ann and bob")
    assert "0 / " in at.get("progress")[0].proto.text  # the queue is worked...
    assert not at.warning  # ...and it is bob's: no warning, whatever the case he types his name in


def test_the_list_shows_review_columns_and_filters_on_them(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    items = _scored_items(sample)
    judged = judge_verdicts(build_index(sample.root))
    store = open_store(store_file)
    opposite = {Outcome.SUCCESS: Outcome.FAILURE, Outcome.FAILURE: Outcome.SUCCESS}
    for reviewer in ("ann", "bob"):
        store.add(
            Annotation(
                run=items[0][0],
                task_id=items[0][1],
                reviewer=reviewer,
                stage=Stage.BLIND,
                outcome=opposite[judged[items[0]][OFFICIAL]],
                created=datetime(2026, 1, 1, tzinfo=UTC),
            )
        )
    at = app("pages/trajectories.py", reviewer="ann", human_disagrees="true")
    table = next(df.value for df in at.dataframe if "human" in df.value.columns)
    assert table["task_id"].tolist() == [items[0][1]]
    assert (table["mine"].tolist(), table["reviewers"].tolist()) == ([True], [2])


def test_the_agreement_page_shows_pairs_and_judges(app: OpenPage, sample: Sample, store_file: str) -> None:
    items = _scored_items(sample)[:3]
    store = open_store(store_file)
    for reviewer in ("ann", "bob"):
        for item in items:
            store.add(
                Annotation(
                    run=item[0], task_id=item[1], reviewer=reviewer, stage=Stage.BLIND, outcome="success"
                )
            )
    at = app("pages/agreement.py")
    assert not at.exception
    frames = [df.value for df in at.dataframe]
    pairs = next(f for f in frames if "kappa" in f.columns and "a" in f.columns)
    assert pairs[["a", "b", "n"]].values.tolist() == [["ann", "bob", 3]]
    judges = next(f for f in frames if "judge" in f.columns)
    assert judge_label(OFFICIAL) in judges["judge"].tolist()
    assert "false_positive_rate" in judges.columns
    # A cell of the confusion table lists its trajectories: the evaluator's verdict, humans "success".
    judged = judge_verdicts(build_index(sample.root))
    said = judged[items[0]][OFFICIAL].value
    row = 0 if said == "success" else 1
    at.session_state[Key.CONFUSION_TABLE] = {
        "selection": {"rows": [], "columns": [], "cells": [[row, "success"]]}
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    listed = next(df.value for df in at.dataframe if "task_id" in df.value.columns)
    expected = sorted(item[1] for item in items if judged[item][OFFICIAL].value == said)
    assert sorted(listed["task_id"].tolist()) == expected


def test_the_agreement_page_compares_reviewers_with_a_verifiers_first_failure(
    app: OpenPage, tmp_path: Path, store_file: str
) -> None:
    root = verifier_root(tmp_path)
    item = next(i for i in judge_verdicts(build_index(root)) if i[1] == SECOND)  # the verifier: step 4, 2.1
    note = Annotation(
        run=item[0], task_id=item[1], reviewer="ann", stage=Stage.BLIND, outcome=Outcome.FAILURE,
        failing_steps=(5,), error_codes=("2.4",),
    )  # fmt: skip
    open_store(store_file).add(note)
    at = app("pages/agreement.py", root)
    table = next(df.value for df in at.dataframe if "step_within_one" in df.value.columns)
    row = table.iloc[0]
    assert (row["judge"], row["has_failure_n"], row["has_failure"]) == (judge_label(JUDGE), 1, "1.000")
    assert (row["category"], row["step_exact"], row["step_within_one"]) == ("1.000", "0.000", "1.000")


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    with running_postgres() as server:
        yield server


def test_a_stopped_server_keeps_the_form_and_saving_works_once_it_is_back(
    app: OpenPage, sample: Sample, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", url)
    run, task = _scored_items(sample)[0]
    at = app(TRAJECTORY, run=run, task=task, tab="Annotate", reviewer="ann")
    _click_label(at, (run, task), Key.REVIEW_OUTCOME, "success")
    at.text_area(key=_text_box_key((run, task))).input("kept while the server is down")
    postgres.stop()
    try:
        at.button(key=Key.REVIEW_SAVE).click().run()
        errors = " ".join(e.value for e in at.error)
        assert "Not saved; your labels and text are kept" in errors
        assert PASSWORD not in errors and "\\*\\*\\*" in errors
        assert at.text_area(key=_text_box_key((run, task))).value == "kept while the server is down"
        assert at.session_state[review_field_key(Key.REVIEW_OUTCOME, run, task)] == "success"
    finally:
        postgres.start()
    at.button(key=Key.REVIEW_SAVE).click().run()
    assert [a.justification for a in open_store(url).annotations(OUTSIDE_REVIEW)] == [
        "kept while the server is down"
    ]


def test_a_task_correction_shows_the_flips_and_is_saved(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    before = snapshot(sample.root)
    at = app("pages/tasks.py", task="108", reviewer="ann")
    at.session_state[Key.CORRECTION_BOX] = True
    at.run()
    expected = (
        '{"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": [{"month": "May", "count": 0}]}'
    )
    at.text_area(key=correction_field_key(Key.CORRECTION_EXPECTED, 108)).input(expected)
    at.text_input(key=correction_field_key(Key.CORRECTION_REASON, 108)).input(
        "the <b>May</b> count is wrong"
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    flips = next(m for m in at.metric if m.label == "Verdicts that would flip")
    changed, total = flips.value.split(" of ")
    assert int(total) >= 1 and int(changed) >= 1
    at.button(key=Key.CORRECTION_SAVE).click().run()
    (saved,) = read_corrections(open_store(store_file))
    assert (saved.task_id, saved.reviewer, saved.reason) == (108, "ann", "the <b>May</b> count is wrong")
    at.text_area(key=correction_field_key(Key.CORRECTION_EXPECTED, 108)).input('{"task_type": "fly"}').run()
    assert any("official task model refuses it" in e.value for e in at.error)
    assert snapshot(sample.root) == before


def test_a_proposal_typed_for_one_task_is_not_carried_to_the_next(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    """Another task opened with the box still open: its form shows its own expected response and no
    reason, so a proposal never holds text typed for another task; back on the first, it starts anew."""
    at = app("pages/tasks.py", task="108", reviewer="ann")
    at.session_state[Key.CORRECTION_BOX] = True
    at.run()
    at.text_area(key=correction_field_key(Key.CORRECTION_EXPECTED, 108)).input('{"status": "SUCCESS"}')
    at.text_input(key=correction_field_key(Key.CORRECTION_REASON, 108)).input("typed for 108").run()
    at.query_params["task"] = "11"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    task = load_catalog().get(11)
    assert task is not None
    expected = json.loads(at.text_area(key=correction_field_key(Key.CORRECTION_EXPECTED, 11)).value)
    assert expected == task.expected.model_dump(mode="json")
    assert at.text_input(key=correction_field_key(Key.CORRECTION_REASON, 11)).value == ""
    assert [t.key for t in at.text_input if "typed for 108" in str(t.value)] == []
    assert not read_corrections(open_store(store_file))
