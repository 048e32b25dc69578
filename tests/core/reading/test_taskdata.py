"""Task text from task_data.json (WebTailBench, or benchmark rows of that shape), with its source."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder
from webeval_core.reading.taskdata import task_text_of
from webeval_core.reading.trajectory_reader import load_trajectory


def test_the_most_faithful_key_wins_and_is_named() -> None:
    data = {"task_summary": "Find a trail.", "task_proposal": "  Find the longest trail in Yosemite.  "}
    found = task_text_of(data)
    assert found is not None
    assert (found.text, found.source) == (
        "Find the longest trail in Yosemite.",
        "task_data.json: task_proposal",
    )
    assert (
        task_text_of({"ques": "Find a recipe", "task": ""}, "WebVoyager.jsonl").source
        == "WebVoyager.jsonl: ques"
    )
    assert task_text_of({"confirmed_task": "Book a flight"}).source == "task_data.json: confirmed_task"
    assert task_text_of({"task_summary": "Summary only"}).source == "task_data.json: task_summary"
    assert task_text_of({"task_type": "shopping", "actions": []}) is None
    assert task_text_of(None) is None


def test_a_webtailbench_folder_carries_its_task_to_show_json(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path / "traj", "alltrails_find_23")
    (folder / "task_data.json").write_text(
        json.dumps(
            {"task_proposal": "Find the longest trail.", "task_summary": "trails", "rubric_score": 0.5}
        )
    )
    trajectory = load_trajectory(folder)
    assert trajectory.task_text is not None and trajectory.task_text.text == "Find the longest trail."
    code, out = run_cli("show", str(folder), "--json")
    assert code == 0
    assert json.loads(out)["task_text"] == {
        "text": "Find the longest trail.",
        "source": "task_data.json: task_proposal",
    }
    assert load_trajectory(fara_folder(tmp_path / "bare", "x")).task_text is None
