"""Overview: headline numbers, success breakdowns, outcomes and the failure taxonomy of chosen runs.

Everything comes from the cached index (no trajectory file is opened here). Clicking a bar
narrows the trajectory list below the charts; the same filter opens on the Trajectories page.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from pages.common import (
    PAGES,
    current_frame,
    current_root,
    escape_markdown,
    index_or_stop,
    lazy_expander,
    load_frame,
    load_index,
    require_app_shell,
    trajectory_table,
)
from webeval_core.runs import metrics

require_app_shell()

# chart key -> (metrics.filter_frame argument the clicked value filters, Trajectories page parameter)
_CLICKABLE = {
    "chart_site": ("sites", "sites"),
    "chart_task_type": ("task_types", "types"),
    "chart_template": ("intent_templates", "templates"),
    "chart_outcome": ("outcome_groups", "outcomes"),
    "chart_taxonomy": ("tags", "tags"),
}
_TEMPLATES_SHOWN = 25
# Beyond this many runs, per-run numbers go into one table and bars lose their count labels: a
# wall of metric cards or of labels is unreadable, and each one costs the browser time to draw.
_DETAILED_RUNS = 4
# customdata: run, raw value (for filtering), escaped label, then the numbers shown on hover
_RATE_HOVER = "%{customdata[2]}<br>%{customdata[3]} of %{customdata[4]} passed<extra>%{fullData.name}</extra>"
_COUNT_HOVER = "%{customdata[2]}: %{customdata[3]}<extra>%{fullData.name}</extra>"

Spec = dict[str, Any]


@st.cache_data(show_spinner=False, max_entries=16)
def _charts(root: str, runs: tuple[str, ...]) -> dict[str, Spec]:
    """Every figure of the page for one root and choice of runs, as plain Plotly specs.

    Plain dicts, not plotly.express figures: building those took over a second for 1,000
    trajectories, and a dict keeps its key order through the cache, so a chart's element id
    (derived from its spec) stays the same between reruns and a click is not lost.
    """
    frame = load_frame(root)
    data = frame[frame["run"].isin(runs)]
    labels = metrics.run_labels(load_index(root).runs)
    templates = metrics.breakdown(data, "intent_template")
    worst = templates.groupby("intent_template")["success_rate"].mean().sort_values(kind="stable")
    shown = list(worst.index[:_TEMPLATES_SHOWN])
    return {
        "chart_site": _rate_bars(metrics.breakdown(data, "site"), "site", labels),
        "chart_task_type": _rate_bars(metrics.breakdown(data, "task_type"), "task_type", labels),
        "chart_template": _rate_bars(
            templates[templates["intent_template"].isin(shown)], "intent_template", labels, order=shown
        ),
        "chart_outcome": _count_bars(metrics.outcome_breakdown(data), "outcome_group", labels),
        "chart_taxonomy": _count_bars(metrics.taxonomy(data), "tag", labels),
        **{f"hist_{c}": _histogram(data, c, labels) for c in ("steps", "duration_s", "tokens")},
    }


def _plain(text: str) -> str:
    # Plotly renders a subset of HTML in labels; task and run names must show as text. Quotes stay
    # as they are: Plotly decodes &lt; &gt; &amp; but would print &quot; literally.
    return html.escape(text, quote=False)


def _text(values: pd.Series, width: int = 70) -> list[str]:
    return [_plain(v if len(v) <= width else v[: width - 1] + "…") for v in values.astype(str)]


def _rate_bars(
    table: pd.DataFrame, by: str, labels: Mapping[str, str], order: list[str] | None = None
) -> Spec:
    """Success rate per value of `by`, one bar per run; horizontal when labels are long."""
    horizontal = order is not None
    labelled = table["run"].nunique() <= _DETAILED_RUNS
    traces: list[Spec] = []
    for run, part in table.groupby("run", sort=False):
        names = _text(part[by])
        rates = [None if pd.isna(r) else round(r * 100, 2) for r in part["success_rate"]]
        custom = [
            [run, raw, name, p, c]
            for raw, name, p, c in zip(part[by], names, part["passed"], part["counted"], strict=True)
        ]
        trace: Spec = {
            "type": "bar",
            "name": _plain(labels[str(run)]),
            "x": rates if horizontal else names,
            "y": names if horizontal else rates,
            "orientation": "h" if horizontal else "v",
            "customdata": custom,
            "hovertemplate": _RATE_HOVER,
        }
        if labelled:  # passed/counted on every bar, so a 0 % bar is still visible and read
            trace["text"] = [f"{p}/{c}" for p, c in zip(part["passed"], part["counted"], strict=True)]
            trace["textposition"] = "outside"
            trace["cliponaxis"] = False
        traces.append(trace)
    value_axis = {"title": {"text": "success rate (%)"}, "range": [0, 105]}
    if not horizontal:
        return _figure(traces, {"yaxis": value_axis}, height=360)
    category_axis = {
        "categoryorder": "array",
        "categoryarray": _text(pd.Series(order)),
        "autorange": "reversed",
    }
    return _figure(
        traces,
        {"xaxis": value_axis, "yaxis": category_axis},
        height=_bars_height(len(order or ()), len(traces)),
    )


def _count_bars(table: pd.DataFrame, by: str, labels: Mapping[str, str]) -> Spec:
    """Trajectories per category (outcome, tag), one horizontal bar per run, in the table's order."""
    order = _text(pd.Series(list(dict.fromkeys(table[by]))))
    traces = []
    for run, part in table.groupby("run", sort=False):
        names = _text(part[by])
        traces.append(
            {
                "type": "bar",
                "name": _plain(labels[str(run)]),
                "x": part["trajectories"].tolist(),
                "y": names,
                "orientation": "h",
                "customdata": [
                    [run, raw, n, c] for raw, n, c in zip(part[by], names, part["trajectories"], strict=True)
                ],
                "hovertemplate": _COUNT_HOVER,
            }
        )
    axes = {
        "xaxis": {"title": {"text": "trajectories"}},
        "yaxis": {"categoryorder": "array", "categoryarray": order, "autorange": "reversed"},
    }
    return _figure(traces, axes, height=_bars_height(len(order), len(traces)))


