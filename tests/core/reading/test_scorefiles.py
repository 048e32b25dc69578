"""scores/*.json: scores, decoded judge responses, and unusable files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harness.builders import write_score
from webeval_core.reading.scorefiles import read_score_files

RUBRIC = {
    "is_success": 1,
    "success_criterion": "outcome",
    "outcome_success": True,
    "rubric_items": [{"criterion": "Find the trail", "max_points": 2, "earned_points": 2}],
}


def test_scores_and_decoded_responses(tmp_path: Path) -> None:
    write_score(tmp_path, "mmrubric_0.8-5-3", 1, json.dumps(RUBRIC))
    write_score(tmp_path, "gpt_eval", 0.0, "Thoughts: the agent failed.\nNOT SUCCESS")
    write_score(tmp_path, "WebJudge_Online_Mind2Web_eval-3", 1.0, RUBRIC)
    scores, problems = read_score_files(tmp_path)
    assert problems == []
    assert list(scores) == ["WebJudge_Online_Mind2Web_eval-3", "gpt_eval", "mmrubric_0.8-5-3"]
    rubric = scores["mmrubric_0.8-5-3"]
    assert rubric.score == 1.0
    assert isinstance(rubric.response, dict)
    assert rubric.response["rubric_items"][0]["earned_points"] == 2
    assert rubric.response_text == json.dumps(RUBRIC)
    assert rubric.path == tmp_path / "scores" / "mmrubric_0.8-5-3.json"
    judge = scores["gpt_eval"]
    assert (judge.score, judge.response) == (0.0, None)
    assert judge.response_text is not None and judge.response_text.endswith("NOT SUCCESS")
    assert scores["WebJudge_Online_Mind2Web_eval-3"].response == RUBRIC


def test_text_that_looks_like_json_but_is_not(tmp_path: Path) -> None:
    write_score(tmp_path, "j", 1, "{not json}")
    scores, problems = read_score_files(tmp_path)
    assert problems == []
    assert (scores["j"].response_text, scores["j"].response) == ("{not json}", None)


def test_unusable_score_files_are_reported(tmp_path: Path) -> None:
    write_score(tmp_path, "no_score", None, "text")
    write_score(tmp_path, "text_score", "high", "text")
    (tmp_path / "scores" / "empty.json").write_text("")
    (tmp_path / "scores" / "broken.json").write_text('{"score": 1,\n "gpt_response_text": "x"')
    (tmp_path / "scores" / "list.json").write_text("[1]")
    outside = tmp_path.parent / f"{tmp_path.name}_outside.json"
    outside.write_text('{"score": 1}')
    (tmp_path / "scores" / "linked.json").symlink_to(outside)
    scores, problems = read_score_files(tmp_path)
    assert sorted(scores) == ["no_score", "text_score"]
    assert scores["no_score"].score is None
    assert scores["text_score"].score is None
    assert [str(p) for p in problems] == [
        "scores/broken.json:2: is not valid JSON (Expecting ',' delimiter)",
        "scores/empty.json: is empty",
        "scores/linked.json: is a symlink leading outside the trajectory folder; not opened",
        "scores/list.json: is not a JSON object; skipped",
        "scores/no_score.json: has no score",
        "scores/text_score.json: score 'high' is not a number",
    ]


def test_no_scores_folder(tmp_path: Path) -> None:
    assert read_score_files(tmp_path) == ({}, [])
