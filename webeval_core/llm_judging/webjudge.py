"""WebJudge, after Online-Mind2Web's: (1) the task's key points, text only; (2) each screenshot
scored 1-5 for what it shows of them ("Score: N"); (3) a final judgement over the screenshots
scored at or above the threshold (the latest `max_images` of them), whose reply says
"Status: success" or "Status: failure". The key points and every image's score are kept.
"""

from __future__ import annotations

import re
from typing import Any

from webeval_core.llm_judging import judge_prompts as prompts
from webeval_core.llm_judging.chat_transport import ChatRequest, ImageRef, JudgeCallError
from webeval_core.llm_judging.endpoints import EndpointProfile
from webeval_core.llm_judging.judge_material import JudgeMaterial
from webeval_core.llm_judging.judge_verdict import Ask, JudgeDecision, reply_excerpt
from webeval_core.llm_judging.method_names import WEBJUDGE

DEFAULT_THRESHOLD = 3
"""The score a screenshot needs to be shown to the final judgement (the published default)."""
_SCORE = re.compile(r"Score\s*[:：]\s*\**\s*([1-5])\b", re.IGNORECASE)
_STATUS = re.compile(r"Status\s*[:：]\s*\**\s*\"?(success|failure)\b", re.IGNORECASE)
_NO_ACTIONS = "(no actions)"


class WebJudge:
    """Key points, screenshot scores, then the final judgement."""

    name = WEBJUDGE
    prompt_version = prompts.WEBJUDGE_VERSION

    def __init__(self, threshold: int = DEFAULT_THRESHOLD) -> None:
        self.threshold = threshold
        """The score a screenshot needs to reach the final judgement."""

    def options(self) -> dict[str, Any]:
        """The threshold."""
        return {"threshold": self.threshold}

    def planned(self, material: JudgeMaterial, profile: EndpointProfile) -> list[ChatRequest]:
        """Key points, one request per screenshot, and the final one (as if every screenshot passed)."""
        points = "(key points)"
        shots = material.screenshots
        return [
            _key_points_request(material),
            *(_image_request(material, points, shot) for shot in shots),
            _final_request(material, points, shots[-profile.max_images :]),
        ]

    def decide(self, material: JudgeMaterial, profile: EndpointProfile, ask: Ask) -> JudgeDecision:
        """The three stages; a reply of stage 2 without a score counts as 1 (not shown), a final
        reply without a status is a judge error.
        """
        points = ask(_key_points_request(material)).text.strip()
        scores: list[dict[str, Any]] = []
        # Each screenshot is scored on its own: the requests go at once (the concurrency bounds them).
        replies = ask.many([_image_request(material, points, shot) for shot in material.screenshots])
        for shot, answered in zip(material.screenshots, replies, strict=True):
            reply = answered.text
            found = _SCORE.findall(reply)
            scores.append(
                {"screenshot": shot.name, "score": int(found[-1]) if found else None, "reply": reply}
            )
        kept = [material.screenshots[i] for i, s in enumerate(scores) if (s["score"] or 0) >= self.threshold]
        kept = kept[-profile.max_images :]
        final = ask(_final_request(material, points, tuple(kept))).text
        status = _STATUS.findall(final)
        if not status:
            raise JudgeCallError(
                f"the final reply holds no status (success / failure): {reply_excerpt(final)}"
            )
        details = {
            "key_points": points,
            "image_scores": [{k: v for k, v in s.items() if k != "reply"} for s in scores],
            "threshold": self.threshold,
            "images_judged": [path.name for path in kept],
        }
        return JudgeDecision(success=status[-1].lower() == "success", response_text=final, details=details)


def _key_points_request(material: JudgeMaterial) -> ChatRequest:
    text = prompts.KEY_POINTS_USER.format(task=material.task or material.task_id)
    return ChatRequest(system=prompts.KEY_POINTS_SYSTEM, parts=(text,))


def _image_request(material: JudgeMaterial, points: str, shot: Any) -> ChatRequest:
    text = prompts.IMAGE_USER.format(task=material.task or material.task_id, key_points=points)
    return ChatRequest(system=prompts.IMAGE_SYSTEM, parts=(text, ImageRef.of(shot, material.folder)))


def _final_request(material: JudgeMaterial, points: str, shots: tuple[Any, ...]) -> ChatRequest:
    text = prompts.FINAL_USER.format(
        task=material.task or material.task_id,
        key_points=points,
        actions="\n".join(material.actions) or _NO_ACTIONS,
        answer=material.answer or prompts.NO_ANSWER_GIVEN,
        count=len(shots),
    )
    images = tuple(ImageRef.of(shot, material.folder) for shot in shots)
    return ChatRequest(system=prompts.FINAL_SYSTEM, parts=(text, *images))
