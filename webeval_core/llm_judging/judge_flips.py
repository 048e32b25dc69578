"""What a judging run changed, in the flip report `webeval score` prints (`scoring.flips`): each
trajectory's verdict before (the one in force, or another judge's file) against the new judge's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from webeval_core.llm_judging.judge_run import JudgeOutcome
from webeval_core.reading.scorefiles import read_score_files
from webeval_core.runs.judges import default_judge, judge_passes
from webeval_core.runs.scoring_log import record_flips
from webeval_core.scoring.flips import NO_VERDICT, FlipReport, SeenVerdict, flip_report, verdicts_before
from webeval_core.scoring.results import ENGINE_NAME
from webeval_core.scoring.scorer import ScoreOutcome


def judged_flips(
    outcomes: Sequence[JudgeOutcome], against: str | None = None, *, root: Path | None = None
) -> FlipReport:
    """The flips of the verdicts decided now, against the verdicts in force (default; where none of
    the folders has one, the judge a figure of them would use, `default_judge`) or judge
    `against`'s files (any judge: the official evaluator's eval hash, or an LLM judge's id);
    recorded for the app's flip report when `root` is given (as `webeval score` records its own).
    """
    decided = [o for o in outcomes if o.decision is not None]
    folders = [o.folder for o in decided]
    if against is None and not _in_force(folders):  # WebTailBench: no official verdict to flip from
        against = _other_judge(folders, {o.judge_id for o in decided})
    official = against is None or against.startswith(ENGINE_NAME)
    before = (
        verdicts_before(folders, against) if official else {f: _judge_verdict(f, against) for f in folders}
    )
    scored = [
        ScoreOutcome(
            path=o.folder, task_id=o.task_id, status=o.status.value, score=o.score, eval_hash=o.judge_id
        )
        for o in decided
    ]
    if root is not None:
        return record_flips(root, before, scored, against)
    return flip_report(before, scored, against)


def _in_force(folders: Sequence[Path]) -> bool:
    """Whether any of `folders` has an official verdict in force."""
    return any(v != NO_VERDICT for v in verdicts_before(folders).values())


def _other_judge(folders: Sequence[Path], new: set[str]) -> str | None:
    """The judge a figure of these folders would use (`runs.judges.default_judge`) among those
    that judged them before, this run's own judge left out; None when none did.
    """
    found = {name for f in folders for name in read_score_files(f, responses="engine")[0]}
    return default_judge(found - new)


def _judge_verdict(folder: Path, judge: str | None) -> SeenVerdict:
    scores, _ = read_score_files(folder, responses="engine")
    found = scores.get(judge or "")
    if found is None or found.score is None or judge is None:
        return NO_VERDICT
    status = "success" if judge_passes(judge, found.score) else "failure"
    return SeenVerdict(source=judge, status=status, score=found.score)
