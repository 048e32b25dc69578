"""`webeval score PATH`: where it looks for a config, what it says when nothing is scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder, wav_folder
from webeval_core.cli import main


def test_score_never_reads_a_config_above_the_folder_it_is_given(tmp_path: Path) -> None:
    (tmp_path / "webarena-verified-config.json").write_text("{not json", encoding="utf-8")
    root = tmp_path / "root"
    wav_folder(root, "108")

    code, out = run_cli("score", str(root), "--json")

    (result,) = json.loads(out)["results"]
    assert code == 0
    assert "config" not in (result["reason"] or ""), result


def test_score_says_when_no_trajectory_has_an_official_evaluator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fara_folder(tmp_path / "WebTailBench_hf" / "traj", "alltrails_find_23")
    assert main(["score", str(tmp_path)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == "Nothing scored: none of the 1 trajectories has an official evaluator to run"
