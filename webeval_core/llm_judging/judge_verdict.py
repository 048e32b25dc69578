"""A judge's verdict of one trajectory, the judge's identity (the id its score files are named by),
and what a judge is: the steps any of the three published methods follows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from webeval_core.llm_judging.chat_transport import ChatReply, ChatRequest, request_parameters
from webeval_core.llm_judging.endpoints import EndpointProfile
from webeval_core.llm_judging.judge_material import JudgeMaterial

_ID_DIGITS = 10  # of the identity's digest in a judge id


class Ask(Protocol):
    """How a judge sends its requests (each raises `JudgeCallError` when it gets no usable reply)."""

    def __call__(self, request: ChatRequest) -> ChatReply:
        """One request's reply."""
        ...

    def many(self, requests: Sequence[ChatRequest]) -> list[ChatReply]:
        """Replies to requests that do not depend on each other, sent at once (up to the
        concurrency), in the order given.
        """
        ...


class JudgeDecision(BaseModel):
    """What a judge decided of one trajectory."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    success: bool
    """The verdict: the task was done."""
    response_text: str
    """The score file's `gpt_response_text`: the verdict's reply as written, or the rubric
    verifier's JSON text."""
    details: dict[str, Any] = {}
    """What the method kept beside the verdict (WebJudge's key points and image scores)."""


class Judge(Protocol):
    """One judging method: its name, prompt version and own parameters, the requests a dry run
    counts, and the judging itself.
    """

    name: str
    """The method's name, the start of its judge id ("webjudge")."""
    prompt_version: str
    """The version of its prompts (a new wording is a new judge)."""

    def options(self) -> dict[str, Any]:
        """The method's own parameters that decide a verdict (WebJudge's threshold)."""
        ...

    def planned(self, material: JudgeMaterial, profile: EndpointProfile) -> list[ChatRequest]:
        """The requests it would send (the later ones as if every screenshot were kept)."""
        ...

    def decide(self, material: JudgeMaterial, profile: EndpointProfile, ask: Ask) -> JudgeDecision:
        """Judge one trajectory.

        Raises:
            JudgeCallError: a request got no usable reply, or no reply held a verdict.
        """
        ...


def judge_identity(judge: Judge, profile: EndpointProfile) -> dict[str, Any]:
    """Everything that decides a verdict: the method, its prompts and parameters, the model and the
    request's parameters (not the endpoint's address, key, timeout or concurrency).
    """
    return {
        "judge": judge.name,
        "prompt_version": judge.prompt_version,
        "options": judge.options(),
        "model": profile.model,
        "parameters": request_parameters(profile, json_reply=True),
        "images": {
            "detail": profile.image_detail,
            "quality": profile.image_quality,
            "cap": profile.max_images,
        },
    }


def judge_id(judge: Judge, profile: EndpointProfile) -> str:
    """The judge's id, its score files' stem: its name and a digest of its identity
    (`webjudge_3f09c2a1d4`), so another model or parameter never writes over its verdicts.
    """
    identity = json.dumps(judge_identity(judge, profile), sort_keys=True)
    return f"{judge.name}_{hashlib.sha256(identity.encode('utf-8')).hexdigest()[:_ID_DIGITS]}"


def reply_excerpt(text: str, limit: int = 120) -> str:
    """A reply's beginning on one line, quoted: what a judge error shows of a reply it could not use."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
