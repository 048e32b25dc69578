"""`webeval index ROOT`: the index refreshed and its counts said."""

from __future__ import annotations

from pathlib import Path

from tests.builders import wav_folder
from tests.core.cli.helpers import run_cli


def test_index_reports_counts(tmp_path: Path) -> None:
    wav_folder(tmp_path / "cli", "7")
    code, text = run_cli("index", str(tmp_path))
    assert code == 0
    assert "Indexed 1 trajectory in 1 run under" in text
