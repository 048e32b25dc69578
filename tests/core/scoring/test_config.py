"""The URL config: validated per trajectory, found beside it, and the dataset it names."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.core.scoring.helpers import (
    MUTATE,
    VOTE,
)
from tests.harness.har_builders import (
    CONFIG,
    REDDIT,
    entry,
    response_text,
    wav_folder,
    write_config,
)
from webeval_core.reading.task_catalog import default_dataset_path
from webeval_core.scoring import (
    load_url_config,
    score_trajectories,
    score_trajectory,
)
from webeval_core.support.diagnostics import UnreadableError


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        ({"enviroments": {}}, "unknown key 'enviroments'"),
        ({"environments": {"__AMAZON__": {"urls": ["http://x"]}}}, "unknown site '__AMAZON__'"),
        ({"environments": {"__REDDIT__": {"url": ["http://x"]}}}, "__REDDIT__: unknown key 'url'"),
        ({"environments": {"__REDDIT__": {"urls": []}}}, "'urls' must be a non-empty list"),
        ("not json", "not valid JSON"),
    ],
)
def test_bad_config_is_an_error_per_trajectory(tmp_path: Path, config: Any, reason: str) -> None:
    folder = wav_folder(tmp_path / "run", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    path = tmp_path / "config.json"
    path.write_text(config if isinstance(config, str) else json.dumps(config))
    (outcome,) = score_trajectories([folder], config=path)
    assert outcome.status == "error" and outcome.reason is not None and reason in outcome.reason


def test_config_file_names_another_dataset(tmp_path: Path) -> None:
    other = tmp_path / "tasks.json"
    other.write_text(json.dumps(json.loads(default_dataset_path().read_text())[:3]))
    folder = wav_folder(tmp_path / "run", 0, response_text("retrieve", data=["x"]), None)
    path = write_config(tmp_path / "config.json", {**CONFIG, "test_data_file": str(other)})
    (outcome,) = score_trajectories([folder], config=path)
    assert outcome.status == "error" and "pass that dataset as the task file" in (outcome.reason or "")
    (outcome,) = score_trajectories([folder], config=path, catalog=other)
    assert outcome.status == "failure"


def test_config_discovery(tmp_path: Path) -> None:
    root = tmp_path / "run"
    folder = wav_folder(root / "traj", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    write_config(root / "webarena-verified-config.json")
    outcome = score_trajectory(folder)
    assert outcome.evaluation is not None
    assert outcome.evaluation.url_config.source == "../../webarena-verified-config.json"
    assert outcome.evaluation.url_config.urls["__REDDIT__"] == [REDDIT]
    # The official CLI's per-task run_config.json comes first.
    write_config(folder / "run_config.json", {"environments": {"__REDDIT__": {"urls": [REDDIT]}}})
    outcome = score_trajectory(folder)
    assert outcome.evaluation is not None and outcome.evaluation.url_config.source == "run_config.json"
    # A root below the config stops the search.
    os.remove(folder / "run_config.json")
    outcome = score_trajectory(folder, config_root=root / "traj", write=False)
    assert outcome.evaluation is not None and outcome.evaluation.url_config.source is None


def test_a_config_that_is_not_a_regular_file_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "webarena-verified-config.json"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableError) as caught:
        load_url_config(fifo)
    assert caught.value.reason == "config file is a FIFO, not a regular file; not opened"
