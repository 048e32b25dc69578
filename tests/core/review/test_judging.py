"""Saving a judgement: the stage is what the reviewer saw before their first save; a save is stored once.

Each test runs against SQLite and PostgreSQL (conftest.location).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from webeval_core.review.agreement_stats import agreement_report
from webeval_core.review.annotation_db import open_store
from webeval_core.review.annotations import Draft, Outcome, Revealed, Shown, Stage
from webeval_core.review.judging import REPEAT_WINDOW, save_judgement
from webeval_core.runs.viewing import OUTSIDE_REVIEW

T0 = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
ITEM = ("run-a", "7")


def draft(reviewer: str = "ann", outcome: Outcome = Outcome.FAILURE, **kw: object) -> Draft:
    values: dict[str, object] = {"stage": Stage.BLIND, "justification": ""} | kw
    return Draft(run=ITEM[0], task_id=ITEM[1], reviewer=reviewer, outcome=outcome, **values)  # type: ignore[arg-type]


def test_a_first_save_with_nothing_shown_is_blind_and_a_revision_is_informed(location: str) -> None:
    store = open_store(location)
    first = save_judgement(store, draft(justification="total wrong"), now=T0)
    assert first.added and first.annotation.stage == Stage.BLIND
    assert first.annotation.revealed == Revealed.NONE
    revised = save_judgement(store, draft(outcome=Outcome.SUCCESS), now=T0 + timedelta(minutes=5))
    assert revised.added and revised.annotation.stage == Stage.INFORMED
    assert revised.annotation.revealed == Revealed.VERDICT  # the verdict is shown once saved
    history = store.annotations(OUTSIDE_REVIEW)
    assert [(a.stage, a.outcome) for a in history] == [
        (Stage.BLIND, Outcome.FAILURE),
        (Stage.INFORMED, Outcome.SUCCESS),
    ]


def test_anything_shown_before_the_first_save_makes_it_informed(location: str) -> None:
    store = open_store(location)
    store.note_shown([ITEM], "Bob", Shown.OTHERS)  # e.g. the list's "human" column
    saved = save_judgement(store, draft(reviewer="bob"), now=T0)
    assert saved.annotation.stage == Stage.INFORMED
    assert saved.annotation.revealed == Revealed.OTHERS
    store.note_shown([ITEM], "cat", Shown.VERDICT)
    store.note_shown([ITEM], "CAT", Shown.OTHERS)
    assert save_judgement(store, draft(reviewer="cat"), now=T0).annotation.revealed == Revealed.BOTH
    # Another trajectory, or another reviewer, is not touched by what was shown here.
    assert save_judgement(store, draft(reviewer="dan"), now=T0).annotation.stage == Stage.BLIND


def test_an_informed_form_is_informed_whatever_was_recorded(location: str) -> None:
    store = open_store(location)
    saved = save_judgement(store, draft(stage=Stage.INFORMED), now=T0)
    assert (saved.annotation.stage, saved.annotation.revealed) == (Stage.INFORMED, Revealed.VERDICT)


def test_a_repeated_save_within_the_window_adds_nothing(location: str) -> None:
    store = open_store(location)
    first = save_judgement(store, draft(justification="why"), now=T0)
    again = save_judgement(store, draft(justification="why"), now=T0 + timedelta(seconds=2))
    assert not again.added and again.annotation == first.annotation
    later = save_judgement(store, draft(justification="why"), now=T0 + REPEAT_WINDOW + timedelta(seconds=1))
    assert later.added and later.annotation.stage == Stage.INFORMED
    changed = save_judgement(store, draft(justification="why not"), now=T0 + REPEAT_WINDOW * 2)
    assert changed.added
    assert len(store.annotations(OUTSIDE_REVIEW)) == 3


def test_reviewer_names_are_one_reviewer_whatever_their_case(location: str) -> None:
    store = open_store(location)
    save_judgement(store, draft(reviewer="Ann"), now=T0)
    again = save_judgement(
        store, draft(reviewer="ANN", outcome=Outcome.SUCCESS), now=T0 + timedelta(minutes=1)
    )
    assert again.annotation.reviewer == "Ann"  # kept as first typed
    assert again.annotation.stage == Stage.INFORMED  # her second save of the item
    assert store.reviewed("aNn", Stage.BLIND) == {ITEM}


def test_blind_figures_use_the_first_blind_judgement(location: str) -> None:
    """Two reviewers disagree blind; a revision after the reveal changes no blind figure."""
    store = open_store(location)
    items = [("run-a", str(n)) for n in range(4)]
    ann = [Outcome.SUCCESS, Outcome.FAILURE, Outcome.SUCCESS, Outcome.FAILURE]
    bob = [Outcome.SUCCESS, Outcome.FAILURE, Outcome.FAILURE, Outcome.FAILURE]
    for (run, task), a, b in zip(items, ann, bob, strict=True):
        for who, outcome in (("ann", a), ("bob", b)):
            save_judgement(
                store, Draft(run=run, task_id=task, reviewer=who, stage=Stage.BLIND, outcome=outcome)
            )
    before = agreement_report(store.annotations(OUTSIDE_REVIEW), {})
    (pair,) = [p for p in before.reviewers if p.stage == Stage.BLIND]
    # po 3/4; ann s2 f2, bob s1 f3: pe (2*1 + 2*3) / 16 = 1/2; kappa (3/4 - 1/2) / (1/2) = 0.5
    assert pair.kappa == 0.5
    # bob changes his mind on item 2 after seeing the verdict: an informed row, blind unchanged.
    revised = save_judgement(
        store, Draft(run="run-a", task_id="2", reviewer="bob", stage=Stage.BLIND, outcome=Outcome.SUCCESS)
    )
    assert revised.annotation.stage == Stage.INFORMED
    after = agreement_report(store.annotations(OUTSIDE_REVIEW), {})
    assert [p.kappa for p in after.reviewers if p.stage == Stage.BLIND] == [0.5]
