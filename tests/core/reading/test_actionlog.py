"""web_surfer.log parsing: the three generations, and every kind of damage real logs show."""

from __future__ import annotations

import json
import random

import pytest

from tests.harness.builders import (
    FARA_ACTIONS,
    SOLVER_ACTIONS,
    Act,
    LogGeneration,
    local_time,
    log_lines,
    observation_line,
    solver_lines,
    structured_line,
    text_action_line,
)
from webeval_core.reading.actionlog import ActionLog, count_steps, logged_coordinate, parse_action_log


def parse(lines: list[str]) -> ActionLog:
    return parse_action_log("".join(f"{line}\n" for line in lines).encode())


def messages(log: ActionLog) -> list[tuple[int | None, str]]:
    return [(d.line, d.message) for d in log.diagnostics]


def test_text_generation() -> None:
    log = parse(log_lines("text", FARA_ACTIONS))
    assert log.generation == "text"
    assert log.diagnostics == ()
    assert [s.action for s in log.steps] == ["visit_url", "left_click", "type", "scroll", "terminate"]
    assert [s.index for s in log.steps] == [1, 2, 3, 4, 5]
    assert [s.log_line for s in log.steps] == [1, 3, 5, 7, 9]
    click = log.steps[1]
    assert click.arguments == {"action": "left_click", "coordinate": [734, 82]}
    assert click.thought == "Click the search box."
    assert click.observation == "I clicked at coordinates (740.17, 82.37)."
    assert click.timestamp == local_time(2)
    assert click.url is None
    assert log.steps[2].typed_text == "Yosemite"
    assert log.steps[3].scroll == "down"
    assert log.first_time == local_time(1)


def test_fara_structured_generation() -> None:
    log = parse(log_lines("fara-structured", FARA_ACTIONS))
    assert log.generation == "fara-structured"
    assert log.diagnostics == ()
    assert [s.action for s in log.steps] == ["visit_url", "left_click", "type", "scroll", "terminate"]
    assert [s.log_line for s in log.steps] == [2, 5, 8, 11, 14]
    click = log.steps[1]
    assert "thoughts" not in click.arguments
    assert click.arguments == {"action": "left_click", "coordinate": [734, 82]}
    assert click.thought == "Click the search box."
    assert click.url == "https://www.alltrails.com/"
    assert click.observation == "I clicked at coordinates (740.17, 82.37)."
    assert log.steps[-1].observation == "The longest trail is Half Dome."


def test_structured_line_missing_is_rebuilt_from_its_text_line() -> None:
    lines = log_lines("fara-structured", FARA_ACTIONS)
    del lines[4]  # the structured line of action 2
    log = parse(lines)
    assert [s.action for s in log.steps] == ["visit_url", "left_click", "type", "scroll", "terminate"]
    assert log.steps[1].log_line == 4
    assert log.steps[1].observation == "I clicked at coordinates (740.17, 82.37)."
    assert messages(log) == [(4, "action #2 has no structured line; step rebuilt from this text line")]


def test_computer_use_without_inner_action_is_kept_and_reported() -> None:
    line = json.loads(structured_line(1, FARA_ACTIONS[0]))
    del line["arguments"]["action"]
    log = parse([json.dumps(line)])
    assert [s.action for s in log.steps] == ["computer_use"]
    assert messages(log) == [(1, "computer_use line has no arguments.action; kept as 'computer_use'")]


def test_solver_generation_merges_summarized_companions() -> None:
    log = parse(log_lines("solver", SOLVER_ACTIONS))
    assert log.generation == "solver"
    assert log.diagnostics == ()
    assert [s.action for s in log.steps] == [
        "visit_url",
        "click",
        "input_text",
        "scroll_down",
        "stop_execution",
    ]
    assert [s.log_line for s in log.steps] == [1, 3, 5, 7, 9]
    assert log.steps[1].arguments == {"target_id": 12, "element_name": "Search"}
    assert log.steps[2].typed_text == "Yosemite"
    assert log.steps[3].scroll == "down"
    assert log.steps[0].url == "about:blank"


