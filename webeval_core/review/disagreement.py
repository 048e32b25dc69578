"""Where judges disagree: every pair of judges with the trajectories on which they differ.

The judges are those `runs.judges` names (the official evaluator, each score-file judge), the
outcome and rubric halves of a rubric verifier where its file gives them (`verifier_halves`:
Fara's Universal Verifier decides its score from one or both, so a disagreement between them is
where the score could have gone either way), and the reviewers' majority (`REVIEWERS`). Two judges
are compared on the trajectories both gave a success or failure verdict; each pair says how many
that is and which of them they disagree on, so a triage view can open exactly those.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.scorefiles import read_score_files
from webeval_core.reading.verifier import verifier_outputs
from webeval_core.review.agreement_stats import Item, majority
from webeval_core.review.annotations import Annotation, Outcome, current
from webeval_core.review.judge_outcomes import status_outcome
from webeval_core.runs.judges import order_judges

if TYPE_CHECKING:
    import pandas as pd

REVIEWERS = "reviewers"
"""The name of the reviewers' majority outcome among judges."""
OUTCOME_HALF = "outcome"
"""Suffix of a verifier's outcome verdict as a judge (`judge · outcome`)."""
RUBRIC_HALF = "rubric"
"""Suffix of a verifier's rubric verdict as a judge (`judge · rubric`)."""


class JudgePair(BaseModel):
    """Two judges, the trajectories both judged and those on which they disagree."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    a: str
    """One judge (a pair is in the judges' order: the official evaluator first, then by name)."""
    b: str
    """The other judge."""
    n: int
    """How many trajectories both gave a success or failure verdict."""
    disagree: tuple[Item, ...]
    """The trajectories on which one said success and the other failure, sorted."""


def half_name(judge: str, half: str) -> str:
    """The name of one half of a verifier as a judge: `mmrubric_0.8-5-3 · outcome`."""
    return f"{judge} · {half}"


def verifier_halves(folder: Path) -> dict[str, Outcome]:
    """The outcome and rubric verdicts of each rubric verifier in a trajectory folder, as judges.

    Read from the score files themselves (the index keeps only the score), so only trajectories
    a triage view asks about are read; a half the file does not give is absent.
    """
    scores, _ = read_score_files(folder)
    halves: dict[str, Outcome] = {}
    for output in verifier_outputs(scores)[0]:
        for half, verdict in (
            (OUTCOME_HALF, output.outcome_success),
            (RUBRIC_HALF, output.rubric_is_success),
        ):
            if verdict is not None:
                halves[half_name(output.judge, half)] = Outcome.SUCCESS if verdict else Outcome.FAILURE
    return halves


def reviewers_majority(annotations: Iterable[Annotation]) -> dict[Item, Outcome]:
    """The majority outcome of every reviewer's current judgement per trajectory (both stages).

    A tie or an "unsure" majority gives no verdict: it cannot disagree with a judge's pass or fail.
    """
    votes: dict[Item, list[Outcome]] = {}
    for annotation in current(annotations).values():
        votes.setdefault(annotation.item, []).append(annotation.outcome)
    found = {item: majority(outcomes) for item, outcomes in votes.items()}
    return {item: outcome for item, outcome in found.items() if outcome in (Outcome.SUCCESS, Outcome.FAILURE)}


def with_reviewers(
    judged: Mapping[Item, Mapping[str, Outcome]], reviewers: Mapping[Item, Outcome]
) -> dict[Item, dict[str, Outcome]]:
    """`judged` with the reviewers' majority added as the judge `REVIEWERS` where there is one."""
    return {
        item: {**verdicts, **({REVIEWERS: reviewers[item]} if item in reviewers else {})}
        for item, verdicts in judged.items()
    }


def judge_pairs(judged: Mapping[Item, Mapping[str, Outcome]]) -> tuple[JudgePair, ...]:
    """Every pair of judges that judged at least one trajectory in common, in the judges' order."""
    decided = {
        item: {name: o for name, o in verdicts.items() if o in (Outcome.SUCCESS, Outcome.FAILURE)}
        for item, verdicts in judged.items()
    }
    names = order_judges(name for verdicts in decided.values() for name in verdicts)
    pairs = []
    for a, b in combinations(names, 2):
        both = [(item, v[a], v[b]) for item, v in decided.items() if a in v and b in v]
        if both:
            apart = tuple(sorted(item for item, x, y in both if x != y))
            pairs.append(JudgePair(a=a, b=b, n=len(both), disagree=apart))
    return tuple(pairs)


def review_list_columns(frame: pd.DataFrame, annotations: Iterable[Annotation], me: str) -> pd.DataFrame:
    """A trajectory list (`run`, `task_id`, `status`) with its review columns: `mine` (annotated by
    `me`, any case), `reviewers` (how many), `human` (their majority outcome, None on a tie or
    none) and `disagree` (that majority, when not unsure, differs from the official verdict).
    """
    by_item: dict[Item, dict[str, Outcome]] = {}
    for (run, task_id, name, _stage), annotation in current(annotations).items():
        by_item.setdefault((run, task_id), {})[name.casefold()] = annotation.outcome
    keys = zip(frame["run"].astype(str), frame["task_id"].astype(str), strict=True)
    votes = [by_item.get(key, {}) for key in keys]
    human = [majority(v.values()) for v in votes]
    # Without its verdicts (withheld, runs.viewing), a list has no official verdict to disagree with.
    statuses = frame["status"] if "status" in frame else [None] * len(frame)
    official = [status_outcome(status) for status in statuses]
    mine = me.strip().casefold()
    return frame.assign(
        mine=[bool(mine) and mine in v for v in votes],
        reviewers=[len(v) for v in votes],
        human=[h.value if h else None for h in human],
        disagree=[
            h is not None and e is not None and h not in (Outcome.UNSURE, e)
            for h, e in zip(human, official, strict=True)
        ],
    )