def _bars_height(categories: int, runs: int) -> int:
    return max(260, 90 + categories * (10 + 9 * max(1, runs)))


def _histogram(frame: pd.DataFrame, column: str, labels: Mapping[str, str]) -> Spec:
    traces = [
        {
            "type": "histogram",
            "name": _plain(labels[str(run)]),
            "x": part[column].dropna().tolist(),
            "opacity": 0.6,
        }
        for run, part in frame.groupby("run", sort=False)
    ]
    title = {"duration_s": "duration (s)"}.get(column, column)
    return _figure(
        traces,
        {
            "barmode": "overlay",
            "xaxis": {"title": {"text": title}},
            "yaxis": {"title": {"text": "trajectories"}},
        },
        height=260,
    )


def _figure(traces: list[Spec], layout: Spec, height: int) -> Spec:
    base = {
        "barmode": "group",
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 30, "b": 10},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
    }
    return {"data": traces, "layout": {**base, **layout}}


def _clicked(event: Any) -> list[tuple[str, str]]:
    """(run, value) of the bars selected in one chart."""
    # Item access: in tests the event is the plain dict put into session state.
    points = event["selection"]["points"] if event else []
    return [(str(p["customdata"][0]), str(p["customdata"][1])) for p in points if p.get("customdata")]


def _filter_from_clicks(frame: pd.DataFrame, clicks: dict[str, list[tuple[str, str]]]) -> pd.DataFrame:
    """Rows matching every clicked chart; within one chart, any clicked bar."""
    for chart, picked in clicks.items():
        argument = _CLICKABLE[chart][0]
        parts = []
        for run, value in picked:
            criteria: dict[str, Any] = {argument: [value]}
            parts.append(metrics.filter_frame(frame, runs=[run], **criteria))
        frame = pd.concat(parts).drop_duplicates(subset="path")
    return frame


def _trajectories_link(
    clicks: dict[str, list[tuple[str, str]]], labels: Mapping[str, str]
) -> dict[str, list[str]]:
    params = {"runs": sorted({labels[run] for picked in clicks.values() for run, _ in picked})}
    for chart, picked in clicks.items():
        params[_CLICKABLE[chart][1]] = sorted({value for _, value in picked})
    return params


def _chart_pair(*charts: tuple[str, str]) -> None:
    """Two (title, figure key) charts side by side."""
    for column, (title, key) in zip(st.columns(len(charts)), charts, strict=True):
        with column:
            _chart(title, key, figures[key], clicks)


def _chart(title: str, key: str, figure: Spec, clicks: dict[str, list[tuple[str, str]]]) -> None:
    """A clickable chart; the (run, value) pairs of the bars clicked in it go to `clicks[key]`."""
    st.subheader(title)
    if not figure["data"]:
        st.caption("Nothing to show for the chosen runs.")
        return
    event = st.plotly_chart(figure, key=key, on_select="rerun", selection_mode="points", width="stretch")
    picked = _clicked(event)
    if picked:
        clicks[key] = picked


def _headlines(data: pd.DataFrame, labels: Mapping[str, str]) -> None:
    """A row of metrics per run; with many runs, one row for all of them and a table per run."""
    heads = metrics.headlines(data)
    if len(heads) <= _DETAILED_RUNS:
        for run, head in heads.items():
            _headline_row(labels[run], head)
        return
    _headline_row(f"All {len(heads)} runs, pooled", metrics.headline(data))
    st.dataframe(
        pd.DataFrame(
            [
                {"run": labels[run], **dataclasses.asdict(head)}
                | {"success_rate": None if head.success_rate is None else head.success_rate * 100}
                for run, head in heads.items()
            ]
        ),
        hide_index=True,
        width="stretch",
        column_config={
            "success_rate": st.column_config.NumberColumn("success rate", format="%.1f %%"),
            "no_answer": st.column_config.NumberColumn("no answer"),
            "scoring_errors": st.column_config.NumberColumn("scoring errors"),
        },
    )


