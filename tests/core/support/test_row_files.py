"""One writer per file format: what a CSV and a JSON-lines file make of a row's cells."""

from __future__ import annotations

import csv
import io
import json

from webeval_core.support.row_files import ROW_FORMATS, rows_text

ROWS = [
    {"task_id": "=1+1", "tags": ["no answer", "core.log: Timeout"], "scores": {"b": 0.5, "a": -1.0}, "n": 3},
    {"task_id": "9", "tags": [], "scores": {}, "n": None},
]


def test_csv_writes_lists_in_one_cell_a_column_per_judge_and_no_formula() -> None:
    text = rows_text(ROWS, "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["task_id", "tags", "scores:a", "scores:b", "n"]
    assert rows[0] == {"task_id": "'=1+1", "tags": "no answer; core.log: Timeout", "scores:a": "-1.0",
                       "scores:b": "0.5", "n": "3"}  # fmt: skip
    assert rows[1] == {"task_id": "9", "tags": "", "scores:a": "", "scores:b": "", "n": ""}


def test_json_lines_keep_lists_and_mappings() -> None:
    lines = [json.loads(line) for line in rows_text(ROWS, "jsonl").splitlines()]
    assert lines[0]["scores"] == {"b": 0.5, "a": -1.0} and lines[1]["tags"] == []


def test_without_rows_the_header_names_the_columns_given() -> None:
    assert rows_text([], "csv", ["run", "task_id"]) == "run,task_id\n"
    assert rows_text([], "jsonl", ["run"]) == ""
    assert set(ROW_FORMATS) == {"csv", "jsonl"}
