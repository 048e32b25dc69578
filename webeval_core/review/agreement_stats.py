"""Agreement: between reviewers (Cohen's kappa) and of each judge with the reviewers' majority.

Computed on each reviewer's current outcome (`annotations.current`: the first blind judgement, the
newest informed one), blind and informed stages apart. A judge is compared with the majority
outcome of the reviewers of an item; success is the positive class. A tie has no majority: with
an adjudicator named, their outcome settles it when they judged the item, else the item is left
out, and every judge figure says how many items were left out that way (`ties`) and by which
rule its reference was made (`rule`). Each judge also has its false-positive rate (passed where
the reviewers failed), the figure CUAVerifierBench reports per verifier. Every figure carries
the number of items behind it; a figure that is undefined on them (kappa when both raters use one
label, precision without a predicted success) is None.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from pydantic import BaseModel, ConfigDict

from webeval_core.review.annotations import Annotation, Outcome, Stage, current, reviewer_key
from webeval_core.runs.judges import order_judges

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
    ties: int = 0
    """Items the judge judged that were left out because their reviewers tied (none settled them)."""
    settled: int = 0
    """Items among the `n` whose tie the adjudicator settled."""
    rule: str = "majority"
    """How the reviewers' outcome was made: "majority", or "majority, ties settled by NAME"."""
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
    false_positive_rate: float | None = None
    """Of the items the reviewers failed, the share the judge passed (CUAVerifierBench's headline
    figure for a verifier); None when the reviewers failed none."""


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


def false_positive_rate(pairs: Sequence[tuple[Outcome, Outcome]]) -> float | None:
    """Of (predicted, actual) pairs whose actual is a failure, the share predicted a success."""
    failed = [p for p, a in pairs if a == Outcome.FAILURE]
    return sum(1 for p in failed if p == Outcome.SUCCESS) / len(failed) if failed else None


def majority(outcomes: Iterable[Outcome]) -> Outcome | None:
    """The most frequent outcome; None when there is none or two tie for first."""
    ranked = Counter(outcomes).most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


class HumanReference(BaseModel):
    """The reviewers' outcome per item of one stage, and the items it could not be made for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    outcomes: dict[Item, Outcome]
    """The majority outcome (or the adjudicator's, for a settled tie) per item."""
    ties: frozenset[Item]
    """Items whose reviewers tied and that no adjudicator settled."""
    settled: frozenset[Item]
    """Items whose tie the adjudicator settled."""


def human_reference(votes: Mapping[Item, Mapping[str, Outcome]], adjudicator: str | None) -> HumanReference:
    """The reviewers' outcome of each item: the majority, a tie settled by the adjudicator's vote."""
    outcomes: dict[Item, Outcome] = {}
    ties: set[Item] = set()
    settled: set[Item] = set()
    chosen = reviewer_key(adjudicator) if adjudicator else None
    for item, item_votes in votes.items():
        found = majority(item_votes.values())
        if found is None:
            by_key = {reviewer_key(name): outcome for name, outcome in item_votes.items()}
            if chosen is None or chosen not in by_key:
                ties.add(item)
                continue
            found = by_key[chosen]
            settled.add(item)
        outcomes[item] = found
    return HumanReference(outcomes=outcomes, ties=frozenset(ties), settled=frozenset(settled))


def agreement_report(
    annotations: Iterable[Annotation],
    judged: Mapping[Item, Mapping[str, Outcome]],
    adjudicator: str | None = None,
) -> Agreement:
    """Reviewer pairs, judges against the reviewers' outcome and the confusion cells, per stage.

    `adjudicator`: the reviewer whose outcome settles a tie between the others (when they judged
    the item); without one, tied items are left out and counted.
    """
    by_stage: dict[Stage, dict[Item, dict[str, Outcome]]] = {stage: defaultdict(dict) for stage in Stage}
    for (run, task_id, reviewer, stage), annotation in current(annotations).items():
        by_stage[stage][(run, task_id)][reviewer] = annotation.outcome
    rule = f"majority, ties settled by {adjudicator}" if adjudicator else "majority"
    reviewers: list[ReviewerAgreement] = []
    judges: list[JudgeAgreement] = []
    confusion: list[ConfusionCell] = []
    for stage, items in by_stage.items():
        reviewers += _reviewer_pairs(stage, items)
        reference = human_reference(items, adjudicator)
        for judge in order_judges(j for verdicts in judged.values() for j in verdicts):
            mine = {item for item, verdicts in judged.items() if judge in verdicts}
            compared = {
                item: (judged[item][judge], o) for item, o in reference.outcomes.items() if item in mine
            }
            ties = len(reference.ties & mine)
            if compared or ties:
                figures = _judge_figures(judge, stage, list(compared.values()))
                extra = {"ties": ties, "settled": len(reference.settled & mine), "rule": rule}
                judges.append(figures.model_copy(update=extra))
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
        false_positive_rate=false_positive_rate(decided),
    )


def _cells(judge: str, stage: Stage, compared: Mapping[Item, tuple[Outcome, Outcome]]) -> list[ConfusionCell]:
    grouped: dict[tuple[Outcome, Outcome], list[Item]] = defaultdict(list)
    for item, pair in compared.items():
        grouped[pair].append(item)
    return [
        ConfusionCell(judge=judge, stage=stage, judge_outcome=j, human_outcome=h, items=tuple(sorted(items)))
        for (j, h), items in sorted(grouped.items())
    ]
