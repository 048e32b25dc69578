"""The other harnesses' runs of sample_runs/ (via-other-harnesses/: AgentLab, cube-harness, Online-Mind2Web,
Harbor ATIF on tasks 108, 11 and 27), as a newcomer opening `python3 dev.py app` sees them in
Chromium: the Overview pools the eight runs, each harness's episode replays with its screenshots,
Online-Mind2Web's own WebJudge is in the Judges tab, Compare lines a harness's run up with Fara's.
Screenshots are saved under test-artifacts/browser/ (sample-harness-*.png).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import App

STUDY = "via-other-harnesses/agentlab/2026-11-30_09-00-00_genericagent-gpt-4o_on_webarena_verified"
RUNS = {
    "agentlab": (STUDY, "AgentLab / BrowserGym"),
    "cube": ("via-other-harnesses/cube-harness/webarena_verified_genny_2026-11-30", "cube-harness"),
    "mind2web": ("via-other-harnesses/online-mind2web/seeact-gpt-4o", "Online-Mind2Web"),
    "harbor": ("via-other-harnesses/harbor/2026-11-30__09-00-00", "Harbor (ATIF)"),
}  # fmt: skip
FARA = "fara-7b · WebArenaVerified_sample · run 0"  # the Fara run's label (Compare's runs by label)
HARBOR = "browser-agent · gpt-5 · webarena-verified · run 2026-11-30__09-00-00"  # its job config's facts
_FRAME_DRAWN = """() => [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stImage'] img")]
    .some((img) => img.complete && img.naturalWidth > 600)"""


def test_the_overview_pools_the_eight_runs_of_the_sample(app: App) -> None:
    app.goto("", "All 8 runs, pooled", "Success by site")
    app.assert_no_exception()
    app.shot("sample-harness-overview")


@pytest.mark.parametrize("harness", list(RUNS))
def test_each_harness_episode_replays_with_its_screenshots(app: App, harness: str) -> None:
    run, name = RUNS[harness]
    app.goto("trajectory", f"harness: {name}", run=run, task="108")
    app.wait("Step 1 of")
    app.page.wait_for_function(_FRAME_DRAWN)
    app.main.get_by_role("button", name="Next ▶").click()
    app.wait("Step 2 of")
    app.page.wait_for_function(_FRAME_DRAWN)
    app.assert_no_exception()
    app.shot(f"sample-harness-{harness}-108")


def test_online_mind2webs_webjudge_is_a_judge_of_its_results(app: App) -> None:
    run, _ = RUNS["mind2web"]
    app.goto("trajectory", "webjudge-online-mind2web-o4-mini", run=run, task="11", tab="Judges")
    app.wait("Key points", "Screenshots scored", 'Status: "success"')
    app.assert_no_exception()
    app.shot("sample-harness-mind2web-webjudge")


def test_compare_lines_a_harness_run_up_with_the_fara_run(app: App) -> None:
    app.goto("compare", "Is the difference real?", a=HARBOR, b=FARA)
    # the official evaluator judged both on tasks 108, 11 and 27: Harbor's passes all, Fara's fails 11
    app.wait("Tasks x runs", "On the 3 tasks scored in both runs", "pass → fail")
    app.assert_no_exception()
    app.shot("sample-harness-compare")
