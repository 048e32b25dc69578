"""WebJudge's three stages: key points (text only), a request per screenshot, and a final
judgement shown only the screenshots at or above the threshold (the latest, up to the cap)."""

from __future__ import annotations

from pathlib import Path

from tests.core.llm_judging.conftest import PASSING
from tests.harness.scripted_llm import ScriptedEndpoint
from webeval_core.llm_judging import ChatTransport, EndpointProfile, JudgeSession, load_material
from webeval_core.llm_judging import judge_prompts as prompts
from webeval_core.llm_judging.webjudge import WebJudge


def test_the_stages_and_what_each_is_shown(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    folder = next(f for f in tail if f.name == PASSING)
    outcome = JudgeSession(WebJudge(), profile, ChatTransport(profile)).decide(load_material(folder))
    assert outcome.decision is not None and outcome.decision.success
    systems = [r.system for r in endpoint.requests]
    assert systems == [prompts.KEY_POINTS_SYSTEM] + [prompts.IMAGE_SYSTEM] * 5 + [prompts.FINAL_SYSTEM]
    assert [len(r.image_urls) for r in endpoint.requests] == [0, 1, 1, 1, 1, 1, 3]  # cap 3
    assert "Key points:\n1. Find what the task asks" in endpoint.requests[-1].text
    details = outcome.decision.details
    assert details["images_judged"] == ["screenshot2.png", "screenshot3.png", "screenshot4.png"]
    assert outcome.decision.response_text.endswith("Status: success")


def test_screenshots_below_the_threshold_are_not_shown_to_the_final_judgement(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    endpoint.model.image_score = 2
    outcome = JudgeSession(WebJudge(), profile, ChatTransport(profile)).decide(load_material(tail[0]))
    assert outcome.decision is not None
    assert outcome.decision.details["images_judged"] == []
    assert endpoint.requests[-1].image_urls == []
    assert [s["score"] for s in outcome.decision.details["image_scores"]] == [2] * 5
    lower = JudgeSession(WebJudge(threshold=2), profile, ChatTransport(profile))
    assert lower.judge_id != JudgeSession(WebJudge(), profile, ChatTransport(profile)).judge_id
