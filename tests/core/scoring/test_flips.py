"""The flip report of a scoring: a task corrected in a copy of the dataset, the sample re-scored,
and the report names exactly the trajectories whose verdict changed (the diff of the two sets of
score files, read by hand), with both sides' evaluators; recorded for the app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Sample, private_copy
from tests.core.cli.helpers import run_cli
from tests.core.scoring.helpers import CHANGED, check_flips
from tests.harness.datasets import changed_dataset, response_tasks
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs import last_scoring
from webeval_core.scoring.flips import FlipReport


@pytest.fixture
def corrected(tmp_path: Path) -> tuple[Path, list[int]]:
    catalog = load_catalog()
    tasks = response_tasks(catalog, CHANGED)
    return changed_dataset(catalog, tasks, tmp_path / "dataset"), tasks


def test_a_corrected_dataset_flips_exactly_the_score_files_diff(
    scored_sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, corrected: tuple[Path, list[int]]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = private_copy(scored_sample.root, tmp_path / "sample_runs")
    dataset, tasks = corrected
    flips_file = tmp_path / "flips.json"
    code, text = run_cli(
        "score", str(root), "--tasks", str(dataset), "--jobs", "2", "--flips", str(flips_file)
    )
    assert code == 0
    report = FlipReport.model_validate_json(flips_file.read_text())
    check_flips(root, report, tasks)
    assert text.strip().splitlines()[-1] == report.summary()
    recorded = last_scoring(root)
    assert recorded is not None and recorded.flips == report.flips  # the app's "last scoring"

    # Against a named eval hash: the first scoring's files, whatever is in force now.
    ((old, _),) = report.before.items()
    code, again = run_cli("score", str(root), "--tasks", str(dataset), "--against", old, "--json")
    assert code == 0
    against = FlipReport.model_validate(json.loads(again)["flips"])
    assert against.against == old and against.flips == report.flips
