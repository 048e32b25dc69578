"""Trajectories page: filters from the URL and from widgets narrow the table; a row opens its viewer."""

from __future__ import annotations

from tests.app.conftest import Sample, expected
from webeval_core.runs import metrics

PAGE = "pages/trajectories.py"


def test_lists_every_trajectory_with_its_facts(app, sample: Sample) -> None:
    at = app(PAGE)
    index, frame = expected(sample.root)
    rows = at.dataframe[0].value
    assert len(rows) == len(frame)
    assert set(rows["run"]) == {metrics.run_labels(index.runs)[r] for r in frame["run"]}
    assert set(rows["task_id"]) == set(frame["task_id"])
    assert {"site", "task_type", "intent", "outcome", "status", "score", "steps", "duration_s"} <= set(
        rows.columns
    )
    assert at.caption[0].value.startswith(f"{len(frame)} of {len(frame)} trajectories")


def test_filters_come_from_the_url(app, sample: Sample) -> None:
    index, frame = expected(sample.root)
    labels = metrics.run_labels(index.runs)
    run = index.runs[0].key
    at = app(PAGE, runs=labels[run], sites=["gitlab", "reddit"], outcomes="answered")
    assert at.multiselect(key="sites").value == ["gitlab", "reddit"]
    wanted = metrics.filter_frame(frame, runs=[run], sites=["gitlab", "reddit"], outcome_groups=["answered"])
    rows = at.dataframe[0].value
    assert 0 < len(rows) == len(wanted)
    assert set(rows["site"]) <= {"gitlab", "reddit"} and set(rows["outcome"]) == {"answered"}
    head = metrics.headline(wanted)
    assert f"({head.passed} of {head.counted} counted)" in at.caption[0].value


def test_widgets_narrow_the_table(app, sample: Sample) -> None:
    at = app(PAGE)
    _, frame = expected(sample.root)
    at.multiselect(key="tags").select(metrics.NO_ANSWER).run()
    assert len(at.dataframe[0].value) == len(metrics.filter_frame(frame, tags=[metrics.NO_ANSWER])) > 0
    at.multiselect(key="tags").set_value([]).run()
    at.multiselect(key="statuses").select("success").run()
    rows = at.dataframe[0].value
    assert set(rows["status"]) == {"success"} and len(rows) == (frame["status"] == "success").sum()


def test_search_covers_task_id_intent_and_answer(app, sample: Sample) -> None:
    at = app(PAGE)
    _, frame = expected(sample.root)
    answered = frame.dropna(subset=["answer"]).iloc[0]
    needle = str(answered["answer"]).split()[0]
    at.text_input(key="search").input(needle).run()
    rows = at.dataframe[0].value
    assert len(rows) == len(metrics.filter_frame(frame, text=needle)) > 0
    intent_word = str(frame.dropna(subset=["intent"]).iloc[0]["intent"]).split()[-1]
    at.text_input(key="search").input(intent_word.upper()).run()
    assert len(at.dataframe[0].value) == len(metrics.filter_frame(frame, text=intent_word)) > 0


def test_a_filter_that_matches_nothing_shows_an_empty_table(app) -> None:
    at = app(PAGE, search="no trajectory mentions this")
    assert at.dataframe[0].value.empty
    assert at.caption[0].value.startswith("0 of ")


def test_selecting_a_row_opens_the_trajectory(app, sample: Sample) -> None:
    at = app(PAGE, sites="gitlab")
    rows = at.dataframe[0].value
    _, frame = expected(sample.root)
    target = metrics.filter_frame(frame, sites=["gitlab"]).iloc[1]
    assert rows.iloc[1]["task_id"] == target["task_id"]
    at.session_state["trajectories_table"] = {"selection": {"rows": [1], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert (at.query_params["run"], at.query_params["task"]) == (target["run"], target["task_id"])


def test_a_link_from_the_overview_wins_over_other_pages_state(app, sample: Sample) -> None:
    """Pages share one session: a filter chosen on the Tasks or Overview page must not leak in."""
    index, frame = expected(sample.root)
    labels = metrics.run_labels(index.runs)
    at = app("pages/tasks.py", site="reddit", type="retrieve")
    assert at.multiselect(key="site").value == ["reddit"]
    at.switch_page("pages/overview.py")
    at.run()
    assert at.multiselect(key="shown_runs").value == [r.key for r in index.runs]
    run = next(
        r.key for r in index.runs if "gpt-4o-som" in r.key
    )  # a WebArena-Verified run with gitlab tasks
    at.query_params.clear()
    at.query_params["runs"] = labels[run]  # what the overview's "open this selection" link carries
    at.query_params["sites"] = "gitlab"
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key="runs").value == [run]
    assert at.multiselect(key="types").value == []
    rows = at.dataframe[0].value
    assert len(rows) == len(metrics.filter_frame(frame, runs=[run], sites=["gitlab"])) > 0
