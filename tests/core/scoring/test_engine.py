"""Scoring reproduces the official evaluator, and the network provenance agrees with its verdict.

Every trajectory here is built on disk: real task ids, HARs shaped like Playwright's. The
official verdict is computed independently the way `webarena-verified eval-tasks` does it (file
paths in, a fresh evaluator), and compared with ours result-for-result.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.builders import fara_folder, snapshot, write_final_answer
from tests.har_builders import (
    CONFIG,
    GITLAB,
    REDDIT,
    SHOPPING,
    document,
    entry,
    response_text,
    wav_folder,
    write_config,
    write_har,
    xhr,
)
from webeval_core import cli
from webeval_core.reading.tasks import default_dataset_path, load_catalog
from webeval_core.scoring import engine as scoring
from webeval_core.scoring.engine import (
    Evaluation,
    NetworkCheckTrace,
    ScoreOutcome,
    UrlConfig,
    score_trajectories,
    score_trajectory,
    summarize,
)

MUTATE = response_text("mutate")
NAVIGATE = response_text("navigate")
BIO = f"{REDDIT}/user/MarvelsGrantMan136/edit_biography"
VOTE = f"{REDDIT}/sv/124260.json"
REFUND = "I need a refund. Order: 180. Amount: $12.99. Reason: It broke after three days of use."
CONTACT_FORM = {
    "form_id": "contact-form",
    "name": "Emma Lopez",
    "email": "emma.lopez@gmail.com",
    "comment": REFUND,
}
ISSUE = f"{GITLAB}/a11yproject/a11yproject.com/-/issues/1478.json"


@pytest.fixture(scope="module")
def official() -> Callable[[Path], dict[str, Any]]:
    """The official verdict for a WA-V folder, computed as its CLI does (paths in)."""
    from webarena_verified.api import WebArenaVerified
    from webarena_verified.types.config import WebArenaVerifiedConfig

    wa = WebArenaVerified(config=WebArenaVerifiedConfig.model_validate(CONFIG))

    def run(folder: Path) -> dict[str, Any]:
        result = wa.evaluate_task(
            task_id=int(folder.name),
            agent_response=folder / "agent_response.json",
            network_trace=folder / "network.har",
        )
        return result.model_dump(mode="json", exclude_none=True)

    return run


@pytest.fixture
def config() -> UrlConfig:
    return UrlConfig.from_dict(CONFIG)


def score(folder: Path, config: UrlConfig | Path | None = None, **kwargs: Any) -> ScoreOutcome:
    outcome = score_trajectory(
        folder, config=config if config is not None else UrlConfig.from_dict(CONFIG), **kwargs
    )
    assert_provenance_agrees(outcome)
    return outcome


def assert_provenance_agrees(outcome: ScoreOutcome) -> None:
    """Provenance says "kept entry i, all fields match" exactly when the evaluator passed."""
    if outcome.evaluation is None:
        return
    results = outcome.evaluation.result["evaluators_results"]
    for trace in outcome.evaluation.network:
        if trace.position >= len(results):  # the evaluator stopped before this check
            assert trace.passed is None and trace.error is not None
            continue
        official = results[trace.position]["status"]
        assert results[trace.position]["evaluator_name"] == "NetworkEventEvaluator"
        assert trace.official_status == official
        if official == "error":
            assert trace.passed is None
            continue
        assert trace.passed == (official == "success"), trace.explanation
        if trace.should_not_exist:
            assert (not trace.kept) == (official == "success")
            continue
        assert (trace.matched is not None) == (official == "success")
        for candidate in trace.candidates:
            if candidate.matched is not None:
                assert candidate.matched == all(f.matches for f in candidate.fields)
        if trace.matched is not None:
            kept = next(c for c in trace.candidates if c.har_index == trace.matched)
            assert kept.kept and kept.matched
            assert trace.explanation.startswith(f"Kept entry {trace.matched} ")


def network(outcome: ScoreOutcome, position: int = 1) -> NetworkCheckTrace:
    assert outcome.evaluation is not None
    return next(t for t in outcome.evaluation.network if t.position == position)


def same_as_official(outcome: ScoreOutcome, official: Callable[[Path], dict[str, Any]]) -> None:
    assert outcome.evaluation is not None
    assert outcome.evaluation.result == official(outcome.path)


# --- official verdicts, retrieve / navigate / mutate -----------------------------------------


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


# --- score files ------------------------------------------------------------------------------


def test_score_file_shape_and_byte_identical_rescoring(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    before = {k: v for k, v in snapshot(folder).items() if not k.startswith("scores")}
    outcome = score(folder)
    assert outcome.eval_hash is not None
    assert re.fullmatch(r"webarena-verified-1\.2\.3-[0-9a-f]{8}", outcome.eval_hash)
    assert outcome.score_file == folder / "scores" / f"{outcome.eval_hash}.json"
    first = outcome.score_file.read_bytes()
    document_ = json.loads(first)
    assert set(document_) == {"score", "gpt_response_text"} and document_["score"] == 1.0
    payload = json.loads(document_["gpt_response_text"])
    assert payload["result"]["status"] == "success" and payload["engine"]["eval_hash"] == outcome.eval_hash
    assert payload["network"][0]["matched"] == 0
    again = score(folder, force=True)
    assert not again.reused and again.score_file is not None and again.score_file.read_bytes() == first
    assert {k: v for k, v in snapshot(folder).items() if not k.startswith("scores")} == before
    assert os.listdir(folder / "scores") == [f"{outcome.eval_hash}.json"]


def test_up_to_date_score_files_are_reused_until_an_input_changes(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    assert not score(folder).reused
    reused = score(folder)
    assert reused.reused and reused.status == "success" and reused.evaluation is not None
    write_har(folder / "network.har", [entry(VOTE, method="POST", form={"choice": "0"})])
    changed = score(folder)
    assert not changed.reused and changed.status == "failure"
    assert json.loads(changed.score_file.read_text())["score"] == 0.0  # type: ignore[union-attr]


def test_another_config_writes_beside_the_older_verdict(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    first = score(folder)
    other = UrlConfig.from_dict({"environments": {"__REDDIT__": {"urls": [REDDIT, "http://reddit.example"]}}})
    second = score(folder, config=other)
    assert first.eval_hash != second.eval_hash
    assert sorted(os.listdir(folder / "scores")) == sorted(
        [f"{first.eval_hash}.json", f"{second.eval_hash}.json"]
    )


def test_interrupted_write_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(scoring.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        score_trajectory(folder, config=UrlConfig.from_dict(CONFIG))
    assert os.listdir(folder / "scores") == []


def test_aborted_is_excluded_and_no_answer_is_a_failure(tmp_path: Path) -> None:
    aborted = fara_folder(tmp_path / "a", "404", final_answer=None)
    excluded = score(aborted)
    assert excluded.status == "excluded" and excluded.score is None and excluded.score_file is None
    assert not (aborted / "scores").exists()
    over_budget = fara_folder(tmp_path / "b", "404", final_answer="<no_answer>")
    write_har(over_budget / "network.har", [entry(VOTE, method="POST", form={"choice": "1"}, at=20)])
    outcome = score(over_budget)
    assert outcome.status == "failure" and outcome.score == 0.0
    assert outcome.reason is not None and outcome.reason.startswith("no answer")
    assert outcome.score_file is not None and json.loads(outcome.score_file.read_text())["score"] == 0.0
    assert network(outcome).passed  # the vote did happen; the provenance still says so
    flagged = fara_folder(tmp_path / "c", "404", final_answer=MUTATE)
    write_final_answer(flagged, "404", MUTATE, is_aborted=True)
    assert score(flagged).status == "excluded"


# --- bad input never stops a batch --------------------------------------------------------------


def test_batch_with_bad_inputs(tmp_path: Path) -> None:
    root = tmp_path / "run"
    vote = [entry(VOTE, method="POST", form={"choice": "1"})]
    good = wav_folder(root, 404, MUTATE, vote)
    unknown = wav_folder(root, 99999, MUTATE, vote)
    not_an_id = wav_folder(root, "notes", MUTATE, vote)
    no_har = wav_folder(root, 405, MUTATE, None)
    truncated = wav_folder(root, 406, MUTATE, vote)
    (truncated / "network.har").write_text((truncated / "network.har").read_text()[:-30])
    empty = wav_folder(root, 399, MUTATE, [])
    prose = wav_folder(root, 397, "I forked the repository.", [document(f"{GITLAB}/", at=1)])
    retrieve_no_har = wav_folder(root, 0, response_text("retrieve", data=["Quest Lumaflex™ Band"]), None)
    retrieve_bad_har = wav_folder(root, 1, response_text("retrieve", data=["x"]), vote)
    (retrieve_bad_har / "network.har").write_text("{")
    write_config(root / "webarena-verified-config.json")
    folders = [good, unknown, not_an_id, no_har, truncated, empty, prose, retrieve_no_har, retrieve_bad_har]
    seen: list[tuple[int, int]] = []
    outcomes = score_trajectories(folders, config_root=root, on_progress=lambda d, t: seen.append((d, t)))
    by_name = {o.path.name: o for o in outcomes}
    assert [o.path for o in outcomes] == folders
    assert seen[0] == (0, 9) and seen[-1] == (9, 9)
    assert by_name["404"].status == "success"
    assert by_name["99999"].status == "error" and "'99999' is not a task id" in (
        by_name["99999"].reason or ""
    )
    assert by_name["notes"].status == "error" and "not a task id" in (by_name["notes"].reason or "")
    assert by_name["405"].status == "error"
    assert by_name["405"].reason == "no network.har in the folder, and task 405 has 1 network check(s)"
    assert by_name["406"].status == "error" and "looks truncated" in (by_name["406"].reason or "")
    assert by_name["399"].status == "error" and "has no entries" in (by_name["399"].reason or "")
    assert by_name["397"].status == "failure"  # the evaluator's own verdict on plain text
    assert "agent_response_invalid_format" in (by_name["397"].reason or "")
    assert "no JSON object found" in (by_name["397"].reason or "")
    # Tasks without network checks do not need the HAR.
    assert by_name["0"].status == "success" and by_name["0"].score_file is not None
    assert by_name["1"].status == "failure"
    assert any("scored without it" in n for n in by_name["1"].notes)
    for outcome in outcomes:
        assert_provenance_agrees(outcome)
        # Every verdict of a known task is written, errors included; input errors are not.
        assert (outcome.score_file is not None) == (outcome.evaluation is not None)
    assert by_name["405"].score_file is not None
    assert by_name["99999"].score_file is None


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        ({"enviroments": {}}, "unknown key 'enviroments'"),
        ({"environments": {"__AMAZON__": {"urls": ["http://x"]}}}, "unknown site '__AMAZON__'"),
        ({"environments": {"__REDDIT__": {"url": ["http://x"]}}}, "__REDDIT__: unknown key 'url'"),
        ({"environments": {"__REDDIT__": {"urls": []}}}, "'urls' must be a non-empty list"),
        ("not json", "not valid JSON"),
    ],
)
def test_bad_config_is_an_error_per_trajectory(tmp_path: Path, config: Any, reason: str) -> None:
    folder = wav_folder(tmp_path / "run", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    path = tmp_path / "config.json"
    path.write_text(config if isinstance(config, str) else json.dumps(config))
    (outcome,) = score_trajectories([folder], config=path)
    assert outcome.status == "error" and outcome.reason is not None and reason in outcome.reason


def test_config_file_names_another_dataset(tmp_path: Path) -> None:
    other = tmp_path / "tasks.json"
    other.write_text(json.dumps(json.loads(default_dataset_path().read_text())[:3]))
    folder = wav_folder(tmp_path / "run", 0, response_text("retrieve", data=["x"]), None)
    path = write_config(tmp_path / "config.json", {**CONFIG, "test_data_file": str(other)})
    (outcome,) = score_trajectories([folder], config=path)
    assert outcome.status == "error" and "pass that dataset as the task file" in (outcome.reason or "")
    (outcome,) = score_trajectories([folder], config=path, catalog=other)
    assert outcome.status == "failure"


def test_config_discovery(tmp_path: Path) -> None:
    root = tmp_path / "run"
    folder = wav_folder(root / "traj", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    write_config(root / "webarena-verified-config.json")
    outcome = score_trajectory(folder)
    assert outcome.evaluation is not None
    assert outcome.evaluation.url_config.source == "../../webarena-verified-config.json"
    assert outcome.evaluation.url_config.urls["__REDDIT__"] == [REDDIT]
    # The official CLI's per-task run_config.json comes first.
    write_config(folder / "run_config.json", {"environments": {"__REDDIT__": {"urls": [REDDIT]}}})
    outcome = score_trajectory(folder)
    assert outcome.evaluation is not None and outcome.evaluation.url_config.source == "run_config.json"
    # A root below the config stops the search.
    os.remove(folder / "run_config.json")
    outcome = score_trajectory(folder, config_root=root / "traj", write=False)
    assert outcome.evaluation is not None and outcome.evaluation.url_config.source is None


def test_without_config_the_guessed_urls_are_named(tmp_path: Path) -> None:
    folder = wav_folder(
        tmp_path,
        404,
        MUTATE,
        [document(f"{REDDIT}/f/books"), entry(VOTE, method="POST", form={"choice": "1"})],
    )
    outcome = score_trajectory(folder, config_root=tmp_path)
    assert outcome.status == "success" and outcome.evaluation is not None
    assert outcome.evaluation.url_config.guessed == {"__REDDIT__": [REDDIT]}
    assert any(
        "the evaluator guessed __REDDIT__ = http://localhost:9999 from the HAR" in n for n in outcome.notes
    )
    assert outcome.eval_hash != score(folder, force=True).eval_hash  # guessing is another config


def test_evaluator_error_when_nothing_tells_the_urls(tmp_path: Path) -> None:
    # No config, and only a static asset to guess from: the evaluator refuses (status error).
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(f"{REDDIT}/static/app.js")])
    outcome = score_trajectory(folder, config_root=tmp_path)
    assert_provenance_agrees(outcome)
    assert outcome.status == "error" and outcome.score_file is not None  # the error verdict is kept
    assert "environments missing and network trace unavailable" in (outcome.reason or "")
    assert network(outcome).passed is None
    assert network(outcome).error is not None and "could not run" in network(outcome).error


def test_without_config_or_har_a_retrieve_task_is_still_scored(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 0, response_text("retrieve", data=["Quest Lumaflex™ Band"]), None)
    outcome = score_trajectory(folder, config_root=tmp_path)
    assert outcome.status == "success"
    assert any("no URL mapping for __SHOPPING_ADMIN__ and no HAR" in n for n in outcome.notes)


def test_published_naming_is_scored_through_the_mapping(tmp_path: Path, official: Any) -> None:
    answer = response_text("mutate", data=None, naming="action")
    folder = wav_folder(tmp_path, 404, answer, [entry(VOTE, method="POST", form={"choice": "1"})])
    outcome = score(folder)
    assert outcome.status == "success"
    assert official(folder)["status"] == "failure"  # the official CLI does not read `action`
    assert outcome.evaluation is not None and outcome.evaluation.agent_response is not None
    assert outcome.evaluation.agent_response.naming == "action/results"


def test_another_dataset_file(tmp_path: Path) -> None:
    raw = json.loads(default_dataset_path().read_text())
    subset = tmp_path / "tasks.json"
    subset.write_text(json.dumps([t for t in raw if t["task_id"] in (0, 404)]))
    folder = wav_folder(tmp_path / "run", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    outcome = score(folder, catalog=subset)
    assert outcome.status == "success"
    assert outcome.eval_hash != score(folder, force=True).eval_hash


def test_dataset_the_evaluator_rejects(tmp_path: Path) -> None:
    raw = json.loads(default_dataset_path().read_text())
    task = next(t for t in raw if t["task_id"] == 404)
    subset = tmp_path / "tasks.json"
    subset.write_text(json.dumps([{**task, "comment": "extra keys are refused upstream"}]))
    folder = wav_folder(tmp_path / "run", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    outcome = score_trajectory(folder, config=UrlConfig.from_dict(CONFIG), catalog=subset)
    assert outcome.status == "error" and "the evaluator rejects this dataset file" in (outcome.reason or "")


# --- batches, summaries, CLI -----------------------------------------------------------------


def _mixed_run(root: Path) -> list[Path]:
    vote = [entry(VOTE, method="POST", form={"choice": "1"})]
    folders = [wav_folder(root, 404, MUTATE, vote), wav_folder(root, 405, MUTATE, vote)]
    folders.append(wav_folder(root, 0, response_text("retrieve", data=["Quest Lumaflex™ Band"]), None))
    folders.append(wav_folder(root, 44, NAVIGATE, [document(f"{GITLAB}/dashboard/todos")]))
    folders.append(wav_folder(root, 45, NAVIGATE, [document(f"{GITLAB}/")]))
    folders.append(wav_folder(root, 99999, MUTATE, vote))
    folders.append(fara_folder(root, "397", final_answer=None))
    folders.append(fara_folder(root, "396", final_answer="<no_answer>"))
    write_har(folders[-1] / "network.har", [document(f"{GITLAB}/")])
    write_config(root / "webarena-verified-config.json")
    return folders


def test_parallel_batch_matches_sequential(tmp_path: Path) -> None:
    folders = _mixed_run(tmp_path / "run")
    sequential = score_trajectories(folders, write=False)
    parallel = score_trajectories(folders, jobs=2, write=False)
    assert [(o.path, o.status, o.score, o.reason) for o in parallel] == [
        (o.path, o.status, o.score, o.reason) for o in sequential
    ]


def test_interrupted_batch_leaves_only_complete_score_files(tmp_path: Path) -> None:
    root = tmp_path / "run"
    vote = [entry(VOTE, method="POST", form={"choice": "1"})]
    folders = [wav_folder(root, task_id, MUTATE, vote) for task_id in range(404, 424)]

    def interrupt(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        score_trajectories(folders, config=UrlConfig.from_dict(CONFIG), jobs=2, on_progress=interrupt)
    written = [p for folder in folders for p in (folder / "scores").glob("*")]
    assert len(written) >= 3
    for path in written:
        assert path.suffix == ".json" and not path.name.startswith(".")
        assert json.loads(path.read_text())["score"] in (0.0, 1.0)


def test_summary(tmp_path: Path) -> None:
    summary = summarize(score_trajectories(_mixed_run(tmp_path / "run"), write=False))
    overall = summary.overall
    assert (overall.success, overall.failure, overall.error, overall.excluded) == (3, 3, 1, 1)
    assert overall.scored == 6 and overall.success_rate == 0.5
    assert summary.per_site["reddit"].success == 1 and summary.per_site["reddit"].failure == 1
    assert summary.per_site["unknown"].error == 1
    assert summary.per_site["gitlab"].excluded == 1 and summary.per_site["gitlab"].failure == 2
    assert summary.per_task_type["navigate"].scored == 2
    assert summary.per_task_type["retrieve"].success_rate == 1.0


def test_cli_score_json_and_table(tmp_path: Path) -> None:
    root = tmp_path / "run"
    _mixed_run(root)
    out = io.StringIO()
    assert cli.main(["score", str(root), "--jobs", "1", "--json"], out=out) == 0
    payload = json.loads(out.getvalue())
    assert len(payload["results"]) == 8
    row = next(r for r in payload["results"] if r["task_id"] == "404")
    assert (
        row["status"] == "success"
        and row["score"] == 1.0
        and row["eval_hash"].startswith("webarena-verified-")
    )
    assert payload["summary"]["overall"]["success"] == 3
    table = io.StringIO()
    assert cli.main(["score", str(root), "--jobs", "1"], out=table) == 0
    text = table.getvalue()
    assert "overall" in text and "site reddit" in text and "type navigate" in text
    assert "0 written, 6 already up to date" in text
    assert "Errors (1):" in text and "99999" in text


def test_evaluation_round_trips_through_the_score_file(tmp_path: Path) -> None:
    folder = wav_folder(
        tmp_path, 44, NAVIGATE, [xhr(f"{GITLAB}/dashboard/todos", at=1), document(f"{GITLAB}/", at=2)]
    )
    outcome = score(folder)
    assert outcome.score_file is not None and outcome.evaluation is not None
    stored = Evaluation.model_validate_json(json.loads(outcome.score_file.read_text())["gpt_response_text"])
    assert stored == outcome.evaluation
    assert load_catalog().get(44) is not None
