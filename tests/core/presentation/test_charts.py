"""The overview's chart specs on small hand-built frames: traces, axes, labels, counts, clicks."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest

from tests.core.runs.test_metrics import summary, verdict
from webeval_core.presentation import charts
from webeval_core.presentation.charts import BarClick, Breakdown
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs import metrics
from webeval_core.runs.discovery import Run
from webeval_core.runs.index import TrajectorySummary
from webeval_core.runs.index_db import IndexStore, StoredFolder, run_row
from webeval_core.runs.listing.queries import BarChoice, IndexQueries
from webeval_core.runs.trajectory_filter import FAIL, PASS
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_core.scoring import verdicts as vd

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


def test_histograms_overlay_the_runs() -> None:
    spec = charts.histogram({"run-a": [100.0], "run-b": []}, "tokens", LABELS)
    _valid(spec)
    assert [(t["type"], t["name"], t["x"]) for t in spec["data"]] == [
        ("histogram", "Agent A", [100.0]),
        ("histogram", "Agent &lt;b&gt;", []),
    ]
    assert spec["layout"]["barmode"] == "overlay"
    assert charts.histogram({}, "duration_s", LABELS)["layout"]["xaxis"]["title"] == {"text": "duration (s)"}


def _store(tmp_path: Path, summaries: Iterable[TrajectorySummary]) -> IndexStore:
    """An index file of root /r holding `summaries`."""
    store = IndexStore(Path("/r"), tmp_path / "cache")
    rows = list(summaries)
    with store.transaction() as db:
        runs = dict.fromkeys(s.run_key for s in rows)
        store.put_runs(db, [run_row(Run(key=key, path=Path("/r") / key), key) for key in runs])
        store.put_summaries(db, [(s.key, StoredFolder(1, -1, None, True), s) for s in rows])
    return store


@pytest.fixture
def queries(tmp_path: Path) -> IndexQueries:
    """Two runs of catalog tasks: A passes 108 and fails 200 (wrong values), B aborts 108."""
    return IndexQueries(
        _store(
            tmp_path,
            [
                summary("run-a", "108", v=verdict("success", 1.0), steps=2, prompt_tokens=100),
                summary("run-a", "200", v=verdict("failure", 0.0, vd.WRONG_VALUES), steps=5),
                summary("run-b", "108", outcome="aborted", steps=4),
            ],
        ),
        load_catalog(),
        viewer=OUTSIDE_REVIEW,
    )


QUERY_LABELS = {"run-a": "Agent A", "run-b": "Agent B"}


def test_overview_figures_hold_every_chart(queries: IndexQueries) -> None:
    figures = charts.overview_figures(queries, ["run-a", "run-b"], None, QUERY_LABELS)
    assert set(figures.bars) == set(Breakdown)
    assert set(figures.histograms) == set(charts.MEASURES)
    for spec in (*figures.bars.values(), *figures.histograms.values()):
        _valid(spec)
    steps = sorted(x for t in figures.histograms["steps"]["data"] for x in t["x"])
    assert steps == [2, 4, 5]
    outcomes = {(p[0], p[1]): p[3] for t in figures.bars[Breakdown.OUTCOME]["data"] for p in t["customdata"]}
    assert outcomes == {
        ("run-a", PASS): 1,
        ("run-a", FAIL): 1,
        ("run-b", vd.ABORTED): 1,
    }
    # the template chart lists the worst template first: 200's (failed) before 108's (passed)
    spec = figures.bars[Breakdown.INTENT_TEMPLATE]
    raw = {p[2]: p[1] for t in spec["data"] for p in t["customdata"]}
    catalog = load_catalog()
    templates = [catalog.get(task).intent_template for task in ("200", "108")]  # type: ignore[union-attr]
    assert [raw[label] for label in spec["layout"]["yaxis"]["categoryarray"]] == templates


def test_templates_shown_are_capped(tmp_path: Path) -> None:
    catalog = load_catalog()
    templates: dict[str, str] = {}
    for task in catalog.tasks.values():
        templates.setdefault(task.intent_template, str(task.task_id))
    ids = list(templates.values())[: charts.TEMPLATES_SHOWN + 5]
    queries = IndexQueries(
        _store(tmp_path, [summary("run-a", i) for i in ids]), catalog, viewer=OUTSIDE_REVIEW
    )
    (trace,) = charts.bar_figure(queries, ["run-a"], None, LABELS, Breakdown.INTENT_TEMPLATE)["data"]
    assert len(trace["customdata"]) == charts.TEMPLATES_SHOWN


def test_more_runs_than_the_pool_mark_share_one_trace_per_chart(tmp_path: Path) -> None:
    runs = [f"run-{i:02}" for i in range(charts.POOL_RUNS + 1)]
    store = _store(tmp_path, [summary(run, "108", v=verdict("success", 1.0)) for run in runs])
    labels = {run: run for run in runs}
    queries = IndexQueries(store, load_catalog(), viewer=OUTSIDE_REVIEW)
    (trace,) = charts.bar_figure(queries, runs, None, labels, Breakdown.SITE)["data"]
    assert trace["name"] == f"{len(runs)} runs together"
    assert (
        trace["customdata"][0][:2] == [charts.POOLED, "gitlab"] or trace["customdata"][0][0] == charts.POOLED
    )
    assert trace["customdata"][0][3:] == [len(runs), len(runs)]
    (few,) = charts.bar_figure(queries, runs[:1], None, labels, Breakdown.SITE)["data"]
    assert few["name"] == runs[0]


def test_clicked_bars_read_run_and_raw_value_back() -> None:
    event = {"selection": {"points": [{"customdata": ["run-a", 7, "7", 1, 2]}, {"x": 1}]}}
    assert charts.clicked_bars(event) == [BarClick("run-a", "7")]
    assert charts.clicked_bars(None) == []


def test_clicks_become_the_list_query_s_bars() -> None:
    clicks = {
        Breakdown.SITE: [BarClick("run-a", "gitlab"), BarClick(charts.POOLED, "reddit")],
        Breakdown.TAG: [BarClick("run-b", "wrong values")],
    }
    assert charts.bar_choices(clicks) == [
        [
            BarChoice(run="run-a", field="sites", value="gitlab"),
            BarChoice(run=None, field="sites", value="reddit"),
        ],
        [BarChoice(run="run-b", field="tags", value="wrong values")],
    ]


def test_each_run_keeps_one_distinct_colour_in_every_chart(queries: IndexQueries) -> None:
    figures = charts.overview_figures(queries, ["run-a", "run-b"], None, QUERY_LABELS)
    colours: dict[str, set[str]] = {}
    for spec in [*figures.bars.values(), *figures.histograms.values()]:
        for trace in spec["data"]:
            colours.setdefault(trace["name"], set()).add(trace["marker"]["color"])
    assert all(len(found) == 1 for found in colours.values()), colours
    assert len({next(iter(found)) for found in colours.values()}) == len(QUERY_LABELS)
    # Only run B: its colour does not depend on which runs a chart holds.
    (trace,) = charts.bar_figure(queries, ["run-b"], None, QUERY_LABELS, Breakdown.SITE)["data"]
    assert (
        trace["marker"]["color"]
        == charts.run_colour("run-b", QUERY_LABELS)
        != charts.run_colour("run-a", QUERY_LABELS)
    )


def test_error_code_charts_name_their_verifier_when_only_one_gave_codes(tmp_path: Path) -> None:
    one = [summary("run-a", "108", failure_codes={"mmrubric_0.8-5-3": ("2.1", "4.2")})]
    queries = IndexQueries(_store(tmp_path / "one", one), load_catalog(), viewer=OUTSIDE_REVIEW)
    for by in (Breakdown.FAILURE_CATEGORY, Breakdown.FAILURE_CODE):
        spec = charts.bar_figure(queries, ["run-a"], None, LABELS, by)
        assert spec["layout"]["yaxis"]["title"]["text"] == "verifier: mmrubric_0.8-5-3"
    # With two verifiers each bar is named after its verifier, and the axis says nothing more.
    two = [*one, summary("run-a", "200", failure_codes={"uv_v2": ("2.1",)})]
    queries = IndexQueries(_store(tmp_path / "two", two), load_catalog(), viewer=OUTSIDE_REVIEW)
    spec = charts.bar_figure(queries, ["run-a"], None, LABELS, Breakdown.FAILURE_CODE)
    assert "title" not in spec["layout"]["yaxis"]
    assert all(name.startswith(("mmrubric_0.8-5-3: ", "uv_v2: ")) for name in spec["data"][0]["y"])


def test_a_count_axis_ticks_whole_trajectories_only() -> None:
    """One aborted trajectory: the axis reads 0, 1, never 0.2 of a trajectory."""
    table = pd.DataFrame({"run": ["r"], "outcome_group": ["aborted"], "trajectories": [1]})
    spec = charts.count_bars(table, "outcome_group", {"r": "run r"})
    axis = go.Figure(spec).layout.xaxis
    assert (axis.dtick, axis.tick0, axis.tickformat, axis.rangemode) == (1, 0, ",d", "tozero")
    many = charts.count_bars(table.assign(trajectories=[812]), "outcome_group", {"r": "run r"})
    assert go.Figure(many).layout.xaxis.dtick is None  # Plotly spaces large counts itself
