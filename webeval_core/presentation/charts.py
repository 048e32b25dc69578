"""The overview's charts as Plotly figure specs, and the trajectories a click on their bars selects.

Built from the index's queries (runs/listing/queries.py: small typed tables, never a row per trajectory
in the server); no Streamlit, no files. A figure is a
plain Plotly spec (`{"data": [...], "layout": {...}}`), not a `plotly.graph_objects.Figure`:
building figures through plotly.express took over a second for 1,000 trajectories, and a dict
keeps its key order through a cache, so a chart drawn from it keeps its element id between
reruns and a click on it is not lost.

Each bar carries `customdata` starting with (run key, raw value): the app reads a click back
from it, and the text shown (escaped for Plotly's HTML subset) comes after.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

import pandas as pd
from pydantic import BaseModel, ConfigDict

from webeval_core.reading.taxonomy import category_label, code_label, sorted_codes
from webeval_core.runs.listing.answers import BarChoice
from webeval_core.runs.listing.row_sql import code_choice

if TYPE_CHECKING:
    from webeval_core.runs.discovery import Run
    from webeval_core.runs.listing.queries import BreakdownRow, CodeCountRow, CountRow, IndexQueries

FigureSpec = dict[str, Any]
"""A Plotly figure as its JSON spec: `data` (traces) and `layout`."""

DETAILED_RUNS = 4
"""Beyond this many runs, bars lose their count labels (a wall of labels is unreadable)."""
POOL_RUNS = 8
"""Beyond this many runs, each chart counts them together: one trace, not one per run."""
LATEST_RUNS = 8
"""The runs a root of many opens on: the last by run id (a date or a number)."""
POOLED = ""
"""The run of a pooled bar (its `customdata[0]`): every run shown."""
TEMPLATES_SHOWN = 25
"""Intent templates in the template chart: the ones with the lowest mean success."""
LABEL_WIDTH = 70
"""Longest category label drawn; longer ones end with an ellipsis."""
MEASURES: Mapping[str, str] = {"steps": "steps", "duration_s": "duration (s)", "tokens": "tokens"}
"""Columns with a histogram, and their axis titles."""
RUN_COLOURS = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
    "#b07aa1", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip
"""One colour per run (Tableau 10), by the run's place among the root's runs: the same run has the
same colour in every chart, and no two of the first ten runs share one."""

# customdata: run, raw value (for filtering), escaped label, then the numbers shown on hover
_RATE_HOVER = "%{customdata[2]}<br>%{customdata[3]} of %{customdata[4]} passed<extra>%{fullData.name}</extra>"
_COUNT_HOVER = "%{customdata[2]}: %{customdata[3]}<extra>%{fullData.name}</extra>"


def latest_runs(runs: Sequence[Run]) -> list[str]:
    """The runs the Overview opens on: all of a few, else the last `LATEST_RUNS` by run id, in the
    order given. A run id is a date or a number; a run without one goes by its folder's name.
    """
    from webeval_core.runs.discovery import natural_key

    if len(runs) <= LATEST_RUNS:
        return [r.key for r in runs]
    by_id = sorted(
        runs, key=lambda r: (natural_key(r.run_id or r.key.rsplit("/", 1)[-1]), natural_key(r.key))
    )
    latest = {r.key for r in by_id[-LATEST_RUNS:]}
    return [r.key for r in runs if r.key in latest]


class Breakdown(StrEnum):
    """What the bars of a clickable chart split trajectories by (the metrics frame's column)."""

    SITE = "site"
    TASK_TYPE = "task_type"
    INTENT_TEMPLATE = "intent_template"
    OUTCOME = "result"
    """The Outcomes chart: pass and fail apart, then no answer, aborted, scoring error, unscored."""
    TAG = "tag"
    """WebArena-Verified failure tags and core.log errors (`queries.taxonomy`)."""
    FAILURE_CATEGORY = "failure_category"
    """Fara's error taxonomy by verifier, category level (2 Hallucination)."""
    FAILURE_CODE = "failure_code"
    """Fara's error taxonomy by verifier, code level (2.3 Output fabrication)."""


# The TrajectoryFilter criterion keeping the trajectories of one bar of each breakdown.
_FILTER_ARGUMENT: Mapping[Breakdown, str] = {
    Breakdown.SITE: "sites",
    Breakdown.TASK_TYPE: "task_types",
    Breakdown.INTENT_TEMPLATE: "intent_templates",
    Breakdown.OUTCOME: "results",
    Breakdown.TAG: "tags",
    Breakdown.FAILURE_CATEGORY: "failure_codes",
    Breakdown.FAILURE_CODE: "failure_codes",
}


class BarClick(NamedTuple):
    """One clicked bar: the run it counts and the category value it stands for."""

    run: str
    """Run key of the bar's trace."""
    value: str
    """Raw value of the breakdown column (not the escaped label)."""


class OverviewFigures(BaseModel):
    """Every figure of the overview for one choice of trajectories."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bars: dict[Breakdown, FigureSpec]
    """The clickable charts, one per breakdown."""
    histograms: dict[str, FigureSpec]
    """A histogram per column of `MEASURES`."""


def overview_figures(
    queries: IndexQueries, runs: Sequence[str], judge: str | None, labels: Mapping[str, str]
) -> OverviewFigures:
    """Every figure of the overview for the trajectories of `runs` by `judge`, with run labels."""
    return OverviewFigures(
        bars={b: bar_figure(queries, runs, judge, labels, b) for b in Breakdown},
        histograms=histograms(queries, runs, judge, labels),
    )


def pooled_labels(runs: Sequence[str], labels: Mapping[str, str]) -> tuple[str | None, Mapping[str, str]]:
    """The pool name the queries count `runs` under (None: one trace per run) and the labels with it."""
    if len(runs) <= POOL_RUNS:
        return None, labels
    return POOLED, {**labels, POOLED: f"{len(runs)} runs together"}


def bar_figure(
    queries: IndexQueries, runs: Sequence[str], judge: str | None, labels: Mapping[str, str], by: Breakdown
) -> FigureSpec:
    """One clickable chart of the overview; beyond `POOL_RUNS` runs, one trace counts them together."""
    pool, named = pooled_labels(runs, labels)
    if by is Breakdown.OUTCOME:
        return count_bars(count_table(queries.results(runs, judge, pool), by), by, named)
    if by is Breakdown.TAG:
        return count_bars(count_table(queries.taxonomy(runs, judge, pool), by), by, named)
    if by in (Breakdown.FAILURE_CATEGORY, Breakdown.FAILURE_CODE):
        by_category = by is Breakdown.FAILURE_CATEGORY
        rows = queries.failure_codes(runs, judge, by_category=by_category, pool=pool)
        table = code_count_table(rows, by, by_category=by_category)
        return count_bars(table, by, named, axis_title=_only_verifier(rows))
    table = breakdown_table(queries.breakdown(runs, judge, by, pool), by)
    if by is not Breakdown.INTENT_TEMPLATE:
        return rate_bars(table, by, named)
    worst = table.groupby(by.value)["success_rate"].mean().sort_values(kind="stable")
    shown = [str(t) for t in worst.index[:TEMPLATES_SHOWN]]
    return rate_bars(table[table[by.value].isin(shown)], by, named, order=shown)


def histograms(
    queries: IndexQueries, runs: Sequence[str], judge: str | None, labels: Mapping[str, str]
) -> dict[str, FigureSpec]:
    """A histogram per column of `MEASURES`; beyond `POOL_RUNS` runs, one counting them together."""
    pool, named = pooled_labels(runs, labels)
    return {
        column: histogram(queries.measure_values(runs, judge, column, pool), column, named)
        for column in MEASURES
    }


def breakdown_table(rows: Sequence[BreakdownRow], by: str) -> pd.DataFrame:
    """A breakdown's rows as the table `rate_bars` draws (run, <by>, passed, counted, success_rate)."""
    columns = ["run", by, "trajectories", "counted", "passed", "success_rate"]
    return pd.DataFrame(
        [(r.run, r.value, r.trajectories, r.counted, r.passed, r.success_rate) for r in rows],
        columns=columns,
    ).astype({"success_rate": "float64"})


def count_table(rows: Sequence[CountRow], by: str) -> pd.DataFrame:
    """Category counts as the table `count_bars` draws (run, <by>, trajectories)."""
    return pd.DataFrame([(r.run, r.value, r.trajectories) for r in rows], columns=["run", by, "trajectories"])


def code_count_table(rows: Sequence[CodeCountRow], by: str, *, by_category: bool) -> pd.DataFrame:
    """Code counts as the table `count_bars` draws: run, <by> (the filter's "<judge>:<code>"),
    label (the code named, after its judge's name when several verifiers gave codes), trajectories.

    Categories and codes in the taxonomy's order, judge by judge.
    """
    several = len({r.judge for r in rows}) > 1
    named = category_label if by_category else code_label
    ordered = sorted(rows, key=lambda r: (r.judge, _code_rank(r.code, rows), r.run))
    return pd.DataFrame(
        [
            (
                r.run,
                code_choice(r.judge, r.code),
                f"{r.judge}: {named(r.code)}" if several else named(r.code),
                r.trajectories,
            )
            for r in ordered
        ],
        columns=["run", by, "label", "trajectories"],
    )


def _only_verifier(rows: Sequence[CodeCountRow]) -> str | None:
    """The verifier the codes come from when only one gave any (its bars then name the code alone)."""
    judges = {r.judge for r in rows}
    return f"verifier: {judges.pop()}" if len(judges) == 1 else None


def _code_rank(code: str, rows: Sequence[CodeCountRow]) -> int:
    return sorted_codes([r.code for r in rows]).index(code)


def run_colour(run: str, labels: Mapping[str, str]) -> str:
    """The colour of `run` in every chart: by its place in `labels` (the root's runs, in order)."""
    order = list(labels)
    return RUN_COLOURS[(order.index(run) if run in order else len(order)) % len(RUN_COLOURS)]


def plain(text: str) -> str:
    """`text` shown as text by Plotly, which renders a subset of HTML in labels.

    Quotes stay as they are: Plotly decodes &lt; &gt; &amp; but would print &quot; literally.
    """
    return html.escape(text, quote=False)


def _labels(values: Sequence[Any] | pd.Series) -> list[str]:
    cut = LABEL_WIDTH - 1
    return [plain(v if len(v) <= LABEL_WIDTH else v[:cut] + "…") for v in map(str, values)]


def rate_bars(
    table: pd.DataFrame, by: str, labels: Mapping[str, str], order: Sequence[str] | None = None
) -> FigureSpec:
    """Success rate per value of `by` (a metrics.breakdown table), one bar per run.

    With an `order`, bars are horizontal (long labels) and categories follow it top down.
    """
    horizontal = order is not None
    labelled = table["run"].nunique() <= DETAILED_RUNS
    traces = [
        _rate_trace(str(run), part, by, labels, horizontal=horizontal, labelled=labelled)
        for run, part in table.groupby("run", sort=False)
    ]
    value_axis = {"title": {"text": "success rate (%)"}, "range": [0, 105]}
    if order is None:
        return _figure(traces, {"yaxis": value_axis}, height=360)
    category_axis = {"categoryorder": "array", "categoryarray": _labels(order), "autorange": "reversed"}
    return _figure(
        traces, {"xaxis": value_axis, "yaxis": category_axis}, height=bars_height(len(order), len(traces))
    )


def _rate_trace(
    run: str, part: pd.DataFrame, by: str, labels: Mapping[str, str], *, horizontal: bool, labelled: bool
) -> FigureSpec:
    names = _labels(part[by])
    rates = [None if pd.isna(r) else round(r * 100, 2) for r in part["success_rate"]]
    passed, counted = part["passed"].tolist(), part["counted"].tolist()
    trace: FigureSpec = {
        "type": "bar",
        "name": plain(labels[run]),
        "marker": {"color": run_colour(run, labels)},
        "x": rates if horizontal else names,
        "y": names if horizontal else rates,
        "orientation": "h" if horizontal else "v",
        "customdata": [
            [run, raw, name, p, c] for raw, name, p, c in zip(part[by], names, passed, counted, strict=True)
        ],
        "hovertemplate": _RATE_HOVER,
    }
    if labelled:  # passed/counted on every bar, so a 0 % bar is still visible and read
        trace["text"] = [f"{p}/{c}" for p, c in zip(passed, counted, strict=True)]
        trace["textposition"] = "outside"
        trace["cliponaxis"] = False
    return trace


def count_bars(
    table: pd.DataFrame, by: str, labels: Mapping[str, str], *, axis_title: str | None = None
) -> FigureSpec:
    """Trajectories per category (outcome, tag, code), one horizontal bar per run, in the table's order.

    A `label` column, when the table has one, is what a bar is named (its `by` value stays the raw
    value a click filters by); `axis_title` names what the bars are, when their names do not say.
    """
    shown = "label" if "label" in table else by
    order = _labels(list(dict.fromkeys(table[shown])))
    traces = []
    for run, part in table.groupby("run", sort=False):
        names = _labels(part[shown])
        counts = part["trajectories"].tolist()
        traces.append(
            {
                "type": "bar",
                "name": plain(labels[str(run)]),
                "marker": {"color": run_colour(str(run), labels)},
                "x": counts,
                "y": names,
                "orientation": "h",
                "customdata": [
                    [str(run), raw, n, c] for raw, n, c in zip(part[by], names, counts, strict=True)
                ],
                "hovertemplate": _COUNT_HOVER,
            }
        )
    yaxis: dict[str, Any] = {"categoryorder": "array", "categoryarray": order, "autorange": "reversed"}
    if axis_title:
        yaxis["title"] = {"text": plain(axis_title)}
    most = int(table["trajectories"].max()) if len(table) else 0
    axes = {"xaxis": count_axis(most), "yaxis": yaxis}
    return _figure(traces, axes, height=bars_height(len(order), len(traces)))


def count_axis(most: int) -> dict[str, Any]:
    """An axis of trajectory counts: whole numbers only (no tick at 0.2 of a trajectory), from zero;
    for small counts a tick at every one.
    """
    axis: dict[str, Any] = {"title": {"text": "trajectories"}, "rangemode": "tozero", "tickformat": ",d"}
    if most <= 10:
        axis |= {"tick0": 0, "dtick": 1}
    return axis


def bars_height(categories: int, runs: int) -> int:
    """Pixel height of a horizontal bar chart: room for every run's bar of every category."""
    return max(260, 90 + categories * (10 + 9 * max(1, runs)))


def histogram(values: Mapping[str, Sequence[float]], column: str, labels: Mapping[str, str]) -> FigureSpec:
    """Overlaid histograms of one measure, one per run (`values`: each run's values, none missing)."""
    traces = [
        {
            "type": "histogram",
            "name": plain(labels[run]),
            "marker": {"color": run_colour(run, labels)},
            "x": list(part),
            "opacity": 0.6,
        }
        for run, part in values.items()
    ]
    layout = {
        "barmode": "overlay",
        "xaxis": {"title": {"text": MEASURES.get(column, column)}},
        "yaxis": count_axis(max((len(part) for part in values.values()), default=0)),
    }
    return _figure(traces, layout, height=260)


def _figure(traces: list[FigureSpec], layout: FigureSpec, height: int) -> FigureSpec:
    base = {
        "barmode": "group",
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 30, "b": 10},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
    }
    return {"data": traces, "layout": {**base, **layout}}


def clicked_bars(event: Mapping[str, Any] | None) -> list[BarClick]:
    """The bars selected in one chart, from Streamlit's selection event (or its plain-dict form)."""
    # Item access: in tests the event is the plain dict put into session state.
    points = event["selection"]["points"] if event else []
    return [BarClick(str(p["customdata"][0]), str(p["customdata"][1])) for p in points if p.get("customdata")]


def bar_choices(clicks: Mapping[Breakdown, Sequence[BarClick]]) -> list[list[BarChoice]]:
    """The clicked bars as the list query's `bars`: per chart, its bars (a pooled bar has no run)."""
    return [
        [
            BarChoice(
                run=None if click.run == POOLED else click.run, field=_FILTER_ARGUMENT[b], value=click.value
            )
            for click in picked
        ]
        for b, picked in clicks.items()
    ]
