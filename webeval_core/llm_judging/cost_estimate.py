"""What a judging run will cost before anything is sent (the dry run), and what it cost after.

The estimate counts each judge's requests as if every screenshot were kept (WebJudge's final
request), images by OpenAI's published token count at the profile's detail, texts at four
characters a token, and the replies at the profile's most tokens: an upper bound, said as such.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.llm_judging.chat_transport import ImageRef, TransportCounts
from webeval_core.llm_judging.endpoints import EndpointProfile
from webeval_core.llm_judging.image_parts import estimated_image_tokens
from webeval_core.llm_judging.judge_files import FileOwner, file_owner
from webeval_core.llm_judging.judge_material import load_material
from webeval_core.llm_judging.judge_run import JudgeOutcome, JudgeSession, JudgeStatus
from webeval_core.reading.screenshots import png_size
from webeval_core.support.diagnostics import UnreadableError

_CHARS_PER_TOKEN = 4


class JudgeEstimate(BaseModel):
    """A run's requests, images and tokens, counted before it is sent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    trajectories: int
    """Folders given."""
    judged_before: int
    """Of those, already judged by this judge (skipped: nothing asked)."""
    unreadable: int
    """Of those, unreadable (they will be errors)."""
    calls: int
    """Requests to send (at most: some may be answered from the cache)."""
    images: int
    """Screenshots they carry."""
    prompt_tokens: int
    """Estimated prompt tokens."""
    completion_tokens: int
    """The replies' most tokens (the profile's max tokens per request)."""
    cost: float | None
    """The most it costs at the profile's prices; None without prices."""

    def summary(self) -> str:
        """One line: what the run will send."""
        cost = f", at most {self.cost:.2f} in cost" if self.cost is not None else ""
        return (
            f"{self.trajectories - self.judged_before - self.unreadable} to judge "
            f"({self.judged_before} judged before, {self.unreadable} unreadable): {self.calls} request(s), "
            f"{self.images} image(s), about {self.prompt_tokens:,} prompt tokens and at most "
            f"{self.completion_tokens:,} completion tokens{cost}"
        )


def estimate_run(session: JudgeSession, folders: Iterable[Path], *, again: bool = False) -> JudgeEstimate:
    """The dry run: what judging `folders` would send (folders judged before skipped unless `again`)."""
    count = before = unreadable = calls = images = prompt = 0
    profile = session.profile
    for folder in folders:
        count += 1
        if not again and file_owner(folder, session.judge_id) is FileOwner.OURS:
            before += 1
            continue
        try:
            material = load_material(folder)
        except UnreadableError:
            unreadable += 1
            continue
        for request in session.judge.planned(material, profile):
            calls += 1
            texts = [request.system, *(p for p in request.parts if isinstance(p, str))]
            prompt += sum(len(t) for t in texts) // _CHARS_PER_TOKEN
            refs = [p for p in request.parts if isinstance(p, ImageRef)]
            images += len(refs)
            prompt += sum(estimated_image_tokens(png_size(r.path), profile.image_detail) for r in refs)
    completion = calls * profile.max_tokens
    return JudgeEstimate(
        trajectories=count,
        judged_before=before,
        unreadable=unreadable,
        calls=calls,
        images=images,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost=profile.cost(prompt, completion),
    )


class RunTotals(BaseModel):
    """What a judging run did and spent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    judged: int
    """Trajectories given a verdict now."""
    passed: int
    """Of those, successes."""
    judged_before: int
    """Skipped: judged before."""
    errors: int
    """Without a verdict (each outcome says why)."""
    sent: int
    """Requests sent (retries included)."""
    cached: int
    """Requests answered from the cache."""
    prompt_tokens: int
    """Prompt tokens spent (the replies' usage)."""
    completion_tokens: int
    """Completion tokens spent."""
    cost: float | None
    """Their cost at the profile's prices; None without prices."""
    seconds: float
    """The run's wall time."""

    def summary(self) -> str:
        """One line: verdicts, errors, requests, tokens and cost."""
        cost = f", cost {self.cost:.4f}" if self.cost is not None else ""
        return (
            f"{self.judged} judged ({self.passed} success, {self.judged - self.passed} failure), "
            f"{self.judged_before} judged before, {self.errors} error(s); {self.sent} request(s) sent, "
            f"{self.cached} from the cache; tokens {self.prompt_tokens:,} prompt + "
            f"{self.completion_tokens:,} completion{cost}; {self.seconds:.1f} s"
        )


def run_totals(
    outcomes: Sequence[JudgeOutcome], counts: TransportCounts, profile: EndpointProfile, seconds: float
) -> RunTotals:
    """A run's totals from its outcomes and its transport's counts."""
    judged = [o for o in outcomes if o.decision is not None]
    return RunTotals(
        judged=len(judged),
        passed=sum(o.status is JudgeStatus.SUCCESS for o in judged),
        judged_before=sum(o.status is JudgeStatus.JUDGED_BEFORE for o in outcomes),
        errors=sum(o.status is JudgeStatus.ERROR for o in outcomes),
        sent=counts.sent,
        cached=counts.cached,
        prompt_tokens=counts.prompt_tokens,
        completion_tokens=counts.completion_tokens,
        cost=profile.cost(counts.prompt_tokens, counts.completion_tokens),
        seconds=round(seconds, 2),
    )
