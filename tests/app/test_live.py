"""The Live page on a run caught mid-way: the counts by state, the rate among finished tasks only,
the stalled task with its silence and last step, core.log's errors; the Overview says the same;
a cube-harness experiment, Online-Mind2Web results and a Harbor job followed the same way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.harness.builders import FARA_ACTIONS, log_lines, png_bytes, write_log
from tests.harness.cube_writer import CubeStep, write_episode
from tests.harness.harbor_writer import agent_step, document, finish_trial, start_trial, write_trial
from tests.harness.live_writer import run_in_progress
from tests.harness.mind2web_writer import start_task, write_result
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
    assert {k: metrics[k] for k in ("Finished", "Aborted", "Running", "Stalled")} == {
        "Finished": "2",
        "Aborted": "1",  # task 3, which crashed: the progress line says so
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
        c.startswith("3 of 6 seen over (2 finished, 1 aborted (1 crashed)) · 2 running · 1 stalled")
        for c in captions
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


def test_the_live_page_follows_a_cube_harness_experiment(app: OpenPage, tmp_path: Path) -> None:
    # Its episodes live in episodes/ and say they are over in status.json (`TrajectoryFormat.ended`):
    # the page counts the finished and crashed ones as the Overview does, the running one apart.
    experiment = tmp_path / "root" / "exp-1"
    steps = [CubeStep("click", {"bid": "a1"}), CubeStep("fill", {"bid": "b2", "text": "x"})]
    write_episode(experiment, "webarena_verified.12", steps, status="RUNNING", reward=None)
    write_episode(experiment, "webarena_verified.13", steps)
    write_episode(experiment, "webarena_verified.14", steps, status="FAILED", failure="Tb\nValueError: boom")
    at = app(PAGES["live"], root=tmp_path / "root")
    assert not at.exception
    metrics = _metrics(at)
    assert {k: metrics[k] for k in ("Finished", "Aborted", "Running", "Stalled")} == {
        "Finished": "1",
        "Aborted": "1",
        "Running": "1",
        "Stalled": "0",
    }
    assert [s.value for s in at.main.subheader][:1] == ["Running (1)"]
    links = [str(link.label).replace("\\", "") for link in at.main.get("page_link")]  # inert's escapes
    assert any("task webarena_verified.12_ep0 · running" in link and "2 steps" in link for link in links), (
        links
    )


def test_the_live_page_follows_online_mind2web_and_harbor_runs(app: OpenPage, tmp_path: Path) -> None:
    # A Mind2Web task with its screenshots and no result.json yet, a Harbor trial started before its
    # agent wrote a step: both running, beside the finished ones of their runs.
    results = tmp_path / "root" / "results" / "seeact-gpt-4o"
    write_result(results, "a1b2", ["CLICK: Search", "ANSWER"])
    start_task(results, "c3d4", 2)
    at = app(PAGES["live"], root=tmp_path / "root")
    assert not at.exception
    metrics = _metrics(at)
    assert {k: metrics[k] for k in ("Finished", "Running")} == {"Finished": "1", "Running": "1"}
    links = [str(link.label).replace("\\", "") for link in at.main.get("page_link")]
    assert any("task c3d4 · running" in link and "2 steps" in link for link in links), links

    job = tmp_path / "root2" / "job"
    write_trial(start_trial(job / "hotels__b2"), document([agent_step(3, "left_click", {"x": 1, "y": 2})]))
    finish_trial(job / "hotels__b2", reward=1.0)
    start_trial(job / "flights__a1")
    at = app(PAGES["live"], root=tmp_path / "root2")
    assert not at.exception
    metrics = _metrics(at)
    assert {k: metrics[k] for k in ("Finished", "Running")} == {"Finished": "1", "Running": "1"}
    links = [str(link.label).replace("\\", "") for link in at.main.get("page_link")]
    assert any("flights__a1 · running" in link for link in links), links
