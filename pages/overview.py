"""Overview: headline numbers, success breakdowns, outcomes and failures of chosen runs (the
WebArena-Verified failure tags, and Fara's error taxonomy by verifier, category and code).

Everything is a query on the root's index file (runs/listing/queries.py; no trajectory file is opened
here, and no row per trajectory is held). A root of many runs opens on its latest
`LATEST_RUNS`; beyond `charts.POOL_RUNS` chosen runs the charts count them together. Clicking a
bar narrows the trajectory list below the charts; the same filter opens on the Trajectories page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

import pandas as pd
import streamlit as st

from webeval_core.policy import Write
from webeval_core.presentation import (
    DETAILED_RUNS,
    LATEST_RUNS,
    MEASURES,
    POOLED,
    TEMPLATES_SHOWN,
    BarClick,
    Breakdown,
    FigureSpec,
    bar_choices,
    bar_figure,
    clicked_bars,
    file_size,
    histograms,
    latest_runs,
    progress_line,
)
from webeval_core.reading import installed_catalog
from webeval_core.review import ResultLine, figures_in_words
from webeval_core.runs import (
    OFFICIAL,
    Headline,
    IndexView,
    filter_from_params,
    judge_label,
    run_labels,
)
from webeval_core.support import percent
from webeval_ui.app_shell import require_app_shell
from webeval_ui.judge_choice import judge_caption, judge_picker
from webeval_ui.list_walk import list_params
from webeval_ui.loaders import current_index, index_or_stop
from webeval_ui.page_links import PAGES
from webeval_ui.published_figures import published_lines
from webeval_ui.review_mode import gate, gated_queries, hide_in_blind_review, reveal_runs
from webeval_ui.run_watches import look_at, rerun_when_indexed
from webeval_ui.state import Key, histogram_key
from webeval_ui.trajectory_table import query_table
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, lazy_expander
from webeval_ui.write_controls import blocked

require_app_shell()

# Each clickable chart: its widget key, and the Trajectories page filter its clicked values open.
_CHART_KEYS: Mapping[Breakdown, Key] = {
    Breakdown.SITE: Key.CHART_SITE,
    Breakdown.TASK_TYPE: Key.CHART_TASK_TYPE,
    Breakdown.INTENT_TEMPLATE: Key.CHART_TEMPLATE,
    Breakdown.OUTCOME: Key.CHART_OUTCOME,
    Breakdown.TAG: Key.CHART_TAXONOMY,
    Breakdown.FAILURE_CATEGORY: Key.CHART_FAILURE_CATEGORY,
    Breakdown.FAILURE_CODE: Key.CHART_FAILURE_CODE,
}
_LINK_FILTERS: Mapping[Breakdown, Key] = {
    Breakdown.SITE: Key.SITES,
    Breakdown.TASK_TYPE: Key.TYPES,
    Breakdown.INTENT_TEMPLATE: Key.TEMPLATES,
    Breakdown.OUTCOME: Key.RESULTS,
    Breakdown.TAG: Key.TAGS,
    Breakdown.FAILURE_CATEGORY: Key.FAILURE_CODES,
    Breakdown.FAILURE_CODE: Key.FAILURE_CODES,
}
Clicks = dict[Breakdown, list[BarClick]]
# (Comments, not docstrings: Streamlit's magic would draw a bare string of a page script.)
RUNS_TABLE_ROWS = 25  # runs per page of the runs table


@dataclasses.dataclass(frozen=True)
class Shown:
    """What the page shows: chosen runs, judge, labels (and the root's index generation)."""

    root: str
    """The root browsed."""
    runs: tuple[str, ...]
    """The chosen run keys."""
    judge: str | None
    """The judge whose verdicts count."""
    labels: Mapping[str, str]
    """Every run's label, by key."""
    generation: int
    """The index's generation (cached figures are of it)."""
    open: bool
    """Whether the viewer may be shown figures of verdicts (cached figures are of it too)."""


@st.cache_data(show_spinner=False, max_entries=64)
def _bars(
    root: str, runs: tuple[str, ...], judge: str | None, generation: int, by: Breakdown, open_: bool
) -> FigureSpec:
    """One chart for one root, choice of runs and judge, at one index generation; `open_`: whether
    the viewer may be shown figures of verdicts (the gate's, part of the cache's key).
    """
    labels = run_labels(current_index().run_heads)
    return bar_figure(gated_queries(), runs, judge, labels, by)


@st.cache_data(show_spinner=False, max_entries=16)
def _histograms(
    root: str, runs: tuple[str, ...], judge: str | None, generation: int
) -> dict[str, FigureSpec]:
    labels = run_labels(current_index().run_heads)
    return histograms(gated_queries(), runs, judge, labels)


def _clicked_runs(clicks: Clicks, shown: Shown) -> set[str]:
    """The runs of the clicked bars (a pooled bar stands for every chosen run)."""
    runs = {run for picked in clicks.values() for run, _ in picked}
    return (runs - {POOLED}) | (set(shown.runs) if POOLED in runs else set())


def _trajectories_link(clicks: Clicks, shown: Shown) -> dict[str, list[str]]:
    """The Trajectories page's query parameters selecting the clicked bars' trajectories."""
    labels, judge = shown.labels, shown.judge
    params = {Key.RUNS.value: sorted({labels[run] for run in _clicked_runs(clicks, shown)})}
    if judge is not None and judge != OFFICIAL:  # the official evaluator is the default judge
        params[Key.JUDGE.value] = [judge_label(judge)]  # a bound selectbox keeps its shown text
    for breakdown, picked in clicks.items():
        params[_LINK_FILTERS[breakdown].value] = sorted({value for _, value in picked})
    return params


def _chart_pair(shown: Shown, clicks: Clicks, *charts: tuple[str, Breakdown]) -> None:
    """Two (title, breakdown) charts side by side."""
    for column, (title, breakdown) in zip(st.columns(len(charts)), charts, strict=True):
        with column:
            _chart(title, breakdown, shown, clicks)


def _chart(title: str, breakdown: Breakdown, shown: Shown, clicks: Clicks) -> None:
    """A clickable chart; the bars clicked in it go to `clicks[breakdown]`."""
    st.subheader(title)
    figure = _bars(shown.root, shown.runs, shown.judge, shown.generation, breakdown, shown.open)
    if not figure["data"]:
        st.caption("Nothing to show for the chosen runs.")
        return
    event = st.plotly_chart(
        figure, key=_CHART_KEYS[breakdown], on_select="rerun", selection_mode="points", width="stretch"
    )
    picked = clicked_bars(event)
    if picked:
        clicks[breakdown] = picked


LIVE_LOOK_S = 3.0  # how often the Overview looks again at a run still going (seconds)


def _headlines(shown: Shown) -> None:
    """A row of metrics per run; with many runs, one row for all of them and a table per run."""
    queries, labels = gated_queries(), shown.labels
    heads = queries.headlines(shown.runs, shown.judge)
    published = published_lines(shown.runs, shown.judge)
    if len(heads) <= DETAILED_RUNS:
        paths = {r.key: r.path for r in current_index().run_heads}
        for run, head in heads.items():
            _headline_row(labels[run], head, published.get(run))
            if head.unfinished:
                _still_running(shown, run, paths[run])
        return
    pooled = queries.headline(shown.runs, shown.judge)
    if pooled is None:  # verdicts withheld (gated_queries): no rate
        return
    _headline_row(f"All {len(heads)} runs, pooled", pooled, published["all"])
    grid(
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


def _headline_row(label: str, head: Headline, published: ResultLine | None) -> None:
    """The run's name, then its metrics each as wide as its own text, wrapping rather than cut;
    under them, the rate as scored and as published (edits and exclusions applied), always both.
    """
    st.markdown(f"**{inert(label)}**")
    if head.unscored or head.unreadable:
        st.caption(f"{head.unscored} answered but not scored · {head.unreadable} unreadable")
    rate = percent(head.success_rate)
    with st.container(horizontal=True, gap="medium"):
        st.metric("Trajectories", head.trajectories, width="content")
        st.metric("Finished", head.finished, help="Answered, or out of budget (no answer).", width="content")
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
            "Aborted",
            head.aborted,
            help=f"Over without a usable answer ({head.crashed} crashed: their last attempt raised); left"
            " out of the success rate (upstream rule).",
            width="content",
        )
        if head.unfinished:
            st.metric(
                "Unfinished",
                head.unfinished,
                help="Still running, or silent since: neither failures nor aborted; left out until done.",
                width="content",
            )
        st.metric(
            "Scoring errors",
            head.scoring_errors,
            help="The evaluator returned error; left out.",
            width="content",
        )
    if published is not None:
        with st.container(horizontal=True, vertical_alignment="center"):
            st.caption(f"Success rate: {figures_in_words(published)}")
            # The figure's trajectories, each with the verdict it contributed: the Results page.
            st.page_link(PAGES["published"], label="What it counts", icon=":material/list:")


@st.fragment(run_every=LIVE_LOOK_S)
def _still_running(shown: Shown, run: str, path: Path) -> None:
    """A run still going: where its tasks stand (the Live page's words) and the way to watch it;
    the page is drawn again as soon as the index holds the tasks that ended.
    """
    rerun_when_indexed(shown.root, shown.generation)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(progress_line(look_at(shown.root, run, path)))
        live = {Key.LIVE_RUN.value: run}
        st.page_link(PAGES["live"], label="Watch it live", icon=":material/monitor_heart:", query_params=live)


def _runs_table(index: IndexView, labels: Mapping[str, str]) -> None:
    """The runs under the root with their metadata (a page at a time), drawn only while opened."""
    runs_label = f"{len(index.run_heads)} run{'s' if len(index.run_heads) != 1 else ''}"
    runs_box = lazy_expander(f"{runs_label} under {inert(str(index.root))}", key=Key.RUNS_BOX)
    if runs_box is None:
        return
    counts = index.store.run_counts()
    with runs_box:
        runs = list(index.run_heads)
        if len(runs) > RUNS_TABLE_ROWS:
            pages = -(-len(runs) // RUNS_TABLE_ROWS)
            number = int(st.number_input("Runs page", min_value=1, max_value=pages, key=Key.RUNS_PAGE))
            runs = runs[(number - 1) * RUNS_TABLE_ROWS : number * RUNS_TABLE_ROWS]
        grid(
            pd.DataFrame(
                [{"run": labels[r.key], **r.metadata, "trajectories": counts.get(r.key, 0)} for r in runs]
            ),
            hide_index=True,
            width="stretch",
        )


@st.cache_data(show_spinner="Preparing the run report…", max_entries=4)
def _report_zip(root: str, run_key: str, generation: int, published: ResultLine | None) -> bytes:
    """A run's report as a zip, made once per index generation and published figures."""
    from webeval_core.presentation import report_zip, server_redactor

    index = current_index().root_index([run_key])
    return report_zip(index, run_key, installed_catalog(), published, server_redactor())


@st.cache_data(show_spinner="Preparing the static bundle…", max_entries=2)
def _bundle_zip(root: str, runs: tuple[str, ...], generation: int) -> bytes:
    """The chosen runs as a static site in a zip, made once per index generation."""
    from webeval_core.presentation import BundleOptions, bundle_zip, server_redactor

    index = current_index().root_index(runs)
    return bundle_zip(index, installed_catalog(), server_redactor(), BundleOptions(runs=frozenset(runs)))


def _bundle_download(shown: Shown) -> None:
    """For an operator: the chosen runs as a static site any static host serves (secrets removed),
    made when asked for, then offered with its size.
    """
    if blocked(Write.BUNDLE, "no static bundle is made here"):
        return
    slot = st.empty()
    if not slot.button(
        "Prepare static bundle",
        help="The chosen runs as a site that needs no server (list, search, filters, replay): unzip it"
        " anywhere or on any static host. Cookies, tokens, passwords and e-mail addresses are removed.",
    ):
        return
    if not reveal_runs(shown.runs):
        return
    data = _bundle_zip(shown.root, tuple(shown.runs), shown.generation)
    size = file_size(len(data))
    slot.download_button(
        f"Download static bundle ({size} zip)",
        data=data,
        file_name="webeval-bundle.zip",
        mime="application/zip",
        on_click="ignore",
    )


def _report_download(index: IndexView, labels: Mapping[str, str]) -> None:
    """At the top, where a presenter looks: a run's report (index.html and a page per trajectory)
    made when asked for, then offered with its size.
    """
    # The report's HTML templates cost a first load 0.1 s: imported when the report is asked for.
    from webeval_core.presentation import report_file_stem

    left, right = st.columns([3, 1], vertical_alignment="bottom")
    run_key = left.selectbox(
        "Run report", [r.key for r in index.run_heads], format_func=labels.__getitem__, key=Key.REPORT_RUN
    )
    if run_key is None:
        return
    slot = right.empty()
    if not slot.button(
        "Prepare run report",
        help="The run's headline, breakdowns, failure taxonomy and a page per trajectory, as one zip"
        " that opens offline; its size is said before you download it.",
    ):
        return
    if not reveal_runs([run_key]):  # every verdict of the run is in it: recorded as shown first
        return
    published = published_lines([run_key], None).get(run_key)
    data = _report_zip(str(index.root), run_key, index.generation, published)
    size = file_size(len(data))
    slot.download_button(
        f"Download report ({size} zip)",
        data=data,
        file_name=f"{report_file_stem(run_key)}-report.zip",
        mime="application/zip",
        on_click="ignore",
    )


def _distributions(shown: Shown) -> None:
    """A histogram per measure, then their statistics per run."""
    figures = _histograms(shown.root, shown.runs, shown.judge, shown.generation)
    for column, col in zip(MEASURES, st.columns(len(MEASURES)), strict=True):
        with col:
            st.plotly_chart(figures[column], key=histogram_key(column), width="stretch")
    queries = gated_queries()
    stats = pd.DataFrame(
        [
            {"measure": name, **row.model_dump(), "run": shown.labels[row.run]}
            for column, name in MEASURES.items()
            for row in queries.distribution(shown.runs, shown.judge, column)
        ],
        columns=["measure", "run", "count", "mean", "min", "median", "max"],
    )
    grid(
        stats,
        hide_index=True,
        width="stretch",
        column_config={
            name: st.column_config.NumberColumn(format="%.1f") for name in ("mean", "min", "median", "max")
        },
    )


def _chart_tabs(shown: Shown) -> Clicks:
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
                shown,
                clicks,
                ("Success by site", Breakdown.SITE),
                ("Success by task type", Breakdown.TASK_TYPE),
            )
    if failures.open:
        with failures:
            _chart_pair(shown, clicks, ("Outcomes", Breakdown.OUTCOME), ("Failure taxonomy", Breakdown.TAG))
            st.caption(
                "Failure taxonomy: WebArena-Verified failure tags and core.log errors. Below: the error"
                " taxonomy of Fara's verifiers (a trajectory counts once per code its failure points or"
                " task checks give), each verifier apart."
            )
            _chart_pair(
                shown,
                clicks,
                ("Error categories by verifier", Breakdown.FAILURE_CATEGORY),
                ("Error codes by verifier", Breakdown.FAILURE_CODE),
            )
    if templates.open:
        with templates:
            title = f"Intent templates with the lowest success (up to {TEMPLATES_SHOWN})"
            _chart(title, Breakdown.INTENT_TEMPLATE, shown, clicks)
    if distributions.open:
        with distributions:
            _distributions(shown)
    return clicks


def _trajectories(shown: Shown, clicks: Clicks) -> None:
    """The chosen runs' trajectories, narrowed to the clicked bars (a page at a time)."""
    st.subheader("Trajectories")
    caption = st.empty()
    if clicks:
        st.page_link(
            PAGES["trajectories"],
            label="Open this selection on the Trajectories page",
            icon=":material/table_rows:",
            query_params=_trajectories_link(clicks, shown),
        )
        listed = _trajectories_link(clicks, shown)
    else:
        listed = _trajectories_link({}, shown) | {Key.RUNS.value: _shown_run_labels(shown)}
    criteria = filter_from_params({Key.RUNS: list(shown.runs)})
    total = query_table(
        shown.judge,
        criteria,
        shown.labels,
        key=Key.OVERVIEW_TABLE,
        listed=list_params(listed),
        bars=bar_choices(clicks),
    )
    if clicks:
        caption.caption(f"{total} trajectories in the clicked bars (click empty space in a chart to clear).")
    else:
        caption.caption(f"All {total} trajectories of the chosen runs; click a bar above to narrow the list.")


def _shown_run_labels(shown: Shown) -> list[str]:
    """The chosen runs, as the Trajectories page's run filter names them (none: every run)."""
    chosen = set(shown.runs)
    return [] if chosen == set(shown.labels) else [shown.labels[run] for run in shown.labels if run in chosen]


def _page() -> None:
    hide_in_blind_review("Overview")
    st.title("Overview")
    index = index_or_stop()
    judge = judge_picker(index)
    labels = run_labels(index.run_heads)
    _report_download(index, labels)
    _runs_table(index, labels)
    chosen = st.multiselect(
        "Runs",
        options=[r.key for r in index.run_heads],
        default=latest_runs(index.run_heads),
        format_func=labels.__getitem__,
        key=Key.SHOWN_RUNS,
        bind="query-params",
        help=f"A root of many runs opens on its latest {LATEST_RUNS}; the charts count more than"
        " eight together.",
    )
    counts = index.store.run_counts()
    runs = tuple(r.key for r in index.run_heads if r.key in set(chosen) and counts.get(r.key))
    if not runs:
        st.info("Choose at least one run with trajectories.")
        st.stop()
    shown = Shown(str(index.root), runs, judge, labels, index.generation, not gate().closed())
    st.caption(judge_caption(judge))
    _headlines(shown)
    _bundle_download(shown)
    clicks = _chart_tabs(shown)
    _trajectories(shown, clicks)


_page()
