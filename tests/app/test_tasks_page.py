"""AppTest of the tasks page: catalog filters, deep links, task details and their attempts."""

from __future__ import annotations

from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from tests.app.conftest import Sample
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.runs.discovery import discover_runs

PAGE = "pages/tasks.py"
OpenApp = Callable[..., AppTest]


def _rows(at: AppTest) -> list[int]:
    return [int(t) for t in at.dataframe[0].value["task"]]


def test_all_tasks_are_listed(app: OpenApp) -> None:
    at = app(PAGE)
    assert len(_rows(at)) == len(load_catalog())
    assert at.caption[0].value.startswith(f"{len(load_catalog())} of {len(load_catalog())} tasks")


def test_filters_narrow_the_list(app: OpenApp) -> None:
    tasks = load_catalog().tasks.values()
    at = app(PAGE)
    at.multiselect(key="site").select("gitlab").run()
    gitlab = {t.task_id for t in tasks if "gitlab" in t.sites}
    assert set(_rows(at)) == gitlab
    at.multiselect(key="type").select("mutate").run()
    gitlab_mutate = {t.task_id for t in tasks if "gitlab" in t.sites and t.task_type == "mutate"}
    assert set(_rows(at)) == gitlab_mutate
    template = min(t.intent_template_id for t in tasks if t.task_id in gitlab_mutate)
    at.selectbox(key="template").select(template).run()
    assert set(_rows(at)) == {
        t.task_id for t in tasks if t.task_id in gitlab_mutate and t.intent_template_id == template
    }
    assert not at.exception


def test_text_search_matches_intent_and_task_id(app: OpenApp) -> None:
    at = app(PAGE)
    at.text_input(key="q").input("README").run()
    shown = set(_rows(at))
    assert shown and shown == {
        t.task_id
        for t in load_catalog().tasks.values()
        if "readme" in f"{t.task_id} {t.intent} {t.intent_template}".lower()
    }
    at.text_input(key="q").input("108").run()
    assert 108 in _rows(at)


def test_filters_and_task_come_from_the_url(app: OpenApp) -> None:
    at = app(PAGE, site="shopping_admin", type="retrieve", task="108")
    assert at.multiselect(key="site").value == ["shopping_admin"]
    assert set(_rows(at)) == {
        t.task_id
        for t in load_catalog().tasks.values()
        if "shopping_admin" in t.sites and t.task_type == "retrieve"
    }
    assert at.subheader[0].value == "Task 108"
    assert any(j.value for j in at.json)  # expected response and evaluator configs


def test_selecting_a_row_opens_the_task(app: OpenApp) -> None:
    at = app(PAGE, site="reddit")
    first = _rows(at)[0]
    at.session_state["task_table"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert at.query_params["task"] == str(first)
    assert at.subheader[0].value == f"Task {first}"
    task = load_catalog().get(first)
    assert task is not None
    assert any(c.value == "\n".join(task.start_urls) for c in at.code)


def test_attempts_link_to_the_trajectories_and_can_filter_the_list(app: OpenApp, sample: Sample) -> None:
    attempts: dict[str, list[str]] = {}
    for run in discover_runs(sample.root):
        for folder in run.trajectory_dirs:
            attempts.setdefault(load_trajectory(folder).task_id, []).append(run.key)
    catalog = load_catalog()
    attempted = {int(t) for t in attempts if catalog.get(t) is not None}
    task_id = max(attempted, key=lambda t: len(attempts[str(t)]))
    at = app(PAGE, task=str(task_id))
    assert at.subheader[1].value == f"Attempts in the loaded runs ({len(attempts[str(task_id)])})"
    links = at.get("page_link")
    assert len(links) == len(attempts[str(task_id)])
    assert all(link.proto.page.endswith("trajectory") or "trajectory" in link.proto.page for link in links)
    at.toggle(key="attempted").set_value(True).run()
    assert set(_rows(at)) == attempted
    table = at.dataframe[0].value.set_index("task")
    assert table.loc[task_id, "attempts"] == len(attempts[str(task_id)])


def test_unknown_task_in_the_url_shows_no_details(app: OpenApp) -> None:
    at = app(PAGE, task="99999")
    assert not at.subheader
    assert not at.exception
