"""The Live page on a run caught mid-way: the counts by state, the rate among finished tasks only,
the stalled task with its silence and last step, core.log's errors; the Overview says the same."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.harness.builders import FARA_ACTIONS, log_lines, png_bytes, write_log
from tests.harness.live_writer import run_in_progress
from webeval_ui.page_links import PAGES
from webeval_ui.state import Key

OpenPage = Callable[..., AppTest]


@pytest.fixture
def live_root(tmp_path: Path) -> Path:
    run_in_progress(tmp_path / "root" / "runs" / "live" / "0")
    return tmp_path / "root"


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: str(m.value) for m in at.main.metric}


def test_the_live_page_counts_each_state_and_rates_finished_tasks_only(
    app: OpenPage, live_root: Path
) -> None:
    at = app(PAGES["live"], root=live_root)
    metrics = _metrics(at)
    assert {k: metrics[k] for k in ("Finished", "Crashed", "Running", "Stalled")} == {
        "Finished": "2",
        "Crashed": "1",
        "Running": "2",
        "Stalled": "1",
    }
    assert metrics["Success so far"] == "50.0%"  # 1 of the 2 finished: the 3 unfinished count nowhere
    captions = [c.value for c in at.main.caption]
    assert any(c.startswith("success so far 50.0% of 2 finished tasks counted") for c in captions)
    assert any("3 unfinished not counted" in c for c in captions)
    assert [s.value for s in at.main.subheader][:2] == ["Stalled (1)", "Running (2)"]
    errors = at.main.dataframe[0].value
    assert list(errors["task"]) == ["6", "3"] and "Error running task" in errors["error"].iloc[0]
    assert any(
        "silent 30 min" in str(link.label) and "task 5" in str(link.label)
        for link in at.main.get("page_link")
    )


def test_the_overview_says_unfinished_tasks_apart(app: OpenPage, live_root: Path) -> None:
    at = app(PAGES["overview"], root=live_root)
    metrics = _metrics(at)
    assert metrics["Aborted"] == "1" and metrics["Unfinished"] == "3"
    assert metrics["Success rate"] == "50.0%"
    captions = [c.value for c in at.main.caption]
    assert "5 of 6 seen over" not in captions  # the same line as the Live page's
    assert any(
        c.startswith("3 of 6 seen over (2 finished, 1 crashed) · 2 running · 1 stalled") for c in captions
    )


def test_follow_mode_shows_the_newest_step_until_the_user_steps_back(app: OpenPage, live_root: Path) -> None:
    run = "runs/live/0"
    at = app(PAGES["trajectory"], root=live_root, run=run, task="4")
    follow = at.toggle(key=Key.FOLLOW)
    assert follow.value is True
    newest = at.select_slider(key=Key.STEP_SLIDER).value
    assert newest == len(FARA_ACTIONS)  # the last of the steps written so far
    # A new step is written, its screenshot in two halves: the half-written one is skipped.
    folder = live_root / run / "traj" / "4"
    acts = (*FARA_ACTIONS, FARA_ACTIONS[0])
    write_log(folder, log_lines("fara-structured", acts))
    shot = png_bytes()
    following = folder / f"screenshot{len(acts) - 1}.png"
    following.write_bytes(shot[: len(shot) // 2])
    at.run()
    assert not at.exception and at.select_slider(key=Key.STEP_SLIDER).value == newest
    following.write_bytes(shot)
    at.run()
    assert at.select_slider(key=Key.STEP_SLIDER).value == newest + 1  # whole now: followed
    # The user steps back: follow turns off and stays off as steps arrive.
    at.button(key=Key.PREVIOUS).click().run()
    assert at.toggle(key=Key.FOLLOW).value is False
    assert at.select_slider(key=Key.STEP_SLIDER).value == newest
    at.run()
    assert at.select_slider(key=Key.STEP_SLIDER).value == newest
    at.toggle(key=Key.FOLLOW).set_value(True).run()
    assert at.select_slider(key=Key.STEP_SLIDER).value == newest + 1


def test_a_restarted_task_says_when_and_follows_the_new_attempt(app: OpenPage, live_root: Path) -> None:
    at = app(PAGES["trajectory"], root=live_root, run="runs/live/0", task="6")
    assert any("Restarted at 14:22 (the run's local time)" in i.value for i in at.main.info)
