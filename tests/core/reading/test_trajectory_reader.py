"""load_trajectory on built folders: both layouts, outcomes, time, coordinates, bad input."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.harness.builders import (
    FARA_ACTIONS,
    LOCAL_OFFSET,
    START_UTC,
    LogGeneration,
    fara_folder,
    local_time,
    png_bytes,
    record_opens,
    snapshot,
    wav_folder,
    write_core_log,
    write_final_answer,
    write_log,
    write_score,
    write_screenshots,
    write_times,
)
from webeval_core.reading.formats import is_trajectory_folder, layouts
from webeval_core.reading.glance import glance_trajectory
from webeval_core.reading.trajectory_reader import (
    Point,
    Trajectory,
    load_trajectory,
    trajectory_json,
)
from webeval_core.support.diagnostics import UnreadableError


def warning_texts(t: Trajectory) -> list[str]:
    return [str(w) for w in t.warnings]


@pytest.mark.parametrize("generation", ["text", "fara-structured"])
def test_fara_folder_with_fara_naming(tmp_path: Path, generation: LogGeneration) -> None:
    folder = fara_folder(tmp_path, generation=generation)
    t = load_trajectory(folder)
    assert t.warnings == ()
    assert (t.task_id, t.layout, t.outcome, t.log_generation) == (
        "alltrails_find_23",
        "fara",
        "answered",
        generation,
    )
    assert t.final_answer_text == "The longest trail is Half Dome."
    assert t.answer_file == "alltrails_find_23_final_answer.json"
    assert t.screenshots == tuple(f"screenshot{i}.png" for i in range(6))
    assert [s.screenshot for s in t.steps] == [f"screenshot{i}.png" for i in range(5)]
    click = t.steps[1]
    assert click.action == "left_click"
    assert click.point is not None
    assert (round(click.point.x, 2), round(click.point.y, 2)) == (740.17, 82.37)
    assert t.steps[0].point is None
    assert t.steps[2].point == Point(x=720.0, y=450.0)
    assert str(t.coordinate_scaling) == "model 1428x896 -> PNG 1440x900"


def test_solver_folder_with_solver_naming(tmp_path: Path) -> None:
    t = load_trajectory(fara_folder(tmp_path, generation="solver", naming="solver"))
    assert t.warnings == ()
    assert t.log_generation == "solver"
    assert [s.action for s in t.steps] == [
        "visit_url",
        "click",
        "input_text",
        "scroll_down",
        "stop_execution",
    ]
    assert [s.screenshot for s in t.steps] == [f"screenshot_{k}.png" for k in range(1, 6)]
    assert t.steps[1].arguments["element_name"] == "Search"
    assert t.coordinate_scaling is None


def test_points_follow_the_real_png_size(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    (folder / "screenshot1.png").write_bytes(png_bytes(2880, 1800))
    t = load_trajectory(folder)
    assert t.steps[1].point == Point(x=734 * 2880 / 1428, y=82 * 1800 / 896)
    assert t.steps[2].point == Point(x=720.0, y=450.0)
    assert str(t.coordinate_scaling) == "model 1428x896 -> PNG 2880x1800"
    assert warning_texts(t) == [
        (
            "screenshots: screenshots differ in size; each point is scaled to its own screenshot: "
            "model 1428x896 -> PNG 2880x1800; model 1428x896 -> PNG 1440x900"
        )
    ]


def test_utc_offset_is_inferred_from_times_json(tmp_path: Path) -> None:
    t = load_trajectory(fara_folder(tmp_path))
    assert t.utc_offset_s == LOCAL_OFFSET.total_seconds()
    assert t.steps[0].timestamp == local_time(1)
    assert t.steps[0].time_utc == datetime(2025, 11, 14, 13, 35, 15, tzinfo=UTC)
    assert t.times is not None and t.times.start_time == START_UTC.timestamp()
    assert t.duration_s == pytest.approx(178.74)


def test_without_times_json_log_times_are_taken_as_utc(tmp_path: Path) -> None:
    t = load_trajectory(fara_folder(tmp_path, times=False))
    assert t.utc_offset_s == 0.0
    assert t.steps[0].time_utc == local_time(1).replace(tzinfo=UTC)
    assert t.duration_s is None
    assert warning_texts(t) == [
        "web_surfer.log: no start_time in times.json to place its local times; assumed to be UTC",
        (
            "times.json: missing: the task has not returned yet (Fara writes it once the task is over,"
            " and a resume runs a folder without it again); left out of every rate until it does"
        ),
    ]
    assert t.outcome == "unfinished"  # an answer without times.json: Fara's resume runs it again


def test_unreadable_times_json(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    (folder / "times.json").write_text('{"start_time": 17628')
    t = load_trajectory(folder)
    assert t.times is None
    assert warning_texts(t) == [
        "times.json:1: is not valid JSON (Expecting ',' delimiter)",
        "web_surfer.log: no start_time in times.json to place its local times; assumed to be UTC",
    ]


def test_times_json_with_wrong_types(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    (folder / "times.json").write_text('{"start_time": "yesterday"}')
    t = load_trajectory(folder)
    assert t.times is None
    assert warning_texts(t)[0] == (
        "times.json: not understood "
        "(Input should be a valid number, unable to parse string as a number); ignored"
    )


# --- outcomes -----------------------------------------------------------------------------


def test_outcome_no_answer(tmp_path: Path) -> None:
    t = load_trajectory(fara_folder(tmp_path, final_answer="<no_answer>"))
    assert t.outcome == "no_answer"
    assert t.final_answer_text is None
    assert t.final_answer is not None and t.final_answer.final_answer == "<no_answer>"


def test_outcome_aborted_flag_wins_over_an_answer(tmp_path: Path) -> None:
    t = load_trajectory(fara_folder(tmp_path, is_aborted=True))
    assert t.outcome == "aborted"
    assert t.final_answer_text == "The longest trail is Half Dome."


def test_outcome_aborted_without_answer_file(tmp_path: Path) -> None:
    t = load_trajectory(fara_folder(tmp_path, final_answer=None))
    assert t.outcome == "aborted"
    assert t.final_answer is None
    assert t.task_id == "alltrails_find_23"
    assert len(t.steps) == 5
    assert warning_texts(t) == [
        "*_final_answer.json: missing: the run stopped before writing an answer; counted as aborted"
    ]


def test_two_answer_files_pick_the_folder_named_one(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    write_final_answer(folder, "other_task", "<no_answer>")
    t = load_trajectory(folder)
    assert t.answer_file == "alltrails_find_23_final_answer.json"
    assert t.outcome == "answered"
    assert warning_texts(t) == [
        (
            "alltrails_find_23_final_answer.json: 2 answer files (alltrails_find_23_final_answer.json, "
            "other_task_final_answer.json); upstream refuses such folders; using this one"
        )
    ]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("", "t_final_answer.json: is empty"),
        (
            '{"final_answer": "x",\n  "is_aborted": fals}',
            "t_final_answer.json:2: is not valid JSON (Expecting value)",
        ),
        ('["x"]', "t_final_answer.json: is not a JSON object; ignored"),
    ],
)
def test_unusable_answer_file_counts_as_aborted(tmp_path: Path, content: str, expected: str) -> None:
    folder = fara_folder(tmp_path, "t", final_answer=None)
    (folder / "t_final_answer.json").write_text(content)
    t = load_trajectory(folder)
    assert t.outcome == "aborted"
    assert t.task_id == "t"
    assert warning_texts(t) == [expected]


def test_answer_file_tolerates_unknown_keys_and_newer_token_usage(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "t", final_answer=None)
    usage = {
        "FaraAgent": {"prompt_tokens": 100, "completion_tokens": 10, "reasoning_tokens": 5, "num_calls": 2},
        "Verifier": {"prompt_tokens": 7, "completion_tokens": 3, "cached_tokens": 1},
    }
    write_final_answer(folder, "t", token_usage=usage, model_version="fara-7b-2")
    t = load_trajectory(folder)
    assert t.warnings == ()
    assert t.final_answer is not None
    assert t.final_answer.model_extra == {"model_version": "fara-7b-2"}
    total = t.token_usage
    assert (total.prompt_tokens, total.completion_tokens, total.reasoning_tokens, total.num_calls) == (
        107,
        13,
        5,
        2,
    )


def test_answer_fields_of_the_wrong_type_fall_back_to_defaults(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "t", final_answer=None)
    write_final_answer(folder, "t", None, token_usage={"FaraAgent": {"prompt_tokens": "many"}})
    t = load_trajectory(folder)
    assert t.outcome == "no_answer"
    assert t.token_usage.prompt_tokens == 0
    assert len(t.warnings) == 1
    assert t.warnings[0].message.startswith("field(s) final_answer, token_usage not understood")


def test_structured_final_answer_becomes_json_text(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "t", final_answer=None)
    write_final_answer(folder, "t", {"task_type": "RETRIEVE", "status": "SUCCESS"})
    t = load_trajectory(folder)
    assert t.outcome == "answered"
    assert t.final_answer_text is not None
    assert json.loads(t.final_answer_text) == {"task_type": "RETRIEVE", "status": "SUCCESS"}


# --- damaged logs and screenshots ---------------------------------------------------------


def test_empty_log_with_answer(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    write_log(folder, b"")
    t = load_trajectory(folder)
    assert t.steps == ()
    assert t.log_generation is None
    assert t.utc_offset_s is None
    assert t.outcome == "answered"
    assert warning_texts(t) == ["web_surfer.log: is empty: no action was logged"]


def test_damaged_log_keeps_what_it_can(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    lines = (folder / "web_surfer.log").read_bytes().split(b"\n")
    lines.insert(3, b"")
    lines[7] = lines[7].replace(b"Type the park name.", b"Type the \xff park name.")
    (folder / "web_surfer.log").write_bytes(b"\n".join(lines)[:-40])
    t = load_trajectory(folder)
    assert [s.action for s in t.steps] == ["visit_url", "left_click", "type", "scroll", "terminate"]
    assert t.steps[4].observation is None
    assert t.steps[2].thought == "Type the park name."  # the structured line's copy wins
    assert warning_texts(t) == [
        "web_surfer.log:8: invalid UTF-8 bytes on 1 line(s) replaced with U+FFFD",
        "web_surfer.log:16: last line is truncated (the writer probably stopped mid-line); skipped",
        "web_surfer.log:4: 1 blank line(s) skipped",
    ]


def test_missing_and_foreign_screenshots(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "t", final_answer=None)
    (folder / "screenshot2.png").unlink()
    (folder / "screenshot3.png").write_text("not a png")
    write_final_answer(folder, "t", screenshots=["screenshot2.png", "../../etc/passwd", "/etc/passwd"])
    t = load_trajectory(folder)
    assert t.screenshots == ("screenshot0.png", "screenshot1.png", "screenshot4.png", "screenshot5.png")
    assert [s.screenshot for s in t.steps] == [
        "screenshot0.png",
        "screenshot1.png",
        None,
        None,
        "screenshot4.png",
    ]
    assert t.steps[2].point is None
    assert warning_texts(t) == [
        "screenshot3.png: is not a PNG image (or cannot be read); skipped",
        (
            "t_final_answer.json: listed screenshots ../../etc/passwd, /etc/passwd lead outside the "
            "trajectory folder; not opened"
        ),
        "t_final_answer.json: listed screenshots screenshot2.png do not exist",
        "screenshots: no screenshot for action(s) 3, 4",
    ]


def test_no_screenshots_at_all(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    for png in folder.glob("*.png"):
        png.unlink()
    t = load_trajectory(folder)
    assert t.screenshots == ()
    assert warning_texts(t)[-1] == "screenshots: the folder has no screenshots"
    assert all(s.point is None for s in t.steps)


def test_paths_leading_out_are_never_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "frame.png").write_bytes(png_bytes())
    write_log(outside, [])
    (outside / "times.json").write_text("{}")
    folder = tmp_path / "runs" / "t"
    folder.mkdir(parents=True)
    write_final_answer(folder, "t", screenshots=["../../elsewhere/frame.png", str(outside / "frame.png")])
    (folder / "web_surfer.log").symlink_to(outside / "web_surfer.log")
    (folder / "times.json").symlink_to(outside / "times.json")
    (folder / "screenshot0.png").symlink_to(outside / "frame.png")
    opened = record_opens(monkeypatch)
    t = load_trajectory(folder)
    assert not [p for p in opened if p.is_relative_to(outside)]
    assert opened == [(folder / "t_final_answer.json").resolve()]
    assert t.steps == ()
    assert t.screenshots == ()
    texts = warning_texts(t)
    assert "web_surfer.log: is a symlink leading outside the trajectory folder; not opened" in texts
    assert "times.json: is a symlink leading outside the trajectory folder; not opened" in texts
    assert "screenshot0.png: is a symlink leading outside the trajectory folder; not opened" in texts


def test_reading_writes_nothing(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    write_score(folder, "gpt_eval", 1, "SUCCESS")
    write_core_log(folder, "2025-11-10 13:14:35,184 [ERROR] webeval.core.t - Error running task: boom\n")
    before = snapshot(folder)
    load_trajectory(folder)
    load_trajectory(folder)
    assert snapshot(folder) == before


# --- other files ----------------------------------------------------------------------------


def test_scores_core_log_task_data_and_har(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    write_score(folder, "mmrubric_0.8-5-3", 1, json.dumps({"rubric_items": [{"earned_points": 2}]}))
    write_score(folder, "broken", 1, "x")
    (folder / "scores" / "broken.json").write_text("{")
    write_core_log(
        folder,
        "2025-11-10 13:14:35,184 [INFO] webeval.core.t - [Execution t] Start\n"
        "2025-11-10 13:15:01,500 [ERROR] webeval.core.t - Error running task: TimeoutError\n"
        "Traceback (most recent call last):\n"
        "TimeoutError: 30s\n",
    )
    (folder / "task_data.json").write_text(json.dumps({"task_summary": "Find a trail", "actions": []}))
    (folder / "network.har").write_text('{"log": {"entries": []}}')
    t = load_trajectory(folder)
    assert list(t.scores) == ["mmrubric_0.8-5-3"]
    assert t.scores["mmrubric_0.8-5-3"].response == {"rubric_items": [{"earned_points": 2}]}
    assert [(e.line, e.message.splitlines()[-1]) for e in t.error_lines] == [(2, "TimeoutError: 30s")]
    assert t.task_data == {"task_summary": "Find a trail", "actions": []}
    assert t.har_path == folder / "network.har"
    assert warning_texts(t) == [
        "scores/broken.json:1: is not valid JSON (Expecting property name enclosed in double quotes)"
    ]


# --- WebArena-Verified layout ---------------------------------------------------------------


def test_webarena_verified_folder(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, "108", eval_result=True)
    t = load_trajectory(folder)
    assert t.warnings == ()
    assert (t.task_id, t.layout, t.outcome) == ("108", "webarena-verified", "answered")
    assert t.final_answer_text is not None
    assert json.loads(t.final_answer_text)["retrieved_data"] == ["Half Dome"]
    assert t.final_answer is None
    assert t.steps == ()
    assert t.har_path == folder / "network.har"
    assert t.eval_result == json.loads((folder / "eval_result.json").read_text(encoding="utf-8"))


def test_webarena_verified_empty_response(tmp_path: Path) -> None:
    t = load_trajectory(wav_folder(tmp_path, "7", response="\n"))
    assert t.outcome == "no_answer"
    assert t.final_answer_text is None
    assert warning_texts(t) == ["agent_response.json: is empty: the agent gave no response"]


def test_webarena_verified_prose_response_is_kept_raw(tmp_path: Path) -> None:
    text = 'Here you go:\n```json\n{"status": "SUCCESS"}\n```'
    t = load_trajectory(wav_folder(tmp_path, "9", response=text))
    assert t.final_answer_text == text
    assert t.outcome == "answered"


# --- unreadable folders and discovery -------------------------------------------------------


def test_unreadable_folders(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "network.har").write_text("{}")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "t_final_answer.json").write_text("{oops")
    cases = {
        tmp_path / "missing": "the folder does not exist",
        tmp_path / "file.txt": f"this is a file, not a trajectory folder; {layouts()}",
        tmp_path / "network.har": "this is a network trace (HAR), not a trajectory: put it in a task folder"
        f" beside the agent's agent_response.json (that folder is the trajectory); {layouts()}",
        tmp_path / "empty": f"not a trajectory folder; {layouts()}",
        broken: "neither a usable answer file nor a readable web_surfer.log "
        "(t_final_answer.json:1: is not valid JSON (Expecting property name enclosed in double quotes); "
        "web_surfer.log: missing: the trajectory has no steps to show)",
    }
    for path, reason in cases.items():
        with pytest.raises(UnreadableError) as caught:
            load_trajectory(path)
        assert caught.value.reason == reason
        assert caught.value.path == path


def test_is_trajectory_folder(tmp_path: Path) -> None:
    fara = fara_folder(tmp_path / "a")
    wav = wav_folder(tmp_path / "b")
    log_only = tmp_path / "c"
    log_only.mkdir()
    write_log(log_only, [])
    plain = tmp_path / "d"
    plain.mkdir()
    write_screenshots(plain, 1)
    assert [is_trajectory_folder(p) for p in (fara, wav, log_only, plain, tmp_path / "nope")] == [
        True,
        True,
        True,
        False,
        False,
    ]


def test_answer_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    write_final_answer(folder, "t")
    write_times(folder)
    t = load_trajectory(folder)
    assert (t.outcome, t.steps, t.log_generation) == ("answered", (), None)
    assert warning_texts(t) == ["web_surfer.log: missing: the trajectory has no steps to show"]


def test_log_only_folder_is_unfinished_until_its_task_is_over(tmp_path: Path) -> None:
    folder = tmp_path / "x"
    folder.mkdir()
    write_log(folder, [])
    t = load_trajectory(folder)
    assert (t.task_id, t.outcome, t.steps) == ("x", "unfinished", ())
    assert "*_final_answer.json: missing: the task has not finished" in warning_texts(t)[-1]
    # times.json says the task returned without an answer: aborted, as upstream counts it.
    (folder / "times.json").write_text('{"start_time": 1.0, "end_time": 2.0, "duration": 1.0}')
    assert load_trajectory(folder).outcome == "aborted"
    assert glance_trajectory(folder).outcome == "aborted"


def test_a_folder_emptied_by_a_resume_is_unfinished_not_crashed(tmp_path: Path) -> None:
    folder = tmp_path / "traj" / "7"
    folder.mkdir(parents=True)
    log = "2025-11-14 14:21:00,000 [INFO] webeval.core.7 - [Execution 7] Start\n"
    crash = "2025-11-14 14:22:00,000 [ERROR] webeval.core.7 - [Execution 7] Error running task: Timeout\n"
    (folder / "core.log").write_text(log + crash + log)
    t = load_trajectory(folder)
    assert (t.outcome, t.crash_reason) == ("unfinished", None)
    assert glance_trajectory(folder).outcome == "unfinished"
    (folder / "core.log").write_text(log + crash + log + crash)  # the new attempt crashed too
    assert load_trajectory(folder).outcome == glance_trajectory(folder).outcome == "aborted"


# --- JSON for `webeval show --json` ---------------------------------------------------------


def test_trajectory_json(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    write_score(folder, "mmrubric_0.8-5-3", 1, json.dumps({"is_success": 1}))
    write_score(folder, "gpt_eval", 0, "NOT SUCCESS")
    data = json.loads(json.dumps(trajectory_json(load_trajectory(folder))))
    assert data["task_id"] == "alltrails_find_23"
    assert data["layout"] == "fara"
    assert data["outcome"] == "answered"
    assert data["final_answer"] == "The longest trail is Half Dome."
    assert data["log_generation"] == "fara-structured"
    assert len(data["steps"]) == len(FARA_ACTIONS)
    click = data["steps"][1]
    assert click["index"] == 2
    assert click["action"] == "left_click"
    assert click["arguments"] == {"action": "left_click", "coordinate": [734, 82]}
    assert click["thought"] == "Click the search box."
    assert click["url"] == "https://www.alltrails.com/"
    assert click["timestamp"] == local_time(2).isoformat()
    assert click["screenshot"] == "screenshot1.png"
    assert click["point"] == {"x": pytest.approx(740.168, abs=1e-3), "y": pytest.approx(82.366, abs=1e-3)}
    assert data["screenshots"][0] == "screenshot0.png"
    assert data["token_usage"]["prompt_tokens"] == 23383
    assert data["scores"] == {
        "gpt_eval": {"score": 0.0, "response": "NOT SUCCESS"},
        "mmrubric_0.8-5-3": {"score": 1.0, "response": {"is_success": 1}},
    }
    assert data["warnings"] == []
    assert data["coordinate_scaling"] == "model 1428x896 -> PNG 1440x900"
    assert data["core_log_errors"] == []
    assert data["path"] == str(folder)