def test_solver_companion_before_its_action_and_mismatched_companion() -> None:
    first, first_summary = solver_lines(1, SOLVER_ACTIONS[1])
    second, _ = solver_lines(2, SOLVER_ACTIONS[2])
    wrong = json.loads(first_summary)
    wrong["message"] = "Action 2: URL=https://x.org/, visit_url({'url': 'https://x.org/'})"
    log = parse([first_summary, first, second, json.dumps(wrong)])
    assert len(log.steps) == 2
    assert log.steps[0].arguments == {"target_id": 12, "element_name": "Search"}
    assert messages(log) == [
        (4, "summarized action 'visit_url' does not match the action 'input_text'; not merged")
    ]


def test_python_repr_arguments_are_read_and_reported() -> None:
    act = FARA_ACTIONS[2]
    line = text_action_line(1, act, "{'action': 'type', 'text': 'Yosemite', 'press_enter': True, 'x': None}")
    log = parse([line, observation_line(1, act)])
    assert log.steps[0].arguments == {"action": "type", "text": "Yosemite", "press_enter": True, "x": None}
    assert log.steps[0].typed_text == "Yosemite"
    assert messages(log) == [
        (1, "action arguments are a Python literal, not JSON; read with ast.literal_eval")
    ]


def test_text_after_the_last_brace_is_ignored_and_reported() -> None:
    act = FARA_ACTIONS[1]
    line = text_action_line(1, act, '{"action": "left_click", "coordinate": [734, 82]} (retry 2)')
    log = parse([line])
    assert log.steps[0].arguments == {"action": "left_click", "coordinate": [734, 82]}
    assert messages(log) == [(1, "text after the action arguments ignored: '(retry 2)'")]


def test_python_repr_with_trailing_braces_in_text() -> None:
    line = text_action_line(1, FARA_ACTIONS[1], "{'action': 'left_click', 'coordinate': (734, 82)} {oops}")
    log = parse([line])
    assert log.steps[0].arguments == {"action": "left_click", "coordinate": (734, 82)}
    assert [m for _, m in messages(log)] == [
        "action arguments are a Python literal, not JSON; read with ast.literal_eval",
        "text after the action arguments ignored: '{oops}'",
    ]
    assert logged_coordinate(log.steps[0].arguments) == (734.0, 82.0)


def test_unreadable_arguments_keep_the_step() -> None:
    log = parse([text_action_line(1, FARA_ACTIONS[1], "{action: left_click")])
    assert [(s.action, s.arguments) for s in log.steps] == [("left_click", {})]
    assert messages(log) == [
        (1, "action arguments are neither JSON nor a Python literal; kept with no arguments")
    ]


def test_blank_lines_are_skipped_and_reported() -> None:
    lines = log_lines("fara-structured", FARA_ACTIONS[:2])
    lines[2:2] = ["", "   "]
    log = parse(lines)
    assert len(log.steps) == 2
    assert messages(log) == [(3, "2 blank line(s) skipped")]


def test_truncated_last_line() -> None:
    lines = log_lines("fara-structured", FARA_ACTIONS[:2])
    data = ("".join(f"{line}\n" for line in lines) + lines[-1][:37]).encode()
    log = parse_action_log(data)
    assert len(log.steps) == 2
    assert messages(log) == [(7, "last line is truncated (the writer probably stopped mid-line); skipped")]


def test_a_broken_line_in_the_middle() -> None:
    lines = log_lines("text", FARA_ACTIONS[:2])
    lines.insert(1, '{"message": "Observation#1: cut')
    log = parse(lines)
    assert len(log.steps) == 2
    assert messages(log) == [(2, "is not valid JSON; skipped")]


