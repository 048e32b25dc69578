"""Overview: headline numbers, success breakdowns, outcomes and the failure taxonomy of chosen runs.

Everything comes from the cached index (no trajectory file is opened here). Clicking a bar
narrows the trajectory list below the charts; the same filter opens on the Trajectories page.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import pandas as pd
import plotly.express as px
import streamlit as st
from plotly.graph_objects import Figure

from pages.common import PAGES, current_frame, current_index, escape_markdown, trajectory_table
from webeval_core import metrics

# chart key -> (frame column the clicked value filters, Trajectories page parameter)
_CLICKABLE = {
    "chart_site": ("site", "site"),
    "chart_task_type": ("task_type", "type"),
    "chart_template": ("intent_template", "template"),
    "chart_outcome": ("outcome_group", "outcome"),
    "chart_taxonomy": ("tags", "tag"),
}
_TEMPLATES_SHOWN = 25


@st.cache_data(show_spinner=False, max_entries=16)
def _charts(frame: pd.DataFrame, labels: Mapping[str, str]) -> dict[str, Figure]:
    """Every figure of the page for one selection of runs, built once per selection."""
    return {
        "chart_site": _success_bars(metrics.breakdown(frame, "site"), "site", labels),
        "chart_task_type": _success_bars(metrics.breakdown(frame, "task_type"), "task_type", labels),
        "chart_template": _template_bars(metrics.breakdown(frame, "intent_template"), labels),
        "chart_outcome": _count_bars(metrics.outcome_breakdown(frame), "outcome_group", labels),
        "chart_taxonomy": _count_bars(metrics.taxonomy(frame), "tag", labels),
        **{f"hist_{c}": _histogram(frame, c, labels) for c in ("steps", "duration_s", "tokens")},
    }


def _plain(values: pd.Series) -> pd.Series:
    # Plotly renders a subset of HTML in labels; task and run names are shown as text.
    return values.astype(str).map(html.escape)


def _success_bars(table: pd.DataFrame, by: str, labels: Mapping[str, str]) -> Figure:
    data = table.assign(
        run_label=_plain(table["run"].map(labels)),
        label=_plain(table[by]),
        rate=table["success_rate"] * 100,
    )
    fig = px.bar(
        data,
        x="label",
        y="rate",
        color="run_label",
        barmode="group",
        custom_data=["run", by, "passed", "counted"],
        labels={"label": by.replace("_", " "), "rate": "success rate (%)", "run_label": "run"},
    )
    fig.update_traces(hovertemplate="%{x}<br>%{y:.1f}% (%{customdata[2]} of %{customdata[3]})<extra></extra>")
    fig.update_yaxes(range=[0, 100])
    return _layout(fig)


def _template_bars(table: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    # Templates are many (hundreds over 812 tasks): show those where the chosen runs do worst.
    order = table.groupby("intent_template")["success_rate"].mean().sort_values(kind="stable")
    shown = order.index[:_TEMPLATES_SHOWN]
    data = table[table["intent_template"].isin(shown)]
    data = data.assign(
        run_label=_plain(data["run"].map(labels)),
        label=_plain(data["intent_template"]).str.slice(0, 70),
        rate=data["success_rate"] * 100,
    )
    fig = px.bar(
        data,
        y="label",
        x="rate",
        color="run_label",
        barmode="group",
        orientation="h",
        custom_data=["run", "intent_template", "passed", "counted"],
        category_orders={"label": [html.escape(str(t))[:70] for t in shown]},
        labels={"label": "", "rate": "success rate (%)", "run_label": "run"},
    )
    fig.update_traces(hovertemplate="%{y}<br>%{x:.1f}% (%{customdata[2]} of %{customdata[3]})<extra></extra>")
    fig.update_xaxes(range=[0, 100])
    return _layout(fig, height=max(300, 22 * len(data)))


def _count_bars(table: pd.DataFrame, by: str, labels: Mapping[str, str]) -> Figure:
    data = table.assign(run_label=_plain(table["run"].map(labels)), label=_plain(table[by]))
    fig = px.bar(
        data,
        y="label",
        x="trajectories",
        color="run_label",
        barmode="group",
        orientation="h",
        custom_data=["run", by],
        category_orders={"label": list(dict.fromkeys(data["label"]))},
        labels={"label": "", "run_label": "run"},
    )
    return _layout(fig, height=max(260, 24 * len(data)))


def _histogram(frame: pd.DataFrame, column: str, labels: Mapping[str, str]) -> Figure:
    data = frame.assign(run_label=_plain(frame["run"].map(labels)))
    title = {"duration_s": "duration (s)"}.get(column, column)
    fig = px.histogram(
        data, x=column, color="run_label", barmode="overlay", opacity=0.6, labels={column: title, "run_label": "run"}
    )
    return _layout(fig, height=260)


def _layout(fig: Figure, height: int = 340) -> Figure:
    fig.update_layout(
        height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, legend={"orientation": "h", "y": -0.2}
    )
    return fig


def _clicked(event: Any) -> list[tuple[str, str]]:
    """(run, value) of the bars selected in one chart."""
    points = event.selection.points if event else []
    return [(str(p["customdata"][0]), str(p["customdata"][1])) for p in points if p.get("customdata")]


def _filter_from_clicks(frame: pd.DataFrame, clicks: dict[str, list[tuple[str, str]]]) -> pd.DataFrame:
    """Rows matching every clicked chart; within one chart, any clicked bar."""
    for chart, picked in clicks.items():
        column = _CLICKABLE[chart][0]
        kwargs = {
            "site": "sites",
            "task_type": "task_types",
            "intent_template": "intent_templates",
            "outcome_group": "outcome_groups",
            "tags": "tags",
        }
        parts = [
            metrics.filter_frame(frame, runs=[run], **{kwargs[column]: [value]}) for run, value in picked
        ]
        frame = pd.concat(parts).drop_duplicates(subset=["run", "task_id", "path"]) if parts else frame
    return frame


def _trajectories_link(clicks: dict[str, list[tuple[str, str]]], labels: Mapping[str, str]) -> dict[str, list[str]]:
    params: dict[str, list[str]] = {"run": sorted({labels[run] for picked in clicks.values() for run, _ in picked})}
    for chart, picked in clicks.items():
        params[_CLICKABLE[chart][1]] = sorted({value for _, value in picked})
    return params


def _headline_row(label: str, head: metrics.Headline) -> None:
    st.markdown(f"**{escape_markdown(label)}**")
    cols = st.columns(6)
    rate = "–" if head.success_rate is None else f"{head.success_rate:.1%}"
    cols[0].metric("Trajectories", head.trajectories)
    cols[1].metric(
        "Success rate",
        rate,
        help="Mean score over answered and no-answer trajectories; aborted ones and scoring errors are left out.",
    )
    cols[2].metric("Passed", f"{head.passed} / {head.counted}")
    cols[3].metric("No answer", head.no_answer, help="Ran out of budget without answering; counted as failures.")
    cols[4].metric("Aborted", head.aborted, help="Left out of the success rate (upstream rule).")
    cols[5].metric("Scoring errors", head.scoring_errors, help="The evaluator returned error; left out.")
    if head.unscored or head.unreadable:
        st.caption(f"{head.unscored} answered but not yet scored; {head.unreadable} unreadable folders.")


st.title("Overview")
index = current_index()
if not index.runs:
    st.info(f"No trajectory folders found under {index.root}. Choose another root folder in the sidebar.")
    st.stop()

frame = current_frame()
labels = metrics.run_labels(index.runs)
counts = frame["run"].value_counts()
with st.expander(f"{len(index.runs)} runs under {index.root}", expanded=False):
    st.dataframe(
        pd.DataFrame(
            [{"run": labels[r.key], **r.metadata, "trajectories": int(counts.get(r.key, 0))} for r in index.runs]
        ),
        hide_index=True,
        width="stretch",
    )
chosen = st.multiselect(
    "Runs",
    options=[r.key for r in index.runs],
    default=[r.key for r in index.runs],
    format_func=labels.__getitem__,
    key="run",
    bind="query-params",
)
data = frame[frame["run"].isin(chosen)]
if data.empty:
    st.info("Choose at least one run with trajectories.")
    st.stop()

for run, head in metrics.headlines(data).items():
    _headline_row(labels[run], head)

figures = _charts(data, {k: labels[k] for k in chosen})
clicks: dict[str, list[tuple[str, str]]] = {}


def _chart(title: str, key: str) -> None:
    st.subheader(title)
    event = st.plotly_chart(figures[key], key=key, on_select="rerun", selection_mode="points", width="stretch")
    picked = _clicked(event)
    if picked:
        clicks[key] = picked


left, right = st.columns(2)
with left:
    _chart("Success by site", "chart_site")
    _chart("Outcomes", "chart_outcome")
with right:
    _chart("Success by task type", "chart_task_type")
    _chart("Failure taxonomy", "chart_taxonomy")
_chart(f"Intent templates with the lowest success (up to {_TEMPLATES_SHOWN})", "chart_template")

st.subheader("Distributions")
for column, col in zip(("steps", "duration_s", "tokens"), st.columns(3), strict=True):
    with col:
        st.plotly_chart(figures[f"hist_{column}"], key=f"hist_{column}", width="stretch")
        stats = metrics.distribution(data, column).assign(run=lambda t: t["run"].map(labels))
        st.dataframe(stats, hide_index=True, width="stretch")

st.subheader("Trajectories")
if clicks:
    shown = _filter_from_clicks(data, clicks)
    st.caption(f"{len(shown)} trajectories in the clicked bars (click empty space in a chart to clear).")
    st.page_link(
        PAGES["trajectories"],
        label="Open this selection on the Trajectories page",
        icon="🗂️",
        query_params=_trajectories_link(clicks, labels),
    )
else:
    shown = data
    st.caption(f"All {len(shown)} trajectories of the chosen runs; click a bar above to narrow the list.")
trajectory_table(shown, labels, key="overview_table")
