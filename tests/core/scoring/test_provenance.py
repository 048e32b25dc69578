"""Scoring reproduces the official evaluator, and the network provenance agrees with its verdict.

Every trajectory here is built on disk: real task ids, HARs shaped like Playwright's. The
official verdict is computed independently the way `webarena-verified eval-tasks` does it (file
paths in, a fresh evaluator), and compared with ours result-for-result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.core.scoring.helpers import (
    BIO,
    CONTACT_FORM,
    ISSUE,
    MUTATE,
    NAVIGATE,
    VOTE,
    network,
    same_as_official,
    score,
)
from tests.harness.builders import fara_folder
from tests.harness.har_builders import (
    GITLAB,
    REDDIT,
    SHOPPING,
    document,
    entry,
    response_text,
    wav_folder,
    write_har,
    xhr,
)
from webeval_core.presentation import official_caption


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        (response_text("retrieve", data=["Quest Lumaflex™ Band"]), "success"),
        (response_text("retrieve", data=["quest lumaflex band"]), "success"),  # normalized
        (response_text("retrieve", data=["Sprite Yoga Strap"]), "failure"),
        (response_text("navigate"), "failure"),
        ("The best seller is Quest Lumaflex Band.", "failure"),
        ("```json\n" + response_text("retrieve", data=["Quest Lumaflex™ Band"]) + "\n```", "success"),
    ],
)
def test_retrieve(tmp_path: Path, official: Any, answer: str, status: str) -> None:
    folder = wav_folder(tmp_path, 0, answer, [document("http://localhost:7780/admin/dashboard", at=1)])
    outcome = score(folder)
    assert outcome.status == status
    assert outcome.score == (1.0 if status == "success" else 0.0)
    same_as_official(outcome, official)
    assert (outcome.reason is None) == (status == "success")


def test_navigate_success_and_alternative_with_ignored_query(tmp_path: Path, official: Any) -> None:
    ok = wav_folder(
        tmp_path / "a",
        44,
        NAVIGATE,
        [document(f"{GITLAB}/", at=1), document(f"{GITLAB}/dashboard/todos", at=2)],
    )
    # The second expected URL is an alternative; page and sort are ignored query parameters.
    alt = wav_folder(
        tmp_path / "b",
        44,
        NAVIGATE,
        [document(f"{GITLAB}/dashboard/todos?state=pending&sort=created_asc&page=3", at=2)],
    )
    for folder in (ok, alt):
        outcome = score(folder)
        assert outcome.status == "success"
        same_as_official(outcome, official)
        trace = network(outcome)
        assert trace.navigate_last_document_only and trace.limitation is None
    assert network(score(ok)).matched == 1


def test_navigate_query_parameter_that_is_not_ignored_fails(tmp_path: Path, official: Any) -> None:
    folder = wav_folder(tmp_path, 44, NAVIGATE, [document(f"{GITLAB}/dashboard/todos?state=done", at=2)])
    outcome = score(folder)
    assert outcome.status == "failure"
    same_as_official(outcome, official)
    (field,) = [f for f in network(outcome).candidates[0].fields if not f.matches]
    assert field.field == "url" and field.actual == "__GITLAB__/dashboard/todos?state=done"


def test_navigate_limitation_is_named_when_it_decides(tmp_path: Path, official: Any) -> None:
    # The todos page was fetched by XHR and visited earlier, but the last page load is elsewhere.
    folder = wav_folder(
        tmp_path,
        44,
        NAVIGATE,
        [
            document(f"{GITLAB}/dashboard/todos", at=1),
            xhr(f"{GITLAB}/dashboard/todos", at=2),
            document(f"{GITLAB}/explore", at=3),
        ],
    )
    outcome = score(folder)
    assert outcome.status == "failure"
    same_as_official(outcome, official)
    trace = network(outcome)
    assert trace.kept == (2,) and trace.matched is None
    assert trace.limitation is not None
    assert "entry 0 (page navigation GET" in trace.limitation and "entry 1 (request GET" in trace.limitation
    assert "known upstream limitation" in trace.limitation
    assert "the last page navigation: url differs" in trace.explanation
    assert outcome.reason is not None and "known upstream limitation" in outcome.reason


def test_navigate_failure_without_matching_request_has_no_limitation(tmp_path: Path) -> None:
    folder = wav_folder(
        tmp_path, 44, NAVIGATE, [document(f"{GITLAB}/explore", at=1), xhr(f"{GITLAB}/api/x", at=2)]
    )
    trace = network(score(folder))
    assert trace.passed is False and trace.limitation is None


def test_navigate_without_any_page_load(tmp_path: Path, official: Any) -> None:
    outcome = score(wav_folder(tmp_path, 44, NAVIGATE, [xhr(f"{GITLAB}/dashboard/todos", at=1)]))
    same_as_official(outcome, official)
    trace = network(outcome)
    assert trace.candidates == () and "no page navigation" in trace.explanation
    assert trace.limitation is not None


def test_mutate_any_event_when_last_event_only_is_false(tmp_path: Path, official: Any) -> None:
    good = {"user_biography[biography]": "I am a robot", "_token": "t"}
    bad = {"user_biography[biography]": "I am a robo", "_token": "t"}
    folder = wav_folder(
        tmp_path / "a",
        399,
        MUTATE,
        [
            document(f"{REDDIT}/user/MarvelsGrantMan136", at=1),
            entry(BIO, method="POST", status=302, form=good, at=2),
            entry(BIO, method="POST", status=302, form=bad, at=3),
        ],
    )
    outcome = score(folder)
    assert outcome.status == "success"
    same_as_official(outcome, official)
    trace = network(outcome)
    assert trace.last_event_only is False and trace.kept == (1, 2) and trace.matched == 1
    failing = wav_folder(tmp_path / "b", 399, MUTATE, [entry(BIO, method="POST", status=302, form=bad, at=2)])
    outcome = score(failing)
    assert outcome.status == "failure"
    same_as_official(outcome, official)
    assert "None of the 1 request(s)" in network(outcome).explanation
    diff = next(f for f in network(outcome).candidates[0].fields if not f.matches)
    assert (diff.field, diff.expected, diff.actual) == (
        "post_data.user_biography[biography]",
        "i am a robot",
        "i am a robo",
    )


@pytest.mark.parametrize(
    ("choices", "status"), [(["1", "0"], "failure"), (["0", "1"], "success"), (["1"], "success")]
)
def test_mutate_last_event_only(tmp_path: Path, official: Any, choices: list[str], status: str) -> None:
    # Upvote task: only the last vote request counts.
    entries = [entry(VOTE, method="POST", form={"choice": c}, at=2 + i) for i, c in enumerate(choices)]
    outcome = score(wav_folder(tmp_path, 404, MUTATE, [document(f"{REDDIT}/f/books", at=1), *entries]))
    assert outcome.status == status
    same_as_official(outcome, official)
    trace = network(outcome)
    last = len(choices)
    assert trace.kept == (last,)
    assert [c.har_index for c in trace.candidates] == list(range(1, last + 1))
    if status == "failure":
        assert f"Kept entry {last} " in trace.explanation and "the last of 2 requests" in trace.explanation
        assert "entry 1 " in trace.explanation and "(last_event_only)" in trace.explanation


def test_wrong_method_or_status_is_a_field_difference(tmp_path: Path, official: Any) -> None:
    outcome = score(
        wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", status=500, form={"choice": "1"})])
    )
    assert outcome.status == "failure"
    same_as_official(outcome, official)
    (diff,) = [f for f in network(outcome).candidates[0].fields if not f.matches]
    assert (diff.field, diff.expected, diff.actual) == ("response_status", 200, 500)


def test_no_matching_request(tmp_path: Path, official: Any) -> None:
    outcome = score(wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="GET"), document(f"{REDDIT}/")]))
    same_as_official(outcome, official)
    trace = network(outcome)
    assert trace.candidates == () and trace.considered == 2
    assert "No request to POST __REDDIT__/sv/124260.json among 2 request(s)" in trace.explanation
    # Both counts, ours and the evaluator's own words, said side by side.
    assert trace.official_messages and all(m for m in trace.official_messages)
    caption = official_caption(trace)
    assert "searched 2 requests of the trace · the evaluator says: " in caption
    assert trace.official_messages[0] in caption


@pytest.mark.parametrize(("submitted", "status"), [(False, "success"), (True, "failure")])
def test_should_not_exist(tmp_path: Path, official: Any, submitted: bool, status: str) -> None:
    entries = [
        document(f"{SHOPPING}/contact/", at=1),
        entry(f"{SHOPPING}/dummy_bin", method="POST", status=-1, form=CONTACT_FORM, at=2),
    ]
    if submitted:
        entries.append(
            entry(f"{SHOPPING}/contact/index/post", method="POST", status=302, form=CONTACT_FORM, at=3)
        )
    outcome = score(wav_folder(tmp_path, 528, MUTATE, entries))
    assert outcome.status == status
    same_as_official(outcome, official)
    filled, forbidden = network(outcome, 1), network(outcome, 2)
    assert filled.passed and filled.matched == 1
    assert forbidden.should_not_exist and forbidden.passed is (not submitted)
    if submitted:
        assert forbidden.kept == (2,) and "must not happen" in forbidden.explanation
    else:
        assert "as required" in forbidden.explanation


@pytest.mark.parametrize(("assignees", "status"), [([2264], "success"), ([1], "failure")])
def test_json_post_data_and_ignored_query_param(
    tmp_path: Path, official: Any, assignees: list[int], status: str
) -> None:
    url = f"{ISSUE}?serializer=sidebar_extras"  # `serializer` is an ignored query parameter
    request = entry(url, method="PUT", json_body={"issue": {"assignee_ids": assignees}}, at=2)
    outcome = score(wav_folder(tmp_path, 446, MUTATE, [request]))
    assert outcome.status == status
    same_as_official(outcome, official)
    fields = {f.field: f for f in network(outcome).candidates[0].fields}
    assert fields["url"].matches
    assert fields["post_data.$.issue.assignee_ids"].matches is (status == "success")


def test_provenance_places_requests_in_steps(tmp_path: Path) -> None:
    # A Fara folder: step k starts 5 + 10 (k - 1) s after START_UTC.
    folder = fara_folder(tmp_path, "404", final_answer=MUTATE)
    write_har(folder / "network.har", [entry(VOTE, method="POST", form={"choice": "1"}, at=17)])
    outcome = score(folder)
    (candidate,) = network(outcome).candidates
    assert candidate.step == 2
    assert "step 2" in network(outcome).explanation