def test_traceback_lines_after_a_json_line() -> None:
    lines = log_lines("fara-structured", FARA_ACTIONS[:2])
    traceback = [
        "Traceback (most recent call last):",
        '  File "fara_agent.py", line 415, in run',
        "    await self.execute_action(function_call)",
        "playwright._impl._errors.TimeoutError: Timeout 30000ms exceeded.",
    ]
    log = parse(lines[:3] + traceback + lines[3:])
    assert [s.action for s in log.steps] == ["visit_url", "left_click"]
    assert messages(log) == [
        (
            4,
            (
                "lines 4-7: a Python traceback ending "
                "'playwright._impl._errors.TimeoutError: Timeout 30000ms exceeded.'; skipped"
            ),
        )
    ]


def test_traceback_on_the_same_line_as_json() -> None:
    lines = log_lines("text", FARA_ACTIONS[:1])
    lines[1] += "Traceback (most recent call last):"
    log = parse([*lines, '  File "x.py", line 1', "ValueError: boom"])
    assert len(log.steps) == 1
    assert log.steps[0].observation == FARA_ACTIONS[0].observation
    assert messages(log) == [
        (2, "text after the JSON object ignored: 'Traceback (most recent call last):'"),
        (3, "lines 3-4: text that is not JSON: 'File \"x.py\", line 1'; skipped"),
    ]


def test_non_utf8_bytes() -> None:
    lines = log_lines("text", FARA_ACTIONS[:2])
    data = "".join(f"{line}\n" for line in lines).encode()
    data = data.replace(b"Click the search box.", b"Click the \xe9\xff box.")
    log = parse_action_log(data)
    assert len(log.steps) == 2
    assert log.steps[1].thought == "Click the \ufffd\ufffd box."
    assert messages(log) == [(3, "invalid UTF-8 bytes on 1 line(s) replaced with U+FFFD")]


def test_empty_log() -> None:
    log = parse_action_log(b"")
    assert log.steps == ()
    assert log.generation is None
    assert log.first_time is None
    assert messages(log) == [(None, "is empty: no action was logged")]


def test_log_without_actions() -> None:
    log = parse(['{"message": "Connected", "timestamp": "2025-11-14T14:35:15", "type": "OtherEvent"}'])
    assert log.steps == ()
    assert log.first_time is not None
    assert messages(log) == [(None, "1 line(s) but no agent action")]


def test_json_that_is_not_an_object_and_bad_timestamps() -> None:
    lines = log_lines("text", FARA_ACTIONS[:1])
    bad_time = json.loads(lines[1])
    bad_time["timestamp"] = "yesterday"
    log = parse(["{}", lines[0], "[1, 2]", json.dumps(bad_time)])
    assert len(log.steps) == 1
    assert log.steps[0].observation == FARA_ACTIONS[0].observation
    assert messages(log) == [
        (3, "is JSON but not an object; skipped"),
        (4, "timestamp 'yesterday' not understood"),
    ]


def test_observation_without_an_action() -> None:
    log = parse([observation_line(1, FARA_ACTIONS[0])])
    assert log.steps == ()
    assert (1, "observation #1 belongs to no logged action; skipped") in messages(log)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"pixels": 500}, "up"),
        ({"pixels": -1}, "down"),
        ({"pixels": 0}, None),
        ({"direction": "up"}, "up"),
        ({}, None),
    ],
)
def test_scroll_direction(args: dict[str, object], expected: str | None) -> None:
    log = parse([text_action_line(1, Act("scroll", args))])
    assert log.steps[0].scroll == expected


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"coordinate": [1, 2.5]}, (1.0, 2.5)),
        ({"coordinate": [True, 2]}, None),
        ({"coordinate": [1, 2, 3]}, None),
        ({"coordinate": "1,2"}, None),
        ({}, None),
    ],
)
def test_logged_coordinate(arguments: dict[str, object], expected: tuple[float, float] | None) -> None:
    assert logged_coordinate(arguments) == expected


def test_thought_mentioning_an_action_number() -> None:
    act = Act("left_click", {"coordinate": [1, 2]}, thought="Action #5 looked wrong; try again.")
    log = parse([text_action_line(1, act)])
    assert [(s.action, s.thought) for s in log.steps] == [
        ("left_click", "Action #5 looked wrong; try again.")
    ]


