"""Online-Mind2Web result folders of both generations, read as WebJudge reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from webeval_core.reading import load_trajectory
from webeval_core.reading.glance import glance_trajectory
from webeval_core.support.diagnostics import UnreadableError

TASK = "Find a pet-friendly hotel in Lisbon for two adults."


def _result(folder: Path, content: dict[str, Any], shots: list[str]) -> Path:
    """A task folder as Online-Mind2Web's runners leave it: result.json and trajectory/."""
    (folder / "trajectory").mkdir(parents=True)
    for name in shots:
        Image.new("RGB", (40, 30), "white").save(folder / "trajectory" / name)
    (folder / "result.json").write_text(json.dumps(content))
    return folder


def _v2(folder: Path, answer: Any = "Hotel Avenida, 120 EUR a night") -> Path:
    history = [
        {"action": "TYPE: Lisbon", "thought": "I type the city.", "screenshot": "0.png"},
        {"action": "CLICK: Search", "thought": "I search.", "screenshot": "1.png"},
        {"action": "ANSWER", "thought": "I found it.", "screenshot": "2.png"},
    ]
    content = {
        "schema_version": "online-mind2web-v2",
        "task": TASK,
        "action_history": history,
        "agent_final_answer": answer,
    }
    return _result(folder, content, ["0.png", "1.png", "2.png"])


def test_the_second_generation(tmp_path: Path) -> None:
    folder = _v2(tmp_path / "results" / "a1b2c3")
    t = load_trajectory(folder)
    assert (t.layout, t.task_id, t.outcome) == ("online-mind2web", "a1b2c3", "answered")
    assert [(s.index, s.action, s.thought, s.screenshot) for s in t.steps] == [
        (1, "TYPE", "I type the city.", "trajectory/0.png"),
        (2, "CLICK", "I search.", "trajectory/1.png"),
        (3, "ANSWER", "I found it.", "trajectory/2.png"),
    ]
    assert t.steps[0].arguments == {"action": "TYPE: Lisbon"}
    assert t.final_answer_text == "Hotel Avenida, 120 EUR a night"
    assert t.task_text is not None and t.task_text.text == TASK
    assert t.harness is not None and "leaves the last action out" in t.harness.notes[0]
    g = glance_trajectory(folder)
    assert (g.task_id, g.outcome, g.steps, g.screenshots, g.task_text) == ("a1b2c3", "answered", 3, 3, TASK)


def test_the_first_generation_orders_screenshots_by_their_number(tmp_path: Path) -> None:
    content = {
        "task": TASK,
        "action_history": ["<input> Lisbon -> TYPE", "<button> Search -> CLICK"],
        "thoughts": ["type", "click"],
        "final_result_response": "",
    }
    folder = _result(tmp_path / "t9", content, ["10_full_screenshot.png", "2_full_screenshot.png"])
    t = load_trajectory(folder)
    assert t.outcome == "no_answer"
    assert [s.screenshot for s in t.steps] == [
        "trajectory/2_full_screenshot.png",
        "trajectory/10_full_screenshot.png",
    ]
    assert t.steps[1].thought == "click"
    assert t.screenshots == ("trajectory/2_full_screenshot.png", "trajectory/10_full_screenshot.png")


def test_an_answer_given_as_a_list_is_kept_and_warned_of(tmp_path: Path) -> None:
    folder = _v2(tmp_path / "x", answer=["Hotel Avenida"])
    t = load_trajectory(folder)
    assert t.final_answer_text == '["Hotel Avenida"]'
    assert any(w.file == "result.json" and "not a string" in w.message for w in t.warnings)


@pytest.mark.parametrize(
    ("content", "expected"),
    [("{broken", "result.json"), ("[1]", "result.json"), ('{"other": 1}', "not an Online-Mind2Web result")],
)
def test_malformed_results_are_unreadable_with_the_file_named(
    tmp_path: Path, content: str, expected: str
) -> None:
    folder = tmp_path / "task"
    (folder / "trajectory").mkdir(parents=True)
    (folder / "result.json").write_text(content)
    for read in (load_trajectory, glance_trajectory):
        with pytest.raises(UnreadableError, match=expected):
            read(folder)


def test_broken_entries_and_missing_screenshots_are_warnings(tmp_path: Path) -> None:
    content = {
        "schema_version": "online-mind2web-v2",
        "task": TASK,
        "action_history": [{"thought": "no action"}, {"action": "CLICK: x", "screenshot": "9.png"}],
    }
    folder = _result(tmp_path / "t", content, [])
    t = load_trajectory(folder)
    assert len(t.steps) == 1 and t.steps[0].screenshot is None
    assert any("action_history[0]" in w.message for w in t.warnings)
    assert any("9.png" in str(w) for w in t.warnings), t.warnings
