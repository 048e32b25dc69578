"""Run discovery: Fara trees are grouped by their path, flat folders by their parent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.builders import fara_folder, wav_folder
from webeval_core.runs import build_index
from webeval_core.runs.discovery import discover_runs, iter_trajectory_dirs, run_of

FARA_RUN = Path("runs/WebSurfer-fara-100-max_n_images-3/fara-7b/alice/WebArenaVerified_x/0")


def test_fara_tree_gives_run_metadata_from_the_path(tmp_path: Path) -> None:
    traj = tmp_path / FARA_RUN / "traj"
    fara_folder(traj, "108")
    fara_folder(traj, "109")

    (run,) = discover_runs(tmp_path)

    assert run.key == FARA_RUN.as_posix()
    assert (run.system, run.model, run.user, run.benchmark, run.run_id) == (
        "WebSurfer-fara-100-max_n_images-3",
        "fara-7b",
        "alice",
        "WebArenaVerified_x",
        "0",
    )
    assert [p.name for p in run.trajectory_dirs] == ["108", "109"]
    assert run.label == "fara-7b · WebArenaVerified_x · run 0"


def test_flat_folders_are_grouped_by_parent_and_runs_are_sorted(tmp_path: Path) -> None:
    wav_folder(tmp_path / "official-cli", "7")
    wav_folder(tmp_path / "official-cli", "8")
    fara_folder(tmp_path / "adhoc", "alltrails_find_23")

    runs = discover_runs(tmp_path)

    assert [r.key for r in runs] == ["adhoc", "official-cli"]
    assert [len(r.trajectory_dirs) for r in runs] == [1, 2]
    assert runs[1].model is None


def test_root_that_is_itself_a_trajectory(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, "7")
    assert list(iter_trajectory_dirs(folder)) == [folder]
    assert run_of(tmp_path, folder).key == tmp_path.name


def test_scores_hidden_and_symlinked_dirs_are_not_walked(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    wav_folder(outside, "5")
    root = tmp_path / "root"
    wav_folder(root / "run", "1")
    (root / "run" / "link").symlink_to(outside, target_is_directory=True)
    wav_folder(root / ".hidden", "2")

    assert [p.name for p in iter_trajectory_dirs(root)] == ["1"]


def test_unreadable_directory_does_not_stop_discovery(tmp_path: Path) -> None:
    wav_folder(tmp_path / "run", "1")
    locked = tmp_path / "run" / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        assert [p.name for p in iter_trajectory_dirs(tmp_path)] == ["1"]
    finally:
        locked.chmod(0o755)


def test_task_folders_sort_numerically(tmp_path: Path) -> None:
    for task in ("108", "11", "9", "notes_2", "notes_10"):
        wav_folder(tmp_path / "run", task)
    assert [p.name for p in iter_trajectory_dirs(tmp_path)] == ["9", "11", "108", "notes_2", "notes_10"]


def test_a_root_that_is_a_trajectory_or_a_run_has_one_key_however_it_is_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "my-run"
    folder = wav_folder(run, "7")
    wav_folder(run, "8")
    (tmp_path / "link").symlink_to(run, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    typed_run = [run, Path("my-run"), Path("my-run/"), Path("./my-run"), Path("link")]
    assert {r.key for given in typed_run for r in discover_runs(given)} == {"my-run"}
    typed_trajectory = [folder, Path("my-run/7"), Path("my-run/7/"), Path("link/7")]
    assert {r.key for given in typed_trajectory for r in discover_runs(given)} == {"7"}
    monkeypatch.chdir(folder)
    assert [r.key for r in discover_runs(Path("."))] == ["7"]


def test_other_harnesses_runs_are_labelled_by_the_system_and_model_they_record(tmp_path: Path) -> None:
    # Compare's and the Overview's pickers name runs by `Run.label` (`metrics.run_labels`): a
    # harness run is named by what its harness records, not by its path.
    from tests.harness.agentlab_writer import PlannedStep
    from tests.harness.agentlab_writer import write_episode as write_agentlab
    from tests.harness.cube_writer import CubeStep, write_experiment_config
    from tests.harness.cube_writer import write_episode as write_cube
    from tests.harness.harbor_writer import agent_step, document, start_trial, write_job_config, write_trial
    from tests.harness.mind2web_writer import write_result
    from webeval_core.runs.metrics import run_labels

    study = tmp_path / "agentlab" / "2026-11-30_09-00-00_genericagent-gpt-4o_on_webarena_verified"
    write_agentlab(study, "webarena_verified.1", [PlannedStep("click('a1')"), PlannedStep(None)])
    experiment = tmp_path / "cube" / "wav_genny"
    write_experiment_config(experiment, model="gpt-4.1")
    write_cube(experiment, "webarena_verified.1", [CubeStep("click", {"bid": "a1"})])
    job = tmp_path / "harbor" / "2026-11-30__09-00-00"
    write_job_config(job, agent="browser-agent", model="gpt-5")
    write_trial(start_trial(job / "1__x"), document([agent_step(3, "left_click", {"x": 1, "y": 2})]))
    write_result(tmp_path / "mind2web" / "seeact-gpt-4o", "1", ["CLICK: Search"])
    runs = discover_runs(tmp_path)
    assert {r.key: (r.system, r.model, r.benchmark) for r in runs} == {
        "agentlab/2026-11-30_09-00-00_genericagent-gpt-4o_on_webarena_verified": (
            "GenericAgent",
            "gpt-4o",
            "webarena_verified",
        ),
        "cube/wav_genny": ("Genny", "gpt-4.1", "webarena_verified"),
        "harbor/2026-11-30__09-00-00": ("browser-agent", "gpt-5", "webarena-verified"),
        "mind2web/seeact-gpt-4o": ("seeact-gpt-4o", None, None),
    }
    assert sorted(run_labels(runs).values()) == [
        "GenericAgent · gpt-4o · webarena_verified",
        "Genny · gpt-4.1 · webarena_verified · run wav_genny",
        "browser-agent · gpt-5 · webarena-verified · run 2026-11-30__09-00-00",
        "seeact-gpt-4o",
    ]
    # The index keeps the same facts (the runs table, one read of a run's config per run).
    index = build_index(tmp_path, cache_dir=tmp_path / "cache")
    assert sorted(r.label for r in index.runs) == sorted(run_labels(runs).values())
