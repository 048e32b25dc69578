"""cube-harness episodes read as trajectories: msgpack + zstd steps, status.json for the index,
the experiment as the run, running episodes unfinished, malformed files named, the screenshots
kept inside the step files shown (read from them in memory, within the decompression bound) and
counted by the index, the final answer read from the last act file's submit_response."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
import zstandard
from PIL import Image

from tests.harness.builders import snapshot
from tests.harness.cube_writer import (
    SCREENSHOT_SIZE,
    CubeStep,
    screenshot,
    submit,
    write_episode,
    write_status,
)
from webeval_core.presentation.overlay import render_overlay
from webeval_core.reading import cube_reader, image_complete, load_trajectory, read_image_bytes
from webeval_core.reading.folderfiles import NotReadableFileError
from webeval_core.reading.glance import glance_trajectory
from webeval_core.reading.harness_record import harness_judge
from webeval_core.reading.screenshots import png_size
from webeval_core.runs import build_index
from webeval_core.support.diagnostics import UnreadableError

STEPS = [
    CubeStep("click", {"bid": "a51"}, thoughts="I open the orders.", observation="Orders page"),
    CubeStep("final_step", {}, thoughts="Done.", observation="Task finished", reward=1.0, done=True),
]


def test_an_episode_reads_its_steps_thoughts_observations_and_messages(tmp_path: Path) -> None:
    folder = write_episode(tmp_path / "exp", "webarena_verified.27", STEPS)
    t = load_trajectory(folder)
    assert (t.layout, t.task_id, t.outcome) == ("cube-harness", "27", "answered")
    assert [(s.index, s.action, s.arguments, s.thought) for s in t.steps] == [
        (1, "click", {"bid": "a51"}, "I open the orders."),
        (2, "final_step", {}, "Done."),
    ]
    assert t.steps[0].observation is not None and "Orders page" in t.steps[0].observation
    assert t.task_text is not None and "Goal: find the order." in t.task_text.text
    record = t.harness
    assert record is not None and record.reward == 1.0 and record.agent == "genny"
    last = record.step(2)
    assert last is not None and last.reward == 1.0
    assert [m.role for m in last.messages] == ["system", "user", "assistant"]
    assert record.stats["embedded_images"] == 3
    assert t.scores[harness_judge("cube-harness")].score == 1.0
    assert t.duration_s == 100.0  # status.json's ended_at - started_at (the list said "unknown")


def test_the_glance_reads_status_json_and_the_experiment_is_the_run(tmp_path: Path) -> None:
    write_episode(tmp_path / "exp", "webarena_verified.27", STEPS)
    write_episode(tmp_path / "exp", "webarena_verified.28", STEPS[:1], status="RUNNING", reward=None)
    index = build_index(tmp_path)
    assert [run.key for run in index.runs] == ["exp"]
    rows = {s.task_id: s for s in index.summaries}
    assert (rows["27"].layout, rows["27"].outcome, rows["27"].steps) == ("cube-harness", "answered", 2)
    assert rows["27"].scores == {harness_judge("cube-harness"): 1.0}
    assert rows["28"].outcome == "unfinished"
    assert (rows["27"].duration_s, rows["28"].duration_s) == (100.0, None)  # still running: no end yet


@pytest.mark.parametrize(
    ("status", "outcome"),
    [("MAX_STEPS_REACHED", "no_answer"), ("FAILED", "aborted"), ("QUEUED", "unfinished")],
)
def test_statuses(tmp_path: Path, status: str, outcome: str) -> None:
    folder = write_episode(tmp_path, "t", STEPS, status=status, failure="Traceback\nValueError: boom")
    t = load_trajectory(folder)
    assert t.outcome == glance_trajectory(folder).outcome == outcome
    assert t.harness is not None and t.harness.error_message == "boom"
    assert t.harness.stack_trace is not None and "ValueError" in t.harness.stack_trace


def test_malformed_step_files_are_named_and_the_rest_read(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, "t", STEPS)
    (folder / "steps" / "001_act.msgpack.zst").write_bytes(b"not zstd")
    (folder / "steps" / "003_act.msgpack.zst").write_bytes(zstandard.ZstdCompressor().compress(b"\xc1"))
    t = load_trajectory(folder)
    named = {w.file for w in t.warnings}
    assert {"steps/001_act.msgpack.zst", "steps/003_act.msgpack.zst"} <= named
    assert t.steps == ()


@pytest.mark.parametrize("content", ["{broken", "[1]"])
def test_a_broken_status_is_unreadable_with_the_file_named(tmp_path: Path, content: str) -> None:
    folder = write_episode(tmp_path, "t", STEPS)
    (folder / "status.json").write_text(content)
    for read in (load_trajectory, glance_trajectory):
        with pytest.raises(UnreadableError, match=r"status\.json"):
            read(folder)


def test_screenshots_kept_in_the_step_files_are_the_replay_s_frames(tmp_path: Path) -> None:
    # Each observation's image is a frame named `<step file>#<n>`; an action is drawn on the page
    # it was taken on (the observation before it); the bytes are those cube-harness kept.
    folder = write_episode(tmp_path / "exp", "webarena_verified.27", STEPS)
    before = snapshot(folder)
    t = load_trajectory(folder)
    assert t.screenshots == (
        "steps/000_obs.msgpack.zst#0",
        "steps/002_obs.msgpack.zst#0",
        "steps/004_obs.msgpack.zst#0",
    )
    assert [s.screenshot for s in t.steps] == list(t.screenshots[:2])
    assert read_image_bytes(folder / t.screenshots[1], folder) == screenshot(2)
    assert png_size(folder / t.screenshots[1]) == SCREENSHOT_SIZE
    assert image_complete(folder / t.screenshots[0])
    # The overlay draws it as any frame, with the action's mark; the bundle reads it too.
    plain = Image.open(io.BytesIO(screenshot(0))).convert("RGB")
    drawn = Image.open(io.BytesIO(render_overlay(folder / t.screenshots[0], (300.0, 250.0), "click")))
    assert drawn.size == SCREENSHOT_SIZE
    assert drawn.getpixel((300, 250)) != plain.getpixel((300, 250)) and drawn.getpixel(
        (5, 5)
    ) == plain.getpixel((5, 5))
    assert snapshot(folder) == before  # nothing written into the folder


def test_an_embedded_frame_that_is_not_there_is_a_clear_error(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, "t", STEPS)
    with pytest.raises(NotReadableFileError, match=r"names image 3, and 002_obs\.msgpack\.zst holds 1"):
        read_image_bytes(folder / "steps/002_obs.msgpack.zst#3", folder)
    with pytest.raises(NotReadableFileError, match="outside"):
        read_image_bytes(tmp_path / "elsewhere.msgpack.zst#0", folder)
    (folder / "steps" / "002_obs.msgpack.zst").write_bytes(b"not zstd")
    with pytest.raises(NotReadableFileError, match="cannot be read as a cube-harness step"):
        read_image_bytes(folder / "steps/002_obs.msgpack.zst#0", folder)
    with pytest.raises(UnreadableError, match="not a readable image"):
        render_overlay(folder / "steps/002_obs.msgpack.zst#0", None, None)
    assert not image_complete(folder / "steps/002_obs.msgpack.zst#0")


def test_a_step_file_decompresses_within_its_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_episode(tmp_path, "t", STEPS)
    monkeypatch.setattr(cube_reader, "STEP_READ_LIMIT", 100)  # the real bound is 128 MB
    with pytest.raises(NotReadableFileError, match="decompresses to more than"):
        read_image_bytes(folder / "steps/004_obs.msgpack.zst#0", folder)
    t = load_trajectory(folder)
    assert t.screenshots == () and any("decompresses to more than" in w.message for w in t.warnings)


# --- the final answer: the last act file's submit_response (webarena_verified_cube's tool) ---------

RESPONSE = {"task_type": "retrieve", "status": "success", "retrieved_data": [6]}
"""submit_response's arguments as an agent gives them (the tool upper-cases the two names)."""
ANSWER = {"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": [6], "error_details": None}
"""The FinalAgentResponse the tool builds of them, which the task's evaluator scores."""


