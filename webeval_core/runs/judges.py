"""Judges kept apart: which judge gave which score, so no rate ever mixes two of them.

A trajectory may carry several verdicts: the official WebArena-Verified evaluator's (a
`webarena-verified-*` score file or eval_result.json), a rubric judge's (`mmrubric_*`) and LLM
judges' (`gpt_eval`, `WebJudge_*`...), each named by its score file. Rates are computed for one
judge at a time; trajectories whose judges disagree on pass or fail can be listed. Without a
judge asked for, every view and command uses one default (`default_judge`), and names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from webeval_core.reading.harness_record import HARNESS_JUDGE_PREFIX
from webeval_core.scoring.results import ENGINE_NAME

if TYPE_CHECKING:
    from webeval_core.runs.summary import RootIndex, TrajectorySummary

__all__ = [
    "OFFICIAL",
    "available_judges",
    "default_judge",
    "judge_label",
    "judge_passes",
    "judge_scores",
    "judge_threshold",
    "judges_disagree",
    "order_judges",
]

OFFICIAL = "official"
"""The name of the official WebArena-Verified evaluator among judges."""
# A judge's pass mark written in its file name, as Fara names rubric judges (`mmrubric_0.8-5-3`).
_THRESHOLD = re.compile(r"_(0\.\d+|1(?:\.0+)?)(?:\b|-|$)")


def judge_threshold(name: str) -> float:
    """The score a judge must give for a pass: the one in its name (`mmrubric_0.8-5-3`: 0.8), else 1."""
    found = _THRESHOLD.search(name) if name != OFFICIAL else None
    return float(found.group(1)) if found else 1.0


def judge_passes(name: str, score: float) -> bool:
    """Whether `score` from judge `name` is a pass (the one rule for rates, lists and agreement)."""
    return score >= judge_threshold(name)


def judge_label(name: str) -> str:
    """What a judge is, in words: the official evaluator, a rubric judge or an LLM judge, by file name."""
    if name == OFFICIAL:
        return "official WebArena-Verified evaluator"
    if name.startswith(HARNESS_JUDGE_PREFIX):
        return f"the harness's own reward ({name.removeprefix(HARNESS_JUDGE_PREFIX)})"
    kind = "rubric judge" if "rubric" in name.lower() else "LLM judge"
    return f"{kind} ({name})"


def judge_scores(summary: TrajectorySummary) -> dict[str, float | None]:
    """Every judge's score of one trajectory: the official verdict first, then score files by name."""
    official = {OFFICIAL: summary.verdict.score} if summary.verdict is not None else {}
    others = {n: score for n, score in sorted(summary.scores.items()) if not _official_file(n, summary)}
    return {**official, **others}


def available_judges(index: RootIndex) -> tuple[str, ...]:
    """The judges found under a root: the official evaluator first (when any verdict exists)."""
    return order_judges(name for s in index.summaries for name in judge_scores(s))


def order_judges(names: Iterable[str]) -> tuple[str, ...]:
    """Judge names once each, the official evaluator first, then by name (what pickers list)."""
    return tuple(sorted(set(names), key=lambda name: (name != OFFICIAL, name)))


def default_judge(names: Iterable[str]) -> str | None:
    """THE judge a figure uses until one is asked for, over the judges of the whole root: the
    official evaluator when it judged any trajectory, else the first by name; None without any.
    The app's picker, the queries, the frames, `report`, `watch` and the bundle all take it, so one
    run's figure is one judge's everywhere (a run that judge did not score shows no rate).
    """
    ordered = order_judges(names)
    return ordered[0] if ordered else None


def judges_disagree(scores: Mapping[str, float | None]) -> bool:
    """Whether two judges of one trajectory disagree on pass or fail (each by its own pass mark)."""
    return len({judge_passes(name, score) for name, score in scores.items() if score is not None}) > 1


def _official_file(name: str, summary: TrajectorySummary) -> bool:
    # The verdict's own file, or an older engine's: both are the official evaluator's.
    return name.startswith(f"{ENGINE_NAME}-") or (
        summary.verdict is not None and name == summary.verdict.source
    )
