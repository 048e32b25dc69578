"""Annotations: append-only, damaged lines skipped with a warning, newest per trajectory wins."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from webeval_core.review.annotations import (
    Annotation,
    add_annotation,
    annotations_as_rows,
    default_annotations_file,
    latest,
    read_annotations,
)


def note(task: str, label: str, minute: int, **kw: str) -> Annotation:
    return Annotation(
        run_key="run-a",
        task_id=task,
        label=label,  # type: ignore[arg-type]
        created=datetime(2026, 11, 22, 10, minute, tzinfo=UTC),
        **kw,
    )


def test_append_and_read_back(tmp_path: Path) -> None:
    file = tmp_path / "deep" / "notes.jsonl"
    first = note(
        "108", "verdict correct", 1, verdict_source="webarena-verified-1.2.3-ab", verdict_status="success"
    )
    second = note("108", "task ambiguous", 2, note="two valid readings", annotator="ann")
    add_annotation(file, first)
    add_annotation(file, second)

    annotations, problems = read_annotations(file)

    assert annotations == [first, second]
    assert problems == []
    assert latest(annotations)[("run-a", "108")] == second
    assert annotations_as_rows(annotations)[1]["note"] == "two valid readings"


def test_damaged_lines_are_skipped_and_nothing_is_lost(tmp_path: Path) -> None:
    file = tmp_path / "notes.jsonl"
    add_annotation(file, note("1", "unsure", 1))
    with file.open("a") as handle:
        handle.write('{"run_key": "run-a", "task_id": "2", "label": "not a label"}\n{"run_key": "trunc')
    add_annotation(file, note("3", "verdict correct", 3))

    annotations, problems = read_annotations(file)

    assert [a.task_id for a in annotations] == ["1", "3"]
    assert [(p.line, p.message.startswith("skipped")) for p in problems] == [(2, True), (3, True)]
    assert file.read_text().count("\n") == 4  # the damaged lines are still there, untouched


def test_missing_file_is_empty(tmp_path: Path) -> None:
    assert read_annotations(tmp_path / "none.jsonl") == ([], [])


def test_blank_keys_and_unknown_labels_are_refused() -> None:
    with pytest.raises(ValidationError):
        note(" ", "unsure", 1)
    with pytest.raises(ValidationError):
        note("1", "great", 1)


def test_default_file_is_per_root_and_outside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEBEVAL_ANNOTATIONS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    a = default_annotations_file(tmp_path / "root-a")
    b = default_annotations_file(tmp_path / "root-b")
    assert a != b and a.parent == tmp_path / "data" / "webeval"
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", str(tmp_path / "mine.jsonl"))
    assert default_annotations_file(tmp_path / "root-a") == tmp_path / "mine.jsonl"


def test_a_line_with_unknown_keys_is_kept_and_the_keys_reported(tmp_path: Path) -> None:
    file = tmp_path / "notes.jsonl"
    written = note("7", "unsure", 1)
    newer = {**written.model_dump(mode="json"), "confidence": 0.4, "reviewer_team": "b"}
    file.write_text(json.dumps(newer) + "\n")

    annotations, problems = read_annotations(file)

    assert annotations == [written]
    assert [(p.line, "confidence, reviewer_team" in p.message) for p in problems] == [(1, True)]


def test_annotations_we_write_refuse_unknown_keys() -> None:
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Annotation(run_key="run-a", task_id="1", label="unsure", mood="tired")  # type: ignore[call-arg]