def _answered(root: Path, task: str = "webarena_verified.11", **kwargs: object) -> Path:
    steps = [STEPS[0], submit(RESPONSE, thoughts="I submit the count.", reward=1.0)]
    return write_episode(root, task, steps, **kwargs)  # type: ignore[arg-type]


def test_the_final_answer_is_the_last_act_s_submit_response_in_the_load_the_glance_and_the_list(
    tmp_path: Path,
) -> None:
    folder = _answered(tmp_path / "exp")
    t = load_trajectory(folder)
    assert t.outcome == "answered" and t.final_answer_text is not None
    assert json.loads(t.final_answer_text) == ANSWER
    assert [(s.action, s.arguments) for s in t.steps][-1] == ("submit_response", RESPONSE)
    glance = glance_trajectory(folder)
    assert glance.final_answer_text == t.final_answer_text and glance.warnings == ()
    (row,) = build_index(tmp_path).summaries
    assert row.final_answer == t.final_answer_text
    # An episode that ends without submitting (another benchmark's, or one given up) has no answer.
    other = write_episode(tmp_path / "other", "miniwob.click-test", STEPS)
    assert load_trajectory(other).final_answer_text is None is glance_trajectory(other).final_answer_text


def test_the_glance_counts_the_screenshots_of_the_observation_files(tmp_path: Path) -> None:
    folder = write_episode(tmp_path / "exp", "webarena_verified.27", STEPS)
    t = load_trajectory(folder)
    assert glance_trajectory(folder).screenshots == len(t.screenshots) == 3
    running = write_episode(
        tmp_path / "exp", "webarena_verified.28", STEPS[:1], status="RUNNING", reward=None
    )
    assert glance_trajectory(running).screenshots == len(load_trajectory(running).screenshots) == 2
    rows = {s.task_id: s.screenshots for s in build_index(tmp_path).summaries}
    assert rows == {"27": 3, "28": 2}


