"""Review queues: who a queue is assigned to, how it is stored, and each reviewer's progress."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pandas as pd
import pytest

from webeval_core.review.annotation_db import open_store
from webeval_core.review.annotations import Annotation, Outcome, Stage
from webeval_core.review.queues import (
    QUEUE_RECORD,
    QueueRefusedError,
    ReviewerProgress,
    ReviewQueue,
    queue_items,
    queue_progress,
    read_queues,
    reassign_queues,
    save_queue,
)
from webeval_core.runs.trajectory_filter import TrajectoryFilter


def _note(task: str, reviewer: str, stage: Stage = Stage.BLIND, minute: int = 0) -> Annotation:
    created = datetime(2026, 11, 27, 9, minute, tzinfo=UTC)
    return Annotation(
        run="run-a", task_id=task, reviewer=reviewer, stage=stage, outcome=Outcome.SUCCESS, created=created
    )


def test_a_queue_names_each_reviewer_once_and_is_theirs_alone() -> None:
    queue = ReviewQueue(name="gitlab", stage=Stage.BLIND, reviewers=(" Ann ", "bob", "ANN", " "))
    assert queue.reviewers == ("Ann", "bob")
    assert queue.assigned_to("ann") and queue.assigned_to(" BOB ")
    assert not queue.assigned_to("carol") and not queue.assigned_to("")
    anyone = ReviewQueue(name="all", stage=Stage.INFORMED)
    assert anyone.reviewers == () and anyone.assigned_to("carol")


def test_an_assigned_queue_is_stored_with_its_reviewers_and_an_open_one_as_before(location: str) -> None:
    store = open_store(location)
    save_queue(store, ReviewQueue(name="open", stage=Stage.BLIND))
    save_queue(store, ReviewQueue(name="ours", stage=Stage.BLIND, reviewers=("ann@example.org", "bob")))
    bodies = {json.loads(body)["name"]: json.loads(body) for body in store.records(QUEUE_RECORD)}
    # A reader from before assignment (its model forbids unknown fields) still reads the open queue.
    assert "reviewers" not in bodies["open"]
    assert bodies["ours"]["reviewers"] == ["ann@example.org", "bob"]
    queues = read_queues(store)
    assert queues["ours"].reviewers == ("ann@example.org", "bob") and queues["open"].reviewers == ()


def test_progress_follows_the_assigned_reviewers_then_anyone_else_in_the_queues_stage() -> None:
    """In a blind queue an informed save is done too: the item was revealed, its blind pass is over."""
    queue = ReviewQueue(name="q", stage=Stage.BLIND, reviewers=("Ann", "bob"))
    notes = [
        _note("1", "ann"),
        _note("1", "ANN", minute=5),  # a changed judgement of the same item: still one item done
        _note("2", "ann"),
        _note("1", "bob", Stage.INFORMED),  # revealed, then saved: done (informed)
        _note("3", "carol"),
        _note("1", "carol"),
        _note("9", "dave"),  # not an item of the queue
    ]
    assert queue_progress(queue, [("run-a", "1"), ("run-a", "2"), ("run-a", "3")], notes) == [
        ReviewerProgress(reviewer="Ann", assigned=True, done=2),
        ReviewerProgress(reviewer="bob", assigned=True, done=1),
        ReviewerProgress(reviewer="carol", assigned=False, done=2),
    ]
    informed = ReviewQueue(name="i", stage=Stage.INFORMED)
    assert queue_progress(informed, [("run-a", "1")], notes) == [
        ReviewerProgress(reviewer="bob", assigned=False, done=1)  # a blind save is not this stage's
    ]


def test_the_store_lists_each_reviewer_as_they_first_named_themselves(location: str) -> None:
    store = open_store(location)
    store.add_many([_note("1", "Ann"), _note("2", "ann", minute=3), _note("1", "bob", minute=1)])
    assert store.reviewers() == ["Ann", "bob"]


def test_a_taken_name_is_refused_and_the_first_queue_keeps_its_settings(location: str) -> None:
    store = open_store(location)
    save_queue(store, ReviewQueue(name="gitlab", stage=Stage.INFORMED, reviewers=("bob",)))
    with pytest.raises(QueueRefusedError, match="exists already"):
        save_queue(store, ReviewQueue(name="GitLab", stage=Stage.BLIND))
    # A record written by an older webeval under the same name does not change the queue either.
    store.add_record(QUEUE_RECORD, ReviewQueue(name="gitlab", stage=Stage.BLIND).model_dump_json())
    kept = read_queues(store)["gitlab"]
    assert kept.stage == Stage.INFORMED and kept.reviewers == ("bob",)


def test_a_renamed_reviewers_queue_is_saved_again_under_its_name(location: str) -> None:
    store = open_store(location)
    save_queue(store, ReviewQueue(name="q", stage=Stage.BLIND, reviewers=("ann",)))
    assert reassign_queues(store, "ANN", "ann@example.org") == ["q"]
    assert read_queues(store)["q"].reviewers == ("ann@example.org",)


def test_a_blind_queue_selects_and_orders_by_no_verdict(location: str) -> None:
    store = open_store(location)
    for criteria in (
        TrajectoryFilter(statuses=frozenset({"failure"})),
        TrajectoryFilter(results=frozenset({"fail"})),
        TrajectoryFilter(tags=frozenset({"x"})),
        TrajectoryFilter(judges_disagree=True),
        TrajectoryFilter(outcome_groups=frozenset({"scoring error"})),
    ):
        with pytest.raises(QueueRefusedError, match="blind"):
            save_queue(store, ReviewQueue(name="b", stage=Stage.BLIND, criteria=criteria))
    blind = ReviewQueue(name="b", stage=Stage.BLIND, failures_first=True)
    assert not blind.failures_first  # and a stored one from before the rule reads the same way
    frame = pd.DataFrame(
        {
            "run": ["r", "r", "r"],
            "task_id": ["1", "2", "3"],
            "result": ["pass", "fail", "pass"],
        }
    )
    assert queue_items(frame, blind, {}) == [("r", "1"), ("r", "2"), ("r", "3")]  # the list's order
    informed = ReviewQueue(name="i", stage=Stage.INFORMED)
    assert queue_items(frame, informed, {}) == [("r", "2"), ("r", "1"), ("r", "3")]  # failures first


def test_a_queue_belongs_to_the_root_it_was_made_on(location: str) -> None:
    """A queue's runs and counts mean something on its root only: another root does not list it.
    One made before queues had roots is listed everywhere, and a queue without a root is stored as
    before (an older webeval still reads the record)."""
    from webeval_core.review.queues import QUEUE_RECORD, queues_on

    store = open_store(location)
    save_queue(store, ReviewQueue(name="gitlab", stage=Stage.BLIND, root="/data/runs-a"))
    save_queue(store, ReviewQueue(name="older", stage=Stage.BLIND))
    queues = read_queues(store)
    assert list(queues_on(queues, "/data/runs-a")) == ["gitlab", "older"]
    assert list(queues_on(queues, "az://team/runs-b")) == ["older"]
    stored = [json.loads(body) for body in store.records(QUEUE_RECORD)]
    assert [("root" in body, body.get("root")) for body in stored] == [(True, "/data/runs-a"), (False, None)]
