"""The Compare page's view model: the pair it opens on, its headline, its flips and matrix rows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from webeval_core.presentation import comparison as c
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs import metrics as m
from webeval_core.runs.discovery import Run
from webeval_core.runs.index import RootIndex, TrajectorySummary
from webeval_core.scoring import verdicts as vd
from webeval_core.support.vocabulary import UNKNOWN

A, B = "runs/a/0", "runs/b/0"


def _summary(run: str, task: str, status: str) -> TrajectorySummary:
    verdict = vd.Verdict(
        source="webarena-verified-1.2.3-abcd1234", status=status, score=float(status == "success")
    )
    return TrajectorySummary(
        run_key=run,
        key=f"{run}/{task}",
        path=Path("/r") / run / task,
        task_id=task,
        outcome="answered",
        verdict=verdict,
    )


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    summaries = (
        _summary(A, "0", "success"),
        _summary(A, "1", "failure"),
        _summary(A, "2", "success"),
        _summary(B, "0", "failure"),
        _summary(B, "1", "success"),
        _summary(B, "3", "success"),
    )
    index = RootIndex(
        root=Path("/r"),
        runs=(Run(key=A, path=Path("/r") / A), Run(key=B, path=Path("/r") / B)),
        summaries=summaries,
    )
    return m.trajectory_frame(index, load_catalog())


def test_the_page_opens_on_the_first_two_runs_sharing_a_task() -> None:
    tasks = {"x": frozenset({"1"}), "y": frozenset({"2"}), "z": frozenset({"2", "3"})}
    assert c.default_pair(tasks, ["x", "y", "z"]) == (1, 2)
    assert c.default_pair(tasks, ["x", "q"]) == (0, 1)  # none shares one: the first two


def test_the_headline_words_both_rates_and_counts_the_changes(frame: pd.DataFrame) -> None:
    comparison = m.compare_runs(frame, A, B)
    figures = c.pair_figures(m.headlines(frame), comparison, A, B)
    assert (figures.success_a, figures.success_b) == ("66.7%", "66.7%")
    assert figures.moved is not None and not figures.moved.moved
    # One task only in A, one only in B: the rates are of different tasks, and the delta says so.
    assert figures.moved.text == "no change, unpaired"
    assert c.pair_figures(m.headlines(frame), c.in_both(comparison), A, B).moved == ("no change", False)
    assert dict(figures.shown_changes) == {
        m.PASS_TO_FAIL: 1,
        m.FAIL_TO_PASS: 1,
        m.BOTH_PASS: 0,
        m.BOTH_FAIL: 0,
    }
    assert (
        figures.left_out
        == "0 tasks not comparable (aborted, unscored or scoring error on a side); 1 only in A, 1 only in B."
    )
    assert c.pair_figures({}, comparison, A, B).success_a == UNKNOWN


def test_flips_both_and_the_matrix_keep_their_rows(frame: pd.DataFrame) -> None:
    comparison = m.compare_runs(frame, A, B)
    assert sorted(c.flips(comparison)["task_id"]) == ["0", "1"]
    assert sorted(c.in_both(comparison)["task_id"]) == ["0", "1"]
    assert sorted(c.matrix_rows(comparison, [m.ONLY_B])["task_id"]) == ["3"]
    assert len(c.matrix_rows(comparison, [])) == 4  # nothing chosen: every row


def test_a_result_cell_is_coloured_by_its_tone() -> None:
    from webeval_core.presentation.tones import cell_style

    assert c.result_style(m.PASS_TO_FAIL) == cell_style("bad") and c.result_style("pass") == cell_style(
        "good"
    )
    assert c.result_style(m.ONLY_A) == ""