def _not_a_map() -> bytes:
    return zstandard.ZstdCompressor().compress(b"\x93\x01\x02\x03")  # msgpack [1, 2, 3]


def _arguments_as_text() -> bytes:
    import msgpack

    step = {"output": {"actions": [{"name": "submit_response", "arguments": "RETRIEVE [6]"}]}}
    return zstandard.ZstdCompressor().compress(msgpack.packb(step))


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (lambda: b"not zstd", "cannot be read as a cube-harness step"),
        (lambda: zstandard.ZstdCompressor().compress(b"\xc1"), "cannot be read as a cube-harness step"),
        # the load decodes the whole step, the glance walks it: either says it is no step
        (_not_a_map, "cannot be read as a cube-harness step|holds no step output"),
        (lambda: zstandard.ZstdCompressor().compress(b"\x80"), "holds no step output"),  # {}
        (_arguments_as_text, "arguments are not an object"),
    ],
)
def test_a_malformed_final_act_is_named_and_gives_no_answer(tmp_path: Path, content, said: str) -> None:
    folder = _answered(tmp_path / "exp")
    (folder / "steps" / "003_act.msgpack.zst").write_bytes(content())
    for read in (load_trajectory, glance_trajectory):
        found = read(folder)
        assert found.final_answer_text is None, read
        assert [w.message for w in found.warnings if w.file == "steps/003_act.msgpack.zst"], read
        assert any(re.search(said, w.message) for w in found.warnings), (read, found.warnings)
    (row,) = build_index(tmp_path).summaries
    assert row.unreadable is None and row.final_answer is None


def test_a_running_episode_s_last_act_is_not_read_for_an_answer(tmp_path: Path) -> None:
    # cube-harness writes step files in place: a running episode's last one may be half written.
    folder = _answered(tmp_path / "exp", status="RUNNING", reward=None)
    (folder / "steps" / "003_act.msgpack.zst").write_bytes(b"half")
    glance = glance_trajectory(folder)
    assert glance.outcome == "unfinished" and glance.final_answer_text is None and glance.warnings == ()
    record = json.loads((folder / "status.json").read_text())
    write_status(folder, {**record, "status": "COMPLETED"})
    assert any(w.file == "steps/003_act.msgpack.zst" for w in glance_trajectory(folder).warnings)


def test_the_glance_reads_the_final_act_only_as_far_as_its_actions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The LLM call after the actions shows the model a page: the act file decompresses to more than
    # the bound set here (above a zstd block, 128 KB, which the glance decompresses whole), which the
    # load refuses; the glance stops at the actions, within it.
    noise = random.Random(0).randbytes(512 * 512 * 3)  # a PNG of noise is no smaller than its pixels
    page = Image.frombytes("RGB", (512, 512), noise)
    buffer = io.BytesIO()
    page.save(buffer, "PNG")
    big = submit(RESPONSE, prompt_image=buffer.getvalue())
    folder = write_episode(tmp_path / "exp", "webarena_verified.11", [STEPS[0], big])
    monkeypatch.setattr(cube_reader, "STEP_READ_LIMIT", 256 * 1024)
    act = (folder / "steps/003_act.msgpack.zst").read_bytes()
    assert len(zstandard.ZstdDecompressor().decompress(act)) > 4 * 256 * 1024
    glance = glance_trajectory(folder)
    assert glance.final_answer_text is not None and json.loads(glance.final_answer_text) == ANSWER
    t = load_trajectory(folder)
    assert t.final_answer_text is None
    assert any(w.file == "steps/003_act.msgpack.zst" and "more than" in w.message for w in t.warnings)


def test_the_task_state_opens_no_step_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.formats.cube_harness import FORMAT

    folder = _answered(tmp_path / "exp")

    def refused(data: bytes) -> None:
        raise AssertionError("a step file was read")

    monkeypatch.setattr(cube_reader, "read_actions", refused)
    ended = FORMAT.ended(FolderReader(folder, {p.name for p in folder.iterdir()}))
    assert ended is not None and ended.outcome == "answered"
