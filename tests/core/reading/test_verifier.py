"""A verifier's score file in every generation, malformed fields reported by file and field, and
a run's verify_report.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.harness.builders import write_score
from tests.harness.verifier_files import (
    EXAMPLE_SHAPED_REASONING,
    EXAMPLE_SHAPED_RESPONSE,
    HAND_WRITTEN_CODES,
    HAND_WRITTEN_RESPONSE,
    JUDGE,
    OLDER_RESPONSE,
    write_hand_written,
)
from webeval_core.reading.scorefiles import read_score_files
from webeval_core.reading.taxonomy import CriticalPointType, code_label
from webeval_core.reading.verifier import (
    SuccessCriterion,
    VerifierOutput,
    parse_step_numbers,
    verifier_outputs,
)
from webeval_core.reading.verifyreport import find_verify_reports, read_verify_report
from webeval_core.support.diagnostics import Diagnostic


def _outputs(folder: Path) -> tuple[tuple[VerifierOutput, ...], list[Diagnostic]]:
    scores, problems = read_score_files(folder)
    assert problems == []
    return verifier_outputs(scores)


def test_the_hand_written_file_is_read_field_by_field(tmp_path: Path) -> None:
    write_hand_written(tmp_path)
    (output,), problems = _outputs(tmp_path)
    assert problems == []
    assert output.judge == JUDGE and output.score == 0.0
    assert output.success_criterion is SuccessCriterion.BOTH
    assert (output.outcome_success, output.rubric_is_success) == (False, False)
    assert (output.rubric_earned_points, output.rubric_max_points) == (2.5, 5.0)
    assert output.critical_point is CriticalPointType.NO_PERMISSION_INFO_PROVIDED_TASK_SPECIFIED
    assert output.cp_violation is True
    assert output.failure is not None and output.failure.has_failure is True
    assert [p.steps for p in output.failure_points] == [(2,), (3, 4), (2, 5)]
    assert output.flagged_steps == (2, 3, 4, 5)
    assert output.codes == HAND_WRITTEN_CODES
    assert output.task_verification is not None and output.task_verification.ambiguity_codes == ("7.1",)
    check = output.task_verification_with_trajectory
    assert check is not None and (check.is_invalid, check.invalid_task_codes) == (True, ("8.1",))
    assert output.is_universal


def test_an_older_generation_keeps_what_it_holds(tmp_path: Path) -> None:
    write_score(tmp_path, JUDGE, 0, OLDER_RESPONSE)
    (output,), problems = _outputs(tmp_path)
    assert problems == []
    assert output.success_criterion is None and output.cp_type_used is None
    assert output.outcome_success is False
    assert (output.rubric_earned_points, output.rubric_max_points) == (0.5, 5.0)  # summed from items
    assert output.failure is not None
    assert output.failure.reasoning == '{"step": 4, "reason": "miscount"}'
    assert output.failure_points == () and not output.is_universal


def test_a_short_circuit_reads_as_the_outcome(tmp_path: Path) -> None:
    text = json.dumps(
        {"verifier_reasoning": 'The last action must be "terminate".', "verifier_success": False}
    )
    write_score(tmp_path, "mmrubric_0.8-5-3", 0, text)
    (output,), _ = _outputs(tmp_path)
    assert (
        output.outcome_success is False and output.outcome_reasoning == 'The last action must be "terminate".'
    )


def test_free_text_and_official_evaluations_are_not_verifiers(tmp_path: Path) -> None:
    write_score(tmp_path, "gpt_eval", 0, "NOT SUCCESS")
    write_score(tmp_path, "webarena-verified-1", 1, json.dumps({"engine": {"name": "x"}, "result": {}}))
    assert _outputs(tmp_path) == ((), [])


def test_malformed_fields_are_reported_by_file_and_field(tmp_path: Path) -> None:
    response = json.loads(HAND_WRITTEN_RESPONSE)
    response["success_criterion"] = "majority"
    response["cp_violation"] = "perhaps"
    response["first_point_of_failure"]["failure_points"][0]["step_numbers"] = "five"
    response["first_point_of_failure"]["failure_points"].append("not a point")
    response["task_verification"]["ambiguity_codes"] = 7
    write_hand_written(tmp_path, json.dumps(response))
    (output,), problems = _outputs(tmp_path)
    messages = [str(p) for p in problems]
    file = f"scores/{JUDGE}.json: gpt_response_text."
    point = f"{file}first_point_of_failure.failure_points"
    assert messages == [
        f"{file}success_criterion is 'majority', not outcome, process or both; ignored",
        f"{file}cp_violation is 'perhaps', not true or false; ignored",
        f"{point}[0].step_numbers 'five' names no steps; shown as written",
        f"{point}[3] is not an object; left out",
        f"{file}task_verification.ambiguity_codes is 7, not a list of codes; ignored",
    ]
    assert output.failure_points[0].step_numbers == "five" and output.failure_points[0].steps == ()
    assert len(output.failure_points) == 3 and output.success_criterion is None


@pytest.mark.parametrize(
    ("written", "steps"),
    [
        ("5", (5,)),
        ("5-7", (5, 6, 7)),
        ("5,8,12", (5, 8, 12)),
        (" 3 , 1 ", (1, 3)),
        (4, (4,)),
        ([2, "4-5"], (2, 4, 5)),
    ],
)
def test_step_numbers(written: object, steps: tuple[int, ...]) -> None:
    assert parse_step_numbers(written) == steps


@pytest.mark.parametrize("written", ["five", "7-5", "1-99999", True, {"a": 1}])
def test_step_numbers_that_name_no_steps(written: object) -> None:
    assert parse_step_numbers(written) is None


def test_codes_are_named_from_the_reference() -> None:
    assert [code_label(c) for c in HAND_WRITTEN_CODES] == [
        "6.4 Fine-grained grounding error",
        "3.2.1 API-sniffing",
        "2.3 Output fabrication",
        "7.1 Underspecified task",
        "7.2 Ambiguous task",
        "8.1 Impossible task",
    ]
    assert code_label("12.9") == "12.9 (not in the taxonomy)"
    assert CriticalPointType.PERMISSION_GRANTED_MISSING_INFO_TASK_UNDERSPECIFIED.words == (
        "permission granted · missing info · task underspecified"
    )


def test_the_run_report_is_found_above_the_trajectory_and_read(tmp_path: Path) -> None:
    folder = tmp_path / "run" / "traj" / "alltrails_find_23"
    folder.mkdir(parents=True)
    report = tmp_path / "run" / "verify_report.jsonl"
    rows = [
        {"status": "ok", "score_path": f"{folder}/scores/{JUDGE}.json", "task_id": "alltrails_find_23",
         "rubric_is_success": 1, "outcome_success": False, "n_actions": 5, "has_failure": True,
         "first_failure_step": 3, "is_ambiguous": False, "ambiguity_codes": [], "is_invalid": False,
         "invalid_task_codes": []},
        {"status": "error", "error": "score file not found", "task_id": "other_7"},
    ]  # fmt: skip
    report.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n")
    assert find_verify_reports(folder, tmp_path) == [report]
    read, problems = read_verify_report(report, "run/verify_report.jsonl")
    assert [str(p) for p in problems] == ["run/verify_report.jsonl:3: is not valid JSON; skipped"]
    ok, error = read.rows
    assert ok.judge == JUDGE and ok.first_failure_step == 3 and ok.rubric_is_success is True
    assert not ok.is_error and error.is_error and error.error == "score file not found"
    assert read.rows_of(folder, "alltrails_find_23") == (ok,)
    assert find_verify_reports(folder, folder) == []  # nothing above the browsed root


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"outcome_reasoning": "", "rubric_outcome_verification": {"reasoning": "in the rubric's check"}},
         "in the rubric's check"),
        ({"outcome_reasoning": "  ", "outcome_verification": {"reasoning": "in an outcome object"}},
         "in an outcome object"),
        ({"rubric_items": [], "rubric_outcome_verification": {"outcome_reasoning": "nested once more"}},
         "nested once more"),
        ({"verifier_success": False, "verifier_reasoning": "short-circuited"}, "short-circuited"),
        ({"outcome_reasoning": "top", "rubric_outcome_verification": {"reasoning": "second"}}, "top"),
        ({"outcome_success": True, "outcome_reasoning": ""}, None),
    ],
)  # fmt: skip
def test_the_outcome_reasoning_is_read_wherever_the_verifier_put_it(
    tmp_path: Path, where: dict[str, object], expected: str | None
) -> None:
    write_hand_written(tmp_path, json.dumps(where))
    (output,), problems = _outputs(tmp_path)
    assert problems == []
    assert output.outcome_reasoning == expected


def test_fara_example_shaped_file_keeps_its_justification_and_verdict(tmp_path: Path) -> None:
    response = json.loads(EXAMPLE_SHAPED_RESPONSE)
    del response["outcome_success"]  # the rubric agent's outcome check is the verdict left
    write_hand_written(tmp_path, json.dumps(response), 1)
    (output,), _ = _outputs(tmp_path)
    assert output.outcome_reasoning == EXAMPLE_SHAPED_REASONING
    assert output.outcome_success is True
