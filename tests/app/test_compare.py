"""Compare page: counts equal metrics.compare_runs, flips are listed and link to both trajectories."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest

from tests.app.conftest import Sample, expected
from tests.harness.builders import wav_folder
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.runs import metrics
from webeval_core.runs.index import RootIndex
from webeval_ui.state import Key

PAGE = "pages/compare.py"


def _compared(index: RootIndex) -> tuple[str, str]:
    """The runs the page compares first: the first two sharing tasks (the two WebArena-Verified
    runs; the live-web run between them shares none)."""
    first, second = (r.key for r in index.runs if "WebArenaVerified" in r.key)
    return first, second


def shown_metrics(at) -> dict[str, str]:
    return {m.label: str(m.value) for m in at.metric}


def test_defaults_to_the_first_two_runs_and_counts_flips(app, sample: Sample) -> None:
    at = app(PAGE)
    index, frame = expected(sample.root)
    run_a, run_b = _compared(index)
    assert (at.selectbox(key="a").value, at.selectbox(key="b").value) == (run_a, run_b)
    comparison = metrics.compare_runs(frame, run_a, run_b)
    counts = metrics.change_counts(comparison)
    shown = shown_metrics(at)
    for change in (metrics.PASS_TO_FAIL, metrics.FAIL_TO_PASS, metrics.BOTH_PASS, metrics.BOTH_FAIL):
        assert shown[change] == str(counts[change])
    assert counts[metrics.PASS_TO_FAIL] + counts[metrics.FAIL_TO_PASS] > 0  # the sample has flips
    heads = metrics.headlines(frame)
    assert shown["Success A"] == f"{heads[run_a].success_rate:.1%}"
    flips = at.dataframe[1].value
    assert set(flips["change"]) <= {metrics.PASS_TO_FAIL, metrics.FAIL_TO_PASS}
    assert len(flips) == counts[metrics.PASS_TO_FAIL] + counts[metrics.FAIL_TO_PASS]
    matrix = at.dataframe[2].value
    assert len(matrix) == len(comparison)
    assert (
        matrix.set_index("task_id")["change"].to_dict() == comparison.set_index("task_id")["change"].to_dict()
    )


def test_a_selected_flip_links_to_both_trajectories(app, sample: Sample) -> None:
    at = app(PAGE)
    index, _ = expected(sample.root)
    flips = at.dataframe[1].value
    task = str(flips.iloc[0]["task_id"])
    assert not at.get("page_link")
    at.session_state["flips"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    links = [link.proto for link in at.get("page_link")]
    assert [link.page for link in links] == ["trajectory", "trajectory"]
    assert [parse_qs(link.query_string) for link in links] == [
        {"run": [_compared(index)[0]], "task": [task]},
        {"run": [_compared(index)[1]], "task": [task]},
    ]


def test_runs_and_shown_changes_come_from_the_url(app, sample: Sample) -> None:
    index, frame = expected(sample.root)
    labels = metrics.run_labels(index.runs)
    run_b, run_a = _compared(index)
    at = app(PAGE, a=labels[run_a], b=labels[run_b], change=metrics.FAIL_TO_PASS)
    assert (at.selectbox(key="a").value, at.selectbox(key="b").value) == (run_a, run_b)
    wanted = metrics.compare_runs(frame, run_a, run_b)
    wanted = wanted[wanted["change"] == metrics.FAIL_TO_PASS]
    matrix = at.dataframe[2].value
    assert list(matrix["task_id"]) == list(wanted["task_id"])
    # swapping the runs swaps the flips
    assert shown_metrics(at)[metrics.FAIL_TO_PASS] == str(
        metrics.change_counts(metrics.compare_runs(frame, run_b, run_a))[metrics.PASS_TO_FAIL]
    )


def test_all_runs_matrix_when_more_than_two(app, sample: Sample) -> None:
    at = app(PAGE)
    index, frame = expected(sample.root)
    assert len(index.runs) >= 3  # two Fara runs and the CLI-layout folder
    assert len(at.dataframe) == 3  # every run's rows are read only once the matrix is opened
    at.session_state[Key.ALL_RUNS_BOX] = True
    at.run()
    everything = at.dataframe[3].value
    labels = metrics.run_labels(index.runs)
    assert list(everything.columns) == ["task_id", *(labels[r.key] for r in index.runs)]
    assert len(everything) == frame["task_id"].nunique()


def test_one_run_cannot_be_compared(app, tmp_path: Path) -> None:
    wav_folder(tmp_path / "only", "0")
    at = app(PAGE, root=tmp_path)
    assert "Comparing needs two runs; 1 found" in at.info[0].value


def test_the_same_run_twice_is_refused(app, sample: Sample) -> None:
    index, _ = expected(sample.root)
    label = metrics.run_labels(index.runs)[index.runs[0].key]
    at = app(PAGE, a=label, b=label)
    assert at.warning[0].value == "Choose two different runs."


# --- side by side -----------------------------------------------------------------------------


def _pair_headings(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith(("Step ", "Screenshot "))]


def _lengths(sample: Sample, task: str) -> tuple[int, int]:
    index, _ = expected(sample.root)
    by_key = {(s.run_key, s.task_id): s for s in index.summaries}
    return tuple(  # type: ignore[return-value]
        len(load_trajectory(by_key[(run, task)].path).steps) for run in _compared(index)
    )


def test_a_selected_flip_opens_both_trajectories_side_by_side(app, sample: Sample) -> None:
    at = app(PAGE)
    assert not _pair_headings(at)
    task = str(at.dataframe[1].value.iloc[0]["task_id"])
    at.session_state["flips"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="pair").value == task
    steps_a, steps_b = _lengths(sample, task)
    assert [h.split(" ·")[0] for h in _pair_headings(at)] == [f"Step 1 of {steps_a}", f"Step 1 of {steps_b}"]
    at.button(key="_pair_next").click().run()
    assert [h.split(" ·")[0] for h in _pair_headings(at)] == [f"Step 2 of {steps_a}", f"Step 2 of {steps_b}"]


def test_past_the_end_of_the_shorter_side_it_says_so_and_shows_the_answer(app, sample: Sample) -> None:
    index, frame = expected(sample.root)
    comparison = metrics.compare_runs(frame, *_compared(index))
    both = comparison[~comparison["change"].isin([metrics.ONLY_A, metrics.ONLY_B])]
    task, (short, long) = next(
        (t, lengths)
        for t in both["task_id"].astype(str)
        if (lengths := _lengths(sample, t))[0] < lengths[1] and lengths[0] > 0
    )
    at = app(PAGE, pair=task, pair_step=str(long))  # a deep link to the longer side's last step
    assert not at.exception, at.exception
    assert [h.split(" ·")[0] for h in _pair_headings(at)] == [f"Step {long} of {long}"]
    assert any(f"ended after {short} steps" in i.value for i in at.info)
    assert sum(m.value == "**Final answer**" for m in at.markdown) == 2  # both sides are at their end


def test_statistics_name_the_tests_and_their_n(app, sample: Sample) -> None:
    from webeval_core.runs.statistics import TEST_NAMES, paired_statistics

    at = app(PAGE)
    index, frame = expected(sample.root)
    statistics = paired_statistics(metrics.compare_runs(frame, *_compared(index)))
    table = at.dataframe[0].value
    assert table["tasks"].tolist() == [s.group for s in statistics]
    assert table["tasks"].iloc[0] == "all" and any(g.startswith("site: ") for g in table["tasks"])
    assert table["n"].tolist() == [s.tasks for s in statistics]
    assert table["McNemar p"].tolist() == [round(s.p_value, 4) for s in statistics]
    caption = next(c.value for c in at.caption if c.value.startswith("On the "))
    assert f"On the {statistics[0].tasks} tasks scored in both runs" in caption
    assert all(name.split(" (")[0] in caption for name in TEST_NAMES)


def test_two_agent_log_runs_compare_their_answers_and_network_checks(app, tmp_path: Path) -> None:
    """WebArena-Verified agent logs have no steps to replay: side by side shows each run's answer,
    its verdict and each network check's explanation (a flip's reasons, next to each other)."""
    from tests.core.scoring.helpers import NAVIGATE
    from tests.harness.har_builders import GITLAB, document, write_config
    from tests.harness.har_builders import wav_folder as agent_log
    from webeval_core.scoring import score_trajectories

    root = tmp_path / "root"
    passed = agent_log(root / "run-a", 44, NAVIGATE, [document(f"{GITLAB}/dashboard/todos")])
    failed = agent_log(root / "run-b", 44, NAVIGATE, [document(f"{GITLAB}/explore")])
    write_config(root / "webarena-verified-config.json")
    outcomes = score_trajectories([passed, failed], config_root=root)
    assert [o.status for o in outcomes] == ["success", "failure"]
    at = app(PAGE, root=root, pair="44")
    assert not at.exception, at.exception
    assert any("their answers and verdicts" in c.value for c in at.caption)
    assert sum(m.value == "**Final answer**" for m in at.markdown) == 2
    explained = [t.value for t in at.text]
    for outcome in outcomes:
        assert outcome.evaluation is not None
        assert outcome.evaluation.network[0].explanation in explained


@pytest.mark.slow
def test_runs_the_official_cli_judged_compare_their_fields_elements_and_checks(app, tmp_path: Path) -> None:
    """Judged by the official CLI alone (eval_result.json, no score file): the side by side still
    gives each answer's fields, a list element by element, and each network check's result."""
    from tests.harness.agent_logs import agent_log_runs

    root = agent_log_runs(tmp_path / "logs")
    at = app(PAGE, root=root, pair="107")
    assert not at.exception, at.exception
    assert sum(m.value == "**Final answer**" for m in at.markdown) == 2
    assert any("retrieved_data, element by element" in c.value.replace("\\", "") for c in at.caption)
    at = app(PAGE, root=root, pair="44")
    checks = [t.value for t in at.text if t.value.startswith("Network check")]
    assert (
        len(checks) == 2 and any(": success" in c for c in checks) and any(": failure" in c for c in checks)
    )
