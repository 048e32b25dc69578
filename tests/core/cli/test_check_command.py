"""`webeval check FOLDER`: exit 2 and a plain sentence when there is nothing to check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_check_of_a_folder_without_tasks_says_there_is_nothing_to_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    fara_folder(tmp_path / "run", "alltrails_find_23")  # a Fara task: no WebArena-Verified task id

    code, text = run_cli("check", str(tmp_path / "run"), *(["--json"] if as_json else []))

    assert code == 2
    if as_json:
        assert json.loads(text)["packaged"] == []
    else:
        assert "Nothing would be left out" not in text
    assert "nothing to check" in capsys.readouterr().err
