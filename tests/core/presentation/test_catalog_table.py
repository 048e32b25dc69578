"""The catalog table and its filters, checked against the catalog's own tasks."""

from __future__ import annotations

import pandas as pd
import pytest

from webeval_core.presentation.catalog_table import (
    HELPER_COLUMNS,
    TaskFilter,
    filter_tasks,
    task_table,
    with_attempts,
)
from webeval_core.reading.task_catalog import Task, load_catalog


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return list(load_catalog().tasks.values())


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return task_table(load_catalog())


def _ids(rows: pd.DataFrame) -> set[int]:
    return set(rows["task"].astype(int))


def test_one_row_per_task_with_its_facts(table: pd.DataFrame, tasks: list[Task]) -> None:
    assert len(table) == len(tasks)
    first = table.iloc[0]
    task = tasks[0]
    assert (first["task"], first["type"], first["template"]) == (
        task.task_id,
        task.task_type,
        task.intent_template_id,
    )
    assert first["sites"] == ", ".join(task.sites)
    assert set(HELPER_COLUMNS) <= set(table.columns)


def test_no_criteria_keep_everything(table: pd.DataFrame) -> None:
    assert len(filter_tasks(table, TaskFilter())) == len(table)


def test_criteria_combine(table: pd.DataFrame, tasks: list[Task]) -> None:
    sites = frozenset({"gitlab", "reddit"})
    chosen = filter_tasks(table, TaskFilter(sites=sites, task_types=frozenset({"mutate"})))
    assert _ids(chosen) == {t.task_id for t in tasks if sites & set(t.sites) and t.task_type == "mutate"}
    template = tasks[0].intent_template_id
    assert _ids(filter_tasks(table, TaskFilter(template=template))) == {
        t.task_id for t in tasks if t.intent_template_id == template
    }


def test_text_matches_id_intent_and_template_in_any_case(table: pd.DataFrame, tasks: list[Task]) -> None:
    shown = _ids(filter_tasks(table, TaskFilter(text="  README ")))
    assert shown and shown == {
        t.task_id for t in tasks if "readme" in f"{t.task_id} {t.intent} {t.intent_template}".lower()
    }


def test_task_ids_keep_only_those(table: pd.DataFrame, tasks: list[Task]) -> None:
    wanted = {str(tasks[0].task_id), str(tasks[3].task_id), "not a task"}
    assert _ids(filter_tasks(table, TaskFilter(task_ids=frozenset(wanted)))) == {
        tasks[0].task_id,
        tasks[3].task_id,
    }
    assert filter_tasks(table, TaskFilter(task_ids=frozenset())).empty


def test_attempts_and_passes_per_task(table: pd.DataFrame, tasks: list[Task]) -> None:
    first, second = str(tasks[0].task_id), str(tasks[1].task_id)
    attempts = {first: (2, 1), second: (1, 0), "not in the catalog": (1, 1)}  # IndexQueries.task_attempts
    counted = with_attempts(table, attempts).set_index("task")
    assert counted.loc[tasks[0].task_id, ["attempts", "passed"]].tolist() == [2, 1]
    assert counted.loc[tasks[1].task_id, ["attempts", "passed"]].tolist() == [1, 0]
    assert counted.loc[tasks[2].task_id, ["attempts", "passed"]].tolist() == [0, 0]
    assert len(counted) == len(table)
