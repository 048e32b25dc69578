"""The list's columns are declared once (`runs.listing.list_columns.ListedTrajectory`): the app's
CSV and `webeval export --format csv` of the same list have the same columns, and a column added
as one entry reaches the list, both CSVs and the bundle."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder, wav_folder, write_score
from webeval_core.runs import IndexQueries, IndexStore, refresh_index
from webeval_core.runs.listing import list_columns
from webeval_core.runs.listing.list_columns import ListedTrajectory, held

PAGE = "pages/trajectories.py"
APP_REVIEW_COLUMNS = ["mine", "reviewers", "human", "disagree"]
"""What the app's list adds after the list's columns when a review store is open (its table's)."""


class WithTaskText(ListedTrajectory):
    """The list with one more column the index holds: the one entry a new column is."""

    task_text: Annotated[str | None, held("task_text", label="task text", bundled=True)]
    """The task as the agent was given it."""


def _root(tmp_path: Path) -> Path:
    """A live-web trajectory (its task stated by task_data.json, a rubric judge's score) and a
    WebArena-Verified one."""
    root = tmp_path / "root"
    live = fara_folder(root / "WebTailBench" / "traj", "alltrails_find_23")
    task = {"task_proposal": "Find a dog-friendly trail.", "website": "alltrails.com"}
    (live / "task_data.json").write_text(json.dumps(task), encoding="utf-8")
    write_score(live, "rubric", 0.5, "partly")
    wav_folder(root / "cli", "108")
    return root


def _app_csv(app: Callable[..., AppTest], root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The CSV the Trajectories page's download button hands the browser (the real button, the
    data it is given kept on the way)."""
    given: list[Any] = []
    button = st.download_button

    def kept(label: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        given.append(data)
        return button(label, data, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", kept)
    at = app(PAGE, root=root)
    assert not at.exception, [e.value for e in at.exception]
    (data,) = given
    return str(data() if callable(data) else data)


def _header(text: str) -> list[str]:
    return next(csv.reader(io.StringIO(text)))


def _cli_csv(root: Path) -> str:
    code, text = run_cli("export", str(root), "--format", "csv")
    assert code == 0
    return text


def test_the_apps_csv_and_webeval_export_have_the_same_columns(
    app: Callable[..., AppTest], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _root(tmp_path)

    app_header, cli_header = _header(_app_csv(app, root, monkeypatch)), _header(_cli_csv(root))

    assert app_header == [*cli_header, *APP_REVIEW_COLUMNS]
    assert {"run", "task_id", "result", "intent", "answer", "tags", "scores:rubric"} <= set(cli_header)


def test_a_column_added_as_one_entry_is_in_the_list_both_csvs_and_the_bundle(
    app: Callable[..., AppTest], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _root(tmp_path)
    assert "task_text" not in list_columns.column_names()
    monkeypatch.setattr(list_columns, "ListedTrajectory", WithTaskText)

    store = IndexStore(root)
    refresh_index(store)
    rows = IndexQueries(store, None).page(None).rows
    assert {row.task_id: getattr(row, "task_text", None) for row in rows} == {
        "alltrails_find_23": "Find a dog-friendly trail.",
        "108": None,
    }
    for text in (_app_csv(app, root, monkeypatch), _cli_csv(root)):
        by_task = {row["task_id"]: row for row in csv.DictReader(io.StringIO(text))}
        assert by_task["alltrails_find_23"]["task_text"] == "Find a dog-friendly trail."
    site = tmp_path / "site"
    assert run_cli("bundle", str(root), "-o", str(site))[0] == 0
    listed = (site / "data" / "list-0.js").read_text(encoding="utf-8")
    data = json.loads(listed.removeprefix('webeval.put("list-0",').removesuffix(");\n"))
    assert {row["task_id"]: row["task_text"] for row in data}["alltrails_find_23"] == (
        "Find a dog-friendly trail."
    )