def _headline_row(label: str, head: metrics.Headline) -> None:
    # "Passed" holds "passed / counted": room for two four-digit numbers without an ellipsis.
    cols = st.columns([1.6, 1, 1, 1.6, 1, 1, 1], vertical_alignment="center")
    cols[0].markdown(f"**{escape_markdown(label)}**")
    if head.unscored or head.unreadable:
        cols[0].caption(f"{head.unscored} answered but not scored · {head.unreadable} unreadable")
    rate = "–" if head.success_rate is None else f"{head.success_rate:.1%}"
    cols[1].metric("Trajectories", head.trajectories)
    cols[2].metric(
        "Success rate",
        rate,
        help="Mean score over answered and no-answer trajectories; aborted ones and scoring errors"
        " are left out.",
    )
    cols[3].metric("Passed", f"{head.passed} / {head.counted}")
    cols[4].metric(
        "No answer", head.no_answer, help="Ran out of budget without answering; counted as failures."
    )
    cols[5].metric("Aborted", head.aborted, help="Left out of the success rate (upstream rule).")
    cols[6].metric("Scoring errors", head.scoring_errors, help="The evaluator returned error; left out.")


st.title("Overview")
index = index_or_stop()

frame = current_frame()
labels = metrics.run_labels(index.runs)
counts = frame["run"].value_counts()
runs_label = f"{len(index.runs)} run{'s' if len(index.runs) != 1 else ''}"
runs_box = lazy_expander(f"{runs_label} under {escape_markdown(str(index.root))}", key="runs_box")
if runs_box is not None:
    with runs_box:
        st.dataframe(
            pd.DataFrame(
                [
                    {"run": labels[r.key], **r.metadata, "trajectories": int(counts.get(r.key, 0))}
                    for r in index.runs
                ]
            ),
            hide_index=True,
            width="stretch",
        )
chosen = st.multiselect(
    "Runs",
    options=[r.key for r in index.runs],
    default=[r.key for r in index.runs],
    format_func=labels.__getitem__,
    key="shown_runs",  # not "runs": that is the Trajectories filter the link below sets
    bind="query-params",
)
data = frame[frame["run"].isin(chosen)]
if data.empty:
    st.info("Choose at least one run with trajectories.")
    st.stop()

_headlines(data, labels)

figures = _charts(str(current_root()), tuple(chosen))
clicks: dict[str, list[tuple[str, str]]] = {}
# Lazy tabs (bound to ?view=): only the open tab's charts are sent, so the page stays light in
# the browser, and a link can point at one view.
success, failures, templates, distributions = st.tabs(
    ["Success", "Outcomes and failures", "Intent templates", "Distributions"], key="view", bind="query-params"
)
if success.open:
    with success:
        _chart_pair(("Success by site", "chart_site"), ("Success by task type", "chart_task_type"))
if failures.open:
    with failures:
        _chart_pair(("Outcomes", "chart_outcome"), ("Failure taxonomy", "chart_taxonomy"))
if templates.open:
    with templates:
        _chart(
            f"Intent templates with the lowest success (up to {_TEMPLATES_SHOWN})",
            "chart_template",
            figures["chart_template"],
            clicks,
        )
if distributions.open:
    with distributions:
        measures = {"steps": "steps", "duration_s": "duration (s)", "tokens": "tokens"}
        for column, col in zip(measures, st.columns(3), strict=True):
            with col:
                st.plotly_chart(figures[f"hist_{column}"], key=f"hist_{column}", width="stretch")
        stats = pd.concat(
            metrics.distribution(data, column).assign(measure=name) for column, name in measures.items()
        )
        st.dataframe(
            stats.assign(run=stats["run"].map(labels))[
                ["measure", "run", "count", "mean", "min", "median", "max"]
            ],
            hide_index=True,
            width="stretch",
            column_config={
                name: st.column_config.NumberColumn(format="%.1f")
                for name in ("mean", "min", "median", "max")
            },
        )

st.subheader("Trajectories")
if clicks:
    shown = _filter_from_clicks(data, clicks)
    st.caption(f"{len(shown)} trajectories in the clicked bars (click empty space in a chart to clear).")
    st.page_link(
        PAGES["trajectories"],
        label="Open this selection on the Trajectories page",
        icon=":material/table_rows:",
        query_params=_trajectories_link(clicks, labels),
    )
else:
    shown = data
    st.caption(f"All {len(shown)} trajectories of the chosen runs; click a bar above to narrow the list.")
trajectory_table(shown, labels, key="overview_table")
