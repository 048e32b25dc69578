"""The index holds the task text and site of every benchmark, not only WebArena-Verified's catalog."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harness.builders import fara_folder
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.reading.taskdata import site_of
from webeval_core.runs import metrics
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.listing.queries import IndexQueries
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW

TASK = "Find the longest trail in Yosemite on AllTrails and report its length."


def _webtailbench_root(tmp_path: Path) -> IndexStore:
    """A Fara-layout WebTailBench-like run: one folder stating its task, one stating nothing."""
    traj = tmp_path / "root" / "WebTailBench_hf" / "traj"
    folder = fara_folder(traj, "alltrails_find_23")
    data = {"task_proposal": TASK, "task_summary": "Trail length", "website": "https://www.alltrails.com/"}
    (folder / "task_data.json").write_text(json.dumps(data))
    fara_folder(traj, "bare_1")
    store = IndexStore(tmp_path / "root", tmp_path / "cache")
    refresh_index(store, workers=1)
    return store


def test_the_list_shows_intent_and_site_and_search_finds_a_word_of_the_task(tmp_path: Path) -> None:
    store = _webtailbench_root(tmp_path)
    queries = IndexQueries(store, load_catalog(), viewer=OUTSIDE_REVIEW)
    rows = {row.task_id: row for row in queries.page(None).rows}
    assert rows["alltrails_find_23"].intent == TASK
    assert rows["alltrails_find_23"].site == "alltrails.com"
    assert rows["bare_1"].intent is None and rows["bare_1"].site is None

    found = queries.page(None, TrajectoryFilter(text="yosemite")).rows
    assert [row.task_id for row in found] == ["alltrails_find_23"]
    by_site = queries.page(None, TrajectoryFilter(sites=frozenset({"alltrails.com"}))).rows
    assert [row.task_id for row in by_site] == ["alltrails_find_23"]


def test_the_pandas_frame_agrees(tmp_path: Path) -> None:
    store = _webtailbench_root(tmp_path)
    frame = metrics.stored_frame(store, load_catalog()).set_index("task_id")
    assert frame.loc["alltrails_find_23", "intent"] == TASK
    assert frame.loc["alltrails_find_23", "site"] == "alltrails.com"
    found = metrics.filter_frame(frame.reset_index(), TrajectoryFilter(text="Yosemite"))
    assert list(found["task_id"]) == ["alltrails_find_23"]


def test_site_is_a_name_as_written_or_a_url_host_and_never_guessed() -> None:
    assert site_of({"website": "https://www.alltrails.com/trail/x"}) == "alltrails.com"
    assert site_of({"web_name": "Allrecipes"}) == "Allrecipes"
    assert site_of({"task_proposal": "Find it"}) is None
    assert site_of(None) is None
