"""metrics: tidy frame, upstream counting rules, breakdowns, taxonomy and run comparison."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from pydantic import ValidationError

from webeval_core.reading.task_catalog import TaskCatalog, load_catalog
from webeval_core.runs import metrics as m
from webeval_core.runs import trajectory_filter as tf
from webeval_core.runs.discovery import Run
from webeval_core.runs.index import RootIndex, TrajectorySummary
from webeval_core.runs.listing.list_columns import column_names
from webeval_core.scoring import verdicts as vd
from webeval_core.support.vocabulary import UNKNOWN

A, B = "runs/sys/model-a/u/bench/0", "runs/sys/model-b/u/bench/0"


@pytest.fixture(scope="module")
def catalog() -> TaskCatalog:
    return load_catalog()


def verdict(status: str, score: float, *tags: str) -> vd.Verdict:
    return vd.Verdict(source="webarena-verified-1.2.3-abcd1234", status=status, score=score, tags=tags)


def summary(
    run: str, task: str, outcome: str | None = "answered", v: vd.Verdict | None = None, **kw: Any
) -> TrajectorySummary:
    return TrajectorySummary(
        run_key=run,
        key=f"{run}/{task}",
        path=Path("/r") / run / task,
        task_id=task,
        outcome=outcome,
        verdict=v,
        **kw,
    )


def make_index(*summaries: TrajectorySummary) -> RootIndex:
    keys = dict.fromkeys(s.run_key for s in summaries)
    return RootIndex(
        root=Path("/r"), runs=tuple(Run(key=k, path=Path("/r") / k) for k in keys), summaries=summaries
    )


@pytest.fixture
def frame(catalog: TaskCatalog) -> pd.DataFrame:
    index = make_index(
        # run A: 0 pass, 1 fail (wrong values), 7 no answer, 27 aborted, 44 scoring error, 102 pass
        summary(
            A,
            "0",
            v=verdict("success", 1.0),
            steps=10,
            duration_s=100.0,
            prompt_tokens=900,
            completion_tokens=100,
        ),
        summary(
            A, "1", v=verdict("failure", 0.0, vd.WRONG_VALUES), steps=20, duration_s=50.0, prompt_tokens=10
        ),
        summary(A, "7", outcome="no_answer", v=verdict("failure", 0.0), steps=30, core_error="TimeoutError"),
        summary(A, "27", outcome="aborted", steps=4),
        summary(A, "44", v=verdict("error", 0.0, vd.SCORING_ERROR), steps=6),
        summary(A, "102", v=verdict("success", 1.0), steps=8, final_answer="Merge requests: 12 open"),
        # run B: 0 fail, 1 pass, 7 pass, 27 fail (network), 400 pass; no 44 / 102
        summary(B, "0", v=verdict("failure", 0.0, vd.WRONG_TASK_TYPE, vd.SCHEMA_VIOLATIONS), steps=5),
        summary(B, "1", v=verdict("success", 1.0), steps=6),
        summary(B, "7", v=verdict("success", 1.0), steps=7),
        summary(B, "27", v=verdict("failure", 0.0, vd.NETWORK_MISMATCHED), steps=8),
        summary(B, "400", v=verdict("success", 1.0), steps=9),
        summary(B, "999999", outcome=None, unreadable="no answer file"),
    )
    return m.trajectory_frame(index, catalog)


def test_frame_has_one_row_per_trajectory_with_task_facts(frame) -> None:
    assert list(frame.columns) == list(column_names())
    assert len(frame) == 12
    row = frame[(frame["run"] == A) & (frame["task_id"] == "0")].iloc[0]
    assert (row["site"], row["task_type"], row["result"], row["value"], row["tokens"]) == (
        "shopping_admin",
        "retrieve",
        "pass",
        1.0,
        1000,
    )
    assert row["intent_template"] == "Get the top-{{n}} best-selling {{entity}} in {{period}}"
    unknown = frame[frame["task_id"] == "999999"].iloc[0]
    assert pd.isna(unknown["site"]) and unknown["result"] == tf.UNREADABLE


def test_results_follow_upstream_counting(frame) -> None:
    a = frame[frame["run"] == A].set_index("task_id")
    assert a["result"].to_dict() == {
        "0": "pass",
        "1": "fail",
        "7": "no answer",
        "27": "aborted",
        "44": "scoring error",
        "102": "pass",
    }
    # aborted and scoring errors are left out; no answer counts as 0
    assert a["counted"].to_dict() == {"0": True, "1": True, "7": True, "27": False, "44": False, "102": True}
    assert a.loc["7", "value"] == 0.0


def test_headline_numbers(frame) -> None:
    head = m.headlines(frame)
    assert head[A] == m.Headline(
        trajectories=6,
        counted=4,
        passed=2,
        success_rate=0.5,
        no_answer=1,
        aborted=1,
        scoring_errors=1,
        unscored=0,
        unreadable=0,
    )
    assert head[B].trajectories == 6 and head[B].counted == 5 and head[B].passed == 3
    assert head[B].success_rate == pytest.approx(0.6)
    assert head[B].unreadable == 1


def test_no_answer_without_score_counts_as_failure_and_unscored_is_left_out(catalog) -> None:
    frame = m.trajectory_frame(
        make_index(
            summary(A, "0", outcome="no_answer"), summary(A, "1"), summary(A, "7", v=verdict("success", 1.0))
        ),
        catalog,
    )
    head = m.headline(frame)
    assert (head.counted, head.passed, head.success_rate, head.unscored) == (2, 1, 0.5, 1)


def test_without_a_verdict_every_row_takes_the_root_s_default_judge(catalog) -> None:
    frame = m.trajectory_frame(
        make_index(
            summary(A, "a", scores={"gpt_eval": 1.0}),
            summary(A, "b", scores={"gpt_eval": 0.0, "mmrubric": 1.0}),
            summary(A, "c", scores={"mmrubric": 1.0}),  # not the default judge's: unscored, not mixed in
        ),
        catalog,
    )
    assert frame["result"].tolist() == ["pass", "fail", "unscored"]
    assert frame["judge"].tolist()[:2] == ["gpt_eval", "gpt_eval"]


def test_breakdown_by_site_and_task_type(frame) -> None:
    by_site = m.breakdown(frame[frame["run"] == A], "site").set_index("site")
    assert by_site.loc["shopping_admin", ["trajectories", "counted", "passed"]].tolist() == [2, 2, 1]
    assert by_site.loc["shopping_admin", "success_rate"] == 0.5
    assert by_site.loc["gitlab", ["trajectories", "counted", "passed"]].tolist() == [2, 1, 1]
    assert by_site.loc["reddit", "counted"] == 0 and pd.isna(by_site.loc["reddit", "success_rate"])
    by_type = m.breakdown(frame, "task_type")
    b_mutate = by_type[(by_type["run"] == B) & (by_type["task_type"] == "mutate")].iloc[0]
    assert (b_mutate["trajectories"], b_mutate["passed"]) == (1, 1)
    assert UNKNOWN in set(by_type["task_type"])


def test_outcome_breakdown_and_taxonomy(frame) -> None:
    outcomes = m.outcome_breakdown(frame[frame["run"] == A])
    assert dict(zip(outcomes["outcome_group"], outcomes["trajectories"], strict=True)) == {
        "answered": 3,
        "no answer": 1,
        "aborted": 1,
        "scoring error": 1,
    }
    assert outcomes["outcome_group"].tolist() == ["answered", "no answer", "aborted", "scoring error"]
    tax = m.taxonomy(frame)
    counts = {(r.run, r.tag): r.trajectories for r in tax.itertuples()}
    assert counts == {
        (A, vd.WRONG_VALUES): 1,
        (A, vd.NO_ANSWER): 1,
        (A, vd.ABORTED): 1,
        (A, vd.SCORING_ERROR): 1,
        (A, "core.log: TimeoutError"): 1,
        (B, vd.WRONG_TASK_TYPE): 1,
        (B, vd.SCHEMA_VIOLATIONS): 1,
        (B, vd.NETWORK_MISMATCHED): 1,
    }
    assert tax["tag"].iloc[-1] == "core.log: TimeoutError"  # core.log types after verdict tags
    assert m.tag_options(frame)[-1] == "core.log: TimeoutError"


def test_filters_combine(frame) -> None:
    assert len(m.filter_frame(frame, runs=[A])) == 6
    assert m.filter_frame(frame, runs=[A], results=["pass"])["task_id"].tolist() == ["0", "102"]
    assert m.filter_frame(frame, sites=["gitlab"], runs=[B]).empty
    assert m.filter_frame(frame, tags=[vd.WRONG_VALUES, vd.NETWORK_MISMATCHED])["task_id"].tolist() == [
        "1",
        "27",
    ]
    assert m.filter_frame(frame, text="MERGE requests")["task_id"].tolist() == ["102"]
    assert m.filter_frame(frame, text="best-selling")["task_id"].tolist() == ["0", "1", "0", "1"]
    assert m.filter_frame(frame, sites=[UNKNOWN])["task_id"].tolist() == ["999999"]
    assert m.filter_frame(frame, outcome_groups=["aborted"], statuses=["failure"]).empty


def test_a_filter_model_keeps_what_the_same_keyword_criteria_keep(frame) -> None:
    criteria = tf.TrajectoryFilter(runs={A}, results={"pass", "fail"})
    assert m.filter_frame(frame, criteria).equals(m.filter_frame(frame, runs=[A], results=["pass", "fail"]))
    narrower = m.filter_frame(frame, criteria, text="MERGE requests")
    assert narrower["task_id"].tolist() == ["102"]
    assert m.filter_frame(frame, tf.TrajectoryFilter()).equals(frame)


def test_an_unknown_criterion_is_refused(frame) -> None:
    with pytest.raises(ValidationError, match=r"\bsite\n  Extra inputs are not permitted"):
        m.filter_frame(frame, site=["gitlab"])


def test_compare_runs_lists_flips(frame) -> None:
    cmp = m.compare_runs(frame, A, B).set_index("task_id")
    assert cmp["change"].to_dict() == {
        "0": m.PASS_TO_FAIL,
        "1": m.FAIL_TO_PASS,
        "7": m.FAIL_TO_PASS,  # no answer counts as a failure
        "27": m.NOT_COMPARABLE,  # aborted in A
        "44": m.ONLY_A,
        "102": m.ONLY_A,
        "400": m.ONLY_B,
        "999999": m.ONLY_B,
    }
    assert cmp.loc["400", "site"] == "reddit" and cmp.loc["1", "result_b"] == "pass"
    assert cmp.loc["400", "result_a"] == m.NOT_RUN and cmp.loc["44", "result_b"] == m.NOT_RUN
    counts = m.change_counts(m.compare_runs(frame, A, B))
    assert counts[m.PASS_TO_FAIL] == 1 and counts[m.FAIL_TO_PASS] == 2 and counts[m.BOTH_PASS] == 0
    assert sum(counts.values()) == 8


def test_task_matrix(frame) -> None:
    matrix = m.task_matrix(frame, [B, A])
    assert list(matrix.columns) == [B, A]
    assert matrix.index.tolist() == ["0", "1", "7", "27", "44", "102", "400", "999999"]
    assert matrix.loc["7"].tolist() == ["pass", "no answer"]
    assert matrix.loc["400", A] == m.NOT_RUN  # never attempted in A: not an empty ("unknown") cell


# --- verdicts from score files ---------------------------------------------------------------


def test_run_labels_are_short_and_unique() -> None:
    runs = [
        Run(key="x/s1/fara-7b/u/bench/0", path=Path("/x"), model="fara-7b", benchmark="bench", run_id="0"),
        Run(key="x/s2/fara-7b/u/bench/0", path=Path("/y"), model="fara-7b", benchmark="bench", run_id="0"),
        Run(key="x/s1/gpt-4o/u/bench/0", path=Path("/z"), model="gpt-4o", benchmark="bench", run_id="0"),
        Run(key="webarena-verified-cli", path=Path("/w")),
    ]
    assert m.run_labels(runs) == {
        "x/s1/fara-7b/u/bench/0": "x/s1/fara-7b/u/bench/0",
        "x/s2/fara-7b/u/bench/0": "x/s2/fara-7b/u/bench/0",
        "x/s1/gpt-4o/u/bench/0": "gpt-4o · bench · run 0",
        "webarena-verified-cli": "webarena-verified-cli",
    }
