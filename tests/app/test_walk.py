"""Walk the list: the Trajectory page opened from a filtered table steps through that table's rows."""

from __future__ import annotations

import pytest

from tests.app.conftest import Sample, expected
from webeval_core.runs import metrics
from webeval_core.runs.trajectory_filter import FAIL
from webeval_ui import list_walk as walk
from webeval_ui.state import Key

LIST_PAGE = "pages/trajectories.py"
TRAJECTORY_PAGE = "pages/trajectory.py"


def _select_row(at, key: str, row: int) -> None:
    """Select a table row: the app switches to the Trajectory page, where the test stays."""
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page("pages/trajectory.py")  # AppTest reruns its own page unless told


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_a_row_opened_from_a_filtered_list_walks_that_list_with_k_of_n(app, sample: Sample) -> None:
    _, frame = expected(sample.root)
    wanted = metrics.filter_frame(frame, sites=["gitlab"])
    at = app(LIST_PAGE, sites="gitlab")
    _select_row(at, "trajectories_table", 1)
    # The filter travels in the Trajectory page's URL, with the marker naming a list.
    assert at.query_params["list_sites"] in ("gitlab", ["gitlab"])
    assert at.query_params["list"] in ("shown", ["shown"])
    assert at.session_state["task"] == str(wanted.iloc[1]["task_id"])
    assert f"**2 of {len(wanted)}** in the list" in _markdown(at)
    at.button(key="_list_next").click().run()
    assert at.session_state["task"] == str(wanted.iloc[2]["task_id"])
    assert f"**3 of {len(wanted)}** in the list" in _markdown(at)
    at.button(key="_list_prev").click().run()
    at.button(key="_list_prev").click().run()
    assert f"**1 of {len(wanted)}** in the list" in _markdown(at)
    assert at.button(key="_list_prev").disabled


def test_next_failure_skips_to_the_next_failed_trajectory_of_the_list(app, sample: Sample) -> None:
    _, frame = expected(sample.root)
    failed = list(frame["counted"] & (frame["value"] < 1))
    first = next(i for i, fails in enumerate(failed) if not fails)
    target = next(i for i, fails in enumerate(failed) if i > first and fails)
    at = app(LIST_PAGE)
    _select_row(at, "trajectories_table", first)
    at.button(key="_list_next_failure").click().run()
    assert at.session_state["run"] == frame.iloc[target]["run"]
    assert f"**{target + 1} of {len(frame)}** in the list" in _markdown(at)
    assert frame.iloc[target]["result"] in (FAIL, "no answer")


def test_a_trajectory_opened_without_a_list_has_no_walk_bar(app, sample: Sample) -> None:
    _, frame = expected(sample.root)
    row = frame.iloc[0]
    at = app("pages/trajectory.py", run=str(row["run"]), task=str(row["task_id"]))
    assert "in the list" not in _markdown(at)
    assert not [b for b in at.button if b.key == "_list_next"]


def test_a_list_named_key_by_key_is_walked_in_its_own_order(app, sample: Sample) -> None:
    """A judges-disagree cell's list or a query's rows travel as keys; the walk keeps their order."""
    _, frame = expected(sample.root)
    chosen = frame.iloc[[5, 0, 3]]  # not the index's order: a query's ORDER BY may be any
    keys = chosen["key"].tolist()
    first = chosen.iloc[0]
    at = app("pages/trajectory.py", run=str(first["run"]), task=str(first["task_id"]), list="shown")
    at.query_params["list_keys"] = keys
    at.run()
    assert "**1 of 3** in the list" in _markdown(at)
    at.button(key="_list_next").click().run()
    assert at.session_state["task"] == str(chosen.iloc[1]["task_id"])
    assert "**2 of 3** in the list" in _markdown(at)
    at.button(key="_list_next").click().run()
    assert at.session_state["task"] == str(chosen.iloc[2]["task_id"])
    assert at.button(key="_list_next").disabled
    # Such a list has no Trajectories page to go back to: no link pretends it has.
    assert not [link for link in at.get("page_link") if "Back to the list" in link.proto.label]


def test_a_list_too_long_for_a_link_is_saved_and_walked_from_any_session(
    app, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A query's rows beyond the link's limit are saved beside the index; the link names them."""
    monkeypatch.setattr(walk, "MAX_LISTED_KEYS", 5)  # the sample's lists are short; the path is the same
    _, frame = expected(sample.root)
    tasks = dict(zip(frame["key"], frame["task_id"].astype(str), strict=True))
    at = app("pages/query.py", sql="SELECT key FROM trajectories ORDER BY task_id DESC, key")
    keys = at.dataframe[-1].value["key"].tolist()
    assert len(keys) > 5
    _select_row(at, Key.SQL_TABLE, 2)
    assert "list_keys" not in at.query_params
    saved = at.query_params["list_saved"]
    saved = saved[0] if isinstance(saved, list) else saved
    assert f"**3 of {len(keys)}** in the list" in _markdown(at)
    at.button(key="_list_next").click().run()
    assert at.session_state["task"] == tasks[keys[3]]
    # Another session given the same link (its URL alone) walks the same list, in the query's order.
    fourth = frame[frame["key"] == keys[3]].iloc[0]
    other = app(
        "pages/trajectory.py",
        run=str(fourth["run"]),
        task=tasks[keys[3]],
        list="shown",
        list_saved=saved,
    )
    assert f"**4 of {len(keys)}** in the list" in _markdown(other)
    # A name no list was saved under walks nothing: never every trajectory of the root.
    gone = app(
        "pages/trajectory.py",
        run=str(fourth["run"]),
        task=tasks[keys[3]],
        list="shown",
        list_saved="0" * 32,
    )
    assert "in the list" not in _markdown(gone)
    assert any("not in the list it was opened from" in c.value for c in gone.caption)
