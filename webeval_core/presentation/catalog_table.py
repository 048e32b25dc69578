"""The task catalog as a table, its filters (sites, types, template, text, attempted) and attempts.

The counterpart of metrics.filter_frame for catalog rows: one row per task, filtered by the same
kind of criteria, without Streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from pydantic import BaseModel, ConfigDict

from webeval_core.reading.task_catalog import TaskCatalog

HELPER_COLUMNS = ("_search", "_sites")
"""Columns `task_table` adds for filtering only: drop them before showing the table."""


class TaskFilter(BaseModel):
    """Which catalog rows to keep; an empty criterion keeps every row."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sites: frozenset[str] = frozenset()
    """Keep tasks on any of these sites."""
    task_types: frozenset[str] = frozenset()
    """Keep tasks of any of these types."""
    template: int | None = None
    """Keep tasks of this intent template."""
    text: str = ""
    """Keep tasks whose id, intent or template contains this (case-insensitive)."""
    task_ids: frozenset[str] | None = None
    """Keep only these task ids (e.g. the tasks attempted in the loaded runs); None keeps all."""


def task_table(catalog: TaskCatalog) -> pd.DataFrame:
    """One row per task of `catalog`, with the helper columns `filter_tasks` reads."""
    rows = [
        {
            "task": task.task_id,
            "sites": ", ".join(task.sites),
            "type": task.task_type,
            "expected status": task.expected.status,
            "intent": task.intent,
            "template": task.intent_template_id,
            "network checks": len(task.network_checks),
            "_search": f"{task.task_id} {task.intent} {task.intent_template}".lower(),
            "_sites": frozenset(task.sites),
        }
        for task in catalog.tasks.values()
    ]
    return pd.DataFrame(rows)


def filter_tasks(table: pd.DataFrame, criteria: TaskFilter) -> pd.DataFrame:
    """Rows of a `task_table` matching every criterion."""
    mask = pd.Series(True, index=table.index)
    if criteria.sites:
        mask &= table["_sites"].map(lambda sites: not criteria.sites.isdisjoint(sites)).astype(bool)
    if criteria.task_types:
        mask &= table["type"].isin(criteria.task_types)
    if criteria.template is not None:
        mask &= table["template"] == criteria.template
    needle = criteria.text.strip().lower()
    if needle:
        mask &= table["_search"].str.contains(needle, regex=False)
    if criteria.task_ids is not None:
        mask &= table["task"].astype(str).isin(criteria.task_ids)
    return table[mask]


def with_attempts(table: pd.DataFrame, attempts: Mapping[str, tuple[int, int]]) -> pd.DataFrame:
    """`table` with each task's `attempts` and `passed` (`IndexQueries.task_attempts`: task id ->
    (attempts, passed)).
    """
    tasks = table["task"].astype(str)
    return table.assign(
        attempts=[attempts.get(task, (0, 0))[0] for task in tasks],
        passed=[attempts.get(task, (0, 0))[1] for task in tasks],
    ).astype({"attempts": "int64", "passed": "int64"})
