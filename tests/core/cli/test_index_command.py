"""`webeval index ROOT`: the index refreshed and its counts said."""

from __future__ import annotations

import os
from pathlib import Path

from tests.core.cli.helpers import run_cli
from tests.harness.builders import wav_folder


def test_index_reports_counts(tmp_path: Path) -> None:
    wav_folder(tmp_path / "cli", "7")
    code, text = run_cli("index", str(tmp_path))
    assert code == 0
    assert "Indexed 1 trajectory in 1 run under" in text


def test_index_names_the_folders_it_cannot_index(tmp_path: Path) -> None:
    wav_folder(tmp_path / "cli", "7")
    wav_folder(Path(os.fsdecode(os.fsencode(tmp_path / "cli") + b"/\xe9t\xe9")), "8")
    code, text = run_cli("index", str(tmp_path))
    assert code == 0
    assert "1 folder(s) not indexed: their names are not UTF-8, which the index cannot keep or show" in text
    assert "(cli/\ufffdt\ufffd; U+FFFD marks each byte that is not). Rename them to index them." in text
    assert "Indexed 1 trajectory in 1 run under" in text
