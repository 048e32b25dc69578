"""Re-judging from the app in a real browser (issue 51): one WebTailBench trajectory re-judged from
its Re-judge tab, then the three others of the list it was opened from (the estimate first); the
new judge then stands beside the Universal Verifier in the Judges tab, and against a reviewer's
labels on the Agreement page. The judge's model is the scripted endpoint in this test's process;
the server gets its key from the environment only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RENDER_MS, App, _log
from tests.browser.streamlit_server import start_server, stop_server
from tests.conftest import Sample, private_copy
from tests.harness.scripted_llm import KEY, KEY_ENV, ScriptedEndpoint, ScriptedModel, profiles_file
from webeval_core.cli import main
from webeval_core.llm_judging import PROFILES_ENV
from webeval_ui.state import Key

LIVE_RUN = "runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebTailBench_sample/0"
FIRST = "alltrails_find_23"
"""Re-judged alone; the scripted model passes it (its task is about a hiking trail)."""
OTHERS = ("expedia_flights_12", "opentable_reserve_7", "zillow_find_5")
"""The list of three re-judged at once; the scripted model fails them."""
LABELS = {
    FIRST: "success",
    "expedia_flights_12": "success",
    "opentable_reserve_7": "failure",
    "zillow_find_5": "failure",
}
"""The reviewer's outcome labels (blind)."""


@pytest.fixture
def slow(scored_sample: Sample, tmp_path: Path, page: Page) -> Iterator[tuple[App, Path]]:
    """The app over an endpoint that takes 2.5 s a reply, one request at a time: a run to cancel."""
    root = private_copy(scored_sample.root, tmp_path / "sample_runs")
    with ScriptedEndpoint(latency_s=2.5) as endpoint:
        profiles = profiles_file(tmp_path / "judges.toml", endpoint.base_url, concurrency=1)
        env = {PROFILES_ENV: str(profiles), KEY_ENV: KEY}
        process, base_url = start_server(
            root, tmp_path / "cache", _log("server-rejudge-cancel"), extra_env=env
        )
        page.set_default_timeout(RENDER_MS)
        try:
            yield App(page, base_url), root
        finally:
            stop_server(process)


@pytest.fixture
def served(scored_sample: Sample, tmp_path: Path, page: Page) -> Iterator[tuple[App, Path]]:
    root = private_copy(scored_sample.root, tmp_path / "sample_runs")
    store = tmp_path / "annotations.sqlite"
    rows = [
        {
            "run": LIVE_RUN,
            "task_id": task,
            "reviewer": "ann",
            "stage": "blind",
            "outcome": outcome,
            "justification": "",
        }
        for task, outcome in LABELS.items()
    ]
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBEVAL_ANNOTATIONS", str(store))
        patch.setenv("XDG_CACHE_HOME", str(tmp_path / "cli-cache"))
        assert main(["annotations", "import", str(root), str(labels)]) == 0
    with ScriptedEndpoint(ScriptedModel(verdicts={"hiking trail": True})) as endpoint:
        env = {
            PROFILES_ENV: str(profiles_file(tmp_path / "judges.toml", endpoint.base_url)),
            KEY_ENV: KEY,
            "WEBEVAL_ANNOTATIONS": str(store),
        }
        process, base_url = start_server(root, tmp_path / "cache", _log("server-rejudge"), extra_env=env)
        page.set_default_timeout(RENDER_MS)
        try:
            yield App(page, base_url), root
        finally:
            stop_server(process)
        assert all(KEY not in json.dumps(r.body) for r in endpoint.requests)


