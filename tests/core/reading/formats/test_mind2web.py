"""Online-Mind2Web result folders on the registry while they are written: a task being run (its
`trajectory/` of numbered screenshots, no result.json yet) is listed running with its steps so far,
and over once result.json is written; a folder named so by chance is not claimed; the results
folder's name is the run's system (issue 52's live runs and run facts)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.harness.builders import fara_folder
from tests.harness.mind2web_writer import start_task, write_result
from webeval_core.reading import TaskState, glance_trajectory, load_trajectory, task_progress
from webeval_core.reading.formats import format_of, is_trajectory_folder, run_place
from webeval_core.reading.formats.mind2web import FORMAT
from webeval_core.reading.task_state import task_end
from webeval_core.runs import build_index, discover_runs

RUN = "runs/WebSurfer-x/fara-7b/demo/WebArenaVerified/0/traj"


def test_a_task_being_run_is_listed_running_with_its_screenshots_so_far(tmp_path: Path) -> None:
    results = tmp_path / "results" / "seeact-gpt-4o"
    done = write_result(results, "a1b2", ["TYPE: Lisbon", "CLICK: Search"])
    running = start_task(results, "c3d4", 2, name="{n}_full_screenshot.png")
    assert format_of(running, {"trajectory"}) is FORMAT
    (run,) = discover_runs(tmp_path)
    assert [d.name for d in run.trajectory_dirs] == ["a1b2", "c3d4"]
    glance = glance_trajectory(running)
    assert (glance.layout, glance.outcome, glance.steps, glance.screenshots) == (
        "online-mind2web",
        "unfinished",
        2,
        2,
    )
    loaded = load_trajectory(running)
    assert (loaded.outcome, loaded.final_answer_text, loaded.warnings) == ("unfinished", None, ())
    assert [s.screenshot for s in loaded.steps] == [
        "trajectory/0_full_screenshot.png",
        "trajectory/1_full_screenshot.png",
    ]
    assert loaded.harness is not None and loaded.harness.running
    assert task_end(running) is None and task_progress(running).state is TaskState.RUNNING
    index = build_index(tmp_path, cache_dir=tmp_path / "cache")
    assert {s.task_id: s.outcome for s in index.summaries} == {"a1b2": "answered", "c3d4": "unfinished"}
    # The runner writes result.json at the end: the task is over, as the finished one is.
    write_result(results, "c3d4", ["CLICK: Search", "ANSWER"], "Hotel Lx.")
    assert task_end(running) is not None
    assert task_progress(running).state is TaskState.FINISHED is task_progress(done).state
    assert load_trajectory(running).outcome == "answered"


def test_a_folder_of_other_things_named_trajectory_is_not_claimed(tmp_path: Path) -> None:
    # `trajectory` is a common name: only a runner's folder (numbered images, nothing else beside
    # them but logs and scores/) is a task being run.
    notes = tmp_path / "project" / "trajectory"
    notes.mkdir(parents=True)
    (notes / "plan.md").write_text("steps")
    Image.new("RGB", (4, 4)).save(notes / "0.png")
    unnumbered = tmp_path / "pictures" / "trajectory"
    unnumbered.mkdir(parents=True)
    Image.new("RGB", (4, 4)).save(unnumbered / "cover.png")
    empty = tmp_path / "empty" / "trajectory"
    empty.mkdir(parents=True)
    beside = start_task(tmp_path / "code", "app", 1)
    (beside / "src").mkdir()  # another sub-folder: no runner's task folder
    assert not any(is_trajectory_folder(p) for p in (notes.parent, unnumbered.parent, empty.parent, beside))
    # A Fara folder whose screenshots were copied into trajectory/ stays Fara's.
    fara = fara_folder(tmp_path / RUN, "7")
    start_task(fara.parent, "7", 2)
    assert format_of(fara, {p.name for p in fara.iterdir()}).name == "fara"
    # The screenshots folder itself is no task (asked of it by name, or by the walk).
    assert not FORMAT.detect(str(beside / "trajectory"), {"0.png"}, asked=True)
    assert discover_runs(tmp_path)[0].trajectory_dirs == (fara,)


def test_the_results_folder_names_the_run_s_system(tmp_path: Path) -> None:
    results = tmp_path / "results" / "browser_use-gpt-4.1"
    folder = write_result(results, "a1b2", ["CLICK: Search"])
    place = run_place(tmp_path, folder)
    assert place.path == results and dict(place.facts) == {"system": "browser_use-gpt-4.1"}
    (run,) = discover_runs(tmp_path)
    assert run.label == "browser_use-gpt-4.1"
    # A task folder named as the root says nothing of the folders above it.
    assert run_place(folder, folder).facts == ()
