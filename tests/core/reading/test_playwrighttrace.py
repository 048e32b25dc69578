"""Playwright traces (zip or folder) read as the same entries the official library reads.

The trace is recorded by Chromium (the session fixture `playwright_trace`): the tests using it are
`browser` tests, which the quick loop leaves out.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from types import MappingProxyType

import pytest

from tests.harness.builders import wav_folder
from tests.harness.trace_recorder import JSON_BODY
from webeval_core.reading.network import read_har
from webeval_core.reading.playwrighttrace import TRACE_NETWORK, find_trace
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.support.diagnostics import UnreadableError


def _name(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def _official_entries(path: Path) -> list[dict[str, object]]:
    from webarena_verified.types.tracing import NetworkTrace

    return [dict(event.data) for event in NetworkTrace.from_content(path).events]


def test_zip_gives_the_entries_the_official_library_reads(playwright_trace: Path) -> None:
    har = read_har(playwright_trace)
    assert har.format == "playwright"
    assert [dict(e) for e in har.entries] == _official_entries(playwright_trace)
    # Playwright writes an entry when its response ends: the order varies from run to run.
    assert {(e.method, _name(e.url), e.resource_type) for e in har.events} == {
        ("GET", "index.html", "document"),
        ("GET", "style.css", "stylesheet"),
        ("GET", "logo.png", "image"),
        ("POST", "cart", "document"),
        ("POST", "search", "fetch"),
    }
    assert all(not e.resource_type_inferred for e in har.events)  # Playwright records _resourceType


def test_bodies_kept_apart_are_shown_but_never_given_to_the_evaluator(playwright_trace: Path) -> None:
    from webarena_verified.types.tracing import NetworkEvent

    har = read_har(playwright_trace)
    by_name = {_name(e.url): e for e in har.events}
    form, search, page = by_name["cart"], by_name["search"], by_name["index.html"]
    assert form.post_data == "sku=B07X&qty=2" and form.post_data_attached
    assert search.post_data == JSON_BODY and search.post_data_attached
    assert search.response_preview == '{"added": true}'
    assert page.response_preview is not None and "<form" in page.response_preview
    assert by_name["logo.png"].response_preview is None  # an image is not text
    # The official evaluator reads postData.text, which Playwright leaves empty.
    official = [NetworkEvent(data=MappingProxyType(e)).post_data for e in har.entries]
    assert official == [None] * 5


def test_a_trace_folder_reads_like_its_zip(playwright_trace: Path, tmp_path: Path) -> None:
    folder = tmp_path / "trace"
    with zipfile.ZipFile(playwright_trace) as archive:
        archive.extractall(folder)
    from_folder = read_har(folder)
    from_file = read_har(folder / TRACE_NETWORK)
    from_zip = read_har(playwright_trace)
    assert from_folder.entries == from_file.entries == from_zip.entries
    assert {e.post_data for e in from_folder.events} == {None, "sku=B07X&qty=2", JSON_BODY}
    assert [dict(e) for e in from_folder.entries] == _official_entries(folder)


def test_trajectory_folder_finds_the_trace_beside_its_response(
    playwright_trace: Path, tmp_path: Path
) -> None:
    folder = wav_folder(tmp_path)
    (folder / "network.har").unlink()
    shutil.copy(playwright_trace, folder / "trace.zip")
    trajectory = load_trajectory(folder)
    assert trajectory.har_path == folder / "trace.zip"
    assert read_har(trajectory.har_path).format == "playwright"
    assert find_trace(folder, {"notes.zip", "agent_response.json"}) is None


def test_bad_traces_say_what_is_wrong(tmp_path: Path) -> None:
    not_zip = tmp_path / "trace.zip"
    not_zip.write_text("hello")
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr(TRACE_NETWORK, json.dumps({"type": "other"}) + "\n")
    no_network = tmp_path / "other.zip"
    with zipfile.ZipFile(no_network, "w") as archive:
        archive.writestr("trace.trace", "{}")
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr(TRACE_NETWORK, '{"type": "resource-snapshot"')
    reasons = {}
    for path in (not_zip, empty, no_network, broken, tmp_path / "missing.zip"):
        with pytest.raises(UnreadableError) as caught:
            read_har(path)
        reasons[path.name] = caught.value.reason
    assert reasons == {
        "trace.zip": "is not a zip file (a Playwright trace is a zip)",
        "empty.zip": "trace.network records no request (Playwright records the network only when "
        "tracing with snapshots)",
        "other.zip": "is a zip without trace.network: not a Playwright trace",
        "broken.zip": "trace.network line 1 is not JSON (Expecting ',' delimiter)",
        "missing.zip": "file not found",
    }


def test_a_trace_folder_never_reads_through_a_link_leading_out(
    playwright_trace: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    with zipfile.ZipFile(playwright_trace) as archive:
        archive.extractall(outside)
    folder = tmp_path / "trace"
    folder.mkdir()
    (folder / TRACE_NETWORK).symlink_to(outside / TRACE_NETWORK)
    with pytest.raises(UnreadableError, match="leading outside"):
        read_har(folder)
