"""Harbor trials on the registry while they run: a trial Harbor has started (its folders, trial.log
and config.json, no document yet) is listed running with no step, then with its steps once the
agent writes its document, and over once result.json is written; the job's config.json names the
run's agent and model (issue 52's live runs and run facts)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harness.harbor_writer import (
    agent_step,
    document,
    finish_trial,
    start_trial,
    write_job_config,
    write_trial,
)
from webeval_core.reading import TaskState, glance_trajectory, load_trajectory, task_progress
from webeval_core.reading.formats import format_of, is_trajectory_folder, run_place
from webeval_core.reading.formats.harbor import FORMAT
from webeval_core.reading.task_state import task_end
from webeval_core.runs import build_index, discover_runs


def test_a_started_trial_is_running_before_its_agent_writes_a_step(tmp_path: Path) -> None:
    job = tmp_path / "jobs" / "2026-12-01__10-00-00"
    trial = start_trial(job / "flights__a1")
    assert format_of(trial, {p.name for p in trial.iterdir()}) is FORMAT
    glance = glance_trajectory(trial)
    assert (glance.layout, glance.task_id, glance.outcome, glance.steps) == (
        "harbor-atif",
        "flights",
        "unfinished",
        0,
    )
    loaded = load_trajectory(trial)
    assert (loaded.outcome, loaded.steps, loaded.warnings) == ("unfinished", (), ())
    assert loaded.harness is not None and loaded.harness.running
    assert task_end(trial) is None and task_progress(trial).state is TaskState.RUNNING
    # The agent writes its document: its steps so far, still running.
    write_trial(trial, document([agent_step(3, "left_click", {"x": 1, "y": 2})], answer=None))
    assert (glance_trajectory(trial).steps, task_progress(trial).state) == (1, TaskState.RUNNING)
    finish_trial(trial, reward=1.0)
    assert task_end(trial) is not None and task_progress(trial).state is TaskState.FINISHED


def test_a_trial_that_ended_without_a_document_says_so(tmp_path: Path) -> None:
    trial = start_trial(tmp_path / "job" / "hotels__b2")
    finish_trial(
        trial, reward=None, exception=("EnvironmentStartTimeoutError", "the environment did not start")
    )
    loaded = load_trajectory(trial)
    assert (loaded.outcome, loaded.crash_reason) == (
        "aborted",
        "EnvironmentStartTimeoutError: the environment did not start",
    )
    assert any("agent/trajectory.json" in w and "never written" in w for w in map(str, loaded.warnings))
    assert task_progress(trial).state is TaskState.CRASHED


def test_folders_that_only_look_like_a_trial_are_not_claimed(tmp_path: Path) -> None:
    # config.json and an agent/ folder are common names: a trial also has Harbor's trial.log or
    # verifier/ (made with it); the job folder above the trials is none.
    project = tmp_path / "project"
    (project / "agent").mkdir(parents=True)
    (project / "config.json").write_text("{}")
    job = tmp_path / "job"
    start_trial(job / "flights__a1")
    write_job_config(job)
    (job / "job.log").write_text("")
    assert not is_trajectory_folder(project) and not is_trajectory_folder(job)
    assert [d.name for r in discover_runs(tmp_path) for d in r.trajectory_dirs] == ["flights__a1"]


def test_the_job_s_config_names_the_run_s_agent_model_and_dataset(tmp_path: Path) -> None:
    job = tmp_path / "jobs" / "2026-12-01__10-00-00"
    write_job_config(job, agent="claude-code", model="anthropic/claude-opus-4", dataset="webarena-verified")
    for name in ("flights__a1", "hotels__b2"):
        write_trial(start_trial(job / name), document([agent_step(3, "left_click", {"x": 1, "y": 2})]))
    (run,) = discover_runs(tmp_path)
    assert run.metadata == {
        "system": "claude-code",
        "model": "anthropic/claude-opus-4",
        "user": None,
        "benchmark": "webarena-verified",
        "run_id": "2026-12-01__10-00-00",
    }
    assert run.label == "claude-code · anthropic/claude-opus-4 · webarena-verified · run 2026-12-01__10-00-00"
    index = build_index(tmp_path, cache_dir=tmp_path / "cache")
    assert [r.label for r in index.runs] == [run.label]
    # Without the job's config (a trial run alone), the trial's config.json says the agent; a
    # malformed job config is no error: the run is named by what else says it.
    (job / "config.json").write_text("{not json")
    place = run_place(tmp_path, job / "flights__a1")
    assert dict(place.facts) == {"system": "browser-agent", "model": "gpt-5"}
    (job / "flights__a1" / "config.json").unlink()
    assert dict(run_place(tmp_path, job / "flights__a1").facts) == {
        "system": "browser-agent",
        "model": "gpt-5",
    }
    doc = json.loads((job / "flights__a1" / "agent" / "trajectory.json").read_text())
    assert doc["agent"]["name"] == "browser-agent"  # the ATIF document's agent said it


def test_a_job_of_several_agents_names_each(tmp_path: Path) -> None:
    job = tmp_path / "job"
    write_trial(start_trial(job / "flights__a1"), document([agent_step(3, "left_click", {"x": 1, "y": 2})]))
    config = json.loads(write_job_config(job).read_text())
    config["agents"].append({"name": "browser-agent", "model_name": "gpt-4o"})
    (job / "config.json").write_text(json.dumps(config))
    assert dict(run_place(tmp_path, job / "flights__a1").facts)["model"] == "gpt-5 + gpt-4o"
