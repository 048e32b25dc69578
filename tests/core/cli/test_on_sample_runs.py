"""The CLI on the committed sample_runs/ (a copy): show and ls read every folder, and scoring gives
every trajectory the verdict the sample generator intended (checked there with the official
evaluator on the raw inputs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Sample, private_copy
from tests.core.cli.helpers import run_cli
from webeval_core.reading.embedded_images import MARK
from webeval_core.reading.formats import formats
from webeval_core.runs.discovery import iter_trajectory_dirs


@pytest.fixture(scope="module")
def sample_copy(scored_sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the session's scored sample: `score --force` below rewrites its files."""
    return private_copy(scored_sample.root, tmp_path_factory.mktemp("cli") / "sample_runs")


def test_show_reads_every_sample_folder(sample_copy: Path) -> None:
    folders = list(iter_trajectory_dirs(sample_copy))
    intended = json.loads((sample_copy / "intended_verdicts.json").read_text(encoding="utf-8"))
    assert len(folders) == len(intended) == 109
    layouts = set()
    for folder in folders:
        code, text = run_cli("show", str(folder), "--json")
        assert code == 0, folder
        payload = json.loads(text)
        # Another harness names its folders its own way (an AgentLab episode, a Harbor trial).
        task_id = str(intended[folder.relative_to(sample_copy).as_posix()]["task_id"])
        assert payload["task_id"] == task_id
        layouts.add(payload["layout"])
        # A screenshot inside a step file (cube-harness) is named for the file and its place in it.
        assert all((folder / rel.split(MARK)[0]).is_file() for rel in payload["screenshots"])
        code, text = run_cli("show", str(folder))
        assert code == 0 and f"Task {task_id}" in text
    assert layouts == {f.name for f in formats()}


def test_ls_lists_every_sample_run(sample_copy: Path) -> None:
    code, text = run_cli("ls", str(sample_copy), "--json")
    assert code == 0
    payload = json.loads(text)
    counts = {run["key"]: len(run["trajectories"]) for run in payload["runs"]}
    # The live-web run holds four, each other harness's three (sample_runs/README.md).
    assert sorted(counts.values()) == [3, 3, 3, 3, 4, 5, 44, 44]
    assert payload["unreadable"] == []


def test_score_gives_the_intended_verdicts_and_writes_a_file_for_each(sample_copy: Path) -> None:
    intended = json.loads((sample_copy / "intended_verdicts.json").read_text(encoding="utf-8"))
    code, text = run_cli("score", str(sample_copy), "--json", "--jobs", "2")
    assert code == 0
    results = {Path(r["path"]).relative_to(sample_copy).as_posix(): r for r in json.loads(text)["results"]}

    for rel, plan in intended.items():
        result = results[rel]
        assert result["status"] == (plan["expected_status"] or "excluded"), (rel, plan["scenario"], result)
        written = list((sample_copy / rel / "scores").glob("webarena-verified-*.json"))
        assert len(written) == (0 if plan["expected_status"] is None else 1), rel

    # The upstream navigate-task limitation is named where it decided the verdict, and only there.
    for rel, plan in intended.items():
        if plan["expected_status"] is None:
            continue
        (written,) = (sample_copy / rel / "scores").glob("webarena-verified-*.json")
        stored = json.loads(json.loads(written.read_text(encoding="utf-8"))["gpt_response_text"])
        limited = any(check["limitation"] for check in stored["network"])
        assert limited == (plan["scenario"] == "navigate_left"), (rel, plan["scenario"])

    # Re-scoring unchanged inputs reuses the files byte for byte.
    before = {p: p.read_bytes() for p in sample_copy.rglob("scores/webarena-verified-*.json")}
    code, _ = run_cli("score", str(sample_copy), "--force", "--json")
    assert code == 0
    assert {p: p.read_bytes() for p in sample_copy.rglob("scores/webarena-verified-*.json")} == before
