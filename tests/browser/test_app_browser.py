"""The app in a real browser: every page renders, the replay steps, deep links restore a view,
re-scoring writes a score file, and a click on an overview chart narrows the trajectory list.

Fixtures (server on a temporary copy of sample_runs/, Chromium, waits) are in conftest.py.
Screenshots of what each test saw go to test-artifacts/browser/.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from webeval_core.presentation.wording import download_name
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.runs.discovery import discover_runs
from webeval_core.support.diagnostics import UnreadableError

if TYPE_CHECKING:
    from conftest import App

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Pick:
    run: str
    task: str
    path: Path
    steps: int
    first_step: int


def _pick(root: Path, *, min_steps: int, with_task: bool = True) -> Pick:
    """A trajectory under `root` with at least `min_steps` steps and a screenshot for each."""
    for run in discover_runs(root):
        for folder in run.trajectory_dirs:
            try:
                trajectory = load_trajectory(folder)
            except UnreadableError:
                continue
            steps = trajectory.steps
            if (
                len(steps) >= min_steps
                and all(s.screenshot for s in steps)
                and trajectory.outcome == "answered"
            ):
                if with_task and not trajectory.task_id.isdigit():
                    continue
                return Pick(run.key, trajectory.task_id, folder, len(steps), steps[0].index)
    pytest.fail(f"no trajectory with >= {min_steps} steps under {root}")


@pytest.fixture(scope="session")
def stepper(runs_copy: Path) -> Pick:
    return _pick(runs_copy, min_steps=4)


_MAIN_IMAGE_JS = """() => {
    // The step's screenshot is the first full-size image (the filmstrip's thumbnails are 176 px).
    const images = document.querySelectorAll("[data-testid='stMain'] [data-testid='stImage'] img");
    const main = [...images].find((img) => img.complete && img.naturalWidth >= 800);
    return main ? main.getAttribute("src") : null;
}"""


def _image_src(app: App) -> str:
    """The URL of the shown step's screenshot (Streamlit names media by a hash of their bytes)."""
    handle = app.page.wait_for_function(_MAIN_IMAGE_JS)
    return str(handle.json_value())


def _step_heading(number: int, total: int) -> str:
    return f"Step {number} of {total}"


# --- every page renders -----------------------------------------------------------------------


def test_overview_renders(app: App) -> None:
    # The default page lives at the root URL (its own links point there).
    app.goto("", "Overview", "Success by site", "Success by task type")
    expect(app.main.locator("[data-testid='stMetric']").first).to_be_visible()
    expect(app.main.locator("[data-testid='stPlotlyChart'] .main-svg").first).to_be_visible()
    expect(app.main.get_by_text(re.compile(r"All \d+ trajectories of the chosen runs"))).to_be_visible()
    app.assert_app_shell()
    app.assert_no_exception()
    app.shot("overview")
    for tab, content in (
        ("Outcomes and failures", "Failure taxonomy"),
        ("Intent templates", "Intent templates with the lowest success"),
        ("Distributions", app.main.locator(".st-key-hist_steps [data-testid='stPlotlyChart']")),
    ):
        app.main.get_by_role("tab", name=tab).click()
        app.wait(content)
        expect(app.main.locator("[data-testid='stPlotlyChart'] .main-svg").first).to_be_visible()
        app.assert_no_exception()
        app.shot(f"overview-{tab.split()[0].lower()}")


def test_the_overview_path_people_type_opens_the_overview(app: App) -> None:
    # The default page is served at "/"; "/overview" must lead there too, its query kept.
    app.goto("overview", "Failure taxonomy", view="Outcomes and failures")
    assert urlparse(app.page.url).path == "/"
    assert parse_qs(urlparse(app.page.url).query)["view"] == ["Outcomes and failures"]
    expect(app.page.get_by_text("Page not found")).to_have_count(0)
    app.assert_app_shell()
    app.assert_no_exception()


def test_trajectories_renders_and_a_row_opens_the_viewer(app: App) -> None:
    app.goto("trajectories", "Trajectories", re.compile(r"\d+ of \d+ trajectories"))
    grid = app.main.locator("[data-testid='stDataFrame']").first
    expect(grid).to_be_visible()
    app.assert_no_exception()
    app.shot("trajectories")
    # The table is a canvas: click the first data row (35 px header, 35 px rows).
    box = grid.bounding_box()
    assert box is not None
    app.page.mouse.click(box["x"] + 12, box["y"] + 35 + 17)
    app.wait(app.main.get_by_role("tab", name="Replay"))
    assert "/trajectory" in app.page.url and "task=" in app.page.url
    app.assert_no_exception()


