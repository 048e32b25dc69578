"""The column registry: the index file's `trajectories` table, the rows a refresh writes, what
`webeval query` documents and its table in docs/researchers.md all come from `TRAJECTORY_COLUMNS`.

That every column is read the same on the quick and the full road, on every sample, hostile and
verifier folder, is held by tests/core/runs/test_quicksummary.py (their rows are compared whole).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_RUNS
from webeval_core.runs.discovery import natural_key
from webeval_core.runs.index_columns import ROW_COLUMNS, TRAJECTORY_COLUMNS, readme_row, sort_key
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.sqlquery import INDEX_TABLES, run_query

REPO = Path(__file__).resolve().parents[3]
NAMES = [column.name for column in TRAJECTORY_COLUMNS]


def test_the_index_file_has_the_registrys_columns_in_its_order(tmp_path: Path) -> None:
    store = IndexStore(SAMPLE_RUNS, cache_dir=tmp_path)
    refresh_index(store, workers=1)
    with sqlite3.connect(store.path) as db:
        found = [row[1] for row in db.execute("PRAGMA table_info(trajectories)")]
        rows = db.execute("SELECT COUNT(*) FROM trajectories").fetchone()[0]
    assert found == NAMES
    assert rows >= 90
    # A row is written in ROW_COLUMNS' order (every path in one call, then the computed columns),
    # each value under its column's name; the key comes first, where put_rows reads it.
    assert sorted(c.name for c in ROW_COLUMNS) == sorted(NAMES) and ROW_COLUMNS[0].name == "key"


def test_every_column_is_documented_for_queries() -> None:
    assert list(INDEX_TABLES["trajectories"]) == sorted(NAMES, key=lambda n: n in _bookkeeping())
    assert all(len(doc) > 10 for doc in INDEX_TABLES["trajectories"].values())


def test_the_readme_lists_the_registrys_columns() -> None:
    """When this fails, paste the row it prints into docs/researchers.md's table of `webeval query`."""
    readme = (REPO / "docs" / "researchers.md").read_text(encoding="utf-8")
    assert readme_row() in readme.splitlines(), readme_row()


def test_names_are_unique_and_every_registry_column_is_queryable(tmp_path: Path) -> None:
    assert len(set(NAMES)) == len(NAMES)
    store = IndexStore(SAMPLE_RUNS, cache_dir=tmp_path)
    refresh_index(store, workers=1)
    result = run_query(store, f"SELECT {', '.join(NAMES)} FROM trajectories LIMIT 1")
    assert list(result.columns) == NAMES


def _bookkeeping() -> set[str]:
    return {column.name for column in TRAJECTORY_COLUMNS if column.bookkeeping}


def test_webarena_verified_rows_have_the_catalogs_site_and_intent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`webeval query` answers `site` and `intent` for WebArena-Verified rows as every page shows them
    (the catalog's), and a live-web task keeps its task_data.json's."""
    from webeval_core.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the index goes there
    from webeval_core.reading.task_catalog import load_catalog

    catalog = load_catalog()
    code = main(
        ["query", str(SAMPLE_RUNS), "SELECT task_id, layout, site, intent FROM trajectories", "--json"]
    )
    assert code == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    in_catalog = [row for row in rows if catalog.get(row[0]) is not None]
    layouts = {row[1] for row in in_catalog}
    # Every writer of WebArena-Verified runs the sample holds: Fara, the official CLI's logs, and the
    # other harnesses' runs of the same tasks (sample_runs/via-other-harnesses).
    assert layouts == {
        "fara",
        "webarena-verified",
        "agentlab",
        "cube-harness",
        "harbor-atif",
        "online-mind2web",
    }
    for task_id, _, site, intent in in_catalog:
        task = catalog.get(task_id)
        assert (site, intent) == (task.site_key, task.intent), task_id
    live = [row for row in rows if catalog.get(row[0]) is None and row[2] is not None]
    assert live and all(row[3] for row in live)  # named tasks keep task_data.json's site and text


TRICKY_NAMES = [
    "2026-11-30_10-20-52_GenericAgent-gpt-4o_on_webarena_verified.1.10.2_10",
    "2026-11-30_10-20-52_GenericAgent-gpt-4o_on_webarena_verified.1.9.2_9",
    "007",
    "7",
    "0",
    "00",
    "a0b00c000",
    "a²b",
    "x" + "9" * 150 + "y",
    "9" * 99,
    "9" * 100,
    "task10",
    "task9",
    "Task 2",
    "",
]


def test_the_sort_key_orders_folders_as_discovery_does() -> None:
    # Every index file made before keeps its rows' keys: the text must stay the same, not only
    # the order (a folder read again would otherwise sort apart from those not read).
    assert sort_key("runs/a/007") == "0" + "001" + "7"
    assert sort_key("task_10.2") == "\x00".join(["1task_", "000210", "1.", "00012"])
    assert sort_key("x" + "9" * 100) == "\x00".join(["1x", "1" + "9" * 100])
    assert sort_key("a²b") == "1a²b"
    by_key = sorted(TRICKY_NAMES, key=sort_key)
    assert by_key == sorted(TRICKY_NAMES, key=natural_key)