def test_re_judge_one_then_a_list_of_three_and_see_the_judge_everywhere(served: tuple[App, Path]) -> None:
    app, root = served
    app.goto("trajectory", "This trajectory", run=LIVE_RUN, task=FIRST, tab="Re-judge")
    app.main.get_by_role("button", name="Re-judge", exact=True).click()
    app.wait("Before", "After")
    after = app.main.get_by_text("outcome_", exact=False).first
    expect(after).to_be_visible()
    app.assert_no_exception()
    app.shot("rejudge-one")
    (written,) = root.rglob("scores/outcome_*.json")
    judge = written.stem

    listed = {"list_runs": LIVE_RUN, "list_tasks": list(OTHERS), "list": "shown"}
    query = urlencode({"run": LIVE_RUN, "task": OTHERS[0], "tab": "Re-judge", **listed}, doseq=True)
    app.page.goto(f"{app.base_url}/trajectory?{query}")
    app.wait("Many trajectories")
    # The rubric verifier this time: its verdicts are read as the Universal Verifier's.
    app.main.locator(f".st-key-{Key.REJUDGE_METHOD.value}").click()
    app.page.get_by_role("option", name="rubric verifier", exact=False).click()
    app.wait("scores/rubric_")
    app.main.get_by_text("the list this trajectory was opened from (3)").click()
    app.main.get_by_role("button", name="Estimate first").click()
    app.wait("3 to judge (0 judged before, 0 unreadable)")
    app.main.get_by_role("button", name="Re-judge 3 trajectories").click()
    app.wait("3 judged (0 success, 3 failure)")
    app.assert_no_exception()
    app.shot("rejudge-list-of-three")
    rubric = {p.stem for p in root.rglob("scores/rubric_*.json")}
    assert len(rubric) == 1 and len(list(root.rglob("scores/rubric_*.json"))) == 3

    app.goto("trajectory", "Universal Verifier", run=LIVE_RUN, task=OTHERS[1], tab="Judges")
    for name in ("mmrubric_0.8-5-3", *rubric):  # the new verifier beside Fara's
        expect(app.main.get_by_text(name, exact=True).first).to_be_visible()
    app.assert_no_exception()
    app.shot("rejudge-judges-tab")

    app.goto("agreement", "Judges against the reviewers")
    app.shot("rejudge-agreement")
    judges = app.main.locator("[data-testid='stDataFrame']").first  # a grid: its cells' accessible table
    for name in (judge, *rubric):
        expect(judges.locator("td", has_text=name).first).to_be_attached(timeout=60_000)
    app.assert_no_exception()


def test_cancel_stops_a_list_re_judge_and_keeps_the_verdicts_decided(slow: tuple[App, Path]) -> None:
    """Cancel mid-run: the run stops, the page says how far it got, every verdict it says was
    decided is a whole score file, and no other judge file is left half-made."""
    app, root = slow
    listed = {"list_runs": LIVE_RUN, "list_tasks": list(OTHERS), "list": "shown"}
    query = urlencode({"run": LIVE_RUN, "task": OTHERS[0], "tab": "Re-judge", **listed}, doseq=True)
    app.page.goto(f"{app.base_url}/trajectory?{query}")
    app.wait("Many trajectories")
    app.main.get_by_text("the list this trajectory was opened from (3)").click()
    app.main.get_by_role("button", name="Estimate first").click()
    app.wait("3 to judge")
    app.main.get_by_role("button", name="Re-judge 3 trajectories").click()
    expect(app.main.get_by_text("Judged 1 of 3")).to_be_visible(timeout=30_000)
    cancel = app.main.get_by_role("button", name="Cancel")
    cancel.click()  # the focus does not survive the progress bar's redraws: a click
    said = app.main.get_by_text("Cancelled after", exact=False)
    expect(said).to_be_visible(timeout=30_000)
    expect(app.main.locator("[data-testid='stDataFrame']").last).to_be_visible()  # the outcomes so far
    app.assert_no_exception()
    app.shot("rejudge-cancelled")
    decided = int(said.inner_text().split("Cancelled after ")[1].split(" of ")[0])
    written = list(root.rglob("scores/outcome_*.json"))
    # On a loaded machine the stop can land once the last request is in flight: it ends and is told.
    assert 1 <= decided <= 3 and len(written) == decided
    assert all("score" in json.loads(p.read_text()) for p in written)  # whole files, atomic writes
    assert not [p for p in root.rglob("scores/*") if not p.name.endswith(".json")]  # no temporary left
