"""`webeval check`: the official packager's own rules run on a run's output before submitting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.core.reading.test_submission import make_package, run_output_with_problems
from tests.harness.har_builders import GITLAB, document, response_text, wav_folder
from webeval_core.reading.submission import read_submission
from webeval_core.scoring.packaging import check_submission


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(run output, the official packager's package folder of it)."""
    base = tmp_path_factory.mktemp("check")
    run_output = run_output_with_problems(base / "run")
    return run_output, make_package(run_output, base / "out", tar=False)


def test_check_runs_the_packagers_rules_before_submitting(made: tuple[Path, Path]) -> None:
    run_output, folder = made
    assert check_submission(run_output) == read_submission(folder).model_copy(update={"path": run_output})
    assert not any(p.name.startswith("webeval-check") for p in run_output.iterdir())  # nothing written there
    code, text = run_cli("check", str(run_output))
    assert code == 1
    assert "REJECTED: network trace invalid or empty (1): 135" in text
    assert "warning: agent_response.json empty (packaged) (1): 136" in text
    assert text.endswith("4 task(s) would be left out of the package\n")
    code, text = run_cli("check", str(folder), "--json")
    assert code == 1 and json.loads(text)["rejected"] == [133, 134, 135, 99999]


def test_a_clean_run_passes_and_a_file_is_refused(tmp_path: Path) -> None:
    clean = tmp_path / "clean"
    wav_folder(clean, 132, response_text("RETRIEVE", data=["7"]), [document(f"{GITLAB}/a")])
    code, text = run_cli("check", str(clean))
    assert code == 0 and text.endswith("Nothing would be left out of the package.\n")
    (tmp_path / "file.txt").write_text("x")
    code, _ = run_cli("check", str(tmp_path / "file.txt"))
    assert code == 2
