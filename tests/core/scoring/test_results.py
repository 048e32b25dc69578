"""The typed official result: read tolerantly, dumped back exactly as it was read."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from pydantic import ValidationError

from webeval_core.scoring import EvalStatus, TaskResult

# The official model's dump: evaluator results keep their None values (a custom serializer),
# assertions drop them (exclude_none applies there).
OFFICIAL: dict[str, Any] = {
    "task_id": 404,
    "intent_template_id": 1,
    "sites": ["reddit"],
    "task_revision": 2,
    "status": "failure",
    "score": 0.0,
    "evaluators_results": [
        {
            "evaluator_name": "AgentResponseEvaluator",
            "status": "failure",
            "score": 0.0,
            "actual": "{}",
            "actual_normalized": None,
            "expected": {"task_type": "mutate"},
            "assertions": [{"assertion_name": "agent_response.task_type_mismatch", "status": "failure"}],
            "error_msg": None,
            "should_not_exist": None,
        },
        {
            "evaluator_name": "NetworkEventEvaluator",
            "status": "error",
            "score": 0.0,
            "actual": None,
            "actual_normalized": None,
            "expected": None,
            "assertions": None,
            "error_msg": "boom",
            "should_not_exist": False,
        },
    ],
    "webarena_verified_version": "1.2.3",
    "webarena_verified_evaluator_checksum": "e",
    "webarena_verified_data_checksum": "d",
}


def test_a_result_dumps_exactly_the_keys_it_was_read_with() -> None:
    result = TaskResult.model_validate(OFFICIAL)
    assert result.model_dump(mode="json") == OFFICIAL
    assert TaskResult.model_validate_json(result.model_dump_json()).model_dump(mode="json") == OFFICIAL


def test_unknown_keys_are_kept_and_listed() -> None:
    newer = {**OFFICIAL, "webarena_verified_future": {"x": 1}}
    result = TaskResult.model_validate(newer)
    assert result.unknown_keys == ("webarena_verified_future",)
    assert result.model_dump(mode="json") == newer


def test_reading_is_tolerant_of_missing_keys_but_not_of_an_unknown_status() -> None:
    sparse = TaskResult.model_validate({"status": "success", "evaluators_results": [{"status": "success"}]})
    assert sparse.status == EvalStatus.SUCCESS and sparse.score_or_zero == 0.0
    assert sparse.model_dump(mode="json") == {
        "status": "success",
        "evaluators_results": [{"status": "success"}],
    }
    with pytest.raises(ValidationError):
        TaskResult.model_validate({"status": "timeout"})


def test_lookups_and_the_error_verdict() -> None:
    result = TaskResult.model_validate(OFFICIAL)
    response = result.evaluator("AgentResponseEvaluator")
    assert response is not None and [a.assertion_name for a in response.failed_assertions] == [
        "agent_response.task_type_mismatch"
    ]
    assert result.at(1) is result.evaluators_results[1] and result.at(2) is None
    assert result.evaluator("NoSuchEvaluator") is None
    assert result.error_message() == "boom"
    error = result.as_error("no HAR")
    assert error.model_dump(mode="json") == {
        **OFFICIAL,
        "status": "error",
        "score": 0.0,
        "error_msg": "no HAR",
    }


def test_reading_results_does_not_load_the_evaluator() -> None:
    code = (
        "import sys; import webeval_core.scoring.results, webeval_core.scoring.verdicts; "
        "print('webarena_verified' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
