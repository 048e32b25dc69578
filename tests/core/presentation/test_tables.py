"""explain: official results, network checks and evidence flattened into the tables views show."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from tests.harness.builders import fara_folder, write_final_answer
from tests.harness.har_builders import GITLAB, asset, document, write_har, xhr
from webeval_core.presentation import tables as ex
from webeval_core.reading.corelog import CoreLogLine
from webeval_core.reading.network import read_har
from webeval_core.reading.response import parse_agent_response
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory
from webeval_core.review.annotations import Annotation
from webeval_core.scoring import (
    Candidate,
    EvaluatorResult,
    FieldDiff,
    NetworkCheckTrace,
    ScoreOutcome,
    TaskResult,
)

EXPECTED = {"task_type": "retrieve", "status": "success", "retrieved_data": ["quest lumaflex band"]}


def response_result(*assertions: dict[str, Any], actual: Any = None) -> EvaluatorResult:
    """An AgentResponseEvaluator result as the official evaluator writes it."""
    normalized = {"retrieved_data": ["wrong band"], "task_type": "retrieve", "status": "success"}
    return EvaluatorResult.model_validate(
        {
            "evaluator_name": "AgentResponseEvaluator",
            "status": "failure" if any(a["status"] != "success" for a in assertions) else "success",
            "score": 0.0 if any(a["status"] != "success" for a in assertions) else 1.0,
            "actual": actual,
            "actual_normalized": normalized,
            "expected": EXPECTED,
            "assertions": list(assertions),
        }
    )


def evaluator(**fields: Any) -> EvaluatorResult:
    """A response evaluator's result with only the given fields."""
    return EvaluatorResult.model_validate(
        {"evaluator_name": "AgentResponseEvaluator", "status": "failure", **fields}
    )


def failed(name: str, *msgs: str) -> dict[str, Any]:
    return {"assertion_name": name, "status": "failure", "assertion_msgs": list(msgs) or None}


def official(status: str, score: float, *evaluators: EvaluatorResult) -> TaskResult:
    return TaskResult.model_validate({"status": status, "score": score, "evaluators_results": evaluators})


