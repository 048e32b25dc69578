"""The disclosure gate without a browser, on SQLite and PostgreSQL: blind stays blind, a reveal is
recorded before it is returned, and nothing is revealed when it cannot be recorded."""

from __future__ import annotations

import pandas as pd

from tests.harness.postgres_server import PostgresServer
from webeval_core.policy.access import AccessPolicy, Role, Roles, acting_as
from webeval_core.review.annotation_db import open_store
from webeval_core.review.annotations import Draft, Outcome, Revealed, Shown, Stage
from webeval_core.review.disclosure import Gate, Withheld, blind_pass, blind_passes, done_in
from webeval_core.review.judging import save_judgement
from webeval_core.review.queues import next_item

QUEUE = [("fara", "151"), ("fara", "253"), ("fara", "677")]


def _draft(task: str, reviewer: str = "ann", stage: Stage = Stage.BLIND) -> Draft:
    return Draft(run="fara", task_id=task, reviewer=reviewer, stage=stage, outcome=Outcome.SUCCESS)


def test_a_reveal_outside_the_blind_pass_is_recorded_first_and_the_later_save_is_informed(
    location: str,
) -> None:
    """Compare or Query before the blind pass: what they showed makes the blind save informed."""
    store = open_store(location)
    before = Gate(store, "ann")  # not in review mode yet: nothing pending
    disclosed = before.disclose([("fara", "253")])
    assert disclosed.shown == {("fara", "253")} and disclosed.why is None
    assert store.shown("fara", "253", "ANN") == {Shown.VERDICT}
    saved = save_judgement(store, _draft("253"))
    assert saved.annotation.stage == Stage.INFORMED and saved.annotation.revealed == Revealed.VERDICT


def test_a_pending_item_is_refused_and_nothing_is_recorded(location: str) -> None:
    store = open_store(location)
    gate = Gate(store, "ann", blind=blind_pass(store, "q", QUEUE, "ann"))
    assert gate.closed()  # rates, charts, matrices and verdict queries: closed
    disclosed = gate.disclose([("fara", "151"), ("other", "1")])
    assert disclosed.withheld == {("fara", "151")} and disclosed.why == Withheld.BLIND_PASS
    assert disclosed.shown == {("other", "1")}  # not in the pass: shown, and recorded
    assert store.shown("fara", "151", "ann") == set()
    assert store.shown("other", "1", "ann") == {Shown.VERDICT}
    assert save_judgement(store, _draft("151")).annotation.stage == Stage.BLIND


def test_a_table_loses_its_verdicts_in_a_blind_pass_and_records_them_outside_it(location: str) -> None:
    store = open_store(location)
    frame = pd.DataFrame(
        {
            "run": ["fara", "fara"],
            "task_id": ["151", "253"],
            "status": ["success", None],
            "judges_disagree": [False, True],
            "human": [None, "failure"],
            "site": ["gitlab", "shopping"],
        }
    )
    blind = Gate(store, "ann", blind=blind_pass(store, "q", QUEUE, "ann")).rows(frame)
    assert list(blind.frame.columns) == ["run", "task_id", "site"] and blind.why == Withheld.BLIND_PASS
    assert store.revealed("ann") == set()
    open_rows = Gate(store, "bob").rows(frame)
    assert open_rows.why is None and "status" in open_rows.frame
    assert store.shown("fara", "151", "bob") == {Shown.VERDICT}
    assert store.shown("fara", "253", "bob") == {Shown.OTHERS}


def test_a_revealed_item_leaves_the_blind_pass_done_informed_so_the_queue_can_be_finished(
    location: str,
) -> None:
    store = open_store(location)
    save_judgement(store, _draft("151"))
    Gate(store, "ann").disclose([("fara", "253")])  # revealed in another tab, outside the pass
    assert blind_pass(store, "q", QUEUE, "ann").pending == {("fara", "677")}
    done = done_in(store, "ann", Stage.BLIND)
    assert next_item(QUEUE, done, ("fara", "151")) == ("fara", "677")  # never back to 253
    save_judgement(store, _draft("677"))
    assert next_item(QUEUE, done_in(store, "ann", Stage.BLIND)) is None
    assert not Gate(store, "ann", blind=blind_pass(store, "q", QUEUE, "ann")).closed()


