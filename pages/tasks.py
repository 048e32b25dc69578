"""Tasks: browse the WebArena-Verified catalog and see which loaded trajectories attempted each task.

Filters live in the URL (`site`, `type`, `template`, `q`) and so does the open task (`task`), so a
filtered view or one task can be shared as a link.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from webeval_core.presentation import (
    HELPER_COLUMNS,
    TaskFilter,
    filter_tasks,
    plural,
    task_table,
    with_attempts,
)
from webeval_core.reading import SITES, TASK_TYPES, Task, TaskCatalog, load_catalog
from webeval_core.runs import filter_from_params
from webeval_core.support import UnreadableError
from webeval_ui.app_shell import require_app_shell
from webeval_ui.loaders import current_index
from webeval_ui.page_links import PAGES, trajectory_query
from webeval_ui.review_mode import gated_queries, hide_in_blind_review, reveal
from webeval_ui.state import Key
from webeval_ui.task_correction import correction_box
from webeval_ui.untrusted import inert
from webeval_ui.widgets import selected_rows

require_app_shell()


@st.cache_data(show_spinner=False, max_entries=2)
def _task_frame(checksum: str, _catalog: TaskCatalog) -> pd.DataFrame:
    """One row per task; cached per dataset checksum so filtering reruns stay instant."""
    return task_table(_catalog)


def _clear_selection() -> None:
    """A filter change reorders the table: drop the row selection (the open task stays open)."""
    st.session_state[Key.TASK_TABLE] = {"selection": {"rows": [], "columns": [], "cells": []}}
    st.session_state[Key.TASKS_LAST_ROWS] = []


def _follow_selection(rows: list[int], shown: list[int]) -> None:
    """A newly selected row puts its task in the URL; clearing the selection closes it."""
    if rows == st.session_state.get(Key.TASKS_LAST_ROWS, []):
        return
    st.session_state[Key.TASKS_LAST_ROWS] = rows
    if rows and rows[0] < len(shown):
        st.query_params[Key.TASK] = str(shown[rows[0]])
    else:
        st.query_params.pop(Key.TASK, None)


def _render_attempts(attempts: pd.DataFrame) -> None:
    st.subheader(f"Attempts in the loaded runs ({len(attempts)})")
    if attempts.empty:
        st.caption("No trajectory under the current root attempted this task.")
        return
    index = current_index()
    if not reveal(zip(attempts["run"].astype(str), attempts["task_id"].astype(str), strict=True)):
        return
    for row in attempts.itertuples(index=False):
        run = index.run(row.run)
        cols = st.columns([5, 2, 2, 2])
        cols[0].page_link(
            PAGES["trajectory"],
            label=inert(run.label if run else row.run),
            icon=":material/movie:",
            query_params=trajectory_query(row.run, row.task_id, row.path),
        )
        cols[1].text(f"{row.result}" + (f" ({row.status})" if row.status else ""))
        cols[2].text(f"outcome: {row.outcome or '-'}")
        cols[3].text(plural(row.steps, "step"))


def _render_task(task: Task, attempts: pd.DataFrame) -> None:
    st.divider()
    st.subheader(f"Task {task.task_id}")
    st.text(task.intent)
    meta = st.columns(4)
    meta[0].metric("Type", task.task_type)
    meta[1].metric("Expected status", task.expected.status)
    meta[2].metric("Network checks", len(task.network_checks))
    meta[3].metric("Revision", task.revision)
    st.text(f"Sites: {', '.join(task.sites)}\nTemplate {task.intent_template_id}: {task.intent_template}")
    st.markdown("**Start URLs**")
    st.code("\n".join(task.start_urls), language=None)
    left, right = st.columns(2)
    with left:
        st.markdown("**Expected response**")
        st.json(task.expected.model_dump(mode="json"))
        st.markdown("**Results schema**" + (" (order matters)" if task.ordered else ""))
        st.json(task.results_schema, expanded=False)
    with right:
        st.markdown(f"**Evaluator configs ({len(task.evaluators)})**")
        st.json(list(task.evaluators), expanded=2)
    correction_box(task, attempts)
    _render_attempts(attempts)


def _filters(templates: dict[int, str], attempted: set[str]) -> TaskFilter:
    """The catalog filter widgets (bound to the URL), and the filter they choose."""
    cols = st.columns([2, 2, 3, 3])
    sites = cols[0].multiselect(
        "Site", SITES, key=Key.SITE, placeholder="any site", bind="query-params", on_change=_clear_selection
    )
    types = cols[1].multiselect(
        "Task type",
        TASK_TYPES,
        key=Key.TYPE,
        placeholder="any type",
        bind="query-params",
        on_change=_clear_selection,
    )
    template = cols[2].selectbox(
        "Intent template",
        sorted(templates),
        index=None,
        key=Key.TEMPLATE,
        format_func=lambda tid: f"{tid}: {templates[tid]}",
        placeholder="any template",
        bind="query-params",
        on_change=_clear_selection,
    )
    text = cols[3].text_input(
        "Search",
        key=Key.QUERY,
        placeholder="words of the intent, or a task id",
        bind="query-params",
        on_change=_clear_selection,
    )
    attempted_only = st.toggle(
        "Only tasks attempted in the loaded runs", key=Key.ATTEMPTED, on_change=_clear_selection
    )
    return TaskFilter(
        sites=frozenset(sites),
        task_types=frozenset(types),
        template=template,
        text=text,
        task_ids=frozenset(attempted) if attempted_only else None,
    )


hide_in_blind_review("Tasks")
st.title("Tasks")
try:
    catalog = load_catalog()
except UnreadableError as exc:
    st.error(f"The task catalog cannot be read: {inert(exc.reason)}")
    st.stop()

queries = gated_queries()
attempts = queries.task_attempts(None)  # per task from the index's SQL: no trajectory row is held
frame = _task_frame(catalog.checksum, catalog)
templates = {t.intent_template_id: t.intent_template for t in catalog.tasks.values()}

shown = filter_tasks(frame, _filters(templates, set(attempts)))
table = with_attempts(shown.drop(columns=list(HELPER_COLUMNS)), attempts)
# "passed" tells each listed task's attempts' results: recorded as shown for a named reviewer first.
listed_tasks = frozenset(shown["task"].astype(str)) & frozenset(attempts)
attempted = (
    queries.frame(None, filter_from_params({Key.TASK_IDS: sorted(listed_tasks)})) if listed_tasks else None
)
if attempted is not None and not reveal(
    zip(attempted["run"].astype(str), attempted["task_id"].astype(str), strict=True)
):
    table = table.drop(columns=["passed"])
st.caption(
    f"{len(shown)} of {len(frame)} tasks from {inert(catalog.path.name)} (sha256 {catalog.checksum[:12]}…)"
)
picked = selected_rows(
    table,
    Key.TASK_TABLE,
    column_config={
        "task": st.column_config.NumberColumn("task", format="%d", width="small"),
        "intent": st.column_config.TextColumn("intent", width="large"),
        "template": st.column_config.NumberColumn("template", format="%d", width="small"),
    },
)

_follow_selection(picked, shown["task"].tolist())
chosen = catalog.get(st.query_params.get(Key.TASK, ""))
if chosen is not None:
    _render_task(chosen, queries.frame(None, filter_from_params({Key.TASK_IDS: [str(chosen.task_id)]})))
else:
    st.caption("Select a row to see the task's expected response, evaluator configs and attempts.")