def test_trajectory_renders(app: App, stepper: Pick) -> None:
    app.goto(
        "trajectory",
        f"Task {stepper.task}",
        _step_heading(stepper.first_step, stepper.steps),
        run=stepper.run,
        task=stepper.task,
    )
    assert _image_src(app)
    for tab in ("Replay", "Expected vs actual", "Network", "Evidence", "Re-score"):
        expect(app.main.get_by_role("tab", name=tab)).to_be_visible()
    expect(app.main.get_by_text("Thought", exact=True)).to_be_visible()
    app.assert_no_exception()
    app.shot("trajectory")


def test_pages_request_nothing_beyond_the_app_server(app: App, stepper: Pick) -> None:
    # The app is used offline and on closed networks: fonts, icons and scripts all come from the
    # Streamlit server. A page icon like ":material/...:" would be fetched from Google.
    elsewhere: list[str] = []
    server = urlparse(app.base_url).netloc
    app.page.on("request", lambda r: elsewhere.append(r.url))
    app.goto("", "Success by site")
    heading = _step_heading(stepper.first_step, stepper.steps)
    app.goto("trajectory", heading, run=stepper.run, task=stepper.task)
    app.goto("tasks", "Tasks")
    outside = [url for url in elsewhere if not url.startswith("data:") and urlparse(url).netloc != server]
    assert not outside, f"requests beyond {server}: {outside}"


