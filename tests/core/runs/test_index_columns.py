"""The column registry: the index file's `trajectories` table, the rows a refresh writes, what
`webeval query` documents and the README's table all come from `TRAJECTORY_COLUMNS`.

That every column is read the same on the quick and the full road, on every sample, hostile and
verifier folder, is held by tests/core/runs/test_quicksummary.py (their rows are compared whole).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.conftest import SAMPLE_RUNS
from webeval_core.runs.index_columns import TRAJECTORY_COLUMNS, readme_row
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


def test_every_column_is_documented_for_queries() -> None:
    assert list(INDEX_TABLES["trajectories"]) == sorted(NAMES, key=lambda n: n in _bookkeeping())
    assert all(len(doc) > 10 for doc in INDEX_TABLES["trajectories"].values())


def test_the_readme_lists_the_registrys_columns() -> None:
    """When this fails, paste the row it prints into README.md's table of `webeval query`."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme_row() in readme.splitlines(), readme_row()


def test_names_are_unique_and_every_registry_column_is_queryable(tmp_path: Path) -> None:
    assert len(set(NAMES)) == len(NAMES)
    store = IndexStore(SAMPLE_RUNS, cache_dir=tmp_path)
    refresh_index(store, workers=1)
    result = run_query(store, f"SELECT {', '.join(NAMES)} FROM trajectories LIMIT 1")
    assert list(result.columns) == NAMES


def _bookkeeping() -> set[str]:
    return {column.name for column in TRAJECTORY_COLUMNS if column.bookkeeping}
