"""Agreement figures against values computed by hand (shown in each test)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from webeval_core.review.agreement_stats import (
    agreement_report,
    binary_scores,
    cohen_kappa,
    false_positive_rate,
    majority,
)
from webeval_core.review.annotations import Annotation, Outcome, Stage

S, F, U = Outcome.SUCCESS, Outcome.FAILURE, Outcome.UNSURE


def test_cohen_kappa_of_two_reviewers() -> None:
    # Agree on 7 of 10 -> po = 0.7; A: 6 s / 4 f, B: 5 s / 5 f -> pe = (6*5 + 4*5) / 100 = 0.5;
    # kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
    a = ["s", "s", "f", "f", "s", "f", "s", "s", "f", "s"]
    b = ["s", "f", "f", "f", "s", "s", "s", "s", "f", "f"]
    assert cohen_kappa(list(zip(a, b, strict=True))) == pytest.approx(0.4)


def test_cohen_kappa_with_three_labels() -> None:
    # Pairs: (s,s) (s,u) (f,f) (u,u); po = 3/4; A: s2 f1 u1, B: s1 f1 u2 -> pe = (2*1 + 1*1 + 1*2)/16 = 5/16;
    # kappa = (12/16 - 5/16) / (11/16) = 7/11.
    pairs = [("s", "s"), ("s", "u"), ("f", "f"), ("u", "u")]
    assert cohen_kappa(pairs) == pytest.approx(7 / 11)


def test_kappa_is_undefined_without_items_or_when_both_use_one_label() -> None:
    assert cohen_kappa([]) is None
    assert cohen_kappa([("s", "s"), ("s", "s")]) is None
    assert cohen_kappa([("s", "f"), ("f", "s")]) == pytest.approx(-1.0)


def test_accuracy_precision_recall_f1() -> None:
    # (judge, humans): TP 3, FP 1, FN 2, TN 4 -> accuracy 7/10, precision 3/4, recall 3/5,
    # F1 = 2 * 0.75 * 0.6 / 1.35 = 2/3.
    pairs = [(S, S)] * 3 + [(S, F)] + [(F, S)] * 2 + [(F, F)] * 4
    accuracy, precision, recall, f1 = binary_scores(pairs)
    assert (accuracy, precision, recall) == pytest.approx((0.7, 0.75, 0.6))
    assert f1 == pytest.approx(2 / 3)


def test_false_positive_rate_is_passed_among_what_the_reviewers_failed() -> None:
    # (judge, humans): the reviewers failed 5; the judge passed 1 of them -> 1/5; an item the
    # reviewers passed never counts, and without a reviewers' failure the rate is undefined.
    pairs = [(S, S)] * 3 + [(S, F)] + [(F, S)] * 2 + [(F, F)] * 4
    assert false_positive_rate(pairs) == pytest.approx(0.2)
    assert false_positive_rate([(S, S), (F, S)]) is None
    assert false_positive_rate([]) is None


def test_figures_without_a_predicted_or_actual_success_are_undefined() -> None:
    assert binary_scores([(F, F), (F, S)]) == (0.5, None, 0.0, None)
    assert binary_scores([]) == (None, None, None, None)
    assert binary_scores([(S, F)]) == (0.0, 0.0, None, None)


def test_majority_and_ties() -> None:
    assert majority([S, S, F]) == S
    assert majority([S, F]) is None
    assert majority([U, U, S]) == U
    assert majority([]) is None


def _note(
    task: str, reviewer: str, outcome: Outcome, stage: Stage = Stage.BLIND, minute: int = 0
) -> Annotation:
    return Annotation(
        run="r",
        task_id=task,
        reviewer=reviewer,
        stage=stage,
        outcome=outcome,
        created=datetime(2026, 1, 1, 0, minute, tzinfo=UTC),
    )


def test_agreement_per_pair_per_judge_per_stage_with_counts() -> None:
    notes = [
        # task 1: ann and bob say success (a second blind row of ann's, as older versions stored a
        # revision, does not count: only a first judgement is blind)
        _note("1", "ann", S, minute=0),
        _note("1", "ann", F, minute=5),
        _note("1", "bob", S),
        # task 2: both failure; task 3: ann success, bob failure (tie: no majority)
        _note("2", "ann", F),
        _note("2", "bob", F),
        _note("3", "ann", S),
        _note("3", "bob", F),
        # task 4: only cat, informed
        _note("4", "cat", S, Stage.INFORMED),
    ]
    judged = {
        ("r", "1"): {"webarena-verified": S, "gpt_eval": F},
        ("r", "2"): {"webarena-verified": S},
        ("r", "3"): {"webarena-verified": F},
        ("r", "4"): {"webarena-verified": S},
    }
    report = agreement_report(notes, judged)
    (pair,) = report.reviewers
    # ann vs bob on 3 items: (s,s) (f,f) (s,f): po 2/3; ann s2 f1, bob s1 f2 -> pe 4/9;
    # kappa (6/9 - 4/9) / (5/9) = 0.4
    assert (pair.a, pair.b, pair.stage, pair.n) == ("ann", "bob", Stage.BLIND, 3)
    assert pair.kappa == pytest.approx(0.4)
    figures = {(j.judge, j.stage): j for j in report.judges}
    official = figures[("webarena-verified", Stage.BLIND)]
    # majorities: 1 -> s, 2 -> f (3 is a tie); judge said s, s: accuracy 1/2, precision 1/2, recall 1/1
    assert (official.n, official.ties, official.settled, official.rule) == (2, 1, 0, "majority")
    assert (official.accuracy, official.precision, official.recall) == pytest.approx((0.5, 0.5, 1.0))
    assert official.f1 == pytest.approx(2 / 3)
    # The reviewers failed task 2 only, and the judge passed it: false-positive rate 1/1.
    assert official.false_positive_rate == 1.0
    assert figures[("gpt_eval", Stage.BLIND)].false_positive_rate is None
    assert figures[("gpt_eval", Stage.BLIND)].n == 1
    assert figures[("webarena-verified", Stage.INFORMED)].n == 1
    cells = {(c.judge, c.stage, c.judge_outcome, c.human_outcome): c.items for c in report.confusion}
    assert cells[("webarena-verified", Stage.BLIND, S, F)] == (("r", "2"),)
    assert cells[("webarena-verified", Stage.BLIND, S, S)] == (("r", "1"),)
