"""`webeval query ROOT SQL`: rows as a table, JSON or CSV; refused statements and timeouts by exit code."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for task in ("a_1", "b_2"):
        fara_folder(tmp_path / "root" / "run" / "traj", task)
    return tmp_path / "root"


def test_query_prints_a_table_json_and_csv(root: Path) -> None:
    sql = "SELECT task_id, steps FROM trajectories ORDER BY task_id"
    code, text = run_cli("query", str(root), sql)
    assert code == 0
    assert text.splitlines()[0].split() == ["task_id", "steps"]
    assert "a_1" in text and "(2 rows in" in text

    code, text = run_cli("query", str(root), sql, "--json")
    payload = json.loads(text)
    assert code == 0
    assert payload["columns"] == ["task_id", "steps"]
    assert [row[0] for row in payload["rows"]] == ["a_1", "b_2"]
    assert payload["truncated"] is False

    code, text = run_cli("query", str(root), sql, "--csv", "--limit", "1")
    assert code == 0
    assert next(csv.reader(io.StringIO(text))) == ["task_id", "steps"]
    assert len(text.splitlines()) == 2


def test_a_write_is_refused_with_exit_code_2(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run_cli("query", str(root), "DELETE FROM trajectories")
    assert code == 2
    assert "Only SELECT" in capsys.readouterr().err
    code, text = run_cli("query", str(root), "SELECT COUNT(*) FROM trajectories", "--json")
    assert json.loads(text)["rows"] == [[2]]


def test_a_timeout_exits_3_and_a_missing_root_1(root: Path, tmp_path: Path) -> None:
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"
    assert run_cli("query", str(root), endless, "--timeout", "0.2")[0] == 3
    assert run_cli("query", str(tmp_path / "nope"), "SELECT 1")[0] == 1
