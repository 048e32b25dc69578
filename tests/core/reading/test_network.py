"""HAR reading: events, validation with plain reasons, and placing requests in agent steps."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import MappingProxyType

import pytest
from pydantic import BaseModel

from tests.harness.har_builders import GITLAB, T0, asset, document, entry, har, write_har, xhr
from webeval_core.reading.network import read_har, step_for_time
from webeval_core.support.diagnostics import UnreadableError


def test_events_carry_what_the_viewer_shows(tmp_path: Path) -> None:
    path = write_har(
        tmp_path / "network.har",
        [
            document(f"{GITLAB}/dashboard/todos?state=pending&page=2", at=1),
            xhr(f"{GITLAB}/api/graphql", method="POST", json_body={"query": "q"}, at=2.5),
            entry(f"{GITLAB}/users/sign_in", method="POST", status=302, form={"user[login]": "root"}, at=3),
            asset(f"{GITLAB}/assets/app.js", at=4),
        ],
    )
    parsed = read_har(path)
    assert parsed.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    page, api, login, script = parsed.events
    assert page.har_index == 0 and page.method == "GET" and page.status == 200
    assert page.started == T0 + timedelta(seconds=1) and page.started.tzinfo is not None
    assert page.is_document and page.resource_type == "document"
    assert page.query == (("state", "pending"), ("page", "2"))
    assert ("sec-fetch-mode", "navigate") in page.request_headers
    assert (
        api.is_document is False and api.post_data == '{"query": "q"}' and api.post_mime == "application/json"
    )
    assert api.mime == "application/json" and api.response_size == 1234 and api.duration_ms == 12.5
    assert login.status == 302 and login.post_data == "user%5Blogin%5D=root"
    assert script.is_document is False
    assert [parsed.started(i) for i in range(4)] == [e.started for e in parsed.events]


def test_document_rule_is_the_evaluators(tmp_path: Path) -> None:
    from webarena_verified.types.tracing import NetworkEvent

    entries = [
        document(f"{GITLAB}/a"),
        xhr(f"{GITLAB}/b"),
        asset(f"{GITLAB}/c.js"),
        entry(f"{GITLAB}/d", headers={"Accept": "text/html"}),  # no Sec-Fetch headers
        entry(f"{GITLAB}/e", headers={**dict.fromkeys(["sec-fetch-user"], "?1"), "accept": "text/html"}),
        document(f"{GITLAB}/f", method="POST"),
    ]
    parsed = read_har(write_har(tmp_path / "network.har", entries))
    official = [NetworkEvent(data=MappingProxyType(e)).is_navigation_event for e in entries]
    assert [e.is_document for e in parsed.events] == official == [True, False, False, True, False, False]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "is empty"),
        (b"\xff\xfe{", "is not UTF-8 text"),
        (b"<html>", "is not valid JSON (Expecting value at line 1, column 1)"),
        (json.dumps(har([entry("http://x/a")]))[:-40].encode(), "looks truncated"),
        (b'{"log": {"entries": [{"request": {"url": "http://x/a", "method": "GET"', "looks truncated"),
        (b"[]", "is JSON but not a HAR (no 'log' object)"),
        (b'{"log": {}}', "without a 'log.entries' list"),
        (b'{"log": {"entries": []}}', "has no entries (no requests were recorded)"),
        (b'{"log": {"entries": [1]}}', "entry 0 is not an object"),
        (
            b'{"log": {"entries": [{"request": {"url": "http://x"}}]}}',
            "entry 0 has no request or no response",
        ),
        (
            b'{"log": {"entries": [{"request": {"url": "http://x"}, "response": {}}]}}',
            "has no request URL or method",
        ),
    ],
)
def test_bad_hars_give_plain_reasons(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "network.har"
    path.write_bytes(content)
    with pytest.raises(UnreadableError) as caught:
        read_har(path)
    assert reason in caught.value.reason


def test_missing_har(tmp_path: Path) -> None:
    with pytest.raises(UnreadableError, match="file not found"):
        read_har(tmp_path / "network.har")


class _Step(BaseModel):
    """The least a step must have for `step_for_time`."""

    index: int
    """1-based step index."""
    time_utc: datetime | None
    """When the step's action was taken."""


def test_step_for_time() -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    steps = [_Step(index=k, time_utc=start + timedelta(seconds=10 * k)) for k in (1, 2, 3)]
    at = start.__add__
    assert step_for_time(steps, at(timedelta(seconds=5))) is None  # before step 1
    assert step_for_time(steps, at(timedelta(seconds=10))) == 1  # step start is inclusive
    assert step_for_time(steps, at(timedelta(seconds=19.999))) == 1
    assert step_for_time(steps, at(timedelta(seconds=20))) == 2
    assert step_for_time(steps, at(timedelta(hours=1))) == 3  # the last step runs to the end
    assert step_for_time(steps, None) is None
    assert step_for_time([_Step(index=1, time_utc=None)], start) is None
    unordered = [steps[2], _Step(index=9, time_utc=None), steps[0], steps[1]]
    assert step_for_time(unordered, at(timedelta(seconds=25))) == 2


def test_resource_type_is_inferred_when_the_recording_has_none(tmp_path: Path) -> None:
    plain = {"accept": "*/*"}  # no Sec-Fetch-Dest, no _resourceType: like the official demo HAR
    entries = [
        entry(f"{GITLAB}/", headers={"accept": "text/html"}),
        entry(f"{GITLAB}/assets/app.css?v=3", headers=plain, response_mime="text/css"),
        entry(f"{GITLAB}/bundle", headers=plain, response_mime="application/javascript; charset=utf-8"),
        entry(f"{GITLAB}/logo.svg", headers=plain, response_mime="text/plain"),
        entry(f"{GITLAB}/fonts/a.woff2", headers=plain, response_mime="application/octet-stream"),
        entry(f"{GITLAB}/api/v4/issues", headers=plain, response_mime="application/json"),
        entry(f"{GITLAB}/blob", headers=plain, response_mime="application/octet-stream"),
        {**entry(f"{GITLAB}/x", headers={"sec-fetch-dest": "style"}), "_resourceType": "xhr"},
        entry(f"{GITLAB}/y", headers={"sec-fetch-dest": "style"}),
    ]
    events = read_har(write_har(tmp_path / "network.har", entries)).events
    kinds = [(e.resource_type, e.resource_type_inferred) for e in events]
    assert kinds == [
        ("document", True),
        ("stylesheet", True),
        ("script", True),
        ("image", True),
        ("font", True),
        ("fetch", True),
        ("other", True),
        ("xhr", False),
        ("stylesheet", False),
    ]


def test_response_preview_is_text_only(tmp_path: Path) -> None:
    import base64

    text, encoded, image = (
        entry(f"{GITLAB}/{n}", response_mime=m)
        for n, m in [("a", "application/json"), ("b", "text/html"), ("c", "image/png")]
    )
    text["response"]["content"]["text"] = '{"id": 7}'
    encoded["response"]["content"].update(text=base64.b64encode(b"<p>hi</p>").decode(), encoding="base64")
    image["response"]["content"].update(text=base64.b64encode(b"\x89PNG").decode(), encoding="base64")
    events = read_har(write_har(tmp_path / "network.har", [text, encoded, image])).events
    assert [e.response_preview for e in events] == ['{"id": 7}', "<p>hi</p>", None]
