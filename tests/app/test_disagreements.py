"""AppTest: the Judges disagree page counts each pair of judges and lists where they differ."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.harness.builders import write_score
from tests.harness.verifier_files import JUDGE, RUN, TASK, verifier_root
from webeval_core.review import judge_verdicts, open_store
from webeval_core.review.annotations import Shown
from webeval_core.review.disagreement import half_name
from webeval_core.runs.index import build_index
from webeval_core.runs.judges import judge_label
from webeval_ui.state import Key

OpenPage = Callable[..., AppTest]
PAGE = "pages/disagreements.py"


def _items(root: Path) -> list[tuple[str, str]]:
    return list(judge_verdicts(build_index(root)))


def test_a_cell_lists_the_trajectories_two_judges_disagree_on(
    app: OpenPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = str(tmp_path / "annotations.sqlite")
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", store)
    root = verifier_root(tmp_path)
    # An LLM judge passes the trajectory the verifier failed (score 0, both halves failure).
    write_score(root / RUN / "traj" / TASK, "gpt_eval", 1, "The agent found a trail.")
    at = app(PAGE, root, reviewer="ann")
    table = at.dataframe[0].value
    # Rows are the judges numbered and named in full; columns their numbers (the page's width).
    numbers = {row.split(". ", 1)[1]: row.split(". ", 1)[0] + "." for row in table.index}
    rows = {row.split(". ", 1)[1]: row for row in table.index}
    llm, verifier = judge_label("gpt_eval"), judge_label(JUDGE)
    assert list(table.columns) == [f"{i}." for i in range(1, len(table.index) + 1)]
    assert table.loc[rows[llm], numbers[verifier]] == table.loc[rows[verifier], numbers[llm]] == "1 of 1"
    # The verifier's halves are judges too: its outcome half gave all three a verdict.
    assert table.loc[rows[verifier], numbers[half_name(JUDGE, "outcome")]] == "0 of 3"
    at.session_state[Key.DISAGREE_TABLE] = {
        "selection": {
            "rows": [],
            "columns": [],
            "cells": [[list(table.index).index(rows[llm]), numbers[verifier]]],
        }
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    listed = next(df.value for df in at.dataframe if "task_id" in df.value.columns)
    assert listed["task_id"].tolist() == [TASK]
    # The list told ann these verdicts: a later save of the trajectory is not blind.
    shown = [open_store(store).shown(item[0], item[1], "ann") for item in _items(root) if item[1] == TASK]
    assert shown and Shown.VERDICT in shown[0]
