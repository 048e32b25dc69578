"""Judge pairs and where they disagree, against counts made by hand (shown in each test)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.harness.verifier_files import JUDGE, PASSED, RUN, TASK, verifier_root
from webeval_core.review.annotations import Annotation, Outcome, Stage
from webeval_core.review.disagreement import (
    REVIEWERS,
    half_name,
    judge_pairs,
    reviewers_majority,
    verifier_halves,
    with_reviewers,
)
from webeval_core.review.judge_outcomes import OFFICIAL

S, F, U = Outcome.SUCCESS, Outcome.FAILURE, Outcome.UNSURE


def _note(task: str, reviewer: str, outcome: Outcome, stage: Stage = Stage.BLIND) -> Annotation:
    created = datetime(2026, 1, 1, tzinfo=UTC)
    return Annotation(run="r", task_id=task, reviewer=reviewer, stage=stage, outcome=outcome, created=created)


def test_every_pair_counts_what_both_judged_and_lists_where_they_differ() -> None:
    judged = {
        ("r", "1"): {OFFICIAL: S, "gpt_eval": F, "mmrubric": S},
        ("r", "2"): {OFFICIAL: F, "gpt_eval": F},
        ("r", "3"): {OFFICIAL: S, "mmrubric": F},
        ("r", "4"): {"gpt_eval": U, "mmrubric": S},  # unsure is no verdict: nothing to compare
    }
    pairs = {(p.a, p.b): p for p in judge_pairs(judged)}
    # The official evaluator comes first; the others by name.
    assert list(pairs) == [(OFFICIAL, "gpt_eval"), (OFFICIAL, "mmrubric"), ("gpt_eval", "mmrubric")]
    assert (pairs[(OFFICIAL, "gpt_eval")].n, pairs[(OFFICIAL, "gpt_eval")].disagree) == (2, (("r", "1"),))
    assert (pairs[(OFFICIAL, "mmrubric")].n, pairs[(OFFICIAL, "mmrubric")].disagree) == (2, (("r", "3"),))
    assert (pairs[("gpt_eval", "mmrubric")].n, pairs[("gpt_eval", "mmrubric")].disagree) == (1, (("r", "1"),))


def test_the_reviewers_majority_is_a_judge_without_ties_or_unsure() -> None:
    notes = [
        _note("1", "ann", F),
        _note("1", "bob", F, Stage.INFORMED),
        _note("2", "ann", S),
        _note("2", "bob", F),  # a tie: no verdict
        _note("3", "ann", U),  # unsure: no verdict
    ]
    reviewers = reviewers_majority(notes)
    assert reviewers == {("r", "1"): F}
    judged = with_reviewers({("r", "1"): {OFFICIAL: S}, ("r", "2"): {OFFICIAL: S}}, reviewers)
    (pair,) = judge_pairs(judged)
    assert (pair.a, pair.b, pair.n, pair.disagree) == (OFFICIAL, REVIEWERS, 1, (("r", "1"),))


def test_a_verifier_file_gives_its_outcome_and_rubric_halves(tmp_path: Path) -> None:
    root = verifier_root(tmp_path)
    # The hand-written file: outcome false, rubric 0 -> both failure.
    halves = verifier_halves(root / RUN / "traj" / TASK)
    assert halves == {half_name(JUDGE, "outcome"): F, half_name(JUDGE, "rubric"): F}
    # A file with only an outcome verdict gives only that half.
    assert verifier_halves(root / RUN / "traj" / PASSED) == {half_name(JUDGE, "outcome"): S}
    assert verifier_halves(tmp_path) == {}


def test_the_lists_review_columns_count_each_reviewer_once_and_compare_with_the_official_verdict() -> None:
    """The Trajectories page's review columns (once a page's, now the core's one rule)."""
    import pandas as pd

    from webeval_core.review.disagreement import review_list_columns
    from webeval_core.review.judge_outcomes import status_outcome

    def said(task: str, who: str, outcome: str) -> Annotation:
        return Annotation(run="r", task_id=task, reviewer=who, stage="blind", outcome=outcome)

    frame = pd.DataFrame(
        {"run": ["r", "r", "r"], "task_id": ["1", "2", "3"], "status": ["success", "error", None]}
    )
    notes = [said("1", "Ann", "failure"), said("1", "bob", "failure"), said("2", "ann", "unsure")]
    columns = review_list_columns(frame, notes, "ANN")
    assert columns["mine"].tolist() == [True, True, False]  # any case: one reviewer
    assert columns["reviewers"].tolist() == [2, 1, 0]
    assert [h if isinstance(h, str) else None for h in columns["human"]] == ["failure", "unsure", None]
    assert columns["disagree"].tolist() == [True, False, False]  # unsure disagrees with nothing
    assert [status_outcome(s) for s in ("success", "failure", "error", None)] == [
        Outcome.SUCCESS,
        Outcome.FAILURE,
        Outcome.FAILURE,
        None,
    ]
