"""What each automatic judge said of each trajectory, as the outcome reviewers label.

The judges and their pass rule are `runs.judges`: the official evaluator (`OFFICIAL`) and every
other score file by its name, each passing by its own mark (`judge_passes`).
"""

from __future__ import annotations

from webeval_core.review.annotations import Outcome
from webeval_core.runs.judges import OFFICIAL, judge_passes, judge_scores
from webeval_core.runs.summary import RootIndex, TrajectorySummary

__all__ = ["OFFICIAL", "judge_verdicts", "status_outcome", "summary_verdicts"]


def status_outcome(status: object) -> Outcome | None:
    """An official verdict's status as the outcome reviewers label: success, else failure for a
    failure or a scoring error; None when there is no verdict.
    """
    if status == "success":
        return Outcome.SUCCESS
    if status in ("failure", "error"):
        return Outcome.FAILURE
    return None


def summary_verdicts(summary: TrajectorySummary) -> dict[str, Outcome]:
    """Each judge's outcome for one trajectory (judges without a verdict are absent)."""
    return {
        name: Outcome.SUCCESS if judge_passes(name, score) else Outcome.FAILURE
        for name, score in judge_scores(summary).items()
        if score is not None
    }


def judge_verdicts(index: RootIndex) -> dict[tuple[str, str], dict[str, Outcome]]:
    """Every judge's outcome per trajectory (run key, task id) of a root."""
    return {(s.run_key, s.task_id): summary_verdicts(s) for s in index.summaries if not s.unreadable}
