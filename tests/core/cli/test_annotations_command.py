"""`webeval annotations list`: one annotation a line, its fields split by real tabs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.cli.helpers import run_cli
from tests.harness.builders import wav_folder
from tests.harness.postgres_server import store_arguments


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

    code, text = run_cli("annotations", "list", str(tmp_path / "root"), *store_arguments(store))

    assert code == 0
    (line,) = text.splitlines()
    # A tab inside a field stays escaped, so it cannot shift the columns after it.
    assert line.split("\t")[1:] == [run, "7", "ann", "blind", "failure", "said\\tso"]


def test_export_audit_writes_who_wrote_each_row_verified_or_not(tmp_path: Path) -> None:
    from webeval_core.policy.access import AccessPolicy, acting_as
    from webeval_core.review import Annotation, open_store

    wav_folder(tmp_path / "root" / "cli", "7")
    run = json.loads(run_cli("ls", str(tmp_path / "root"), "--json")[1])["runs"][0]["key"]
    store = str(tmp_path / "notes.sqlite")
    notes = open_store(store, AccessPolicy(sign_in=True))
    with acting_as("ann@example.org", verified=True):
        notes.add(
            Annotation(run=run, task_id="7", reviewer="ann@example.org", stage="blind", outcome="failure")
        )
    notes.close()
    audit = tmp_path / "audit.jsonl"

    code, text = run_cli(
        "annotations", "export", str(tmp_path / "root"), *store_arguments(store), "--audit", str(audit)
    )

    assert code == 0
    assert text.splitlines()[0].split(",")[-2:] == ["signed_in", "revealed"]  # who, and what they had seen
    (entry,) = [json.loads(line) for line in audit.read_text().splitlines()]
    assert (entry["kind"], entry["name"], entry["signed_in"]) == (
        "annotation",
        "ann@example.org",
        "ann@example.org",
    )
