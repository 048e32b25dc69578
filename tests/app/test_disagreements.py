"""AppTest: the Judges disagree page counts each pair of judges and lists where they differ."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from pages.state import Key
from tests.builders import write_score
from tests.verifier_files import JUDGE, RUN, TASK, verifier_root
from webeval_core.review.disagreement import half_name
from webeval_core.runs.judges import judge_label

OpenPage = Callable[..., AppTest]
PAGE = "pages/disagreements.py"


def test_a_cell_lists_the_trajectories_two_judges_disagree_on(app: OpenPage, tmp_path: Path) -> None:
    root = verifier_root(tmp_path)
    # An LLM judge passes the trajectory the verifier failed (score 0, both halves failure).
    write_score(root / RUN / "traj" / TASK, "gpt_eval", 1, "The agent found a trail.")
    at = app(PAGE, root)
    table = at.dataframe[0].value
    llm, verifier = judge_label("gpt_eval"), judge_label(JUDGE)
    assert table.loc[llm, verifier] == "1 of 1"
    # The verifier's halves are judges too: its outcome half gave all three a verdict.
    assert table.loc[verifier, half_name(JUDGE, "outcome")] == "0 of 3"
    at.session_state[Key.DISAGREE_TABLE] = {
        "selection": {"rows": [], "columns": [], "cells": [[list(table.index).index(llm), verifier]]}
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    listed = next(df.value for df in at.dataframe if "task_id" in df.value.columns)
    assert listed["task_id"].tolist() == [TASK]
