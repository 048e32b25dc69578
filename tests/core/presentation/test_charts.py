"""The overview's chart specs on small hand-built frames: traces, axes, labels, counts, clicks."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest

from webeval_core.presentation import charts
from webeval_core.presentation.charts import BarClick, Breakdown
from webeval_core.runs import metrics

LABELS = {"run-a": "Agent A", "run-b": "Agent <b>"}


def _row(run: str, task: str, site: str, value: float | None, **extra: Any) -> dict[str, Any]:
    return {
        "run": run,
        "task_id": task,
        "site": site,
        "task_type": extra.get("task_type", "retrieve"),
        "intent": f"intent of {task}",
        "intent_template": extra.get("template", "t1"),
        "outcome": "answered",
        "outcome_group": extra.get("outcome_group", "answered"),
        "status": None,
        "score": value,
        "result": "pass" if value == 1.0 else "fail",
        "counted": value is not None,
        "value": value,
        "steps": extra.get("steps", 3),
        "duration_s": extra.get("duration_s", 10.0),
        "tokens": extra.get("tokens"),
        "core_error": None,
        "answer": None,
        "tags": extra.get("tags", []),
        "path": f"/{run}/{task}",
    }


@pytest.fixture
def frame() -> pd.DataFrame:
    """Two runs: A passes 1 of 2 on gitlab and 1 of 1 on reddit; B fails everything, one aborted."""
    return pd.DataFrame(
        [
            _row("run-a", "1", "gitlab", 1.0, steps=2, tokens=100),
            _row("run-a", "2", "gitlab", 0.0, tags=["wrong values"], steps=5, template="t2"),
            _row("run-a", "3", "reddit", 1.0, task_type="mutate", steps=7),
            _row("run-b", "1", "gitlab", 0.0, tags=["wrong values", "no answer"], steps=4),
            _row("run-b", "3", "reddit", None, task_type="mutate", outcome_group="aborted", tags=["aborted"]),
        ]
    )


def _valid(spec: charts.FigureSpec) -> go.Figure:
    """Plotly accepts the spec as a figure (it validates every trace and layout key)."""
    return go.Figure(json.loads(json.dumps(spec)))


def test_rate_bars_have_one_trace_per_run_with_rates_counts_and_escaped_names(frame: pd.DataFrame) -> None:
    spec = charts.rate_bars(metrics.breakdown(frame, "site"), "site", LABELS)
    _valid(spec)
    a, b = spec["data"]
    assert (a["name"], b["name"]) == ("Agent A", "Agent &lt;b&gt;")
    assert a["orientation"] == "v"
    assert (a["x"], a["y"]) == (["gitlab", "reddit"], [50.0, 100.0])
    assert a["customdata"] == [["run-a", "gitlab", "gitlab", 1, 2], ["run-a", "reddit", "reddit", 1, 1]]
    assert a["text"] == ["1/2", "1/1"] and a["textposition"] == "outside"
    # nothing counted on reddit for B: no rate, drawn as a gap, not as 0 %
    assert b["y"] == [0.0, None]
    assert spec["layout"]["yaxis"] == {"title": {"text": "success rate (%)"}, "range": [0, 105]}
    assert spec["layout"]["barmode"] == "group" and spec["layout"]["height"] == 360


def test_rate_bars_in_an_order_are_horizontal_and_follow_it(frame: pd.DataFrame) -> None:
    table = metrics.breakdown(frame, "intent_template")
    spec = charts.rate_bars(table, "intent_template", LABELS, order=["t2", "t1"])
    _valid(spec)
    assert all(t["orientation"] == "h" for t in spec["data"])
    assert spec["data"][0]["y"] == ["t1", "t2"] and spec["data"][0]["x"] == [100.0, 0.0]
    layout = spec["layout"]
    assert layout["yaxis"] == {
        "categoryorder": "array",
        "categoryarray": ["t2", "t1"],
        "autorange": "reversed",
    }
    assert layout["xaxis"]["title"] == {"text": "success rate (%)"}
    assert layout["height"] == charts.bars_height(2, 2)


def test_many_runs_lose_the_count_labels() -> None:
    runs = [f"r{i}" for i in range(charts.DETAILED_RUNS + 1)]
    table = metrics.breakdown(pd.DataFrame([_row(r, "1", "gitlab", 1.0) for r in runs]), "site")
    spec = charts.rate_bars(table, "site", {r: r for r in runs})
    assert len(spec["data"]) == len(runs)
    assert all("text" not in trace for trace in spec["data"])


def test_long_labels_are_cut_and_escaped_but_the_raw_value_travels_in_customdata() -> None:
    long = "<i>" + "x" * 100
    table = metrics.breakdown(pd.DataFrame([_row("run-a", "1", long, 1.0)]), "site")
    (trace,) = charts.rate_bars(table, "site", LABELS)["data"]
    (label,) = trace["x"]
    assert label.startswith("&lt;i&gt;") and label.endswith("…")
    assert len(label.replace("&lt;", "<").replace("&gt;", ">")) == charts.LABEL_WIDTH
    assert trace["customdata"][0][1] == long


def test_count_bars_keep_the_table_order_and_count_trajectories(frame: pd.DataFrame) -> None:
    spec = charts.count_bars(metrics.taxonomy(frame), "tag", LABELS)
    _valid(spec)
    assert spec["layout"]["yaxis"]["categoryarray"] == ["wrong values", "aborted", "no answer"]
    counted = {(p[0], p[1]): p[3] for trace in spec["data"] for p in trace["customdata"]}
    assert counted == {
        ("run-a", "wrong values"): 1,
        ("run-b", "wrong values"): 1,
        ("run-b", "no answer"): 1,
        ("run-b", "aborted"): 1,
    }
    assert spec["layout"]["xaxis"]["title"] == {"text": "trajectories"}
    assert all(t["orientation"] == "h" and t["x"] == [p[3] for p in t["customdata"]] for t in spec["data"])


def test_histograms_overlay_the_runs_and_leave_missing_values_out(frame: pd.DataFrame) -> None:
    spec = charts.histogram(frame, "tokens", LABELS)
    _valid(spec)
    assert [(t["type"], t["name"], t["x"]) for t in spec["data"]] == [
        ("histogram", "Agent A", [100.0]),
        ("histogram", "Agent &lt;b&gt;", []),
    ]
    assert spec["layout"]["barmode"] == "overlay"
    assert charts.histogram(frame, "duration_s", LABELS)["layout"]["xaxis"]["title"] == {
        "text": "duration (s)"
    }


def test_overview_figures_hold_every_chart(frame: pd.DataFrame) -> None:
    figures = charts.overview_figures(frame, LABELS)
    assert set(figures.bars) == set(Breakdown)
    assert set(figures.histograms) == set(charts.MEASURES)
    for spec in (*figures.bars.values(), *figures.histograms.values()):
        _valid(spec)
    steps = sorted(x for t in figures.histograms["steps"]["data"] for x in t["x"])
    assert steps == sorted(frame["steps"])
    # the template chart lists the worst templates first: t2 (0 %) before t1
    assert figures.bars[Breakdown.INTENT_TEMPLATE]["layout"]["yaxis"]["categoryarray"] == ["t2", "t1"]


def test_templates_shown_are_capped() -> None:
    rows = [
        _row("run-a", str(i), "gitlab", 1.0, template=f"t{i:02}") for i in range(charts.TEMPLATES_SHOWN + 5)
    ]
    figures = charts.overview_figures(pd.DataFrame(rows), LABELS)
    (trace,) = figures.bars[Breakdown.INTENT_TEMPLATE]["data"]
    assert len(trace["customdata"]) == charts.TEMPLATES_SHOWN


def test_clicked_bars_read_run_and_raw_value_back() -> None:
    event = {"selection": {"points": [{"customdata": ["run-a", 7, "7", 1, 2]}, {"x": 1}]}}
    assert charts.clicked_bars(event) == [BarClick("run-a", "7")]
    assert charts.clicked_bars(None) == []


def test_filter_by_clicks_ands_charts_and_ors_bars(frame: pd.DataFrame) -> None:
    site = {Breakdown.SITE: [BarClick("run-a", "gitlab"), BarClick("run-b", "reddit")]}
    assert sorted(charts.filter_by_clicks(frame, site)["path"]) == ["/run-a/1", "/run-a/2", "/run-b/3"]
    both = {**site, Breakdown.TASK_TYPE: [BarClick("run-b", "mutate")]}
    assert charts.filter_by_clicks(frame, both)["path"].tolist() == ["/run-b/3"]
    tags = {Breakdown.TAG: [BarClick("run-b", "wrong values"), BarClick("run-b", "no answer")]}
    assert charts.filter_by_clicks(frame, tags)["path"].tolist() == ["/run-b/1"]  # one row, not two


def test_each_run_keeps_one_distinct_colour_in_every_chart(frame: pd.DataFrame) -> None:
    figures = charts.overview_figures(frame, LABELS)
    colours: dict[str, set[str]] = {}
    for spec in [*figures.bars.values(), *figures.histograms.values()]:
        for trace in spec["data"]:
            colours.setdefault(trace["name"], set()).add(trace["marker"]["color"])
    assert all(len(found) == 1 for found in colours.values()), colours
    assert len({next(iter(found)) for found in colours.values()}) == len(LABELS)
    # Only run B has an aborted trajectory: its colour does not depend on which runs a chart holds.
    only_b = frame[frame["run"] == "run-b"]
    (trace,) = charts.overview_figures(only_b, LABELS).bars[Breakdown.SITE]["data"]
    assert (
        trace["marker"]["color"] == charts.run_colour("run-b", LABELS) != charts.run_colour("run-a", LABELS)
    )


def test_the_outcomes_chart_separates_pass_and_fail(frame: pd.DataFrame) -> None:
    spec = charts.overview_figures(frame, LABELS).bars[Breakdown.OUTCOME]
    bars = {(p[0], p[1]): p[3] for trace in spec["data"] for p in trace["customdata"]}
    assert bars[("run-a", metrics.PASS)] == 2 and bars[("run-a", metrics.FAIL)] == 1
    assert bars[("run-b", metrics.FAIL)] == 2  # the hand-built aborted row carries result "fail"
    clicked = charts.filter_by_clicks(frame, {Breakdown.OUTCOME: [BarClick("run-a", metrics.PASS)]})
    assert set(clicked["task_id"]) == {"1", "3"}
