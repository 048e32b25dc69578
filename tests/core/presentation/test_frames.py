"""frames.py: the frames a replay steps through, and the marks drawn on each."""

from __future__ import annotations

from pathlib import Path

from tests.harness.builders import fara_folder
from webeval_core.presentation.frames import Frame, action_label, frames_of, step_marks
from webeval_core.reading.trajectory_reader import load_trajectory


def test_a_log_with_steps_is_replayed_step_by_step(tmp_path: Path) -> None:
    trajectory = load_trajectory(fara_folder(tmp_path))
    frames = frames_of(trajectory)
    assert [f.number for f in frames] == [s.index for s in trajectory.steps]
    assert [f.screenshot for f in frames] == [s.screenshot for s in trajectory.steps]
    assert all(f.step is s for f, s in zip(frames, trajectory.steps, strict=True))


def test_without_a_log_the_screenshots_are_replayed_in_order(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    (folder / "web_surfer.log").unlink()
    trajectory = load_trajectory(folder)
    assert not trajectory.steps
    assert frames_of(trajectory) == [
        Frame(n, name, None) for n, name in enumerate(trajectory.screenshots, start=1)
    ]


def test_marks_carry_the_point_the_label_and_the_scroll(tmp_path: Path) -> None:
    steps = load_trajectory(fara_folder(tmp_path)).steps
    click, typing, scroll = (
        next(s for s in steps if s.action == a) for a in ("left_click", "type", "scroll")
    )
    assert click.point is not None
    assert step_marks(click)["point"] == (click.point.x, click.point.y)
    assert "Yosemite" in step_marks(typing)["label"]
    assert scroll.scroll is not None
    assert step_marks(scroll)["scroll"] == scroll.scroll
    assert step_marks(None) == {}


def test_action_label() -> None:
    assert action_label("type", typed_text="hello") == "type: 'hello'"
    assert action_label("scroll", scroll="down") == "scroll down"
    assert action_label("left_click", arguments={"coordinate": [1, 2]}) is None
    assert action_label("visit_url", arguments={"url": "http://x.test/a"}) == "visit_url: http://x.test/a"
    assert action_label("key", arguments={"keys": ["Control", "a"]}) == "key: Control, a"
    assert action_label("terminate", arguments={"status": "success"}) == "terminate: success"
    long = action_label("type", typed_text="x" * 500)
    assert long is not None and len(long) <= 80
