"""What the app shows of a judging: the verdicts a trajectory had before beside the new one, and
a run's outcomes as rows (the page only draws them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.llm_judging.judge_run import JudgeOutcome
from webeval_core.reading.harness_record import HARNESS_JUDGE_PREFIX, HarnessRecord
from webeval_core.reading.scorefiles import ScoreFile, read_score_files
from webeval_core.runs.judges import judge_passes
from webeval_core.scoring.results import ENGINE_NAME


class VerdictLine(BaseModel):
    """One judge's verdict of one trajectory, in words."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str
    """The judge (its score file's stem)."""
    verdict: str
    """"success (1)", "failure (0)", or "error: <reason>"."""


class OutcomeRow(BaseModel):
    """One trajectory of a judging run, as the app's table shows it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str
    """The task id."""
    verdict: str
    """The verdict, "judged before", or the error and its reason."""
    requests: int
    """Requests made."""
    from_cache: int
    """Of those, answered from the cache."""
    tokens: int
    """Prompt and completion tokens."""
    seconds: float
    """Time it took."""


class JudgeReply(BaseModel):
    """A judge whose file holds a reply in words (WebVoyager's, WebJudge's, our outcome judge's):
    its verdict and the reply, as the Judges tab shows them beside the verifiers.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str
    """The judge (its score file's stem)."""
    verdict: str
    """Its verdict in words ("success (1)")."""
    score: float
    """Its score."""
    reply: str
    """The reply that holds the verdict."""


def judge_replies(
    scores: Mapping[str, ScoreFile], harness: HarnessRecord | None = None
) -> tuple[JudgeReply, ...]:
    """The score files of judges that reply in words: not a verifier's (`reading.verifier` shows
    those in full), not the official evaluator's (its own views show it); by judge name. A
    harness's own reward (`harness-<format>`, which has no reply) is said in words from its
    record `harness`: whose reward it is, the file it was read from and what it means.
    """
    return tuple(
        JudgeReply(
            judge=name,
            verdict=_words(judge_passes(name, found.score), found.score),
            score=found.score,
            reply=_harness_reply(found, harness)
            if name.startswith(HARNESS_JUDGE_PREFIX)
            else found.response_text or "",
        )
        for name, found in sorted(scores.items())
        if found.score is not None
        and not name.startswith(ENGINE_NAME)
        and not isinstance(found.response, Mapping)  # JSON: a verifier's or an evaluation
    )


def _harness_reply(found: ScoreFile, harness: HarnessRecord | None) -> str:
    """What a harness's own reward is, as its card says it (its score file holds no reply)."""
    whose = f"{harness.harness}'s" if harness is not None else "The harness's"
    said = harness.reward_meaning if harness is not None else None
    meaning = f" {said[0].upper()}{said[1:]}." if said else ""
    return (
        f"{whose} own reward for the episode, {found.score:g}, read from {found.path.name}.{meaning}"
        " It is the harness's judgement, beside the official evaluator's verdict, never mixed with it."
    )


def verdicts_of(folder: Path) -> tuple[VerdictLine, ...]:
    """Every judge's verdict of a trajectory from its score files, by judge name."""
    scores, _ = read_score_files(folder, responses="engine")
    return tuple(
        VerdictLine(judge=name, verdict=_words(judge_passes(name, found.score), found.score))
        for name, found in sorted(scores.items())
        if found.score is not None
    )


def outcome_line(outcome: JudgeOutcome) -> VerdictLine:
    """The verdict a judging decided, in words."""
    if outcome.decision is None:
        said = outcome.status.value if outcome.reason is None else f"error: {outcome.reason}"
        return VerdictLine(judge=outcome.judge_id, verdict=said)
    return VerdictLine(judge=outcome.judge_id, verdict=_words(outcome.decision.success, outcome.score))


def outcome_rows(outcomes: Sequence[JudgeOutcome]) -> list[OutcomeRow]:
    """A run's outcomes as table rows, in the run's order."""
    return [
        OutcomeRow(
            task=o.task_id,
            verdict=outcome_line(o).verdict,
            requests=o.cost.calls,
            from_cache=o.cost.cached_calls,
            tokens=o.cost.prompt_tokens + o.cost.completion_tokens,
            seconds=o.cost.seconds,
        )
        for o in outcomes
    ]


def _words(passed: bool, score: float | None) -> str:
    return (
        f"{'success' if passed else 'failure'} ({score:g})"
        if score is not None
        else "success"
        if passed
        else "failure"
    )
