"""Verdicts read back from score files and from the official CLI's eval_result.json."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.scoring import results as scoring
from webeval_core.scoring import verdicts as vd


def evaluation(
    status: str, assertions: list[dict[str, Any]], *, network=None, findings=(), parse_error=None
) -> dict[str, Any]:
    evaluators = [{"evaluator_name": "AgentResponseEvaluator", "status": status, "assertions": assertions}]
    return {
        "engine": {"name": "webarena-verified", "version": "1.2.3"},
        "result": {
            "status": status,
            "score": 1.0 if status == "success" else 0.0,
            "evaluators_results": evaluators,
        },
        "agent_response": {"findings": list(findings), "parse_error": parse_error},
        "network": network or [],
    }


def assertion(name: str, msg: str = "") -> dict[str, Any]:
    return {"assertion_name": name, "status": "failure", "assertion_msgs": [msg] if msg else None}


def score_file(tmp_path: Path, name: str, response: Any, score: float, mtime: int) -> ScoreFile:
    path = tmp_path / f"{name}.json"
    path.write_text("{}")
    os.utime(path, (mtime, mtime))
    return ScoreFile(name=name, path=path, score=score, response=response)


def test_read_verdict_classifies_official_assertions(tmp_path: Path) -> None:
    response = evaluation(
        "failure",
        [assertion("agent_response.task_type_mismatch"), assertion("agent_response.status_mismatch"),
         assertion("retrieved_data_missing_or_null")],
        findings=["results must be null for navigate tasks"],
    )  # fmt: skip
    v = vd.read_verdict({"wav": score_file(tmp_path, "wav", response, 0.0, 1000)}, None)
    assert v == vd.Verdict(
        source="wav",
        status="failure",
        score=0.0,
        tags=(vd.WRONG_TASK_TYPE, vd.WRONG_STATUS, vd.WRONG_VALUES, vd.SCHEMA_VIOLATIONS),
    )


def test_read_verdict_uses_network_provenance_and_newest_file(tmp_path: Path) -> None:
    network = [
        {"passed": False, "should_not_exist": False, "candidates": []},
        {"passed": False, "should_not_exist": False, "candidates": [{"har_index": 3}]},
        {"passed": False, "should_not_exist": True, "candidates": [{"har_index": 4}]},
        {"passed": True, "should_not_exist": False, "candidates": [{"har_index": 5}]},
    ]
    new = evaluation("failure", [assertion("missing_navigation_event")], network=network)
    old = evaluation("success", [])
    files = {
        "old": score_file(tmp_path, "old", old, 1.0, 1000),
        "new": score_file(tmp_path, "new", new, 0.0, 2000),
        "gpt_eval": score_file(tmp_path, "gpt_eval", {"verifier_success": True}, 1.0, 3000),
    }
    v = vd.read_verdict(files, None)
    assert v is not None and v.source == "new"
    assert v.tags == (vd.NETWORK_MISSING, vd.NETWORK_MISMATCHED, vd.NETWORK_FORBIDDEN)


def test_read_verdict_falls_back_to_the_official_cli_result() -> None:
    result = {
        "status": "failure",
        "score": 0,
        "evaluators_results": [
            {"evaluator_name": "AgentResponseEvaluator", "status": "success", "assertions": None},
            {
                "evaluator_name": "NetworkEventEvaluator",
                "status": "failure",
                "assertions": [
                    assertion(
                        "missing_navigation_event",
                        "No matching network event found. Checked 2 event(s) but none matched all"
                        " expected criteria.",
                    )
                ],
            },
        ],
    }
    v = vd.read_verdict({}, result)
    assert v == vd.Verdict(
        source="eval_result.json", status="failure", score=0.0, tags=(vd.NETWORK_MISMATCHED,)
    )
    error = vd.read_verdict({}, {"status": "error", "score": 0, "evaluators_results": []})
    assert error is not None and error.tags == (vd.SCORING_ERROR,)
    assert vd.read_verdict({}, None) is None


def test_unparseable_and_missing_answer_assertions(tmp_path: Path) -> None:
    bad = evaluation("failure", [assertion("agent_response_invalid_format")], parse_error="no JSON object")
    none = evaluation("failure", [assertion("agent_response_none_mismatch")])
    assert vd.read_verdict({"x": score_file(tmp_path, "x", bad, 0.0, 1)}, None).tags == (vd.UNPARSEABLE,)  # type: ignore[union-attr]
    assert vd.read_verdict({"y": score_file(tmp_path, "y", none, 0.0, 1)}, None).tags == (vd.NO_ANSWER,)  # type: ignore[union-attr]


def test_verdicts_are_recognised_by_the_scorer_engine_name() -> None:
    assert vd.ENGINE_NAME == scoring.ENGINE_NAME  # copied to keep the index free of scoring imports


def test_stored_task_result_is_the_official_result_of_our_score_files_only() -> None:
    ours = vd.stored_task_result(evaluation("failure", [assertion("agent_response.retrieved_data", "x")]))
    assert ours is not None and ours.status == "failure" and ours.score == 0.0
    rubric_judge = {"score": 0.8, "rubric": [{"criterion": "found the page", "points": 1}]}
    assert vd.stored_task_result(rubric_judge) is None
    assert vd.stored_task_result("SUCCESS") is None


def test_parse_task_result_takes_an_official_result_and_refuses_anything_else() -> None:
    official = {"status": "success", "score": 1.0, "evaluators_results": []}
    parsed = scoring.parse_task_result(official)
    assert parsed is not None and parsed.status == scoring.EvalStatus.SUCCESS
    assert scoring.parse_task_result({"status": "success"}) is None  # no evaluator results
    assert scoring.parse_task_result({"status": "maybe", "evaluators_results": []}) is None
    assert scoring.parse_task_result(None) is None
