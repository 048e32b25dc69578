"""`webeval export ROOT`: a row per trajectory as CSV or JSON lines, with its reviews when asked."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder, wav_folder
from tests.harness.postgres_server import store_arguments


def test_export_csv_has_one_row_per_trajectory(tmp_path: Path) -> None:
    fara_folder(tmp_path / "run", "a")
    fara_folder(tmp_path / "run", "b", final_answer="<no_answer>")
    target = tmp_path / "out.csv"

    code, _ = run_cli("export", str(tmp_path / "run"), "-o", str(target))

    assert code == 0
    rows = list(csv.DictReader(target.open()))
    assert [(r["task_id"], r["outcome"]) for r in rows] == [("a", "answered"), ("b", "no_answer")]


def test_export_names_each_task_as_the_pages_do(tmp_path: Path) -> None:
    """A live-web run's rows are told apart by their task text; a WebArena-Verified row has the
    catalog's site and intent (what every page and `webeval query` say)."""
    from webeval_core.reading.task_catalog import load_catalog

    live = fara_folder(tmp_path / "root" / "WebTailBench" / "traj", "alltrails_find_23")
    task_data = {"task_proposal": "Find a dog-friendly trail.", "website": "alltrails.com"}
    (live / "task_data.json").write_text(json.dumps(task_data), encoding="utf-8")
    wav_folder(tmp_path / "root" / "cli", "108")
    for fmt in ("csv", "jsonl"):
        target = tmp_path / f"out.{fmt}"
        assert run_cli("export", str(tmp_path / "root"), "--format", fmt, "-o", str(target))[0] == 0
        text = target.read_text(encoding="utf-8")
        rows = (
            list(csv.DictReader(text.splitlines()))
            if fmt == "csv"
            else [json.loads(x) for x in text.splitlines()]
        )
        named = {row["task_id"]: (row["site"], row["intent"]) for row in rows}
        task = load_catalog().get(108)
        assert task is not None
        assert named == {
            "alltrails_find_23": ("alltrails.com", "Find a dog-friendly trail."),
            "108": (task.site_key, task.intent),
        }


def _reviewed_root(tmp_path: Path) -> tuple[Path, str]:
    """A root of two trajectories, the first judged by two reviewers in a store; the root and the store."""
    from webeval_core.review import Annotation, open_store

    wav_folder(tmp_path / "root" / "cli", "7")
    wav_folder(tmp_path / "root" / "cli", "8")
    store = str(tmp_path / "notes.sqlite")
    run = json.loads(run_cli("ls", str(tmp_path / "root"), "--json")[1])["runs"][0]["key"]
    notes = open_store(store)
    for reviewer in ("ann", "bob"):
        notes.add(Annotation(run=run, task_id="7", reviewer=reviewer, stage="blind", outcome="success"))
    notes.close()
    return tmp_path / "root", store


def test_export_adds_each_trajectorys_reviews_from_the_store_named(tmp_path: Path) -> None:
    root, store = _reviewed_root(tmp_path)

    code, text = run_cli("export", str(root), *store_arguments(store), "--format", "jsonl")

    assert code == 0
    rows = {row["task_id"]: row for row in map(json.loads, text.splitlines())}
    assert rows["7"]["reviews"] == 2
    assert rows["7"]["review_majority"] == "success"
    assert rows["7"]["reviewers"] == "ann (blind): success; bob (blind): success"
    assert (rows["8"]["reviews"], rows["8"]["reviewers"]) == (None, None)
    assert rows["8"]["outcome"] == "answered"


def test_export_with_annotations_reads_the_default_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, store = _reviewed_root(tmp_path)
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", store)

    code, text = run_cli("export", str(root), "--with-annotations")
    with_reviews = list(csv.DictReader(text.splitlines()))
    code_plain, plain = run_cli("export", str(root))

    assert code == code_plain == 0
    assert with_reviews[0]["reviews"] == "2"
    assert "reviews" not in next(csv.DictReader(plain.splitlines()))


def test_export_annotations_takes_a_store_as_every_command_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wav_folder(tmp_path / "cli", "7")
    with pytest.raises(SystemExit) as stop:
        run_cli("export", str(tmp_path), "--annotations")
    assert stop.value.code == 2
    assert "--annotations: expected one argument" in capsys.readouterr().err