def test_a_viewer_is_shown_what_everyone_sees_and_nothing_is_recorded(location: str) -> None:
    policy = AccessPolicy(roles=Roles(roles={"ann": Role.REVIEWER}))
    store = open_store(location, policy)
    with acting_as("vic"):
        assert Gate(store, "vic").disclose([("fara", "253")]).shown == {("fara", "253")}
    assert store.revealed("vic") == set()


def test_nothing_is_revealed_when_the_store_cannot_record_it(postgres: PostgresServer) -> None:
    """The store stopped while another tab reveals: nothing shown there, and the blind save stays blind."""
    store = open_store(postgres.new_database())
    postgres.stop()
    try:
        disclosed = Gate(store, "ann").disclose([("fara", "151")])
        assert disclosed.shown == frozenset() and disclosed.why == Withheld.NOT_RECORDED
        assert "annotation store postgresql://" in disclosed.detail
        unknown = blind_pass(store, "q", QUEUE, "ann")
        assert unknown.unknown and unknown.holds(("fara", "999"))  # cannot say: everything stays blind
        assert Gate(None, "ann").disclose([("fara", "151")]).why == Withheld.NOT_RECORDED
    finally:
        postgres.start()
    assert save_judgement(store, _draft("151")).annotation.stage == Stage.BLIND


def test_nobody_named_is_shown_everything_without_a_store() -> None:
    """A server nobody reviews on opens no annotation store for its pages."""
    frame = pd.DataFrame({"run": ["fara"], "task_id": ["1"], "status": ["failure"]})
    assert Gate(None, "").disclose([("fara", "1")]).shown == {("fara", "1")}
    assert Gate(None, "").rows(frame).frame.equals(frame)


def test_a_blind_queue_not_worked_keeps_its_pending_rows_blank_and_shows_the_rest(location: str) -> None:
    """Issue 49: a reviewer who lands on a list (the Overview after signing in) with a blind queue
    still to work: its pending items are held row by row, the others shown and recorded, and no
    figure is closed (rates tell no trajectory's verdict)."""
    store = open_store(location)
    save_judgement(store, _draft("677", "bob"))  # judged blind already: no longer pending
    gate = Gate(store, "bob", elsewhere=blind_passes(store, {"team": QUEUE}, "bob"))
    assert not gate.closed()
    disclosed = gate.disclose([*QUEUE, ("other", "1")])
    assert disclosed.why == Withheld.BLIND_PASS and disclosed.detail == 'pending in your blind queue "team"'
    assert disclosed.withheld == {("fara", "151"), ("fara", "253")}
    assert disclosed.shown == {("fara", "677"), ("other", "1")}
    assert store.revealed("bob") == {("fara", "677"), ("other", "1")}
    frame = pd.DataFrame(
        {"run": ["fara", "other"], "task_id": ["151", "1"], "status": ["success", "failure"]}
    )
    rows = gate.rows(frame)
    assert rows.why is None and rows.frame["status"].isna().tolist() == [True, False]
    assert save_judgement(store, _draft("151", "bob")).annotation.stage == Stage.BLIND


def test_release_shows_a_held_item_recorded_first_so_it_leaves_that_queue_informed(location: str) -> None:
    store = open_store(location)
    gate = Gate(store, "bob", elsewhere=blind_passes(store, {"team": QUEUE}, "bob"))
    assert gate.release(("fara", "253")).shown == {("fara", "253")}
    (still,) = blind_passes(store, {"team": QUEUE}, "bob")
    assert still.pending == {("fara", "151"), ("fara", "677")}
    assert save_judgement(store, _draft("253", "bob")).annotation.stage == Stage.INFORMED
    worked = Gate(store, "bob", blind=blind_pass(store, "team", QUEUE, "bob"))
    assert worked.release(("fara", "151")).why == Withheld.BLIND_PASS  # the pass worked: never


def test_a_store_that_cannot_say_holds_every_item_of_the_queues(location: str) -> None:
    (unknown,) = blind_passes(None, {"team": QUEUE}, "bob")
    assert unknown.pending == set(QUEUE)
    gate = Gate(open_store(location), "bob", elsewhere=(unknown,))
    assert gate.disclose([("fara", "151"), ("other", "1")]).shown == {("other", "1")}
