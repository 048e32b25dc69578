"""A journey over a mixed root in Chromium: a Fara run beside an AgentLab study and a cube-harness
experiment on the same WebArena-Verified tasks. An AgentLab episode and a cube-harness episode are
opened and stepped through (the harness's facts, the note that no network trace was kept, each
step's reward, the cube episode's screenshots kept in its step files); a Harbor trial shows the
steps of the subagents its agent delegated to; Compare puts the AgentLab study beside the Fara
run; one AgentLab episode is reviewed. Screenshots are saved under test-artifacts/browser/ (harness-*.png).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.streamlit_server import REPO, start_server, stop_server
from tests.harness.agentlab_writer import VERIFIED_TASK, PlannedStep, verified_steps, write_episode
from tests.harness.cube_writer import SCREENSHOT_SIZE, CubeStep
from tests.harness.cube_writer import write_episode as write_cube_episode
from tests.harness.harbor_writer import delegating_trial
from webeval_core.review import open_store
from webeval_core.runs.viewing import OUTSIDE_REVIEW

if TYPE_CHECKING:
    from conftest import App
else:
    from tests.browser.conftest import App

ARTIFACTS = REPO / "test-artifacts" / "browser"
FARA_RUN = (
    REPO
    / "sample_runs"
    / "runs"
    / "WebSurfer-fara-100-max_n_images-3"
    / "fara-7b"
    / "demo"
    / "WebArenaVerified_sample"
)
TASKS = ("108", "11", "124")


def _mixed_root(root: Path) -> Path:
    shutil.copytree(FARA_RUN, root / "fara" / "WebArenaVerified_sample")
    for number, task in enumerate(TASKS):
        steps = (
            verified_steps()
            if number == 0
            else [PlannedStep("click('a7')", think="I look."), PlannedStep(None)]
        )
        write_episode(
            root / "agentlab-study",
            VERIFIED_TASK.format(template=1, task=task),
            steps,
            screenshot_size=(640, 400),
        )
    cube_steps = [
        CubeStep("click", {"bid": "a51"}, thoughts="I open the orders.", observation="Orders page"),
        CubeStep("final_step", {}, thoughts="Done.", reward=1.0, done=True),
    ]
    write_cube_episode(root / "cube-exp", f"webarena_verified.{TASKS[0]}", cube_steps)
    delegating_trial(root / "harbor-job" / "oslo__x1")
    return root


@pytest.fixture(scope="module")
def mixed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("mixed")
    root = _mixed_root(folder / "root")
    store = str(folder / "annotations.sqlite")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBEVAL_ANNOTATIONS", store)
        process, base_url = start_server(root, folder / "cache", ARTIFACTS / "server-harness-formats.log")
    try:
        yield base_url, store
    finally:
        stop_server(process)


@pytest.fixture
def mixed_app(browser: Browser, mixed_server: tuple[str, str]) -> Iterator[App]:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        yield App(context.new_page(), mixed_server[0])
    finally:
        context.close()


def test_an_agentlab_episode_is_stepped_through(mixed_app: App) -> None:
    app = mixed_app
    app.goto("trajectory", "harness: AgentLab / BrowserGym", run="agentlab-study", task=TASKS[0])
    expect(app.main.get_by_text("kept no network trace")).to_be_visible()
    expect(app.main.get_by_text("the harness's own reward (agentlab): 1")).to_be_visible()
    app.wait("Step 1 of 3")
    app.shot("harness-agentlab-step1")
    app.main.get_by_role("button", name="Next ▶").click()
    app.wait("Step 2 of 3", "fill")
    app.main.get_by_role("button", name="Next ▶").click()
    app.wait("Step 3 of 3", "reward after this step: 1")
    app.assert_no_exception()
    app.shot("harness-agentlab-step3")


_FRAME_DRAWN = """(width) => [...document.querySelectorAll(
    "[data-testid='stMain'] [data-testid='stImage'] img")].some(
    (img) => img.complete && img.naturalWidth === width)"""


def test_a_cube_harness_episode_is_stepped_through(mixed_app: App) -> None:
    # Its screenshots are kept inside the step files (steps/NNN_obs.msgpack.zst): the replay draws
    # each step's as any format's, at the screenshot's own width.
    app = mixed_app
    app.goto("trajectory", "harness: cube-harness", run="cube-exp", task=TASKS[0])
    app.wait("Step 1 of 2", "I open the orders.")
    app.page.wait_for_function(_FRAME_DRAWN, arg=SCREENSHOT_SIZE[0])
    expect(app.main.get_by_text("No screenshot for this step.")).to_have_count(0)
    app.shot("harness-cube-step1")
    app.main.get_by_role("button", name="Next ▶").click()
    app.wait("Step 2 of 2", "final_step", "reward after this step: 1")
    app.page.wait_for_function(_FRAME_DRAWN, arg=SCREENSHOT_SIZE[0])
    app.assert_no_exception()
    app.shot("harness-cube-step2")


def test_a_harbor_trial_shows_the_steps_of_its_subagents(mixed_app: App) -> None:
    app = mixed_app
    app.goto("trajectory", "harness: Harbor (ATIF)", run="harbor-job", task="oslo")
    app.wait("Step 1 of 2", "Subagents (3): their steps")
    app.main.get_by_text("Subagents this step delegated to (1): their steps").click()
    app.wait(
        "Subagent searcher (searcher-1): 2 steps, delegated at step 1", "Its answer: The cheapest is 89 EUR."
    )
    expect(app.main.locator("[data-testid='stDataFrame']").first).to_be_visible()  # its steps' table
    app.assert_no_exception()
    app.shot("harness-harbor-subagents")


def test_compare_puts_the_agentlab_study_beside_the_fara_run(mixed_app: App) -> None:
    app = mixed_app
    fara = "fara/WebArenaVerified_sample/0"
    # the study is named by its episodes' agent (Compare's runs by label)
    app.goto("compare", "Is the difference real?", a="GenericAgent · gpt-4o", b=fara)
    # the Fara run has the official verdicts, the AgentLab study its harness's reward: no judge is
    # common to both, so every shared task is listed side by side as not comparable
    app.wait("Tasks x runs", "not comparable")
    expect(
        app.main.get_by_text("1 tasks not comparable").or_(app.main.get_by_text("3 tasks not comparable"))
    ).to_be_visible()
    app.assert_no_exception()
    app.shot("harness-compare")


def test_an_agentlab_episode_is_reviewed(mixed_app: App, mixed_server: tuple[str, str]) -> None:
    app = mixed_app
    app.goto("trajectory", "Informed:", run="agentlab-study", task=TASKS[0], reviewer="ann", tab="Annotate")
    box = app.main.get_by_label("Justification")
    app.main.locator("h1").first.click()
    app.page.keyboard.press("s")
    app.wait()
    box.fill("ann: the answer is right")
    box.press("Control+Enter")
    app.wait("Annotation saved (informed)")
    app.shot("harness-agentlab-reviewed")
    rows = [a for a in open_store(mixed_server[1]).annotations(OUTSIDE_REVIEW) if a.reviewer == "ann"]
    assert [(r.task_id, r.outcome) for r in rows] == [(TASKS[0], "success")]
