"""Requests through the real openai client to the scripted endpoint: retries, waits, timeouts,
refusals, the cache, the concurrency cap, the pace, and the image parts as sent."""

from __future__ import annotations

import base64
import io
import threading
import time

import pytest
from PIL import Image

from tests.core.llm_judging.conftest import TAIL
from tests.harness.scripted_llm import Mishap, ScriptedEndpoint
from webeval_core.llm_judging import ChatTransport, EndpointProfile, JudgeCallError, ReplyCache
from webeval_core.llm_judging.chat_transport import ChatRequest, ImageRef

SHOT = TAIL / "alltrails_find_23" / "screenshot0.png"


def _request(text: str = "Task: find a hiking trail") -> ChatRequest:
    return ChatRequest(system="judge", parts=(text, ImageRef.of(SHOT, SHOT.parent)))


def test_a_429_is_waited_out_for_its_retry_after(
    endpoint: ScriptedEndpoint, profile: EndpointProfile
) -> None:
    endpoint.mishaps.append(Mishap("429", 0.3))
    started = time.monotonic()
    reply = ChatTransport(profile).send(_request())
    assert time.monotonic() - started >= 0.3
    assert reply.text == "I cannot tell."
    assert [r.answered for r in endpoint.requests] == [False, True]


def test_a_500_is_retried_a_bounded_number_of_times_then_said(
    endpoint: ScriptedEndpoint, profile: EndpointProfile
) -> None:
    endpoint.always = Mishap("500")
    with pytest.raises(JudgeCallError, match=r"the endpoint failed \(500\), 4 time\(s\) \(retried 3\)"):
        ChatTransport(profile).send(_request())
    assert len(endpoint.requests) == profile.retries + 1


def test_a_cut_connection_is_retried(endpoint: ScriptedEndpoint, profile: EndpointProfile) -> None:
    endpoint.mishaps.extend([Mishap("cut"), Mishap("500")])
    assert ChatTransport(profile).send(_request()).text
    assert len(endpoint.requests) == 3


def test_a_slow_reply_is_a_timeout(endpoint: ScriptedEndpoint, profile: EndpointProfile) -> None:
    endpoint.mishaps.append(Mishap("slow", 2.0))
    hurried = profile.model_copy(update={"timeout_s": 0.3})
    with pytest.raises(JudgeCallError, match=r"no reply within 0.3 s \(timeout\)"):
        ChatTransport(hurried).send(_request())
    assert len(endpoint.requests) == 1  # a timeout is not sent again


def test_a_wrong_key_is_refused_without_the_key_said(
    endpoint: ScriptedEndpoint, profile: EndpointProfile
) -> None:
    endpoint.key = "sk-another-one"
    with pytest.raises(JudgeCallError) as caught:
        ChatTransport(profile).send(_request())
    assert caught.value.reason == "the endpoint refused the key (401)"


def test_an_identical_request_is_answered_from_the_cache(
    endpoint: ScriptedEndpoint, profile: EndpointProfile
) -> None:
    first = ChatTransport(profile, cache=ReplyCache()).send(_request())
    again = ChatTransport(profile, cache=ReplyCache()).send(_request())
    other = ChatTransport(profile, cache=ReplyCache()).send(_request("Task: another"))
    assert (first.cached, again.cached, other.cached) == (False, True, False)
    assert again.text == first.text and again.prompt_tokens == first.prompt_tokens
    assert len(endpoint.requests) == 2
    hotter = profile.model_copy(update={"temperature": 0.7})
    ChatTransport(hotter, cache=ReplyCache()).send(_request())
    assert len(endpoint.requests) == 3  # another parameter is another request


def test_no_more_than_the_concurrency_is_in_flight(
    endpoint: ScriptedEndpoint, profile: EndpointProfile
) -> None:
    endpoint.latency_s = 0.1
    transport = ChatTransport(profile, concurrency=2)
    threads = [threading.Thread(target=transport.send, args=(_request(f"Task: {n}"),)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(endpoint.requests) == 8
    assert endpoint.most_in_flight == 2
    assert transport.counts().sent == 8


def test_requests_per_minute_spaces_the_starts(endpoint: ScriptedEndpoint, profile: EndpointProfile) -> None:
    paced = profile.model_copy(update={"requests_per_minute": 600.0})  # one each 0.1 s
    transport = ChatTransport(paced)
    started = time.monotonic()
    for n in range(4):
        transport.send(_request(f"Task: {n}"))
    assert time.monotonic() - started >= 0.3


def test_screenshots_go_as_jpeg_data_urls_with_the_profile_s_detail(
    endpoint: ScriptedEndpoint, profile: EndpointProfile
) -> None:
    ChatTransport(profile.model_copy(update={"image_detail": "low"})).send(_request())
    sent = endpoint.requests[0]
    (part,) = [p for p in sent.parts if p["type"] == "image_url"]
    assert part["image_url"]["detail"] == "low"
    header, data = part["image_url"]["url"].split(",", 1)
    assert header == "data:image/jpeg;base64"
    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        assert image.format == "JPEG"
        assert image.size == Image.open(SHOT).size
    assert (
        sent.body["temperature"] == 0.0 and sent.body["seed"] == 42 and sent.body["model"] == "scripted-model"
    )
