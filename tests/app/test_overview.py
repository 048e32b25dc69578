"""Overview page: headline numbers equal metrics.py's (and the scorer's), chart clicks narrow the list."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.app.conftest import Sample, expected
from tests.harness.builders import wav_folder, write_score
from webeval_core.presentation.charts import DETAILED_RUNS
from webeval_core.runs import metrics
from webeval_core.runs.discovery import run_of
from webeval_core.runs.index import build_index
from webeval_core.runs.trajectory_filter import FAIL, PASS
from webeval_core.scoring import verdicts
from webeval_core.support import percent
from webeval_ui.state import Key, table_page_key
from webeval_ui.trajectory_table import TABLE_PAGE_ROWS
from webeval_ui.untrusted import inert

PAGE = "pages/overview.py"
FAILURES = "Outcomes and failures"  # the lazy tab holding the outcome and taxonomy charts


def metric_rows(at: AppTest) -> list[dict[str, str]]:
    """The headline metrics, seven per run, as label -> shown value."""
    shown = [(m.label, str(m.value)) for m in at.metric]
    return [dict(shown[i : i + 7]) for i in range(0, len(shown), 7)]


def figure(at: AppTest, key: str) -> dict[str, Any]:
    chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}"))
    return json.loads(chart.proto.spec)


def click(at: AppTest, key: str, *points: list[Any]) -> None:
    """Select bars the way the browser reports a click (customdata travels with each point)."""
    at.session_state[key] = {
        "selection": {
            "points": [{"customdata": p} for p in points],
            "point_indices": [],
            "box": [],
            "lasso": [],
        }
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def table(at: AppTest) -> pd.DataFrame:
    return at.dataframe[-1].value


def _shown(head: metrics.Headline) -> dict[str, str]:
    """A headline as its row of metrics shows it."""
    return {
        "Trajectories": str(head.trajectories),
        "Finished": str(head.finished),
        # A run the judge scored none of (the live-web run, by the official evaluator) has no rate.
        "Success rate": percent(head.success_rate),
        "Passed": f"{head.passed} / {head.counted}",
        "No answer": str(head.no_answer),
        "Aborted": str(head.aborted),
        "Scoring errors": str(head.scoring_errors),
    }


def few_runs(sample: Sample) -> list[list[str]]:
    """The sample's run labels, DETAILED_RUNS at a time: the Overview opened on that few draws a
    row of metrics per run and labels every bar (with more it pools them)."""
    labels = list(metrics.run_labels(expected(sample.root)[0].runs).values())
    return [labels[first : first + DETAILED_RUNS] for first in range(0, len(labels), DETAILED_RUNS)]


def test_headline_numbers_equal_metrics_and_the_scorer(app, sample: Sample) -> None:
    index, frame = expected(sample.root)
    labels = metrics.run_labels(index.runs)
    heads = metrics.headlines(frame)
    assert len(heads) > DETAILED_RUNS  # two Fara runs, the CLI layout, the live web, four harnesses
    at = app(PAGE)  # every run shown: one pooled row, then a table of the runs
    assert [m.value for m in at.markdown if m.value.startswith("**")] == [
        f"**All {len(heads)} runs, pooled**"
    ]
    assert metric_rows(at) == [_shown(metrics.headline(frame))]
    for chosen in few_runs(sample):
        at = app(PAGE, shown_runs=chosen)
        mine = {run: head for run, head in heads.items() if labels[run] in chosen}
        assert [m.value for m in at.markdown if m.value.startswith("**")] == [
            f"**{inert(labels[run])}**" for run in mine
        ]
        assert metric_rows(at) == [_shown(head) for head in mine.values()]
    # The scorer's own tally (success / scored per run) is an independent computation of the rate.
    tallies: dict[str, Counter[str]] = {}
    for outcome in sample.outcomes:
        tallies.setdefault(run_of(sample.root, outcome.path).key, Counter())[outcome.status] += 1
    for run, head in heads.items():
        tally = tallies[run]
        assert (head.passed, head.counted) == (tally["success"], tally["success"] + tally["failure"]), run
        # Excluded by the scorer: aborted runs, and tasks it has no evaluator for (unscored here).
        assert head.aborted + head.unscored == tally["excluded"]


def test_runs_table_is_drawn_only_when_opened(app, sample: Sample) -> None:
    at = app(PAGE)
    index, _ = expected(sample.root)
    assert at.expander[0].label.startswith(f"{len(index.runs)} runs under")
    before = len(at.dataframe)
    at.session_state["runs_box"] = True  # what opening the expander in the browser sets
    at.run()
    assert len(at.dataframe) == before + 1
    assert at.dataframe[0].value["run"].tolist() == list(metrics.run_labels(index.runs).values())


@pytest.mark.slow
def test_the_run_report_is_at_the_top_and_says_its_size_before_the_download(app, sample: Sample) -> None:
    at = app(PAGE)
    assert at.selectbox(key=Key.REPORT_RUN).label == "Run report"
    assert not at.get("download_button")  # made only when asked for: the page never waits on it

    next(b for b in at.button if b.label == "Prepare run report").click().run()

    assert not at.exception, [e.value for e in at.exception]
    (download,) = at.get("download_button")
    assert re.fullmatch(r"Download report \(\d+(\.\d)? (MB|KB) zip\)", download.proto.label)


def test_many_runs_share_one_metric_row_and_a_table(app, tmp_path: Path) -> None:
    answer = '{"task_type": "retrieve", "status": "SUCCESS"}'
    for run in range(6):
        wav_folder(tmp_path / f"agent-{run}", "108", response=answer)
        wav_folder(tmp_path / f"agent-{run}", "109", response="not json")
    at = app(PAGE, root=tmp_path)
    frame = metrics.trajectory_frame(build_index(tmp_path))
    heads = metrics.headlines(frame)
    assert len(heads) == 6
    (row,) = metric_rows(at)
    pooled = metrics.headline(frame)
    assert row["Trajectories"] == str(pooled.trajectories) == "12"
    assert row["Passed"] == f"{pooled.passed} / {pooled.counted}"
    assert "**All 6 runs, pooled**" in [m.value for m in at.markdown]
    per_run = at.dataframe[0].value
    labels = metrics.run_labels(build_index(tmp_path).runs)
    assert per_run["run"].tolist() == [labels[run] for run in heads]
    assert per_run["trajectories"].tolist() == [h.trajectories for h in heads.values()]
    assert per_run["passed"].tolist() == [h.passed for h in heads.values()]
    # six bars per category: the hover carries passed/counted, no label is drawn on each bar
    assert all("text" not in trace for trace in figure(at, "chart_site")["data"])


def test_a_root_of_many_runs_opens_on_its_latest_and_pools_them_all(app, tmp_path: Path) -> None:
    answer = '{"task_type": "retrieve", "status": "SUCCESS"}'
    for run in range(12):  # run ids 1..12 sort as numbers: 9 before 10
        folder = wav_folder(tmp_path / f"agent-{run + 1}", "108", response=answer)
        write_score(folder, "gpt_eval", float(run % 3 == 0), "judged")
    at = app(PAGE, root=tmp_path)
    index = build_index(tmp_path)
    labels = metrics.run_labels(index.runs)
    chosen = at.multiselect(key="shown_runs").value
    assert sorted(labels[run] for run in chosen) == sorted(f"agent-{n}" for n in range(5, 13))
    assert len(figure(at, "chart_site")["data"]) == 8  # up to eight runs: a trace each
    assert not [m.value for m in at.markdown if not m.value.startswith("**")]  # nothing stray drawn
    at = app(PAGE, root=tmp_path, shown_runs=list(labels.values()))
    (trace,) = figure(at, "chart_site")["data"]
    assert trace["name"] == "12 runs together"
    pooled = metrics.headline(metrics.trajectory_frame(index))
    assert pooled.counted == 12
    assert [p[3:] for p in trace["customdata"]] == [[pooled.passed, pooled.counted]]
    click(at, "chart_site", trace["customdata"][0])
    assert len(table(at)) == 12


def test_few_runs_label_every_bar(app, sample: Sample) -> None:
    spec = figure(app(PAGE, shown_runs=few_runs(sample)[0]), "chart_site")
    for trace in spec["data"]:
        assert trace["text"] == [f"{p[3]}/{p[4]}" for p in trace["customdata"]]
    assert all(not trace.get("text") for trace in figure(app(PAGE), "chart_site")["data"])  # eight: none


def test_sample_runs_show_a_real_mix(app, sample: Sample) -> None:
    _, frame = expected(sample.root)
    results = set(frame["result"])
    assert {"pass", "fail", "no answer", "aborted"} <= results
    tags = set(metrics.tag_options(frame))
    assert {verdicts.WRONG_VALUES, verdicts.NO_ANSWER, verdicts.ABORTED} <= tags


def test_charts_show_the_breakdowns(app, sample: Sample) -> None:
    at = app(PAGE)
    index, frame = expected(sample.root)
    spec = figure(at, "chart_site")
    shown = {(p[0], p[1]): (p[3], p[4]) for trace in spec["data"] for p in trace["customdata"]}
    assert shown == {
        (r.run, r.site): (r.passed, r.counted) for r in metrics.breakdown(frame, "site").itertuples()
    }
    assert {t["name"] for t in spec["data"]} == set(metrics.run_labels(index.runs).values())
    # only the open tab's charts are sent to the browser
    assert {c.proto.id.rsplit("-", 1)[1] for c in at.get("plotly_chart")} == {"chart_site", "chart_task_type"}


def test_failures_tab_shows_outcomes_and_taxonomy(app, sample: Sample) -> None:
    at = app(PAGE, view=FAILURES)
    _, frame = expected(sample.root)
    taxonomy = figure(at, "chart_taxonomy")
    counted = {(p[0], p[1]): p[3] for trace in taxonomy["data"] for p in trace["customdata"]}
    assert counted == {(r.run, r.tag): r.trajectories for r in metrics.taxonomy(frame).itertuples()}
    outcomes = figure(at, "chart_outcome")
    counted = {(p[0], p[1]): p[3] for trace in outcomes["data"] for p in trace["customdata"]}
    assert counted == {
        (run, result): n for (run, result), n in frame.groupby(["run", "result"]).size().items()
    }
    assert {PASS, FAIL} <= {p[1] for trace in outcomes["data"] for p in trace["customdata"]}


def test_templates_and_distributions_tabs(app, sample: Sample) -> None:
    _, frame = expected(sample.root)
    at = app(PAGE, view="Intent templates")
    templates = figure(at, "chart_template")
    assert 0 < len(templates["data"][0]["customdata"]) <= 25
    at = app(PAGE, view="Distributions")
    steps = figure(at, "hist_steps")
    assert sorted(x for t in steps["data"] for x in t["x"]) == sorted(frame["steps"])
    # the runs table is closed (lazy); the first table may be the pooled headline's runs
    stats = next(d.value for d in at.dataframe if "measure" in d.value.columns).set_index(["measure", "run"])
    labels = metrics.run_labels(expected(sample.root)[0].runs)
    want = frame.groupby("run")["steps"].agg(["count", "min", "max"])
    for run, row in want.iterrows():
        assert stats.loc[("steps", labels[run]), ["count", "min", "max"]].tolist() == [
            row["count"],
            row["min"],
            row["max"],
        ]


def test_clicking_a_site_bar_narrows_the_list_and_links_the_filter(app, sample: Sample) -> None:
    at = app(PAGE)
    index, frame = expected(sample.root)
    assert len(table(at)) == len(frame)
    run, site = figure(at, "chart_site")["data"][0]["customdata"][0][:2]
    click(at, "chart_site", [run, site])
    rows = table(at)
    wanted = metrics.filter_frame(frame, runs=[run], sites=[site])
    assert 0 < len(rows) == len(wanted) < len(frame)
    assert set(rows["site"]) == {site}
    assert set(rows["task_id"]) == set(wanted["task_id"])
    (link,) = [p.proto for p in at.get("page_link") if p.proto.page.endswith("trajectories")]
    assert parse_qs(link.query_string) == {"runs": [metrics.run_labels(index.runs)[run]], "sites": [site]}


def test_clicking_taxonomy_buckets_keeps_any_clicked_tag(app) -> None:
    at = app(PAGE, view=FAILURES)
    points = [p for trace in figure(at, "chart_taxonomy")["data"] for p in trace["customdata"]]
    picked = [p for p in points if p[1] in (verdicts.NO_ANSWER, verdicts.ABORTED)]
    assert picked
    click(at, "chart_taxonomy", *picked)
    rows = table(at)
    assert len(rows) == sum(p[3] for p in picked)
    # Every episode that ended "answered" has its answer read (cube-harness's too: its submit_response
    # action's arguments), so these tags hold only the runs that gave none or crashed.
    assert set(rows["outcome"]) <= {"no_answer", "aborted"}


def test_two_charts_combine(app, sample: Sample) -> None:
    at = app(PAGE)
    _, frame = expected(sample.root)
    run, site = figure(at, "chart_site")["data"][0]["customdata"][0][:2]
    task_type = next(
        p[1] for t in figure(at, "chart_task_type")["data"] for p in t["customdata"] if p[0] == run
    )
    click(at, "chart_site", [run, site])
    click(at, "chart_task_type", [run, task_type])
    wanted = metrics.filter_frame(frame, runs=[run], sites=[site], task_types=[task_type])
    assert len(table(at)) == len(wanted)


def test_runs_are_chosen_from_the_url(app, sample: Sample) -> None:
    index, frame = expected(sample.root)
    labels = metrics.run_labels(index.runs)
    first = index.runs[0].key
    at = app(PAGE, shown_runs=labels[first])
    assert at.multiselect(key="shown_runs").value == [first]
    assert len(metric_rows(at)) == 1
    assert metric_rows(at)[0]["Trajectories"] == str((frame["run"] == first).sum())
    assert len(table(at)) == (frame["run"] == first).sum()


def test_agent_and_folder_text_is_escaped_in_charts(app, tmp_path: Path) -> None:
    hostile = "<img src=x onerror=alert(1)>"
    wav_folder(tmp_path / hostile, "0", response='{"task_type": "retrieve", "status": "SUCCESS"}')
    at = app(PAGE, root=tmp_path, view=FAILURES)
    names = {t["name"] for t in figure(at, "chart_outcome")["data"]}
    assert names == {"&lt;img src=x onerror=alert(1)&gt;"}


def test_empty_root_says_so(app, tmp_path: Path) -> None:
    at = app(PAGE, root=tmp_path)
    assert "No trajectory folders found" in at.info[0].value


@pytest.mark.parametrize("warm", [False, True], ids=["fresh-app-caches", "rerun"])
def test_overview_of_1000_trajectories_pages_its_table(app, big_root: Path, warm: bool) -> None:
    """Its speed is benchmarks/bench_app.py's (a 1,000-trajectory overview beside a bare app's
    floor): a wall clock in a test only measures how busy the machine is."""
    build_index(big_root)  # the on-disk summary cache exists, as after the first opening
    at = app(root=big_root)
    if not warm:
        st.cache_data.clear()
    at.run()
    assert not at.exception
    shown = metric_rows(at)[0]  # the first run's row of metrics
    assert (shown["Trajectories"], shown["Success rate"]) == ("500", "55.6%")
    assert len(table(at)) == TABLE_PAGE_ROWS  # the first page of the 1,000 rows
    assert at.number_input(key=table_page_key(Key.OVERVIEW_TABLE)).max == 1000 // TABLE_PAGE_ROWS
    first_page = table(at)
    at.number_input(key=table_page_key(Key.OVERVIEW_TABLE)).set_value(2).run()
    second_page = table(at)
    assert len(second_page) == 1000 - TABLE_PAGE_ROWS
    assert set(second_page["run"]).isdisjoint(first_page["run"])  # two runs of 500: one a page
