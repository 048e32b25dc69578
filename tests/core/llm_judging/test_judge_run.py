"""Judging trajectories end to end: each method's verdicts are the scripted endpoint's, written
as `scores/<judge id>.json` beside (never over) the other judges' files, with the screenshots
capped; a second run asks nothing; a judge error is said and the run goes on."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.core.llm_judging.conftest import PASSING
from tests.harness.scripted_llm import KEY, Mishap, ScriptedEndpoint
from webeval_core.llm_judging import (
    JUDGE_METHODS,
    ChatTransport,
    EndpointProfile,
    JudgeOutcome,
    JudgeSession,
    JudgeStatus,
    ReplyCache,
    load_material,
    make_judge,
)
from webeval_core.policy.access import READ_ONLY_ENV
from webeval_core.reading.scorefiles import read_score_files


def _session(name: str, profile: EndpointProfile) -> JudgeSession:
    return JudgeSession(make_judge(name), profile, ChatTransport(profile, cache=ReplyCache()))


@pytest.mark.parametrize("name", list(JUDGE_METHODS))
def test_each_judge_s_verdicts_are_the_endpoint_s_and_sit_beside_the_others(
    name: str, endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    others = {p: p.read_bytes() for folder in tail for p in (folder / "scores").iterdir()}
    session = _session(name, profile)
    outcomes = session.judge_folders(tail)
    assert {o.folder.name: o.status for o in outcomes} == {
        f.name: JudgeStatus.SUCCESS if f.name == PASSING else JudgeStatus.FAILURE for f in tail
    }
    for outcome in outcomes:
        assert outcome.written == outcome.folder / "scores" / f"{session.judge_id}.json"
        scores, problems = read_score_files(outcome.folder)
        assert problems == []
        assert scores[session.judge_id].score == (1.0 if outcome.folder.name == PASSING else 0.0)
        assert KEY not in outcome.written.read_text()
    assert {p: p.read_bytes() for p in others} == others  # no other judge's file touched
    assert session.judge_id.startswith(f"{name}_")
    assert all(len(r.image_urls) <= profile.max_images for r in endpoint.requests)
    assert any(len(r.image_urls) == profile.max_images for r in endpoint.requests)


def test_a_second_run_sends_no_request(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    _session("webjudge", profile).judge_folders(tail)
    sent = len(endpoint.requests)
    again = _session("webjudge", profile)
    assert {o.status for o in again.judge_folders(tail)} == {JudgeStatus.JUDGED_BEFORE}
    assert len(endpoint.requests) == sent
    # Judged again on purpose: every reply comes from the cache, still nothing sent.
    assert {o.status for o in again.judge_folders(tail, again=True)} == {
        JudgeStatus.SUCCESS,
        JudgeStatus.FAILURE,
    }
    assert len(endpoint.requests) == sent
    assert again.transport.counts().cached > 0


def test_a_reply_without_a_verdict_is_that_trajectory_s_error(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    endpoint.mishaps.append(Mishap("no verdict"))
    outcomes = _session("outcome", profile.model_copy(update={"concurrency": 1})).judge_folders(tail)
    first, *rest = outcomes
    assert first.status is JudgeStatus.ERROR
    assert first.reason is not None and first.reason.startswith(
        "the reply holds no verdict (SUCCESS / NOT SUCCESS)"
    )
    assert first.written is None and not any(
        p.name.startswith("outcome_") for p in (first.folder / "scores").iterdir()
    )
    assert all(o.status in (JudgeStatus.SUCCESS, JudgeStatus.FAILURE) for o in rest)


def test_a_500_always_ends_each_trajectory_as_an_error_and_the_run(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    endpoint.always = Mishap("500")
    outcomes = _session("outcome", profile.model_copy(update={"retries": 1})).judge_folders(tail)
    assert [o.status for o in outcomes] == [JudgeStatus.ERROR] * len(tail)
    assert all("the endpoint failed (500)" in (o.reason or "") for o in outcomes)
    assert len(endpoint.requests) == 2 * len(tail)


def test_another_s_file_of_the_same_name_is_left_alone(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    session = _session("outcome", profile)
    theirs = tail[0] / "scores" / f"{session.judge_id}.json"
    theirs.write_text('{"score": 1, "gpt_response_text": "theirs"}')
    (outcome,) = session.judge_folders(tail[:1])
    assert outcome.status is JudgeStatus.ERROR and "not this judge's file" in (outcome.reason or "")
    assert theirs.read_text() == '{"score": 1, "gpt_response_text": "theirs"}'
    assert endpoint.requests == []


def test_what_if_judges_an_edited_answer_and_writes_nothing(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    folder = tail[0]
    before = sorted((folder / "scores").iterdir())
    material = load_material(folder).with_answer("The trail is Mesa Trail, 4.2 miles, 4.6 stars.")
    outcome = _session("outcome", profile).decide(material)
    assert outcome.decision is not None and outcome.written is None
    assert "Mesa Trail, 4.2 miles" in endpoint.requests[0].text
    assert sorted((folder / "scores").iterdir()) == before


def test_a_read_only_process_judges_but_writes_nothing(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(READ_ONLY_ENV, "1")
    (outcome,) = _session("outcome", profile).judge_folders(tail[:1])
    assert outcome.status is JudgeStatus.ERROR and "cannot write" in (outcome.reason or "")
    assert not any(p.name.startswith("outcome_") for p in (tail[0] / "scores").iterdir())


def test_the_file_records_what_produced_the_verdict(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    session = _session("webjudge", profile)
    (outcome,) = session.judge_folders(tail[:1])
    document = json.loads((outcome.written or Path()).read_text())
    record = document["judge"]
    assert set(document) == {"score", "gpt_response_text", "judge"}
    assert record["id"] == session.judge_id and record["prompt_version"] == "webjudge-1"
    assert record["model"] == "scripted-model" and record["calls"] == len(endpoint.requests)
    assert record["prompt_tokens"] > 0 and record["seconds"] >= 0
    assert record["details"]["key_points"].startswith("Key points:")
    assert [s["score"] for s in record["details"]["image_scores"]] == [4] * 5


def test_a_cancel_tells_of_every_verdict_written_in_flight_and_starts_nothing(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    """The app's Cancel raises from `on_outcome`: the trajectory whose request is in flight then
    ends, is written and is told too (the page's count is of the files written); none starts after."""
    endpoint.latency_s = 0.3
    told: list[Path] = []

    def cancel_at_the_first(outcome: JudgeOutcome) -> None:
        told.append(outcome.folder)
        if len(told) == 1:
            time.sleep(0.2)  # the next trajectory's request is sent meanwhile
            raise KeyboardInterrupt

    session = _session("outcome", profile.model_copy(update={"concurrency": 1}))
    with pytest.raises(KeyboardInterrupt):
        session.judge_folders(tail, on_outcome=cancel_at_the_first)
    written = {p.parent.parent for p in tail[0].parent.rglob(f"scores/{session.judge_id}.json")}
    assert told == tail[:2] and written == set(told)
    assert len(endpoint.requests) == 2
