"""ATIF of every sample trajectory: each document is ATIF (the RFC's schema and rules), its images
lie beside it, and ids, steps and verdicts come back as the folder and the index say them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Sample
from tests.core.cli.helpers import run_cli
from tests.harness.atif_schema import atif_problems
from tests.harness.cube_writer import CubeStep, screenshot, write_episode
from webeval_core.presentation.atif import DOCUMENT, write_atif_folder
from webeval_core.presentation.redaction import Redactor
from webeval_core.reading import load_trajectory
from webeval_core.runs.index import build_index


@pytest.fixture(scope="module")
def atif_folder(scored_sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("atif") / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder.parent / "cache"))
        code, said = run_cli("export", str(scored_sample.root), "--format", "atif", "-o", str(folder))
    assert code == 0 and "ATIF documents" in said
    return folder


def test_every_sample_trajectory_is_atif(scored_sample: Sample, atif_folder: Path) -> None:
    index = build_index(scored_sample.root)
    readable = [s for s in index.summaries if not s.unreadable]
    documents = sorted(atif_folder.rglob(DOCUMENT))
    assert len(documents) == len(readable) > 90
    for path in documents:
        document = json.loads(path.read_text())
        assert atif_problems(document) == [], path
        for step in document["steps"]:
            for result in step.get("observation", {}).get("results", []):
                for part in result.get("content") or []:
                    if part["type"] == "image":
                        assert (path.parent / part["source"]["path"]).is_file()


def test_ids_steps_and_verdicts_come_back(scored_sample: Sample, atif_folder: Path) -> None:
    index = build_index(scored_sample.root)
    checked = 0
    for summary in index.summaries:
        if summary.unreadable:
            continue
        document = json.loads((atif_folder / summary.run_key / summary.path.name / DOCUMENT).read_text())
        assert document["session_id"] == f"{summary.run_key}/{summary.task_id}"
        trajectory = load_trajectory(summary.path)
        actions = [s for s in document["steps"] if s.get("tool_calls")]
        assert [a["tool_calls"][0]["function_name"] for a in actions] == [s.action for s in trajectory.steps]
        webeval = document["extra"]["webeval"]
        assert (webeval["task_id"], webeval["outcome"]) == (summary.task_id, summary.outcome)
        official = webeval["verdicts"].get("official")
        assert official == (
            {"status": summary.verdict.status, "score": summary.verdict.score} if summary.verdict else None
        )
        assert {k: v for k, v in webeval["verdicts"].items() if k != "official"} == summary.scores
        checked += 1
    assert checked > 90
    assert (atif_folder / "redaction-report.json").is_file()


def test_screenshots_kept_in_cube_harness_step_files_are_written_beside_the_document(tmp_path: Path) -> None:
    root = tmp_path / "root"
    steps = [CubeStep("click", {"bid": "a51"}), CubeStep("final_step", {}, reward=1.0, done=True)]
    write_episode(root / "exp", "webarena_verified.27", steps)
    written = write_atif_folder(
        build_index(root, cache_dir=tmp_path / "cache"), tmp_path / "atif", Redactor(None)
    )
    (document,) = written
    doc = json.loads(document.read_text())
    assert atif_problems(doc) == []
    assert sorted(p.name for p in document.parent.glob("*.png")) == [
        "000_obs-0.png",
        "002_obs-0.png",
        "004_obs-0.png",
    ]
    assert (document.parent / "002_obs-0.png").read_bytes() == screenshot(2)
    back = load_trajectory(document.parent)
    assert [s.screenshot for s in back.steps] == ["000_obs-0.png", "002_obs-0.png"]
