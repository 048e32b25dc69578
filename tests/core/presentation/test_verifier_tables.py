"""The verifier's output as tables: the hand-written Universal Verifier file shows every field,
each code named; an older file shows what it holds; a run report's differences are named."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from tests.harness.builders import write_score
from tests.harness.verifier_files import (
    HAND_WRITTEN_CODES,
    HAND_WRITTEN_RESPONSE,
    JUDGE,
    OLDER_RESPONSE,
    strings_of,
    write_hand_written,
)
from webeval_core.presentation.verifier_tables import (
    FAILURE_COLUMNS,
    ReportDifference,
    critical_point_text,
    failure_points_table,
    flagged_steps,
    report_differences,
    report_rows_table,
    rubric_items_table,
    score_text,
    task_verification_table,
    verdicts_table,
)
from webeval_core.reading.scorefiles import read_score_files
from webeval_core.reading.taxonomy import code_label
from webeval_core.reading.verifier import VerifierOutput, verifier_outputs
from webeval_core.reading.verifyreport import VerifyReportRow, read_verify_report


def _output(folder: Path) -> VerifierOutput:
    (output,), _ = verifier_outputs(read_score_files(folder)[0])
    return output


def _cells(*tables: pd.DataFrame | None) -> str:
    return "\n".join(str(v) for t in tables if t is not None for v in t.to_numpy().ravel())


def test_every_field_of_the_hand_written_file_is_shown_with_codes_named(tmp_path: Path) -> None:
    write_hand_written(tmp_path)
    output = _output(tmp_path)
    tables = (
        verdicts_table(output),
        failure_points_table(output),
        task_verification_table(output),
        rubric_items_table(output),
    )
    shown = "\n".join([_cells(*tables), score_text(output), critical_point_text(output) or ""])
    response = json.loads(HAND_WRITTEN_RESPONSE)
    missing = [
        s
        for s in strings_of(response)
        if s not in shown and s != "both"  # the criterion: in score_text
    ]
    # Two texts are shown elsewhere on the page: the primary intent and the failure reasoning.
    assert missing == [response["outcome_primary_intent"], response["first_point_of_failure"]["reasoning"]]
    for code in HAND_WRITTEN_CODES:
        assert code_label(code) in shown
    assert "decided by both verdicts, ANDed (success_criterion: both)" in shown
    assert critical_point_text(output) == (
        "critical point: NO_PERMISSION_INFO_PROVIDED_TASK_SPECIFIED"
        " (no permission · info provided · task specified) · violated"
    )


def test_verdicts_side_by_side() -> None:
    output = VerifierOutput(
        judge=JUDGE, file="f", score=0.0, success_criterion="process", outcome_success=True,
        rubric_is_success=False, rubric_earned_points=2.5, rubric_max_points=5, outcome_reasoning="fine",
    )  # fmt: skip
    assert verdicts_table(output).values.tolist() == [
        ["outcome", "achieved", "", "no", "fine"],
        ["rubric (process)", "failed", "2.5 / 5", "yes", ""],
    ]


def test_failure_points_open_at_their_first_step(tmp_path: Path) -> None:
    write_hand_written(tmp_path)
    table = failure_points_table(_output(tmp_path))
    assert list(table.columns) == list(FAILURE_COLUMNS)
    assert table["steps"].tolist() == ["2", "3-4", "2,5"]
    assert table["step"].tolist() == [2, 3, 2]
    assert table["code"].tolist() == [
        "6.4 Fine-grained grounding error",
        "3.2.1 API-sniffing",
        "2.3 Output fabrication",
    ]


def test_flagged_steps_name_judge_and_code(tmp_path: Path) -> None:
    write_hand_written(tmp_path)
    flags = flagged_steps([_output(tmp_path)])
    assert list(flags) == [2, 3, 4, 5]
    assert [(f.judge, f.code) for f in flags[2]] == [
        (JUDGE, "6.4 Fine-grained grounding error"),
        (JUDGE, "2.3 Output fabrication"),
    ]


def test_an_older_file_shows_what_it_holds(tmp_path: Path) -> None:
    write_score(tmp_path, JUDGE, 0, OLDER_RESPONSE)
    output = _output(tmp_path)
    assert score_text(output) == "score 0 · the file does not say which verdict decided it"
    assert critical_point_text(output) is None and task_verification_table(output) is None
    assert failure_points_table(output).empty
    assert verdicts_table(output)["points"].tolist() == ["", "0.5 / 5"]


def test_a_report_row_that_disagrees_is_named_field_by_field(tmp_path: Path) -> None:
    write_hand_written(tmp_path)
    output = _output(tmp_path)
    row = VerifyReportRow(
        line=1, status="ok", score_path=f"x/scores/{JUDGE}.json", outcome_success=False,
        rubric_is_success=True, first_failure_step=3, is_ambiguous=True, ambiguity_codes=("7.2",),
        has_failure=True,
    )  # fmt: skip
    assert report_differences(row, [output]) == (
        ReportDifference(JUDGE, "rubric_is_success", "yes", "no"),
        ReportDifference(JUDGE, "first_failure_step", "3", "2"),
        ReportDifference(JUDGE, "ambiguity_codes", "7.2 Ambiguous task", "7.1 Underspecified task"),
    )
    error = VerifyReportRow(line=2, status="error", error="timeout")
    assert report_differences(error, [output]) == ()
    table = report_rows_table([row, error])
    assert table["status"].tolist() == ["ok", "error"] and table["error"].tolist() == ["", "timeout"]
    assert table["task codes"].tolist() == ["7.2 Ambiguous task", ""]


# A verify_report.jsonl written by hand from shared/reference/fara-verifier-output.md: an ok row
# holding every field the reference lists (the trajectory's identity included), then an error row.
HAND_WRITTEN_REPORT = r"""
{"task_id": "alltrails_find_23", "folder": "/data/runs/WebTailBench_hf/0/traj/alltrails_find_23", "status": "ok", "score_path": "/data/runs/WebTailBench_hf/0/traj/alltrails_find_23/scores/mmrubric_0.8-5-3.json", "rubric_score": 0.5, "rubric_total_max_points": 5, "rubric_total_earned_points": 2.5, "rubric_is_success": 0, "outcome_success": false, "n_actions": 6, "has_failure": true, "first_failure_step": 2, "is_ambiguous": true, "ambiguity_codes": ["7.1"], "is_invalid": true, "invalid_task_codes": ["8.1", "8.5"]}
{"task_id": "alltrails_find_24", "status": "error: rubric agent failed", "error": "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"}
"""  # noqa: E501


def test_every_field_of_a_hand_written_report_row_is_shown_with_codes_named(tmp_path: Path) -> None:
    path = tmp_path / "verify_report.jsonl"
    path.write_text(HAND_WRITTEN_REPORT.lstrip(), encoding="utf-8")
    report, problems = read_verify_report(path)
    assert problems == []
    table = report_rows_table(report.rows)
    ok, error = (dict(zip(table.columns, row, strict=True)) for row in table.itertuples(index=False))
    assert {k: v for k, v in ok.items() if k != "score file"} == {
        "line": 1, "status": "ok", "error": "", "task": "alltrails_find_23", "outcome": "not achieved",
        "rubric": "failed", "points": "2.5 / 5", "rubric score": "0.5", "actions": 6, "has failure": "yes",
        "first failure step": 2, "ambiguous": "yes", "invalid": "yes",
        "task codes": "7.1 Underspecified task, 8.1 Impossible task, 8.5 Unsafe task",
    }  # fmt: skip
    assert ok["score file"].endswith("alltrails_find_23/scores/mmrubric_0.8-5-3.json")
    assert (error["status"], error["error"], error["task"]) == (
        "error: rubric agent failed",
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "alltrails_find_24",
    )
    # The error row answers nothing: no verdict, points or count is made up for it.
    assert (error["outcome"], error["points"], error["rubric score"]) == ("not said", "", "")
    assert pd.isna(error["actions"]) and pd.isna(error["first failure step"])
