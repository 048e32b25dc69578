"""`runs.sqlquery`: a researcher's SELECT over the index; the database itself refuses anything else."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder, write_score
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.sqlquery import (
    INDEX_TABLES,
    QueryError,
    QueryRefusedError,
    QueryTimeoutError,
    run_query,
    trajectory_refs,
)


@pytest.fixture
def store(tmp_path: Path) -> IndexStore:
    run = tmp_path / "root" / "runs/sys/fara-7b/me/bench/0/traj"
    for task in ("a_1", "b_2", "c_3"):
        folder = fara_folder(run, task)
        write_score(folder, "judge", 1.0 if task == "a_1" else 0.0, "fine")
    index = IndexStore(tmp_path / "root", tmp_path / "cache")
    refresh_index(index, workers=1)
    return index


def test_a_useful_query_gives_typed_rows_that_name_trajectories(store: IndexStore) -> None:
    result = run_query(
        store,
        "SELECT t.rel, t.task_id, s.score FROM trajectories t JOIN scores s USING (key)"
        " WHERE s.judge = 'judge' ORDER BY t.task_id",
    )
    assert result.columns == ("rel", "task_id", "score")
    assert [row[1:] for row in result.rows] == [("a_1", 1.0), ("b_2", 0.0), ("c_3", 0.0)]
    assert not result.truncated
    assert result.elapsed_s >= 0
    refs = trajectory_refs(store, result)
    assert [ref.task_id for ref in refs if ref] == ["a_1", "b_2", "c_3"]
    assert all(ref and ref.path.endswith(ref.task_id) for ref in refs)
    # Each names its key too, which a walk through the rows carries.
    keyed = {ref.key: ref.task_id for ref in refs if ref}
    assert list(keyed.values()) == ["a_1", "b_2", "c_3"] and all(k.endswith(t) for k, t in keyed.items())


def test_rows_without_a_trajectory_column_name_none(store: IndexStore) -> None:
    result = run_query(store, "SELECT judge, COUNT(*) AS n FROM scores GROUP BY judge")
    assert result.rows == (("judge", 3),)
    assert trajectory_refs(store, result) == (None,)


def test_documented_tables_are_the_index_columns(store: IndexStore) -> None:
    for name, columns in INDEX_TABLES.items():
        result = run_query(store, f"SELECT * FROM {name} LIMIT 0")
        assert set(result.columns) == set(columns), name


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM trajectories",
        "UPDATE scores SET score = 1",
        "DROP TABLE scores",
        "PRAGMA query_only=OFF",
        "ATTACH DATABASE ':memory:' AS other",
        "SELECT 1; DELETE FROM trajectories",
        "WITH gone AS (SELECT 1) DELETE FROM trajectories",
        "-- a comment\nINSERT INTO meta VALUES ('x', 'y')",
        "",
    ],
)
def test_anything_but_one_select_is_refused_and_nothing_changes(store: IndexStore, sql: str) -> None:
    with pytest.raises(QueryRefusedError):
        run_query(store, sql)
    assert store.counts().trajectories == 3


def test_the_database_refuses_a_write_even_past_the_shape_check(store: IndexStore) -> None:
    # A SELECT calling a function that would write is not possible; the authorizer is what refuses
    # a statement the shape check lets through (a WITH that writes, above); here the guard itself.
    from webeval_core.runs import sqlquery

    with contextlib.closing(sqlquery.read_connection(store)) as db:
        db.set_authorizer(sqlquery._Authorizer())
        with pytest.raises(Exception, match="not authorized"):
            db.execute("DELETE FROM trajectories")


def test_a_slow_query_is_stopped_at_its_time_limit(store: IndexStore) -> None:
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"
    with pytest.raises(QueryTimeoutError):
        run_query(store, endless, timeout_s=0.2)


def test_rows_past_the_limit_are_left_out_and_said(store: IndexStore) -> None:
    result = run_query(store, "SELECT task_id FROM trajectories ORDER BY task_id", max_rows=2)
    assert result.rows == (("a_1",), ("b_2",))
    assert result.truncated


def test_a_misspelt_column_is_a_query_error(store: IndexStore) -> None:
    with pytest.raises(QueryError, match="no such column"):
        run_query(store, "SELECT nope FROM trajectories")


def test_a_query_that_reads_a_verdict_names_the_trajectories_it_reveals(store: IndexStore) -> None:
    """What the Query page records as shown before drawing rows (the disclosure gate)."""
    from webeval_core.runs.sqlquery import revealed_items

    plain = run_query(store, "SELECT run_key, task_id, site FROM trajectories")
    assert not plain.reads_verdicts
    assert revealed_items(store, plain) == []
    by_filter = run_query(store, "SELECT task_id FROM trajectories WHERE verdict_status = 'success'")
    assert by_filter.reads_verdicts  # a verdict chose the rows: they reveal it
    everything = run_query(store, "SELECT run_key, task_id FROM trajectories")
    named = run_query(store, "SELECT run_key, task_id, verdict_status FROM trajectories")
    assert sorted(revealed_items(store, named)) == sorted((str(r), str(t)) for r, t in everything.rows)
    joined = run_query(store, "SELECT t.task_id, s.score FROM trajectories t JOIN scores s USING (key)")
    assert joined.reads_verdicts
    # SQLite's authorizer is not asked about a USING column: the tables opened tell.
    keyed = run_query(store, "SELECT t.rel FROM trajectories t JOIN scores s USING (key)")
    assert keyed.reads_verdicts
    counted = run_query(store, "SELECT COUNT(*) FROM trajectories WHERE verdict_status IS NOT NULL")
    assert counted.reads_verdicts and revealed_items(store, counted) == []
