"""What each automatic judge said of each trajectory, as the outcome reviewers label.

The official evaluator's verdict (from its score file or `eval_result.json`) is the judge
"webarena-verified": success is success, failure and error are failure. Every other score file is
a judge named by its file name (e.g. `gpt_eval`, `mmrubric_0.8-5-3`): a success when its score
reaches the threshold written in its name (`_0.8`), else 1.
"""

from __future__ import annotations

import re

from webeval_core.review.annotations import Outcome
from webeval_core.runs.index import RootIndex, TrajectorySummary
from webeval_core.scoring.results import ENGINE_NAME

OFFICIAL = "webarena-verified"
_THRESHOLD = re.compile(r"_(0\.\d+|1(?:\.0+)?)(?:\b|-|$)")


def judge_threshold(name: str) -> float:
    """The score a judge's file must reach for a success: the one in its name, else 1."""
    found = _THRESHOLD.search(name)
    return float(found.group(1)) if found else 1.0


def summary_verdicts(summary: TrajectorySummary) -> dict[str, Outcome]:
    """Each judge's outcome for one trajectory (judges without a verdict are absent)."""
    found: dict[str, Outcome] = {}
    if summary.verdict is not None and summary.verdict.status is not None:
        found[OFFICIAL] = Outcome.SUCCESS if summary.verdict.status == "success" else Outcome.FAILURE
    for name, score in sorted(summary.scores.items()):
        if name.startswith(ENGINE_NAME) or score is None:
            continue
        found[name] = Outcome.SUCCESS if score >= judge_threshold(name) else Outcome.FAILURE
    return found


def judge_verdicts(index: RootIndex) -> dict[tuple[str, str], dict[str, Outcome]]:
    """Every judge's outcome per trajectory (run key, task id) of a root."""
    return {(s.run_key, s.task_id): summary_verdicts(s) for s in index.summaries if not s.unreadable}
