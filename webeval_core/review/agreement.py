"""Agreement: between reviewers (Cohen's kappa) and of each judge with the reviewers' majority.

Computed on each reviewer's current outcome (newest per item and stage), blind and informed
stages apart. A judge is compared with the majority outcome of the reviewers of an item (a tie
has no majority and the item is left out); success is the positive class. Every figure carries
the number of items behind it; a figure that is undefined on them (kappa when both raters use one
label, precision without a predicted success) is None.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from pydantic import BaseModel, ConfigDict

from webeval_core.review.annotations import Annotation, Outcome, Stage, current

Item = tuple[str, str]
"""A trajectory: (run key, task id)."""


class ReviewerAgreement(BaseModel):
    """Cohen's kappa of two reviewers' outcomes on the items both judged in one stage."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    a: str
    """One reviewer (the names of a pair are in sorted order)."""
    b: str
    """The other reviewer."""
    stage: Stage
    """The stage both judged in."""
    n: int
    """How many items both judged."""
    kappa: float | None
    """Cohen's kappa of their outcomes; None when undefined (n = 0, or chance agreement is 1)."""


class JudgeAgreement(BaseModel):
    """One judge against the reviewers' majority outcome in one stage (success = positive)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str
    """The judge: "official" (the official WebArena-Verified evaluator) or a score file's name."""
    stage: Stage
    """The stage of the reviewers' annotations."""
    n: int
    """Items with both a judge verdict and a success/failure majority."""
    kappa: float | None
    """Cohen's kappa of judge and majority; None when undefined."""
    accuracy: float | None
    """Share of items where they agree; None when n = 0."""
    precision: float | None
    """Of the items the judge passed, the share the reviewers passed; None when it passed none."""
    recall: float | None
    """Of the items the reviewers passed, the share the judge passed; None when they passed none."""
    f1: float | None
    """Harmonic mean of precision and recall; None when either is undefined."""


class ConfusionCell(BaseModel):
    """The items where a judge said one outcome and the reviewers' majority another."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str
    """The judge."""
    stage: Stage
    """The stage of the reviewers' annotations."""
    judge_outcome: Outcome
    """What the judge said (success or failure)."""
    human_outcome: Outcome
    """The reviewers' majority outcome (unsure included)."""
    items: tuple[Item, ...]
    """The trajectories in this cell, sorted."""


class Agreement(BaseModel):
    """Every agreement figure of a set of annotations and judge verdicts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reviewers: tuple[ReviewerAgreement, ...]
    """Each pair of reviewers per stage, with at least one item in common."""
    judges: tuple[JudgeAgreement, ...]
    """Each judge per stage with at least one reviewed item it judged."""
    confusion: tuple[ConfusionCell, ...]
    """Judge-vs-human cells holding at least one item."""


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two raters' labels, one (rater a, rater b) pair per item."""
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(1 for a, b in pairs if a == b) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[label] * second[label] for label in first) / (n * n)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def binary_scores(pairs: Sequence[tuple[Outcome, Outcome]]) -> tuple[float | None, ...]:
    """Accuracy, precision, recall and F1 of (predicted, actual) pairs; success is positive."""
    n = len(pairs)
    tp = sum(1 for p, a in pairs if p == a == Outcome.SUCCESS)
    predicted = sum(1 for p, _ in pairs if p == Outcome.SUCCESS)
    actual = sum(1 for _, a in pairs if a == Outcome.SUCCESS)
    accuracy = sum(1 for p, a in pairs if p == a) / n if n else None
    precision = tp / predicted if predicted else None
    recall = tp / actual if actual else None
    if precision is None or recall is None:
        f1 = None
    else:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return accuracy, precision, recall, f1


def majority(outcomes: Iterable[Outcome]) -> Outcome | None:
    """The most frequent outcome; None when there is none or two tie for first."""
    ranked = Counter(outcomes).most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def agreement_report(
    annotations: Iterable[Annotation], judged: Mapping[Item, Mapping[str, Outcome]]
) -> Agreement:
    """Reviewer pairs, judges against the majority and the confusion cells, per stage."""
    by_stage: dict[Stage, dict[Item, dict[str, Outcome]]] = {stage: defaultdict(dict) for stage in Stage}
    for (run, task_id, reviewer, stage), annotation in current(annotations).items():
        by_stage[stage][(run, task_id)][reviewer] = annotation.outcome
    reviewers: list[ReviewerAgreement] = []
    judges: list[JudgeAgreement] = []
    confusion: list[ConfusionCell] = []
    for stage, items in by_stage.items():
        reviewers += _reviewer_pairs(stage, items)
        majorities = {item: m for item, votes in items.items() if (m := majority(votes.values()))}
        for judge in sorted({j for verdicts in judged.values() for j in verdicts}):
            compared = {
                item: (judged[item][judge], m)
                for item, m in majorities.items()
                if judge in judged.get(item, {})
            }
            if compared:
                judges.append(_judge_figures(judge, stage, list(compared.values())))
                confusion += _cells(judge, stage, compared)
    return Agreement(reviewers=tuple(reviewers), judges=tuple(judges), confusion=tuple(confusion))


def _reviewer_pairs(stage: Stage, items: Mapping[Item, Mapping[str, Outcome]]) -> list[ReviewerAgreement]:
    names = sorted({name for votes in items.values() for name in votes})
    pairs = []
    for a, b in combinations(names, 2):
        common = [(votes[a], votes[b]) for votes in items.values() if a in votes and b in votes]
        if common:
            labels = [(str(x), str(y)) for x, y in common]
            pairs.append(ReviewerAgreement(a=a, b=b, stage=stage, n=len(common), kappa=cohen_kappa(labels)))
    return pairs


def _judge_figures(judge: str, stage: Stage, pairs: list[tuple[Outcome, Outcome]]) -> JudgeAgreement:
    decided = [(p, a) for p, a in pairs if a != Outcome.UNSURE]
    accuracy, precision, recall, f1 = binary_scores(decided)
    kappa = cohen_kappa([(str(p), str(a)) for p, a in decided])
    return JudgeAgreement(
        judge=judge,
        stage=stage,
        n=len(decided),
        kappa=kappa,
        accuracy=accuracy,
        precision=precision,
        recall=recall,
        f1=f1,
    )


def _cells(judge: str, stage: Stage, compared: Mapping[Item, tuple[Outcome, Outcome]]) -> list[ConfusionCell]:
    grouped: dict[tuple[Outcome, Outcome], list[Item]] = defaultdict(list)
    for item, pair in compared.items():
        grouped[pair].append(item)
    return [
        ConfusionCell(judge=judge, stage=stage, judge_outcome=j, human_outcome=h, items=tuple(sorted(items)))
        for (j, h), items in sorted(grouped.items())
    ]
