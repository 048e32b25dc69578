"""load_trajectory on the issue-13 corpus: special files, out-of-range values, odd names, crashes.

Every hostile folder loads (with warnings naming the file) or raises UnreadableError with a
reason; nothing else escapes, no read blocks, and no model carries NaN or infinity.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder
from tests.harness.hostile import HostileRoot, hostile_root_within, snapshot_tree
from webeval_core.reading import folderfiles
from webeval_core.reading.folderreader import LOG_READ_LIMIT
from webeval_core.reading.formats import is_trajectory_folder
from webeval_core.reading.screenshots import read_image_bytes
from webeval_core.reading.trajectory_reader import (
    Trajectory,
    load_trajectory,
    trajectory_json,
)
from webeval_core.support.diagnostics import UnreadableError


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[HostileRoot]:
    with hostile_root_within(tmp_path, 60) as corpus:
        yield corpus


def warnings(t: Trajectory) -> list[str]:
    return [str(w) for w in t.warnings]


def test_every_hostile_folder_loads_and_dumps_as_strict_json(hostile: HostileRoot) -> None:
    before = snapshot_tree(hostile.root.parent)
    for folder in hostile.folders:
        trajectory = load_trajectory(folder)
        json.dumps(trajectory_json(trajectory), allow_nan=False)  # raises on NaN / Infinity
        json.dumps(trajectory.model_dump(mode="json"), allow_nan=False)
    assert snapshot_tree(hostile.root.parent) == before


def test_fifos_are_named_and_skipped(hostile: HostileRoot) -> None:
    fifo = "is a FIFO, not a regular file; not opened"
    log = load_trajectory(hostile.cases["fifo_log"])
    assert f"web_surfer.log: {fifo}" in warnings(log) and log.steps == ()
    frame = load_trajectory(hostile.cases["fifo_screenshot"])
    assert "screenshot1.png" not in frame.screenshots and len(frame.screenshots) == 5
    assert any(w.startswith("screenshot1.png: is not a PNG image") for w in warnings(frame))
    assert f"scores/gpt_eval.json: {fifo}" in warnings(load_trajectory(hostile.cases["fifo_score"]))
    answer = load_trajectory(hostile.cases["fifo_answer"])
    assert answer.outcome == "aborted" and any(fifo in w for w in warnings(answer))
    with pytest.raises(folderfiles.NotReadableFileError):
        read_image_bytes(hostile.cases["fifo_screenshot"] / "screenshot1.png")


def test_a_symlinked_scores_folder_is_not_read(hostile: HostileRoot) -> None:
    trajectory = load_trajectory(hostile.cases["linked_scores"])
    assert trajectory.scores == {}
    assert "scores: is a symlink leading outside the trajectory folder; not opened" in warnings(trajectory)


def test_out_of_range_numbers_and_times_become_warnings_and_none(hostile: HostileRoot) -> None:
    nan = load_trajectory(hostile.cases["nan_numbers"])
    assert nan.times is not None and nan.times.start_time is None and nan.duration_s is None
    assert (
        "times.json: not a finite number, read as null: duration (NaN), end_time (Infinity), start_time (NaN)"
        in (warnings(nan))
    )
    assert nan.scores["judge"].score is None
    assert "scores/judge.json: not a finite number, read as null: score (NaN)" in warnings(nan)
    assert nan.steps[0].point is None and nan.steps[1].point is not None
    assert any("action(s) 1: a time or coordinate is out of range" in w for w in warnings(nan))
    far = load_trajectory(hostile.cases["start_4e12"])
    assert far.times is not None and (far.times.start_time, far.times.end_time, far.times.duration) == (
        None,
        None,
        None,
    )
    assert "times.json: start_time 4000000000000.0 is out of range; ignored" in warnings(far)
    overflow = load_trajectory(hostile.cases["time_overflow"])
    assert [step.time_utc for step in overflow.steps] == [None] * 5
    assert any("a time or coordinate is out of range" in w for w in warnings(overflow))


def test_huge_integers_and_odd_screenshot_names_are_reasons_not_crashes(hostile: HostileRoot) -> None:
    huge = load_trajectory(hostile.cases["huge_int"])
    assert huge.outcome == "aborted" and len(huge.steps) == 5
    assert any("cannot be read as JSON (Exceeds the limit" in w for w in warnings(huge))
    assert any("web_surfer.log:16: holds a number too long to read" in w for w in warnings(huge))
    odd = load_trajectory(hostile.cases["odd_screenshots"])
    assert odd.screenshots == () and odd.outcome == "answered"
    listed = next(w for w in warnings(odd) if "listed screenshots" in w)
    assert "lead outside the trajectory folder" in listed and len(listed) < 600


def test_superscript_digit_names_load(hostile: HostileRoot) -> None:
    assert load_trajectory(hostile.cases["superscript"]).task_id == "\u00b2"


def test_a_folder_holding_only_core_log_is_an_aborted_crash(hostile: HostileRoot) -> None:
    folder = hostile.cases["crashed"]
    assert is_trajectory_folder(folder)
    trajectory = load_trajectory(folder)
    assert trajectory.outcome == "aborted" and trajectory.layout == "fara"
    assert (
        trajectory.crash_reason
        == "playwright._impl._errors.TimeoutError: Page.goto: Timeout 30000ms exceeded."
    )
    assert trajectory.task_id == folder.name
    assert any("is all the folder holds: the task crashed" in w for w in warnings(trajectory))


def test_core_log_alone_outside_traj_is_not_a_trajectory_for_discovery(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "core.log").write_text("2025-11-14 14:35:10,001 [INFO] x - hi\n")
    assert not is_trajectory_folder(tmp_path / "logs")


def test_a_huge_log_is_read_up_to_its_limit(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    log = folder / "web_surfer.log"
    with log.open("r+b") as handle:  # sparse: the real log, then zeros up to 10 GB
        handle.truncate(10 * 1024**3)
    trajectory = load_trajectory(folder)
    assert len(trajectory.steps) == 5
    assert (
        f"web_surfer.log: is 10.0 GB; only its first {LOG_READ_LIMIT // 1024**2}.0 MB were read"
        in warnings(trajectory)
    )


def test_an_unexpected_error_in_one_folder_becomes_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = fara_folder(tmp_path)

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr("webeval_core.reading.fara_reader.discover_screenshots", broken)
    with pytest.raises(UnreadableError) as caught:
        load_trajectory(folder)
    assert str(caught.value).endswith("could not be read: unexpected KeyError: 'surprise'")


def test_image_bytes_are_read_through_the_safe_open(hostile: HostileRoot) -> None:
    data = read_image_bytes(hostile.cases["huge_png"] / "screenshot1.png")
    assert data.startswith(b"\x89PNG") and len(data) < 30_000
    normal = hostile.normal[0]
    os.symlink(hostile.outside / "scores" / "secret.json", normal / "out.png")
    with pytest.raises(folderfiles.NotReadableFileError) as caught:
        read_image_bytes(normal / "out.png")
    assert caught.value.reason == folderfiles.LEADS_OUTSIDE
    os.symlink("screenshot1.png", normal / "screenshot_1.png")  # both namings, linked: a real layout
    assert read_image_bytes(normal / "screenshot_1.png", normal) == (normal / "screenshot1.png").read_bytes()
