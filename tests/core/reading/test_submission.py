"""Submission packages made by the official packager: read as runs, with what it left out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.har_builders import GITLAB, document, response_text, wav_folder
from webeval_core.reading.submission import extract_submission, read_submission
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.runs.discovery import discover_runs
from webeval_core.support.diagnostics import UnreadableError

EXPECTED_ISSUES = {
    "missing_agent_response_only": (134,),
    "missing_network_har_only": (133,),
    "invalid_har_files": (135,),
    "empty_agent_response": (136,),
    "unknown_tasks": (99999,),
}


def run_output_with_problems(root: Path) -> Path:
    """A run's output folder in the official CLI's layout, with one task of each problem."""
    page = [document(f"{GITLAB}/dashboard")]
    wav_folder(root, 132, response_text("RETRIEVE", data=["7"]), page)
    wav_folder(root, 133, response_text("RETRIEVE", data=["7"]), None)  # no trace
    wav_folder(root, 134, None, page)  # no response
    (wav_folder(root, 135, response_text("RETRIEVE"), None) / "network.har").write_text('{"nolog": 1}')
    wav_folder(root, 136, "", page)  # empty response: packaged, flagged
    wav_folder(root, 99999, response_text("RETRIEVE"), page)  # not a dataset task
    return root


def make_package(run_output: Path, out: Path, *, tar: bool) -> Path:
    """Made by the official packager's command line, as a user would."""
    command = [sys.executable, "-m", "webarena_verified", "create-submission-pkg"]
    command += ["--run-output-dir", str(run_output), "--output", str(out), "--name", "pkg"]
    subprocess.run([*command, *([] if tar else ["--no-tar"])], check=True, capture_output=True, timeout=120)
    return out / ("pkg.tar.gz" if tar else "pkg")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(run output, package folder, package tar)."""
    base = tmp_path_factory.mktemp("submission")
    run_output = run_output_with_problems(base / "run")
    return (
        run_output,
        make_package(run_output, base / "out", tar=False),
        make_package(run_output, base / "out", tar=True),
    )


def test_a_package_folder_lists_what_was_left_out(made: tuple[Path, Path, Path]) -> None:
    _, folder, _ = made
    package = read_submission(folder)
    assert package.packaged == (132, 136) and package.expected == 812
    assert {i.kind: i.task_ids for i in package.issues} == EXPECTED_ISSUES
    assert package.rejected == (133, 134, 135, 99999)
    assert len(package.missing_from_output) == 812 - 5


def test_a_package_opens_as_a_run_of_trajectories(made: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, folder, tar = made
    for root in (folder, extract_submission(tar, tmp_path / "unpacked")):
        runs = discover_runs(root)
        assert len(runs) == 1
        loaded = {d.name: load_trajectory(d) for d in runs[0].trajectory_dirs}
        assert loaded["132"].outcome == "answered" and loaded["132"].har_path is not None
        assert loaded["136"].outcome == "no_answer"
        assert loaded["135"].har_path is None  # its invalid trace was not packaged
    assert read_submission(tar).model_copy(update={"path": folder}) == read_submission(folder)


def test_bad_packages_are_named(tmp_path: Path) -> None:
    not_tar = tmp_path / "pkg.tar.gz"
    not_tar.write_text("nope")
    with pytest.raises(UnreadableError, match="is not a readable tar"):
        read_submission(not_tar)
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "summary.json").write_text('{"packaged_tasks": {}}')
    with pytest.raises(UnreadableError, match="is not a packager summary"):
        read_submission(tmp_path / "odd")
