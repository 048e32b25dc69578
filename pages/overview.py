"""Overview: headline numbers, success breakdowns, outcomes and the failure taxonomy of chosen runs.

Everything comes from the cached index (no trajectory file is opened here). Clicking a bar
narrows the trajectory list below the charts; the same filter opens on the Trajectories page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pandas as pd
import streamlit as st

from pages.common import (
    PAGES,
    current_frame,
    current_index,
    index_or_stop,
    inert,
    judge_caption,
    judge_picker,
    lazy_expander,
    load_frame,
    trajectory_table,
)
from pages.shell import require_app_shell
from pages.state import Key, histogram_key
from pages.walk import list_params
from webeval_core.presentation.charts import (
    DETAILED_RUNS,
    MEASURES,
    TEMPLATES_SHOWN,
    BarClick,
    Breakdown,
    OverviewFigures,
    clicked_bars,
    filter_by_clicks,
    overview_figures,
)
from webeval_core.presentation.runreport import report_file_stem, report_zip
from webeval_core.reading.tasks import installed_catalog
from webeval_core.runs import metrics
from webeval_core.runs.judges import OFFICIAL, judge_label
from webeval_core.runs.store import IndexView

require_app_shell()

# Each clickable chart: its widget key, and the Trajectories page filter its clicked values open.
_CHART_KEYS: Mapping[Breakdown, Key] = {
    Breakdown.SITE: Key.CHART_SITE,
    Breakdown.TASK_TYPE: Key.CHART_TASK_TYPE,
    Breakdown.INTENT_TEMPLATE: Key.CHART_TEMPLATE,
    Breakdown.OUTCOME: Key.CHART_OUTCOME,
    Breakdown.TAG: Key.CHART_TAXONOMY,
}
_LINK_FILTERS: Mapping[Breakdown, Key] = {
    Breakdown.SITE: Key.SITES,
    Breakdown.TASK_TYPE: Key.TYPES,
    Breakdown.INTENT_TEMPLATE: Key.TEMPLATES,
    Breakdown.OUTCOME: Key.RESULTS,
    Breakdown.TAG: Key.TAGS,
}
Clicks = dict[Breakdown, list[BarClick]]


@st.cache_data(show_spinner=False, max_entries=16)
def _figures(root: str, runs: tuple[str, ...], judge: str | None, generation: int) -> OverviewFigures:
    """Every figure of the page for one root, choice of runs and judge, at one index generation."""
    frame = load_frame(root, judge, generation)
    return overview_figures(frame[frame["run"].isin(runs)], metrics.run_labels(current_index().runs))


def _trajectories_link(clicks: Clicks, labels: Mapping[str, str], judge: str | None) -> dict[str, list[str]]:
    """The Trajectories page's query parameters selecting the clicked bars' trajectories."""
    params = {Key.RUNS.value: sorted({labels[run] for picked in clicks.values() for run, _ in picked})}
    if judge is not None and judge != OFFICIAL:  # the official evaluator is the default judge
        params[Key.JUDGE.value] = [judge_label(judge)]  # a bound selectbox keeps its shown text
    for breakdown, picked in clicks.items():
        params[_LINK_FILTERS[breakdown].value] = sorted({value for _, value in picked})
    return params


def _chart_pair(figures: OverviewFigures, clicks: Clicks, *charts: tuple[str, Breakdown]) -> None:
    """Two (title, breakdown) charts side by side."""
    for column, (title, breakdown) in zip(st.columns(len(charts)), charts, strict=True):
        with column:
            _chart(title, breakdown, figures, clicks)


def _chart(title: str, breakdown: Breakdown, figures: OverviewFigures, clicks: Clicks) -> None:
    """A clickable chart; the bars clicked in it go to `clicks[breakdown]`."""
    st.subheader(title)
    figure = figures.bars[breakdown]
    if not figure["data"]:
        st.caption("Nothing to show for the chosen runs.")
        return
    event = st.plotly_chart(
        figure, key=_CHART_KEYS[breakdown], on_select="rerun", selection_mode="points", width="stretch"
    )
    picked = clicked_bars(event)
    if picked:
        clicks[breakdown] = picked


def _headlines(data: pd.DataFrame, labels: Mapping[str, str]) -> None:
    """A row of metrics per run; with many runs, one row for all of them and a table per run."""
    heads = metrics.headlines(data)
    if len(heads) <= DETAILED_RUNS:
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
    """The run's name, then its metrics each as wide as its own text, wrapping rather than cut."""
    st.markdown(f"**{inert(label)}**")
    if head.unscored or head.unreadable:
        st.caption(f"{head.unscored} answered but not scored · {head.unreadable} unreadable")
    rate = "–" if head.success_rate is None else f"{head.success_rate:.1%}"
    with st.container(horizontal=True, gap="medium"):
        st.metric("Trajectories", head.trajectories, width="content")
        st.metric(
            "Success rate",
            rate,
            help="Mean score over answered and no-answer trajectories; aborted ones and scoring errors"
            " are left out.",
            width="content",
        )
        st.metric("Passed", f"{head.passed} / {head.counted}", width="content")
        st.metric(
            "No answer",
            head.no_answer,
            help="Ran out of budget without answering; counted as failures.",
            width="content",
        )
        st.metric(
            "Aborted", head.aborted, help="Left out of the success rate (upstream rule).", width="content"
        )
        st.metric(
            "Scoring errors",
            head.scoring_errors,
            help="The evaluator returned error; left out.",
            width="content",
        )


