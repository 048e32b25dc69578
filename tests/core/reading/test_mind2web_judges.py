"""Online-Mind2Web's own evaluation output (`*_auto_eval_results.json`, as its `src/run.py` appends
it) read as judges of the result folders it judged: the verdict in the index and on the page, the
key points and screenshot scores kept, judges of two models apart, malformed lines named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.harness.mind2web_writer import Judged, autoeval_name, write_autoeval, write_result
from webeval_core.reading import load_trajectory
from webeval_core.reading.glance import glance_trajectory
from webeval_core.reading.mind2web_judges import autoeval_records, judge_name
from webeval_core.runs import available_judges, build_index

JUDGE = "webjudge-online-mind2web-o4-mini"


def _results(root: Path) -> Path:
    results = root / "seeact"
    write_result(results, "a1", ["TYPE: Lisbon", "CLICK: Search", "ANSWER"], "Hotel Avenida")
    write_result(results, "b2", ["CLICK: Deals", "ANSWER"], "No deal found")
    return results


def test_the_verdicts_of_the_output_beside_the_results_are_each_tasks_judge(tmp_path: Path) -> None:
    results = _results(tmp_path)
    judged = [Judged("a1", True, image_scores=(2, 4, 5)), Judged("b2", False, image_scores=(1, 3))]
    write_autoeval(results, tmp_path / "seeact_result", judged)
    a1, b2 = load_trajectory(results / "a1"), load_trajectory(results / "b2")
    assert (a1.scores[JUDGE].score, b2.scores[JUDGE].score) == (1.0, 0.0)
    assert (
        a1.scores[JUDGE].response_text
        == 'Thoughts: The agent reached the page that holds the answer.\nStatus: "success"'
    )
    assert glance_trajectory(results / "a1").scores[JUDGE].score == 1.0
    ((record,), problems) = autoeval_records(results / "a1")
    assert problems == []
    assert (record.judge, record.mode, record.model, record.threshold, record.line) == (
        JUDGE, "WebJudge_Online_Mind2Web_eval", "o4-mini", 3, 1
    )  # fmt: skip
    assert record.file == f"../../seeact_result/{autoeval_name()}"
    assert record.key_points == "1. Find the answer the task asks for."
    assert [(i.position, i.score) for i in record.images] == [(1, 2), (2, 4), (3, 5)]
    assert "Score: 4" in record.images[1].response
    assert record.input_text is not None and record.input_text.startswith("User Task:")
    index = build_index(tmp_path)
    assert JUDGE in available_judges(index)
    assert {s.task_id: s.scores[JUDGE] for s in index.summaries} == {"a1": 1.0, "b2": 0.0}


def test_judges_of_two_models_and_thresholds_stay_apart(tmp_path: Path) -> None:
    results = _results(tmp_path)
    write_autoeval(results, results, [Judged("a1", True)])  # `--output_path` the results folder
    write_autoeval(results, results / "a1", [Judged("a1", False)], mode="WebVoyager_eval", model="gpt-4o")
    scores = load_trajectory(results / "a1").scores
    assert {n: s.score for n, s in scores.items()} == {JUDGE: 1.0, "webvoyager-online-mind2web-gpt-4o": 0.0}
    assert judge_name("WebJudge_Online_Mind2Web_eval", "o4-mini", 4) == f"{JUDGE}-threshold-4"
    assert "b2" not in {r.task_id for r in autoeval_records(results / "b2")[0]}  # judged nothing of b2


def test_a_later_line_of_a_task_is_its_verdict(tmp_path: Path) -> None:
    results = _results(tmp_path)
    write_autoeval(results, results, [Judged("a1", False)])
    write_autoeval(results, results, [Judged("a1", True)])
    assert load_trajectory(results / "a1").scores[JUDGE].score == 1.0


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"predicted_label": "yes"}, 'predicted_label is "yes", not 0 or 1'),
        ({"predicted_label": None}, "predicted_label is missing"),
        ({"image_judge_record": "5"}, "image_judge_record is not a list"),
        ({"image_judge_record": [{"Score": "high"}]}, "image_judge_record[0].Score is not a score"),
        ({"key_points": ["a", "b"]}, "key_points is a list, not text"),
    ],
)
def test_a_malformed_field_is_a_warning_naming_file_line_and_field(
    tmp_path: Path, change: dict[str, object], said: str
) -> None:
    results = _results(tmp_path)
    path = write_autoeval(results, results, [Judged("a1", True), Judged("b2", True)])
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([json.dumps(json.loads(lines[0]) | change), lines[1]]) + "\n", encoding="utf-8")
    a1 = load_trajectory(results / "a1")
    assert any(w.file == f"../{path.name}" and w.line == 1 and said in w.message for w in a1.warnings)
    assert glance_trajectory(results / "a1").warnings == a1.warnings  # same problems, no traceback
    assert load_trajectory(results / "b2").warnings == ()  # another task's line is not its problem


def test_lines_that_judge_no_task_are_named_and_skipped(tmp_path: Path) -> None:
    results = _results(tmp_path)
    path = write_autoeval(results, results, [Judged("a1", True)])
    path.write_text(path.read_text(encoding="utf-8") + "{cut off\n[1, 2]\n", encoding="utf-8")
    t = load_trajectory(results / "a1")
    assert t.scores[JUDGE].score == 1.0
    said = {(w.line, w.message) for w in t.warnings}
    assert (2, "is not valid JSON; skipped") in said, said
    assert (3, "is not a judged task (a JSON object with a task_id); skipped") in said, said


def test_an_unreadable_output_file_is_a_warning(tmp_path: Path) -> None:
    results = _results(tmp_path)
    path = write_autoeval(results, results, [Judged("a1", True)])
    path.write_bytes(b"\xff\xfe" + path.read_bytes())  # bad bytes before the first line
    t = load_trajectory(results / "a1")
    assert any(w.file == f"../{path.name}" for w in t.warnings), t.warnings
