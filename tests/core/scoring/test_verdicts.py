"""Verdicts read back from score files and from the official CLI's eval_result.json."""

from __future__ import annotations

import json
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


# --- plain_verdict: the index's quick reading of a stored evaluation -------------------------------

SAMPLE = Path(__file__).resolve().parents[3] / "sample_runs"
# What a value may become in a hand-edited or older score file: each one the models take as it is,
# coerce (1.0 for an int, True for a number, "1" for an int) or refuse.
ODD_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    1.0,
    2.5,
    "1",
    "",
    "x",
    "success",
    "failure",
    "error",
    "partial_match",
    "SUCCESS",
    [],
    ["x"],
    [1],
    [None],
    {},
    {"status": "failure"},
    {"status": "success", "assertion_name": "missing_navigation_event"},
)
_GONE: Any = object()


def sample_evaluations() -> list[tuple[str, float | None, dict[str, Any]]]:
    """Every stored evaluation of sample_runs/: (score file stem, its score, the decoded response)."""
    found = []
    for path in sorted(SAMPLE.rglob("scores/webarena-verified-*.json")):
        content = json.loads(path.read_text())
        found.append((path.stem, content.get("score"), json.loads(content["gpt_response_text"])))
    return found


def node_paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside `value` (keys and list positions), `value` itself first."""
    paths = [at]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        paths.extend(node_paths(child, (*at, key)))
    return paths


def changed(document: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A deep copy of `document` with the value at `path` replaced (or removed: `_GONE`)."""
    copy = json.loads(json.dumps(document))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    if value is _GONE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return copy


def full_verdict(name: str, score: float | None, response: Any) -> vd.Verdict | None:
    return vd.read_verdict(
        {name: ScoreFile(name=name, path=Path(name), score=score, response=response)}, None
    )


def test_plain_verdict_reads_every_sample_evaluation_as_validating_does() -> None:
    evaluations = sample_evaluations()
    assert len(evaluations) >= 80
    for name, score, response in evaluations:
        assert vd.plain_verdict(name, score, response) == full_verdict(name, score, response) is not None


def test_plain_verdict_never_differs_from_validating_on_one_odd_value() -> None:
    """Each value of three sample evaluations (failed assertions, network checks, an error), set to
    each odd value or removed: the quick reading gives the validated verdict, or None (validate)."""
    evaluations = sample_evaluations()
    chosen = [
        next(e for e in evaluations if e[2]["result"]["status"] == "failure" and e[2].get("network")),
        next(e for e in evaluations if e[2]["result"]["status"] == "failure" and not e[2].get("network")),
        next(e for e in evaluations if e[2]["result"]["status"] == "error"),
    ]
    taken = compared = 0
    for name, score, response in chosen:
        for path in node_paths(response)[1:]:
            for value in (*ODD_VALUES, _GONE):
                odd = changed(response, path, value)
                quick = vd.plain_verdict(name, score, odd)
                compared += 1
                if quick is not None:
                    taken += 1
                    assert quick == full_verdict(name, score, odd), (path, value)
    assert compared > 5000
    assert taken > compared // 4  # most odd values sit where nothing is validated (`Any` fields)
