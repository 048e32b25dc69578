"""Agent response extraction, naming, schema findings, and what the evaluator makes of it."""

from __future__ import annotations

import json

import pytest

from webeval_core.reading.response import parse_agent_response

RETRIEVE = {"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": ["Quest Lumaflex™ Band"]}


def test_bare_json_in_the_evaluators_naming_is_passed_as_text() -> None:
    text = json.dumps(RETRIEVE)
    response = parse_agent_response(text)
    assert response.naming == "task_type/retrieved_data"
    assert response.parsed == RETRIEVE
    assert response.engine_input == text  # the evaluator parses it itself, as the official CLI does
    assert response.extracted_from == "text"
    assert response.findings == () and response.parse_error is None


def test_published_naming_is_mapped() -> None:
    text = json.dumps({"action": "Retrieve", "status": "success", "results": ["x"], "error_details": None})
    response = parse_agent_response(text)
    assert response.naming == "action/results"
    assert response.engine_input == {
        "task_type": "Retrieve",
        "status": "success",
        "retrieved_data": ["x"],
        "error_details": None,
    }
    assert response.findings == ()  # values are case-insensitive, like the evaluator


def test_legacy_performed_operation() -> None:
    response = parse_agent_response('{"performed_operation": "MUTATE", "status": "SUCCESS"}')
    assert response.naming == "performed_operation/retrieved_data"
    assert response.findings == ()


def test_fenced_json() -> None:
    text = 'Done.\n```json\n{"task_type": "navigate", "status": "SUCCESS", "retrieved_data": null}\n```'
    response = parse_agent_response(text)
    assert response.extracted_from == "fence"
    assert response.engine_input == text  # the evaluator finds the first fence too


def test_json_inside_prose_is_found_and_handed_over_parsed() -> None:
    text = 'Final answer: {"action": "retrieve", "status": "SUCCESS", "results": [3]} Thanks!'
    response = parse_agent_response(text)
    assert response.extracted_from == "prose"
    assert response.engine_input == {"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": [3]}


def test_prose_prefers_the_object_that_looks_like_a_response() -> None:
    text = 'Filter {"page": 2} gave {"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": []}'
    response = parse_agent_response(text)
    assert response.parsed == {"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": []}
    assert response.engine_input == response.parsed  # the evaluator alone could not parse this text


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("The answer is 42.", "no JSON object found"),
        ("   ", "the answer is empty"),
        ('["a", "b"]', "JSON array, not an object"),
        ('{"task_type": "retrieve", ', "no JSON object found"),
    ],
)
def test_text_without_a_response_object_goes_to_the_evaluator_as_is(text: str, error: str) -> None:
    response = parse_agent_response(text)
    assert response.naming == "unparsed" and response.parsed is None
    assert response.engine_input == text
    assert response.parse_error is not None and error in response.parse_error


@pytest.mark.parametrize(
    ("payload", "finding"),
    [
        (
            {"action": "navigate", "status": "SUCCESS", "results": ["x"]},
            "must be null or empty for a navigate",
        ),
        ({"action": "mutate", "status": "SUCCESS", "results": []}, None),
        (
            {"action": "retrieve", "status": "SUCCESS", "results": ["a", 1]},
            "mixes item types (number, string)",
        ),
        (
            {"action": "retrieve", "status": "SUCCESS", "results": [True, 1]},
            "mixes item types (boolean, number)",
        ),
        (
            {"action": "retrieve", "status": "SUCCESS", "results": [{"a": 1}, {"b": 2}]},
            "do not share the same keys",
        ),
        ({"action": "retrieve", "status": "SUCCESS", "results": [["a"]]}, "item 1 is an array"),
        (
            {"action": "retrieve", "status": "SUCCESS", "results": "a"},
            "must be an array or null, found string",
        ),
        (
            {"action": "retrieve", "status": "SUCCESS", "results": [], "error_details": "x"},
            "should be null when",
        ),
        ({"action": "retrieve", "status": "NOT_FOUND_ERROR", "results": None, "error_details": "x"}, None),
        ({"action": "retrieve", "status": "DONE", "results": None}, "'status' is 'DONE'"),
        ({"action": "browse", "status": "SUCCESS", "results": None}, "'action' is 'browse'"),
        ({"action": "retrieve", "status": "SUCCESS"}, "missing 'results'"),
        ({"task_type": "retrieve", "status": "SUCCESS"}, None),  # the evaluator's model defaults it
        ({"results": [], "status": "SUCCESS"}, "missing 'action'"),
        ({"action": "mutate", "Status": "SUCCESS", "results": None}, "did you mean 'status'"),
        ({"task_type": "mutate", "action": "mutate", "status": "SUCCESS"}, "the evaluator reads 'task_type'"),
        ({"task_type": "mutate", "status": "SUCCESS", "note": 1}, "unexpected key 'note'"),
    ],
)
def test_published_schema_rules(payload: dict[str, object], finding: str | None) -> None:
    findings = parse_agent_response(json.dumps(payload)).findings
    if finding is None:
        assert findings == ()
    else:
        assert any(finding in f for f in findings), findings


def _verdict(task_id: int, engine_input: object) -> dict[str, object]:
    from webarena_verified.api import WebArenaVerified
    from webarena_verified.types.config import WebArenaVerifiedConfig
    from webarena_verified.types.tracing import NetworkTrace

    wa = WebArenaVerified(
        config=WebArenaVerifiedConfig(
            environments={"__SHOPPING_ADMIN__": {"urls": ["http://localhost:7780/admin"]}}
        )  # type: ignore[dict-item]
    )
    empty = NetworkTrace.model_construct(is_playwright=False, src_file=None, events=())
    return wa.evaluate_task(task_id=task_id, agent_response=engine_input, network_trace=empty).model_dump(
        mode="json", exclude_none=True
    )


def test_mapped_published_naming_passes_where_the_raw_text_fails() -> None:
    text = json.dumps({"action": "retrieve", "status": "SUCCESS", "results": ["Quest Lumaflex™ Band"]})
    assert _verdict(0, text)["status"] == "failure"  # the evaluator does not read action/results
    assert _verdict(0, parse_agent_response(text).engine_input)["status"] == "success"


def test_unparsed_text_gets_the_evaluators_own_failure() -> None:
    result = _verdict(0, parse_agent_response("Quest Lumaflex Band").engine_input)
    assert result["status"] == "failure"
    names = [a["assertion_name"] for r in result["evaluators_results"] for a in r.get("assertions") or []]  # type: ignore[attr-defined]
    assert "agent_response_invalid_format" in names
