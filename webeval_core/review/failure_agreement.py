"""Agreement on the failure itself: reviewers and verifiers in Fara's one error taxonomy.

A rubric verifier names its first point of failure (`reading.verifier.FailureAnalysis`): whether
there is one, its steps and its error code. A reviewer may give the same (`Annotation`'s
`failing_steps` and `error_codes`). Per judge and stage this compares each reviewer's current
judgement with the judge on four figures, each with the number of (judgement, judge) pairs
behind it: whether there is a failure at all, the first failure's category (the code's first
number), and its first step, exactly and within one step. Pairs are per reviewer, not per
reviewers' majority: a majority of step numbers or codes has no meaning.

A reviewer says there is a failure when they gave failing steps or error codes or judged the
outcome a failure; none when they judged it a success and gave neither; nothing when unsure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.scorefiles import read_score_files
from webeval_core.reading.taxonomy import category_of
from webeval_core.reading.verifier import verifier_outputs
from webeval_core.review.agreement_stats import Item
from webeval_core.review.annotations import Annotation, Outcome, Stage, current


class JudgeFailure(BaseModel):
    """A verifier's first point of failure of one trajectory, as far as its file says."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    has_failure: bool | None = None
    """Whether the verifier found a failure; None when its file does not say."""
    category: str | None = None
    """The category number of the first failure point's code ("2" of "2.1"); None without one."""
    first_step: int | None = None
    """The first step of the first failure point; None without one."""


class FailureAgreement(BaseModel):
    """Reviewers' judgements against one judge's first point of failure, in one stage."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str
    """The judge (a rubric verifier's score file stem)."""
    stage: Stage
    """The stage of the reviewers' judgements."""
    has_failure_n: int
    """Pairs where both said whether there is a failure."""
    has_failure: float | None
    """Share of those where they agree; None when there are none."""
    category_n: int
    """Pairs where both named the first failure's code."""
    category: float | None
    """Share of those with the same category; None when there are none."""
    step_n: int
    """Pairs where both gave the first failing step."""
    step_exact: float | None
    """Share of those with the same first step; None when there are none."""
    step_within_one: float | None
    """Share of those whose first steps are at most one apart; None when there are none."""


def judge_failures(folder: Path) -> dict[str, JudgeFailure]:
    """Each rubric verifier's first point of failure in a trajectory folder, by judge."""
    scores, _ = read_score_files(folder)
    found: dict[str, JudgeFailure] = {}
    for output in verifier_outputs(scores)[0]:
        failure = output.failure
        if failure is None:
            continue
        first = output.first_failure
        has = failure.has_failure if failure.has_failure is not None else (True if first else None)
        found[output.judge] = JudgeFailure(
            has_failure=has,
            category=category_of(first.error_code) if first and first.error_code else None,
            first_step=first.steps[0] if first and first.steps else None,
        )
    return found


def read_failures(folders: Mapping[Item, Path]) -> dict[Item, dict[str, JudgeFailure]]:
    """`judge_failures` of each trajectory folder given; folders without a verifier are left out.

    Read from the files (the index keeps only the codes), so give only the trajectories reviewed.
    """
    found = {item: judge_failures(folder) for item, folder in folders.items()}
    return {item: failures for item, failures in found.items() if failures}


def human_failure(annotation: Annotation) -> JudgeFailure:
    """A reviewer's judgement in the verifier's terms (the rule is the module's docstring)."""
    named = bool(annotation.failing_steps or annotation.error_codes)
    if named or annotation.outcome == Outcome.FAILURE:
        has: bool | None = True
    else:
        has = False if annotation.outcome == Outcome.SUCCESS else None
    return JudgeFailure(
        has_failure=has,
        category=category_of(annotation.error_codes[0]) if annotation.error_codes else None,
        first_step=annotation.failing_steps[0] if annotation.failing_steps else None,
    )


def failure_report(
    annotations: Iterable[Annotation], failures: Mapping[Item, Mapping[str, JudgeFailure]]
) -> tuple[FailureAgreement, ...]:
    """Per judge and stage, the four figures over every (reviewer's judgement, judge) pair."""
    pairs: dict[tuple[str, Stage], list[tuple[JudgeFailure, JudgeFailure]]] = {}
    for annotation in current(annotations).values():
        for judge, said in failures.get(annotation.item, {}).items():
            pairs.setdefault((judge, annotation.stage), []).append((human_failure(annotation), said))
    return tuple(_figures(judge, stage, pairs[(judge, stage)]) for judge, stage in sorted(pairs))


def _share(matches: list[bool]) -> float | None:
    return sum(matches) / len(matches) if matches else None


def _figures(judge: str, stage: Stage, pairs: list[tuple[JudgeFailure, JudgeFailure]]) -> FailureAgreement:
    has = [h.has_failure == j.has_failure for h, j in pairs if None not in (h.has_failure, j.has_failure)]
    category = [h.category == j.category for h, j in pairs if h.category and j.category]
    steps = [
        abs(h.first_step - j.first_step)
        for h, j in pairs
        if h.first_step is not None and j.first_step is not None
    ]
    return FailureAgreement(
        judge=judge,
        stage=stage,
        has_failure_n=len(has),
        has_failure=_share(has),
        category_n=len(category),
        category=_share(category),
        step_n=len(steps),
        step_exact=_share([d == 0 for d in steps]),
        step_within_one=_share([d <= 1 for d in steps]),
    )
