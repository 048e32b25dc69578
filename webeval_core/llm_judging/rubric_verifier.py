"""A rubric verifier whose output has the shape of Fara's Universal Verifier
(shared/reference/fara-verifier-output.md), so every view that reads Fara's verifier reads ours
(`reading.verifier`): a rubric written from the task (text only), then one verification over the
actions, the answer and the last screenshots giving each criterion's points, the outcome verdict,
the critical point, the first point of failure with its steps and taxonomy codes, and whether the
task itself is ambiguous or invalid. The outcome decides the score (`success_criterion` "outcome",
the verifier's default); the rubric passes at 0.8 of its points. A JSON reply that does not parse or
lacks a required key is asked once more with the problem said (as Fara's verifier does).
"""

from __future__ import annotations

import json
from typing import Any

from webeval_core.llm_judging import judge_prompts as prompts
from webeval_core.llm_judging.chat_transport import ChatRequest, ImageRef, JudgeCallError
from webeval_core.llm_judging.endpoints import EndpointProfile
from webeval_core.llm_judging.judge_material import JudgeMaterial
from webeval_core.llm_judging.judge_verdict import Ask, JudgeDecision, reply_excerpt
from webeval_core.llm_judging.method_names import RUBRIC

RUBRIC_PASS = 0.8
"""The share of the rubric's points a process verdict needs (the Universal Verifier's)."""
_NO_ACTIONS = "(no actions)"
_KEPT_KEYS = (
    "rubric_reasoning",
    "outcome_reasoning",
    "outcome_primary_intent",
    "cp_type_used",
    "cp_violation",
    "first_point_of_failure",
    "task_verification",
)


class RubricVerifier:
    """Rubric, then verification -> a Universal-Verifier-shaped response."""

    name = RUBRIC
    prompt_version = prompts.RUBRIC_VERSION

    def options(self) -> dict[str, Any]:
        """The rubric's pass mark and which verdict decides the score."""
        return {"rubric_pass": RUBRIC_PASS, "success_criterion": "outcome"}

    def planned(self, material: JudgeMaterial, profile: EndpointProfile) -> list[ChatRequest]:
        """The rubric's request and the verification's."""
        return [_rubric_request(material), _verify_request(material, profile, "(rubric)")]

    def decide(self, material: JudgeMaterial, profile: EndpointProfile, ask: Ask) -> JudgeDecision:
        """Write the rubric, verify against it, and compose the verifier's response."""
        rubric = _json_reply(ask, _rubric_request(material), ("rubric_items",))
        items = rubric["rubric_items"]
        if not isinstance(items, list) or not items:
            raise JudgeCallError("the rubric reply has no criteria")
        shown = json.dumps(items, ensure_ascii=False, indent=1)
        verified = _json_reply(
            ask, _verify_request(material, profile, shown), ("outcome_success", "rubric_items")
        )
        success = _flag(verified["outcome_success"])
        if success is None:
            raise JudgeCallError(f"outcome_success is {verified['outcome_success']!r}, not true or false")
        response = _response(verified, success)
        return JudgeDecision(
            success=success, response_text=json.dumps(response, ensure_ascii=False, sort_keys=True)
        )


def _response(verified: dict[str, Any], success: bool) -> dict[str, Any]:
    """The Universal Verifier's fields from the verification's reply (totals computed, not trusted)."""
    items = [item for item in verified.get("rubric_items") or [] if isinstance(item, dict)]
    earned = sum(_number(item.get("earned_points")) for item in items)
    possible = sum(_number(item.get("max_points")) for item in items)
    response: dict[str, Any] = {key: verified[key] for key in _KEPT_KEYS if key in verified}
    return response | {
        "rubric_items": items,
        "rubric_total_earned_points": earned,
        "rubric_total_max_points": possible,
        "rubric_is_success": int(possible > 0 and earned / possible >= RUBRIC_PASS),
        "outcome_success": success,
        "success_criterion": "outcome",
    }


def _json_reply(ask: Ask, request: ChatRequest, required: tuple[str, ...]) -> dict[str, Any]:
    """A JSON object holding `required` keys; asked again once, with the problem, when it is not.

    Raises:
        JudgeCallError: neither reply is such an object.
    """
    problem = ""
    for _attempt in range(2):
        text = ask(request).text
        try:
            found = json.loads(_unfenced(text))
        except ValueError:
            problem = f"the reply is not JSON: {reply_excerpt(text)}"
        else:
            missing = [key for key in required if not isinstance(found, dict) or key not in found]
            if not missing:
                return found  # type: ignore[no-any-return]
            problem = f"the reply lacks {', '.join(missing)}"
        request = request.model_copy(
            update={"parts": (*request.parts, prompts.NOT_JSON.format(problem=problem))}
        )
    raise JudgeCallError(problem)


def _unfenced(text: str) -> str:
    """A JSON reply without the Markdown fence some models put around it."""
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[-1].rsplit("```", 1)[0]
    return stripped


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _rubric_request(material: JudgeMaterial) -> ChatRequest:
    text = prompts.RUBRIC_USER.format(task=material.task or material.task_id)
    return ChatRequest(system=prompts.RUBRIC_SYSTEM, parts=(text,), json_reply=True)


def _verify_request(material: JudgeMaterial, profile: EndpointProfile, rubric: str) -> ChatRequest:
    shots = material.last_screenshots(profile.max_images)
    text = prompts.VERIFY_USER.format(
        task=material.task or material.task_id,
        rubric=rubric,
        actions="\n".join(material.actions) or _NO_ACTIONS,
        answer=material.answer or prompts.NO_ANSWER_GIVEN,
        count=len(shots),
    )
    images = tuple(ImageRef.of(path, material.folder) for path in shots)
    return ChatRequest(system=prompts.VERIFY_SYSTEM, parts=(text, *images), json_reply=True)
