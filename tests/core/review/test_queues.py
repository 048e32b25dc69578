"""Review queues: who a queue is assigned to, how it is stored, and each reviewer's progress."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from webeval_core.review.annotations import Annotation, Outcome, Stage
from webeval_core.review.queues import (
    QUEUE_RECORD,
    ReviewerProgress,
    ReviewQueue,
    queue_progress,
    read_queues,
    save_queue,
)
from webeval_core.review.store import open_store


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
    queue = ReviewQueue(name="q", stage=Stage.BLIND, reviewers=("Ann", "bob"))
    notes = [
        _note("1", "ann"),
        _note("1", "ANN", minute=5),  # a changed judgement of the same item: still one item done
        _note("2", "ann"),
        _note("1", "bob", Stage.INFORMED),  # another stage: not this queue's
        _note("3", "carol"),
        _note("1", "carol"),
        _note("9", "dave"),  # not an item of the queue
    ]
    assert queue_progress(queue, [("run-a", "1"), ("run-a", "2"), ("run-a", "3")], notes) == [
        ReviewerProgress(reviewer="Ann", assigned=True, done=2),
        ReviewerProgress(reviewer="bob", assigned=True, done=0),
        ReviewerProgress(reviewer="carol", assigned=False, done=2),
    ]


def test_the_store_lists_each_reviewer_as_they_first_named_themselves(location: str) -> None:
    store = open_store(location)
    store.add_many([_note("1", "Ann"), _note("2", "ann", minute=3), _note("1", "bob", minute=1)])
    assert store.reviewers() == ["Ann", "bob"]