def _runs_table(index: IndexView, frame: pd.DataFrame, labels: Mapping[str, str]) -> None:
    """The runs under the root with their metadata, drawn only while its expander is open."""
    runs_label = f"{len(index.runs)} run{'s' if len(index.runs) != 1 else ''}"
    runs_box = lazy_expander(f"{runs_label} under {inert(str(index.root))}", key=Key.RUNS_BOX)
    if runs_box is None:
        return
    counts = frame["run"].value_counts()
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
        _report_download(index, labels)


def _report_download(index: IndexView, labels: Mapping[str, str]) -> None:
    """A run's report (index.html and a page per trajectory) as a zip, drawn only when clicked."""
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    run_key = left.selectbox(
        "Run report", [r.key for r in index.runs], format_func=labels.__getitem__, key=Key.REPORT_RUN
    )
    if run_key is None:
        return
    right.download_button(
        "Download (HTML, zip)",
        data=lambda: report_zip(index.root_index([run_key]), run_key, installed_catalog()),
        file_name=f"{report_file_stem(run_key)}-report.zip",
        mime="application/zip",
        on_click="ignore",
        help="The run's headline, breakdowns, failure taxonomy and a page per trajectory; opens offline.",
    )


def _distributions(data: pd.DataFrame, figures: OverviewFigures, labels: Mapping[str, str]) -> None:
    """A histogram per measure, then their statistics per run."""
    for column, col in zip(MEASURES, st.columns(len(MEASURES)), strict=True):
        with col:
            st.plotly_chart(figures.histograms[column], key=histogram_key(column), width="stretch")
    stats = pd.concat(
        metrics.distribution(data, column).assign(measure=name) for column, name in MEASURES.items()
    )
    st.dataframe(
        stats.assign(run=stats["run"].map(labels))[
            ["measure", "run", "count", "mean", "min", "median", "max"]
        ],
        hide_index=True,
        width="stretch",
        column_config={
            name: st.column_config.NumberColumn(format="%.1f") for name in ("mean", "min", "median", "max")
        },
    )


def _chart_tabs(data: pd.DataFrame, figures: OverviewFigures, labels: Mapping[str, str]) -> Clicks:
    """The charts in lazy tabs; returns the bars clicked in the open one."""
    clicks: Clicks = {}
    # Lazy tabs (bound to ?view=): only the open tab's charts are sent, so the page stays light in
    # the browser, and a link can point at one view.
    success, failures, templates, distributions = st.tabs(
        ["Success", "Outcomes and failures", "Intent templates", "Distributions"],
        key=Key.VIEW,
        bind="query-params",
    )
    if success.open:
        with success:
            _chart_pair(
                figures,
                clicks,
                ("Success by site", Breakdown.SITE),
                ("Success by task type", Breakdown.TASK_TYPE),
            )
    if failures.open:
        with failures:
            _chart_pair(figures, clicks, ("Outcomes", Breakdown.OUTCOME), ("Failure taxonomy", Breakdown.TAG))
    if templates.open:
        with templates:
            title = f"Intent templates with the lowest success (up to {TEMPLATES_SHOWN})"
            _chart(title, Breakdown.INTENT_TEMPLATE, figures, clicks)
    if distributions.open:
        with distributions:
            _distributions(data, figures, labels)
    return clicks


def _trajectories(data: pd.DataFrame, clicks: Clicks, labels: Mapping[str, str], judge: str | None) -> None:
    """The chosen runs' trajectories, narrowed to the clicked bars."""
    st.subheader("Trajectories")
    if clicks:
        shown = filter_by_clicks(data, clicks)
        st.caption(f"{len(shown)} trajectories in the clicked bars (click empty space in a chart to clear).")
        st.page_link(
            PAGES["trajectories"],
            label="Open this selection on the Trajectories page",
            icon=":material/table_rows:",
            query_params=_trajectories_link(clicks, labels, judge),
        )
        listed = _trajectories_link(clicks, labels, judge)
    else:
        shown = data
        st.caption(f"All {len(shown)} trajectories of the chosen runs; click a bar above to narrow the list.")
        listed = _trajectories_link({}, labels, judge) | {Key.RUNS.value: _shown_run_labels(data, labels)}
    trajectory_table(shown, labels, key=Key.OVERVIEW_TABLE, listed=list_params(listed))


def _shown_run_labels(data: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """The chosen runs, as the Trajectories page's run filter names them (none: every run)."""
    chosen = set(data["run"])
    return [] if chosen == set(labels) else [labels[run] for run in labels if run in chosen]


def _page() -> None:
    st.title("Overview")
    index = index_or_stop()
    judge = judge_picker(index)
    frame = current_frame(judge)
    labels = metrics.run_labels(index.runs)
    _runs_table(index, frame, labels)
    chosen = st.multiselect(
        "Runs",
        options=[r.key for r in index.runs],
        default=[r.key for r in index.runs],
        format_func=labels.__getitem__,
        key=Key.SHOWN_RUNS,
        bind="query-params",
    )
    data = frame[frame["run"].isin(chosen)]
    if data.empty:
        st.info("Choose at least one run with trajectories.")
        st.stop()
    st.caption(judge_caption(judge))
    _headlines(data, labels)
    clicks = _chart_tabs(data, _figures(str(index.root), tuple(chosen), judge, index.generation), labels)
    _trajectories(data, clicks, labels, judge)


_page()
