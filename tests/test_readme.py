"""The README's commands run as written, on a copy of the sample runs: a newcomer's first commands
must work (those naming a placeholder, `...`, `KEY` or `/path/to`, and the app, are run by the
tests of their command instead)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_RUNS, private_copy
from webeval_core.cli import main

REPO = Path(__file__).resolve().parents[1]
PLACEHOLDERS = ("...", "KEY", "/path/to", " app ")


def _commands() -> list[str]:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    commands = [line.split("  #")[0].strip() for line in lines if line.startswith(".venv/bin/webeval ")]
    return [c for c in commands if not any(p in f"{c} " for p in PLACEHOLDERS)]


def test_the_readme_shows_its_commands() -> None:
    assert len(_commands()) >= 5


@pytest.mark.parametrize("command", _commands())
def test_a_readme_command_runs(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)  # output files (runs.csv) land here
    private_copy(SAMPLE_RUNS, tmp_path / "sample_runs")
    args = shlex.split(command)[1:]
    assert main(args) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip() or any(tmp_path.glob("*.csv"))
