"""The outcome judge, after WebVoyager's: the task, the final answer and the last screenshots in
one request; the reply's verdict is "SUCCESS" or "NOT SUCCESS".
"""

from __future__ import annotations

import re
from typing import Any

from webeval_core.llm_judging import judge_prompts as prompts
from webeval_core.llm_judging.chat_transport import ChatRequest, ImageRef, JudgeCallError
from webeval_core.llm_judging.endpoints import EndpointProfile
from webeval_core.llm_judging.judge_material import JudgeMaterial
from webeval_core.llm_judging.judge_verdict import Ask, JudgeDecision, reply_excerpt
from webeval_core.llm_judging.method_names import OUTCOME

_VERDICT = re.compile(r"\b(NOT\s+SUCCESS|SUCCESS)\b")


class OutcomeJudge:
    """Task, answer and the last screenshots -> SUCCESS / NOT SUCCESS."""

    name = OUTCOME
    prompt_version = prompts.OUTCOME_VERSION

    def options(self) -> dict[str, Any]:
        """None beyond the profile's (the screenshot cap is its k)."""
        return {}

    def planned(self, material: JudgeMaterial, profile: EndpointProfile) -> list[ChatRequest]:
        """One request."""
        return [self._request(material, profile)]

    def decide(self, material: JudgeMaterial, profile: EndpointProfile, ask: Ask) -> JudgeDecision:
        """Ask once; the last verdict word of the reply decides."""
        reply = ask(self._request(material, profile))
        found = _VERDICT.findall(reply.text)
        if not found:
            raise JudgeCallError(
                f"the reply holds no verdict (SUCCESS / NOT SUCCESS): {reply_excerpt(reply.text)}"
            )
        return JudgeDecision(success=not found[-1].startswith("NOT"), response_text=reply.text)

    def _request(self, material: JudgeMaterial, profile: EndpointProfile) -> ChatRequest:
        shots = material.last_screenshots(profile.max_images)
        text = prompts.OUTCOME_USER.format(
            task=material.task or material.task_id,
            answer=material.answer or prompts.NO_ANSWER_GIVEN,
            count=len(shots),
        )
        images = tuple(ImageRef.of(path, material.folder) for path in shots)
        return ChatRequest(system=prompts.OUTCOME_SYSTEM, parts=(text, *images))