def test_another_root_typed_in_the_sidebar_opens_its_overview(
    app: App, stepper: Pick, runs_copy: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other root"
    for folder in sorted(stepper.path.parent.iterdir())[:2]:
        shutil.copytree(folder, other / "traj" / folder.name)
    # From a deep link: its run and task are bound to the URL and must not follow to the new root.
    app.goto("trajectory", f"Task {stepper.task}", run=stepper.run, task=stepper.task)
    sidebar = app.page.locator("[data-testid='stSidebar']")
    sidebar.get_by_text("Root folder: sample_runs").click()
    box = sidebar.get_by_label("Root folder", exact=True)
    expect(box).to_have_value(str(runs_copy))
    box.fill(str(other))
    box.press("Enter")
    app.wait(f"1 run under {other}", "Success by site")
    # The overview of the new root, and only its root in the URL: nothing of the old root follows.
    assert urlparse(app.page.url).path == "/"
    assert parse_qs(urlparse(app.page.url).query) == {"root": [str(other)]}
    trajectories = app.main.locator("[data-testid='stMetric']").filter(has_text="Trajectories")
    expect(trajectories.first).to_contain_text("2")
    expect(sidebar.get_by_text("Root folder: other root")).to_be_visible()
    app.assert_no_exception()
    app.shot("another-root")


def test_compare_renders(app: App) -> None:
    app.goto("compare", "Compare runs", "Success A", "Tasks x runs")
    expect(app.main.locator("[data-testid='stDataFrame']").first).to_be_visible()
    app.assert_no_exception()
    app.shot("compare")


def test_compare_steps_two_trajectories_side_by_side(app: App, runs_copy: Path) -> None:
    # A task both Fara-layout runs attempted, longer than two steps on each side.
    fara = [r for r in discover_runs(runs_copy) if r.run_id is not None]
    # The page's default pair: the first two runs sharing tasks (the live-web run shares none).
    runs = next(
        (a, b)
        for i, a in enumerate(fara)
        for b in fara[i + 1 :]
        if {f.name for f in a.trajectory_dirs} & {f.name for f in b.trajectory_dirs}
    )
    lengths = {folder.name: len(load_trajectory(folder).steps) for folder in runs[1].trajectory_dirs}
    task, steps_a, steps_b = next(
        (folder.name, len(load_trajectory(folder).steps), lengths[folder.name])
        for folder in runs[0].trajectory_dirs
        if lengths.get(folder.name, 0) > 2 and len(load_trajectory(folder).steps) > 2
    )
    app.goto("compare", "Side by side")
    # Picked by keyboard in the select box; the arrow keys then step both sides at once (the
    # select box gives the focus back instead of keeping the arrows for itself).
    picker = app.main.get_by_role("combobox", name="Task in both runs")
    picker.click()
    picker.fill(task)
    picker.press("Enter")
    app.wait(f"Step 1 of {steps_a}", f"Step 1 of {steps_b}")
    side_by_side = app.main.locator("[data-testid='stImage'] img")
    expect(side_by_side).to_have_count(2)
    app.page.keyboard.press("ArrowRight")  # the same keys as the replay
    app.wait(f"Step 2 of {steps_a}", f"Step 2 of {steps_b}")
    assert parse_qs(urlparse(app.page.url).query)["pair_step"] == ["2"]
    app.main.get_by_role("button", name="Next ▶").click()
    app.wait(f"Step 3 of {steps_a}", f"Step 3 of {steps_b}")
    app.assert_no_exception()
    app.shot("compare-side-by-side")


def test_tasks_renders_and_a_deep_link_opens_a_task(app: App, stepper: Pick) -> None:
    app.goto("tasks", "Tasks", re.compile(r"\d+ of \d+ tasks"))
    expect(app.main.locator("[data-testid='stDataFrame']").first).to_be_visible()
    app.assert_no_exception()
    app.shot("tasks")
    app.goto(
        "tasks", f"Task {stepper.task}", "Expected response", "Attempts in the loaded runs", task=stepper.task
    )
    app.assert_no_exception()
    app.shot("tasks-one-task")


# --- replay -----------------------------------------------------------------------------------


def test_step_with_next_prev_slider_and_filmstrip(app: App, stepper: Pick) -> None:
    total = stepper.steps
    first = stepper.first_step
    app.goto("trajectory", _step_heading(first, total), run=stepper.run, task=stepper.task)
    src_1 = _image_src(app)

    app.main.get_by_role("button", name="Next ▶").click()
    app.wait(_step_heading(first + 1, total))
    src_2 = _image_src(app)
    assert src_2 != src_1, "Next did not change the screenshot"
    assert re.search(rf"[?&]step={first + 1}\b", app.page.url), app.page.url

    app.main.get_by_role("button", name="◀ Previous").click()
    app.wait(_step_heading(first, total))
    assert _image_src(app) == src_1, "Previous did not bring back the first screenshot"

    # The slider: keyboard on its thumb (End = last step), as a person would without a mouse.
    thumb = app.main.locator("[data-testid='stSlider'] input[type='range']").first
    thumb.focus()
    thumb.press("End")
    last = first + total - 1
    app.wait(_step_heading(last, total))
    assert _image_src(app) not in (src_1, src_2)
    app.shot("trajectory-last-step")

    # A filmstrip thumbnail's button jumps to its step.
    target = last - 2
    app.main.get_by_role("button", name=str(target), exact=True).click()
    app.wait(_step_heading(target, total))
    app.assert_no_exception()


# --- deep links -------------------------------------------------------------------------------


def test_the_evidence_tab_downloads_a_standalone_page(app: App, stepper: Pick, tmp_path: Path) -> None:
    app.goto("trajectory", "Score files", run=stepper.run, task=stepper.task, tab="Evidence")
    saved = app.download(app.main.get_by_role("button", name="Download as a standalone HTML page"), tmp_path)
    assert saved.name == download_name(stepper.run, stepper.task)  # its run and task in the name
    page = saved.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count('id="step-') == stepper.steps
    # Each step's frame, as small as the page shows it: a palette screenshot stays a PNG, others JPEG.
    assert page.count("data:image/jpeg;base64,") + page.count("data:image/png;base64,") == stepper.steps
    app.assert_no_exception()


def test_deep_link_restores_step_and_tab(app: App, stepper: Pick) -> None:
    step = stepper.first_step + 2
    app.goto("trajectory", _step_heading(step, stepper.steps), run=stepper.run, task=stepper.task, step=step)
    expect(app.main.get_by_role("tab", name="Replay")).to_have_attribute("aria-selected", "true")
    app.assert_no_exception()

    app.goto(
        "trajectory",
        app.main.get_by_text(re.compile(r"\d+ of \d+ requests")),
        run=stepper.run,
        task=stepper.task,
        step=step,
        tab="Network",
    )
    expect(app.main.get_by_role("tab", name="Network")).to_have_attribute("aria-selected", "true")
    app.assert_no_exception()
    app.shot("trajectory-network-deep-link")
    # Back on the replay, the step of the link is still the one shown.
    app.main.get_by_role("tab", name="Replay").click()
    app.wait(_step_heading(step, stepper.steps))


def test_deep_link_on_a_fresh_server(fresh_app: App, stepper: Pick) -> None:
    """A shared link is often the first page a just-started server serves: it must open the app
    (navigation, root picker, wide layout), not the bare page script, and restore the view."""
    step = stepper.first_step + 1
    fresh_app.goto(
        "trajectory",
        _step_heading(step, stepper.steps),
        run=stepper.run,
        task=stepper.task,
        step=step,
        tab="Replay",
    )
    fresh_app.shot("trajectory-deep-link-fresh-server")
    fresh_app.assert_no_exception()
    fresh_app.assert_app_shell()


# --- re-scoring -------------------------------------------------------------------------------


def test_rescore_writes_a_score_file(app: App, stepper: Pick) -> None:
    # The copy was scored by `webeval score`; an identical verdict leaves its file untouched, so
    # remove it first: the button must write it again.
    scores = stepper.path / "scores"
    for old in scores.glob("webarena-verified-*.json"):
        old.unlink()
    app.goto(
        "trajectory",
        "Re-score with the official evaluator",
        run=stepper.run,
        task=stepper.task,
        tab="Re-score",
    )
    expect(app.main.get_by_text(re.compile(r"webarena-verified-[^:]*\): (0|1)\b"))).to_have_count(0)
    app.main.get_by_role("button", name="Re-score with the official evaluator").click()
    app.wait(app.main.get_by_text(re.compile(r"Wrote scores/webarena-verified-.*\.json")), timeout=60_000)
    app.assert_no_exception()
    app.shot("trajectory-rescored")
    written = sorted(scores.glob("webarena-verified-*.json"))
    assert len(written) == 1, f"expected one webarena-verified-*.json in {scores}, found {written}"
    document = json.loads(written[0].read_text(encoding="utf-8"))
    assert document["score"] in (0, 1, 0.0, 1.0)
    assert app.main.get_by_text(f"Wrote scores/{written[0].name}").count() == 1
    # The header shows the new verdict as a badge, named as every view names the official evaluator.
    badge = rf"official WebArena-Verified evaluator \({re.escape(written[0].stem)}\): (0|1)\b"
    expect(app.main.get_by_text(re.compile(badge))).to_be_visible()


# --- overview chart click ---------------------------------------------------------------------


def _click_tallest_bar(app: App, chart_key: str) -> None:
    """Click the largest bar of a Plotly chart (its drag layer lies over the bars, so the click
    goes to the bar's position, as a person's would)."""
    chart = app.page.locator(f".st-key-{chart_key} [data-testid='stPlotlyChart']")
    chart.scroll_into_view_if_needed()  # a mouse click only reaches what is in the viewport
    bars = chart.locator(".bars .point path")
    expect(bars.first).to_be_attached()
    boxes = [box for box in (bar.bounding_box() for bar in bars.all()) if box]
    box = max(boxes, key=lambda b: b["width"] * b["height"])
    assert box["width"] * box["height"] > 0, f"{chart_key} has no visible bar"
    app.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _trajectory_total(app: App) -> int:
    caption = app.main.get_by_text(re.compile(r"All \d+ trajectories of the chosen runs"))
    expect(caption).to_be_visible()
    return int(re.search(r"All (\d+)", caption.inner_text()).group(1))  # type: ignore[union-attr]


def _narrowed(app: App) -> int:
    narrowed = app.main.get_by_text(re.compile(r"\d+ trajectories in the clicked bars"))
    app.wait(narrowed)
    return int(re.match(r"(\d+)", narrowed.inner_text()).group(1))  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("view", "chart_key", "name"),
    [("Success", "chart_site", "site"), ("Outcomes and failures", "chart_taxonomy", "taxonomy")],
)
def test_overview_bar_click_filters_the_list(app: App, view: str, chart_key: str, name: str) -> None:
    app.goto("", app.page.locator(f".st-key-{chart_key} .main-svg"), view=view)
    total = _trajectory_total(app)
    _click_tallest_bar(app, chart_key)
    shown = _narrowed(app)
    assert 0 < shown < total
    link = app.main.get_by_role("link", name=re.compile("Open this selection on the Trajectories page"))
    expect(link).to_be_visible()
    app.assert_no_exception()
    app.shot(f"overview-{name}-bar-clicked")
    # The selection opens on the Trajectories page with the same rows.
    link.click()
    app.wait(app.main.get_by_text(re.compile(rf"{shown} of \d+ trajectories")))
    app.assert_no_exception()
