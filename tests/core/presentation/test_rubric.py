"""A rubric judge's verdict: items, points, reasoning, first point of failure, taxonomy flags."""

from __future__ import annotations

from webeval_core.presentation.rubric import judge_verdict, rubric_table_in

RESPONSE = {
    "is_success": 0,
    "success_criterion": "outcome",
    "outcome_success": False,
    "outcome_reasoning": "The grid shows 6 records but the agent answered 5.",
    "rubric_items": [
        {
            "criterion": "Find",
            "description": "Open reviews",
            "max_points": 2,
            "earned_points": 2,
            "justification": "ok",
        },
        {
            "criterion": "Count",
            "description": "Answer",
            "max_points": 5,
            "earned_points": 0.5,
            "justification": "5 != 6",
        },
    ],
    "rubric_outcome_verification": {"details": {"first_point_of_failure": {"step": 4, "reason": "miscount"}}},
    "is_ambiguous": False,
    "invalid_task_codes": [],
    "rubric_majority_vote_metadata": {"votes": [1, 0, 0]},
}


def test_items_read_as_criterion_points_and_justification() -> None:
    table = rubric_table_in(RESPONSE)
    assert table is not None
    assert table.values.tolist() == [
        ["Find", "Open reviews", "2 / 2", "ok"],
        ["Count", "Answer", "0.5 / 5", "5 != 6"],
    ]
    assert rubric_table_in({"verifier_success": False}) is None


def test_verdict_finds_nested_fields_and_sums_points() -> None:
    verdict = judge_verdict(RESPONSE, {"did_web_surfing_fail": True, "encountered_captcha": False})
    assert verdict.outcome_success is False and verdict.success_criterion == "outcome"
    assert verdict.outcome_reasoning == "The grid shows 6 records but the agent answered 5."
    assert verdict.first_point_of_failure == '{"step": 4, "reason": "miscount"}'
    assert verdict.points == (2.5, 7.0)  # no totals written: the items' sums
    assert verdict.taxonomy == (("did_web_surfing_fail", "yes"),)  # false and empty flags are not raised
    assert verdict.majority_vote == {"votes": [1, 0, 0]}


def test_a_short_circuited_verdict_keeps_its_reason() -> None:
    verdict = judge_verdict(
        {"verifier_reasoning": 'The last action must be "terminate".', "verifier_success": False}
    )
    assert verdict.outcome_reasoning == 'The last action must be "terminate".'
    assert verdict.outcome_success is False and verdict.points is None and verdict.taxonomy == ()
