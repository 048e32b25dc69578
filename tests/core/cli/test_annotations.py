"""`webeval annotations list`: one annotation a line, its fields split by real tabs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.builders import wav_folder
from tests.core.cli.helpers import run_cli


def test_list_separates_fields_with_tabs(tmp_path: Path) -> None:
    from webeval_core.review import Annotation, open_store

    wav_folder(tmp_path / "root" / "cli", "7")
    run = json.loads(run_cli("ls", str(tmp_path / "root"), "--json")[1])["runs"][0]["key"]
    store = str(tmp_path / "notes.sqlite")
    notes = open_store(store)
    notes.add(
        Annotation(
            run=run, task_id="7", reviewer="ann", stage="blind", outcome="failure", justification="said\tso"
        )
    )
    notes.close()

    code, text = run_cli("annotations", "list", str(tmp_path / "root"), "--annotations", store)

    assert code == 0
    (line,) = text.splitlines()
    # A tab inside a field stays escaped, so it cannot shift the columns after it.
    assert line.split("\t")[1:] == [run, "7", "ann", "blind", "failure", "said\\tso"]