def test_absurd_lines_do_not_raise() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    huge_number = "Observation#" + "9" * 5000 + ": x"
    log = parse([deep, json.dumps({"message": huge_number}), text_action_line(1, FARA_ACTIONS[0], deep)])
    assert [s.action for s in log.steps] == ["visit_url"]
    assert log.steps[0].arguments == {}
    assert messages(log)[0] == (1, "is not valid JSON; skipped")


def test_solver_companion_without_arguments() -> None:
    action, summary = solver_lines(1, Act("history_back", {}))
    companion = json.loads(summary)
    companion["message"] = "Action 1: URL=https://www.alltrails.com/, history_back()"
    log = parse([action, json.dumps(companion)])
    assert [(s.action, s.arguments) for s in log.steps] == [("history_back", {})]
    assert log.diagnostics == ()


def test_solver_reasoning_in_arguments_becomes_the_thought() -> None:
    acts = [
        Act("click", {"target_id": 3, "reasoning": "The search box is at the top."}),
        Act(
            "input_text",
            {
                "input_field_id": 5,
                "text_value": "x",
                "state_description": "Home page.",
                "reasoning": "Type it.",
            },
        ),
        Act("scroll_down", {}),
    ]
    steps = parse(log_lines("solver", acts)).steps
    assert [(s.thought, s.thought_from_arguments) for s in steps] == [
        ("The search box is at the top.", True),
        ("state_description: Home page.\n\nreasoning: Type it.", True),
        (None, False),
    ]
    assert steps[0].arguments["reasoning"] == "The search box is at the top."  # arguments stay as logged
    logged = parse(
        log_lines("fara-structured", [Act("left_click", {"coordinate": [1, 2], "reasoning": "r"})])
    )
    assert (logged.steps[0].thought, logged.steps[0].thought_from_arguments) == (
        "I should continue with the task.",
        False,
    )


def _mutations(rng: random.Random, lines: list[str]) -> list[str]:
    """`lines` damaged as real logs are (and worse): lost, repeated, reordered, cut, renamed lines."""
    lines = list(lines)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(lines))
        kind = rng.randrange(9)
        if kind == 0 and len(lines) > 1:
            del lines[at]
        elif kind == 1:
            lines.insert(at, lines[at])
        elif kind == 2 and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        elif kind == 3:
            lines[at] = lines[at][: rng.randrange(len(lines[at]))]
        elif kind == 4:
            lines.insert(at, rng.choice(["", "Traceback (most recent call last):", '{"a": NaN}', "[1, 2]"]))
        elif kind == 5:
            lines[at] = lines[at].replace("Observation#", f"Observation#{rng.randint(0, 9)}", 1)
        elif kind == 6:
            lines[at] = lines[at].replace("executing tool '", "executing tool 'x", 1)
        elif kind == 7:
            lines[at] = lines[at].replace('"action": "', '"action": "computer_use", "was": "', 1)
        else:
            lines[at] = lines[at] + rng.choice([" trailing", "} {}", "\udcff"])
    return lines


@pytest.mark.parametrize("generation", ["text", "fara-structured", "solver"])
def test_count_steps_equals_the_parsed_steps_on_damaged_logs(generation: LogGeneration) -> None:
    rng = random.Random(f"count-{generation}")
    actions = SOLVER_ACTIONS if generation == "solver" else FARA_ACTIONS
    mixed = log_lines("fara-structured", FARA_ACTIONS) + log_lines("text", FARA_ACTIONS)
    counts = set()
    for case in range(400):
        source = mixed if case % 10 == 0 else log_lines(generation, actions)
        data = "\n".join(_mutations(rng, source)).encode("utf-8", errors="surrogateescape")
        expected = len(parse_action_log(data).steps)
        assert count_steps(data) == expected, (case, data)
        counts.add(expected)
    assert len(counts) > 3  # the damage did change the steps, so the counts were really compared


def test_count_steps_of_nothing_and_of_a_binary_file() -> None:
    assert count_steps(b"") == len(parse_action_log(b"").steps) == 0
    blob = bytes(range(256)) * 4
    assert count_steps(blob) == len(parse_action_log(blob).steps) == 0