def network_result(status: str) -> EvaluatorResult:
    return EvaluatorResult.model_validate(
        {"evaluator_name": "NetworkEventEvaluator", "status": status, "score": float(status == "success")}
    )


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows with every missing value (None, NaN, pd.NA: pandas picks by dtype) as None."""
    return frame.astype(object).where(frame.notna(), None).to_dict("records")


def trajectory(**fields: Any) -> Trajectory:
    return Trajectory(path=Path("/r/t"), task_id="0", layout="fara", outcome="answered", **fields)


# --- the agent's response -------------------------------------------------------------------


def test_field_table_marks_the_field_a_failed_assertion_names() -> None:
    agent = {"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": ["Wrong band"]}
    result = response_result(failed("retrieved_data_array_values_mismatch", "Missing: 1"), actual=agent)
    table = ex.field_table(result, ex.agent_fields(result, None))
    assert list(table.columns) == ex.FIELD_COLUMNS
    by_field = table.set_index("field")
    assert by_field["match"].to_dict() == {"task_type": "✓", "status": "✓", "retrieved_data": "✗"}
    assert by_field.loc["retrieved_data", "expected"] == '["quest lumaflex band"]'
    assert by_field.loc["retrieved_data", "agent, normalized"] == '["wrong band"]'
    assert by_field.loc["retrieved_data", "agent"] == '["Wrong band"]'
    assert by_field.loc["status", "agent"] == '"SUCCESS"'


def test_field_table_leaves_fields_in_doubt_when_a_failure_names_none() -> None:
    # unparseable: nothing was normalized
    result = response_result(failed("agent_response_invalid_format")).model_copy(
        update={"actual_normalized": None}
    )
    table = ex.field_table(result, {})
    assert table["field"].tolist() == ["task_type", "status", "retrieved_data"]
    assert set(table["match"]) == {"?"}
    assert set(table["agent, normalized"]) == {""}


def test_field_table_of_a_passing_result_is_all_matches() -> None:
    result = response_result({"assertion_name": "retrieved_data_array_values_mismatch", "status": "success"})
    assert set(ex.field_table(result, {})["match"]) == {"✓"}


def test_agent_fields_prefer_the_evaluators_actual_then_the_parsed_response() -> None:
    text = 'Done.\n{"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": ["x"]}'
    response = parse_agent_response(text)
    given = {"task_type": "NAVIGATE"}
    assert ex.agent_fields(evaluator(actual=given), response) == given
    # the evaluator was given text: its `actual` is that text, the parsed fields stand in
    assert ex.agent_fields(evaluator(actual=text), response)["retrieved_data"] == ["x"]
    assert ex.agent_fields(evaluator(actual="no json"), parse_agent_response("no json")) == {}
    assert ex.agent_fields(evaluator(), None) == {}


def test_response_field_table_finds_the_response_evaluator() -> None:
    result = response_result(failed("agent_response.status_mismatch"), actual={"status": "FAILURE"})
    table = ex.response_field_table(official("failure", 0.0, network_result("success"), result), None)
    assert table is not None
    assert table.set_index("field")["match"].to_dict() == {
        "task_type": "✓",
        "status": "✗",
        "retrieved_data": "✓",
    }
    assert ex.response_field_table(official("success", 1.0, network_result("success")), None) is None


def test_assertion_table_numbers_evaluators_and_joins_messages() -> None:
    response = response_result(failed("retrieved_data_array_values_mismatch", "Missing: 1", "Extra: 1"))
    network = EvaluatorResult.model_validate(
        {
            "evaluator_name": "NetworkEventEvaluator",
            "status": "error",
            "assertions": [
                {"assertion_name": "missing_navigation_event", "status": "error", "error_msg": "boom"}
            ],
        }
    )
    table = ex.assertion_table([network_result("success"), response, network])
    assert table.to_dict("records") == [
        {
            "evaluator": "1: AgentResponseEvaluator",
            "assertion": "retrieved_data_array_values_mismatch",
            "status": "failure",
            "messages": "Missing: 1\nExtra: 1",
        },
        {
            "evaluator": "2: NetworkEventEvaluator",
            "assertion": "missing_navigation_event",
            "status": "error",
            "messages": "boom",
        },
    ]
    assert list(ex.assertion_table([]).columns) == ex.ASSERTION_COLUMNS


def test_editable_response_starts_from_the_agents_answer_or_a_template() -> None:
    one_line = '{"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": ["é"]}'
    assert ex.editable_response(one_line, "retrieve") == json.dumps(
        json.loads(one_line), indent=2, ensure_ascii=False
    )
    in_prose = f"I found it: {one_line}"
    assert ex.editable_response(in_prose, "retrieve") == in_prose  # the agent's own words stay
    assert json.loads(ex.editable_response(None, "navigate")) == {
        "task_type": "NAVIGATE",
        "status": "SUCCESS",
        "retrieved_data": None,
    }


# --- re-scoring -----------------------------------------------------------------------------


def test_evaluator_rows_key_each_evaluator_by_position() -> None:
    result = official("failure", 0.0, network_result("success"), network_result("failure"))
    assert ex.evaluator_rows(result) == {
        "task": ("failure", 0.0),
        "0: NetworkEventEvaluator": ("success", 1.0),
        "1: NetworkEventEvaluator": ("failure", 0.0),
    }
    assert ex.evaluator_rows(None) == {}


def test_before_after_flags_what_changed() -> None:
    response = response_result(failed("retrieved_data_array_values_mismatch"))
    before = official("failure", 0.0, response)
    after = official("success", 1.0, response_result(), network_result("success"))
    table = ex.before_after(before, after)
    assert list(table.columns) == ex.BEFORE_AFTER_COLUMNS
    rows = {r["evaluator"]: r for r in table.to_dict("records")}
    assert list(rows) == ["task", "0: AgentResponseEvaluator", "1: NetworkEventEvaluator"]
    assert rows["task"] == {
        "evaluator": "task",
        "before": "failure",
        "before score": 0.0,
        "after": "success",
        "after score": 1.0,
        "changed": True,
    }
    assert rows["0: AgentResponseEvaluator"]["changed"] is True
    network = rows["1: NetworkEventEvaluator"]
    assert pd.isna(network["before"]) and pd.isna(network["before score"])
    assert network["after"] == "success" and network["changed"] is True
    same = ex.before_after(before, before)
    assert not same["changed"].any()


def test_before_after_without_a_stored_verdict_lists_only_the_new_one() -> None:
    table = ex.before_after(None, official("success", 1.0, network_result("success")))
    assert table["evaluator"].tolist() == ["task", "0: NetworkEventEvaluator"]
    assert table["changed"].tolist() == [True, True]
    assert ex.before_after(None, None).empty


def test_stored_result_prefers_the_official_score_file_over_eval_result(tmp_path: Path) -> None:
    result = official("failure", 0.0, response_result(failed("retrieved_data_array_values_mismatch")))
    cli = official("success", 1.0, network_result("success"))
    path = tmp_path / "wav.json"
    path.write_text("{}")
    ours = ScoreFile(
        name="webarena-verified-1",
        path=path,
        score=0.0,
        response={"engine": {"name": "webarena-verified"}, "result": result.model_dump(mode="json")},
    )
    judge = ScoreFile(name="gpt_eval", path=path, score=1.0, response={"is_success": True})
    assert ex.stored_result(
        trajectory(
            scores={"webarena-verified-1": ours, "gpt_eval": judge}, eval_result=cli.model_dump(mode="json")
        )
    ) == (
        "webarena-verified-1",
        result,
    )
    assert ex.stored_result(
        trajectory(scores={"gpt_eval": judge}, eval_result=cli.model_dump(mode="json"))
    ) == (
        "eval_result.json",
        cli,
    )
    assert ex.stored_result(trajectory(scores={"gpt_eval": judge})) == (None, None)


def test_outcome_table_has_a_row_per_trajectory() -> None:
    outcomes = [
        ScoreOutcome(path=Path("/r/1"), task_id="1", status="success", score=1.0, reused=True),
        ScoreOutcome(path=Path("/r/2"), task_id="2", status="excluded", reason="not in the catalog"),
    ]
    assert records(ex.outcome_table(outcomes)) == [
        {"task": "1", "status": "success", "score": 1.0, "reused": True, "reason": None},
        {"task": "2", "status": "excluded", "score": None, "reused": False, "reason": "not in the catalog"},
    ]


# --- network --------------------------------------------------------------------------------


def test_request_table_places_each_request_in_its_step(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)  # steps begin at 5, 15, 25, … seconds
    har = read_har(
        write_har(
            folder / "network.har",
            [
                document(f"{GITLAB}/", at=1),
                xhr(f"{GITLAB}/api/search", method="POST", status=201, at=17.25),
                asset(f"{GITLAB}/app.js", at=26),
            ],
        )
    )
    table = ex.request_table(har, load_trajectory(folder).steps)
    assert table["step"].tolist() == [pd.NA, 2, 3]
    assert table["entry"].tolist() == [0, 1, 2]
    assert table["+s"].tolist() == [0.0, 16.25, 25.0]
    assert table["time (UTC)"].tolist() == ["13:35:11.000", "13:35:27.250", "13:35:36.000"]
    assert table["method"].tolist() == ["GET", "POST", "GET"]
    assert table["status"].tolist() == [200, 201, 200]
    assert table["type"].tolist()[0] == "document"
    assert str(table["step"].dtype) == "Int64" and str(table["status"].dtype) == "Int64"


def test_request_table_without_steps_has_no_step_numbers(tmp_path: Path) -> None:
    har = read_har(write_har(tmp_path / "network.har", [document(f"{GITLAB}/", at=3)]))
    assert ex.request_table(har, ())["step"].isna().all()


def test_candidate_tables_show_the_kept_request_and_its_fields() -> None:
    kept = Candidate(
        har_index=4,
        started=None,
        method="POST",
        url=f"{GITLAB}/api/issues",
        status=201,
        step=3,
        is_document=False,
        kept=True,
        matched=False,
        fields=(
            FieldDiff(field="url", expected="/api/issues", actual="/api/issues", matches=True),
            FieldDiff(
                field="post_data.title", expected="Bug", actual="bug?", matches=False, message="differs"
            ),
        ),
    )
    skipped = kept.model_copy(
        update={"har_index": 2, "step": None, "kept": False, "matched": None, "fields": ()}
    )
    trace = NetworkCheckTrace(
        position=1,
        expected_url=f"{GITLAB}/api/issues",
        http_method="POST",
        last_event_only=True,
        should_not_exist=False,
        considered=7,
        candidates=(skipped, kept),
        kept=(4,),
        matched=None,
        passed=False,
        official_status="failure",
        navigate_last_document_only=False,
        explanation="the kept request differs",
    )
    table = ex.candidate_table(trace)
    assert records(table[["entry", "step", "kept", "matched"]]) == [
        {"entry": 2, "step": None, "kept": False, "matched": None},
        {"entry": 4, "step": 3, "kept": True, "matched": False},
    ]
    fields = ex.candidate_field_table(kept)
    assert fields.to_dict("records") == [
        {"field": "url", "match": "✓", "expected": '"/api/issues"', "actual": '"/api/issues"', "message": ""},
        {
            "field": "post_data.title",
            "match": "✗",
            "expected": '"Bug"',
            "actual": '"bug?"',
            "message": "differs",
        },
    ]


# --- evidence -------------------------------------------------------------------------------


def test_judge_tables_show_rubric_items_and_verdict_fields() -> None:
    response = {
        "rubric_items": [{"criterion": "found the trail", "score": 1}],
        "is_success": False,
        "outcome_reasoning": "wrong trail",
        "other": "ignored",
    }
    rubric = ex.rubric_table(response)
    assert rubric is not None and rubric.to_dict("records") == [{"criterion": "found the trail", "score": 1}]
    verdict = ex.verdict_field_table(response)
    assert verdict is not None
    assert verdict.to_dict("records") == [
        {"field": "is_success", "value": "false"},
        {"field": "outcome_reasoning", "value": '"wrong trail"'},
    ]
    assert ex.rubric_table({"rubric_items": "none"}) is None
    assert ex.verdict_field_table({"result": {}}) is None


def test_core_log_table_keeps_line_numbers() -> None:
    lines = [
        CoreLogLine(
            line=1, time=datetime(2025, 11, 14, 14, 35, 10), level="INFO", logger="core", message="go"
        ),
        CoreLogLine(line=3, message="continued"),
    ]
    local = "2025-11-14 14:35:10 (local time, zone unknown)"  # no offset inferred: said so
    assert records(ex.core_log_table(lines)) == [
        {"line": 1, "time": local, "level": "INFO", "logger": "core", "message": "go"},
        {"line": 3, "time": None, "level": None, "logger": None, "message": "continued"},
    ]
    # The run's offset known (log local time 8 h behind UTC): the same time as the Replay writes it.
    assert records(ex.core_log_table(lines, -8 * 3600))[0]["time"] == "2025-11-14 22:35:10 UTC"
    assert list(ex.core_log_table([]).columns) == ex.CORE_LOG_COLUMNS


def test_token_usage_table_adds_the_total(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    usage = {"FaraAgent": {"prompt_tokens": 100, "completion_tokens": 10}, "Verifier": {"prompt_tokens": 7}}
    write_final_answer(folder, "alltrails_find_23", token_usage=usage)
    table = ex.token_usage_table(load_trajectory(folder))
    assert table is not None
    assert table.index.tolist() == ["FaraAgent", "Verifier", "total"]
    assert table.loc["total", "prompt_tokens"] == 107 and table.loc["total", "completion_tokens"] == 10
    assert ex.token_usage_table(trajectory()) is None


def test_annotation_table_lists_newest_first_and_which_judged_the_current_verdict() -> None:
    common = {"run": "r", "task_id": "0", "reviewer": "ann", "stage": "blind"}
    older = Annotation(
        **common, outcome="success", verdict_source="v1", created=datetime(2026, 1, 1, tzinfo=UTC)
    )
    newer = Annotation(
        **common, outcome="unsure", verdict_source="v2", created=datetime(2026, 1, 2, tzinfo=UTC)
    )
    table = ex.annotation_table([older, newer], "v2")
    assert table["outcome"].tolist() == ["unsure", "success"]
    assert table["judged current verdict"].tolist() == [True, False]
    assert "run" not in table.columns and "task_id" not in table.columns
    assert ex.annotation_table([], None).empty


def test_a_list_that_failed_is_diffed_element_by_element(tmp_path: Path) -> None:
    """Four months right, one count wrong: the diff names the missing element and the extra one."""
    from tests.harness.har_builders import response_text
    from tests.harness.har_builders import wav_folder as agent_log
    from webeval_core.scoring import score_trajectory

    months = [["Jan", 12], ["Feb", 7], ["March", 5], ["April", 9], ["May", 6]]  # May was 5
    answer = response_text("retrieve", data=[{"month": m, "count": c} for m, c in months])
    outcome = score_trajectory(agent_log(tmp_path, 108, answer, []), config_root=tmp_path)
    assert outcome.status == "failure" and outcome.evaluation is not None
    (field, elements), *_ = ex.element_tables(outcome.evaluation.result).items()
    assert field == "retrieved_data"
    assert elements["in"].tolist() == [ex.FOUND] * 4 + [ex.MISSING, ex.EXTRA]
    assert '"May"' in elements["element"].iloc[4] and "5" in elements["element"].iloc[4]
    assert '"count": 6' in elements["element"].iloc[5]
