"""Reviewers and verifiers in one taxonomy: the annotation's fields and the four figures by hand."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.harness.verifier_files import JUDGE, PASSED, RUN, SECOND, TASK, verifier_root
from webeval_core.review.annotations import Annotation, Outcome, Stage
from webeval_core.review.failure_agreement import (
    JudgeFailure,
    failure_report,
    human_failure,
    judge_failures,
    read_failures,
)

S, F, U = Outcome.SUCCESS, Outcome.FAILURE, Outcome.UNSURE


def _note(task: str, reviewer: str, outcome: Outcome, stage: Stage = Stage.BLIND, **kw: object) -> Annotation:
    created = datetime(2026, 1, 1, tzinfo=UTC)
    return Annotation(
        run="r",
        task_id=task,
        reviewer=reviewer,
        stage=stage,
        outcome=outcome,
        created=created,
        **kw,  # type: ignore[arg-type]
    )


def test_an_annotation_without_the_taxonomy_keeps_the_digest_it_had() -> None:
    note = _note("1", "ann", F, justification="wrong total")
    # The digest as it was computed before the taxonomy fields existed.
    fields = note.model_dump(
        mode="json",
        exclude={
            "created",
            "verdict_source",
            "verdict_status",
            "revealed",
            "failing_steps",
            "error_codes",
            "task_codes",
            "signed_in",  # added later still (issue 23), never part of the digest
        },
    )
    judgement = tuple(f"{key}={fields[key]}" for key in sorted(fields))
    text = "\x1f".join((*judgement, note.created.isoformat()))
    assert note.digest == hashlib.sha256(text.encode()).hexdigest()
    assert _note("1", "ann", F, justification="wrong total", error_codes=("2.1",)).digest != note.digest


def test_codes_must_be_published_and_in_their_place() -> None:
    assert _note("1", "ann", F, error_codes=(" 2.1", "2.1")).error_codes == ("2.1",)
    with pytest.raises(ValidationError, match="not a code"):
        _note("1", "ann", F, error_codes=("2.99",))
    with pytest.raises(ValidationError, match="task_codes"):
        _note("1", "ann", F, error_codes=("7.1",))
    with pytest.raises(ValidationError, match="error_codes"):
        _note("1", "ann", F, task_codes=("2.1",))
    with pytest.raises(ValidationError, match="negative"):
        _note("1", "ann", F, failing_steps=(-1,))


def test_a_reviewer_in_the_verifiers_terms() -> None:
    assert human_failure(_note("1", "ann", S)) == JudgeFailure(has_failure=False)
    assert human_failure(_note("1", "ann", U)) == JudgeFailure()
    named = human_failure(_note("1", "ann", S, failing_steps=(6, 4), error_codes=("3.2", "2.1")))
    assert named == JudgeFailure(has_failure=True, category="3", first_step=4)


def test_four_figures_per_judge_and_stage_each_with_n() -> None:
    judge = {
        ("r", "1"): {"v": JudgeFailure(has_failure=True, category="2", first_step=4)},
        ("r", "2"): {"v": JudgeFailure(has_failure=True, category="3", first_step=2)},
        ("r", "3"): {"v": JudgeFailure(has_failure=False)},
    }
    notes = [
        _note("1", "ann", F, failing_steps=(4,), error_codes=("2.1",)),  # all agree
        _note("1", "bob", F, failing_steps=(5,), error_codes=("3.1",)),  # step off by one, category not
        _note("2", "ann", F, failing_steps=(7,)),  # step off by five, no code
        _note("3", "ann", F),  # says failure, the verifier none
        _note("3", "cat", S, Stage.INFORMED),
    ]
    blind, informed = failure_report(notes, judge)
    # has failure: 4 blind pairs, 3 agree; category: 2 pairs, 1 agrees; steps |0|, |1|, |5|.
    assert (blind.judge, blind.stage, blind.has_failure_n, blind.has_failure) == ("v", Stage.BLIND, 4, 0.75)
    assert (blind.category_n, blind.category) == (2, 0.5)
    assert (blind.step_n, blind.step_exact, blind.step_within_one) == (
        3,
        pytest.approx(1 / 3),
        pytest.approx(2 / 3),
    )
    assert (informed.stage, informed.has_failure_n, informed.has_failure, informed.step_n) == (
        Stage.INFORMED,
        1,
        1.0,
        0,
    )
    assert informed.step_exact is None and informed.category is None


def test_a_verifier_files_first_point_of_failure(tmp_path: Path) -> None:
    root = verifier_root(tmp_path)
    traj = root / RUN / "traj"
    second = judge_failures(traj / SECOND)
    assert second == {JUDGE: JudgeFailure(has_failure=True, category="2", first_step=4)}
    found = read_failures({("run", TASK): traj / TASK, ("run", PASSED): traj / PASSED})
    assert set(found) == {("run", TASK)}  # the passed trajectory's file names no failure
    assert found[("run", TASK)][JUDGE].has_failure is True
