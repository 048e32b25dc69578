"""Trajectories: every trajectory under the root, filtered and searched; a row opens its viewer.

Each filter is bound to a URL query parameter, so a filtered view is a link that can be shared
(the Overview's chart clicks open this page through the same parameters). The parameter names
are this page's own: a widget key shared with another page would carry that page's value over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from webeval_core.reading import TASK_TYPES
from webeval_core.runs import (
    OUTCOME_GROUPS,
    RESULTS,
    Headline,
    code_choice,
    export_records,
    filter_from_params,
    headline,
    page_frame,
    run_labels,
)
from webeval_core.support import ROW_FORMATS, percent, rows_text
from webeval_ui.app_shell import require_app_shell
from webeval_ui.judge_choice import judge_caption, judge_picker
from webeval_ui.list_walk import current_filters, list_params
from webeval_ui.loaders import index_or_stop
from webeval_ui.review_mode import gate, gated_queries
from webeval_ui.review_queue import ReviewChoice, blind_list, gated_rows, review_choice, review_rows
from webeval_ui.state import Key
from webeval_ui.submission_view import package_issues
from webeval_ui.trajectory_table import query_table, trajectory_table

require_app_shell()

_CSV = ROW_FORMATS["csv"]


def _options(present: Iterable[str], order: tuple[str, ...] = ()) -> list[str]:
    values = set(present)
    return [v for v in order if v in values] + sorted(values - set(order))


def _multiselect(
    label: str, key: Key, options: list[str], format_func: Callable[[str], str] = str, help: str | None = None
) -> list[str]:
    return st.multiselect(
        label, options, default=[], format_func=format_func, help=help, key=key, bind="query-params"
    )


@st.cache_data(show_spinner=False, max_entries=16)
def _choices(root: str, generation: int, judge: str | None, blind: bool) -> dict[str, list[str]]:
    """Each filter's options: the values present under the root (queried once per index generation;
    the verdicts' only when the gate is open, `blind` part of the key).
    """
    queries = gated_queries()
    orders = {
        "task_type": TASK_TYPES,
        "outcome_group": OUTCOME_GROUPS,
        "result": RESULTS,
        "status": ("success", "failure", "error"),
    }
    columns = ("site", "task_type", "outcome_group", "result", "status", "intent_template")
    choices = {
        column: _options(queries.distinct(column, judge), orders.get(column, ())) for column in columns
    }
    codes = [
        code_choice(row.judge, row.code)
        for by_category in (True, False)
        for row in queries.failure_codes(None, judge, by_category=by_category)
    ]
    return choices | {"tags": list(queries.tags(judge)), "codes": list(dict.fromkeys(codes))}


class VerdictFilters(NamedTuple):
    """The filters that read verdicts (none of them is offered in a blind review)."""

    results: list[str]
    """Results kept."""
    statuses: list[str]
    """Verdict statuses kept."""
    tags: list[str]
    """Failure tags kept."""
    codes: list[str]
    """Error-taxonomy codes (or categories) of a verifier kept."""
    disagree: bool
    """Only trajectories whose judges disagree."""


def _verdict_filters(
    result_box: DeltaGenerator, status_box: DeltaGenerator, tag_box: DeltaGenerator, code_box: DeltaGenerator
) -> VerdictFilters:
    with result_box:
        results = _multiselect("Result", Key.RESULTS, choices["result"], help="As counted in success rates")
    with status_box:
        statuses = _multiselect(
            "Verdict status",
            Key.STATUSES,
            choices["status"],
            help="WebArena-Verified status; unknown: not scored",
        )
    with tag_box:
        tags = _multiselect("Failure tag", Key.TAGS, choices["tags"], help="Any of the chosen tags")
    with code_box:
        codes = _multiselect(
            "Error code",
            Key.FAILURE_CODES,
            choices["codes"],
            help="Fara's error taxonomy: a verifier gives any of the chosen codes (a category keeps its own)",
        )
    disagree = st.toggle(
        "Judges disagree",
        key=Key.DISAGREE,
        bind="query-params",
        help="Only trajectories whose judges (official evaluator, rubric, LLM) disagree on pass or fail.",
    )
    return VerdictFilters(results, statuses, tags, codes, disagree)


def _csv(rows: pd.DataFrame) -> str:
    """The rows as every download and `webeval export` write them (the core's columns and writer)."""
    return rows_text(export_records(rows), _CSV.name)


st.title("Trajectories")
index = index_or_stop()
queries = gated_queries()  # verdicts as the gate lets them through: recorded as shown, or left out
blind = blind_list()  # a blind queue is worked: no verdict, score, tag or human label anywhere here

judge = None if blind else judge_picker(index)
labels = run_labels(index.run_heads)
choices = _choices(str(index.root), index.generation, judge, blind)

text = st.text_input(
    "Search",
    key=Key.SEARCH,
    bind="query-params",
    placeholder="task id, intent or answer text",
    icon=":material/search:",
)
row1 = st.columns(5)
with row1[0]:
    runs = _multiselect("Run", Key.RUNS, [r.key for r in index.run_heads], format_func=labels.__getitem__)
with row1[1]:
    sites = _multiselect("Site", Key.SITES, choices["site"])
with row1[2]:
    types = _multiselect("Task type", Key.TYPES, choices["task_type"])
with row1[3]:
    outcomes = _multiselect("Outcome", Key.OUTCOMES, choices["outcome_group"])
if blind:  # no verdict filter: the template takes the first row's last place, no row of gaps
    template_box = row1[4]
    verdicts = VerdictFilters([], [], [], [], False)
else:
    row2 = st.columns([1, 1, 1, 2])
    template_box = row2[3]
    verdicts = _verdict_filters(row1[4], *row2[:3])
with template_box:
    templates = _multiselect("Intent template", Key.TEMPLATES, choices["intent_template"])
if blind:
    st.caption("Blind review: verdicts, scores, failure tags and other reviewers' labels are hidden.")

criteria = filter_from_params(
    {
        Key.SEARCH: [text],
        Key.RUNS: runs,
        Key.SITES: sites,
        Key.TYPES: types,
        Key.TEMPLATES: templates,
        Key.OUTCOMES: outcomes,
        Key.RESULTS: verdicts.results,
        Key.STATUSES: verdicts.statuses,
        Key.TAGS: verdicts.tags,
        Key.FAILURE_CODES: verdicts.codes,
        Key.DISAGREE: [str(verdicts.disagree)],
    },
    verdicts=not blind,
)
review = review_choice()  # review columns and filters; verdicts dropped in a blind review
listed = list_params(current_filters())
caption = st.empty()
package_issues(r for r in index.run_heads if not runs or r.key in runs)


def _caption(total: int, head: Headline | None) -> None:
    listed = f"{total} of {index.counts.trajectories} trajectories"
    if blind:  # no rate and no judge: verdicts exist, they are hidden
        caption.caption(f"{listed} · select a row to open it")
        return
    rate = percent(None if head is None else head.success_rate)
    counted = f" ({head.passed} of {head.counted} counted)" if head is not None else ""
    rates = f"success rate {rate}{counted}"
    caption.caption(f"{listed} · {rates} · select a row to open it · {judge_caption(judge)}")


def _reviewed_list(choice: ReviewChoice) -> None:
    """A review filter is set: every row's review columns are needed, so the list is filtered in memory."""
    # Every row is in the table and its download: all recorded as shown first (the core's gate).
    shown = gated_rows(review_rows(queries.frame(judge, criteria), choice, blind))
    _caption(len(shown), headline(shown) if not blind else None)
    trajectory_table(shown, labels, key=Key.TRAJECTORIES_TABLE, listed=listed)
    st.download_button(
        "Download these rows (CSV)",
        lambda: _csv(shown),
        file_name=f"trajectories.{_CSV.name}",
        mime=_CSV.mime,
        icon=":material/download:",
        on_click="ignore",
    )


def _drawn_rows(choice: ReviewChoice | None) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """What a page of the table gets before it is drawn: review columns; what it shows is recorded."""

    def rows_of(rows: pd.DataFrame) -> pd.DataFrame:
        return gated_rows(review_rows(rows, choice, blind))

    return rows_of


def _queried_list(choice: ReviewChoice | None) -> None:
    """The list as SQL on the index: a page of rows at a time, the headline counted by the query."""
    total = query_table(
        judge,
        criteria,
        labels,
        key=Key.TRAJECTORIES_TABLE,
        listed=listed,
        columns=_drawn_rows(choice),
    )
    _caption(total, None if blind else queries.headline(None, judge, criteria))
    # Made when clicked, after this run: the gate is taken now (in `queries` too), and records the
    # rows it lets out.
    passing = gate()
    st.download_button(
        "Download these rows (CSV)",
        lambda: _csv(
            passing.rows(review_rows(page_frame(queries.page(judge, criteria)), choice, blind)).frame
        ),
        file_name=f"trajectories.{_CSV.name}",
        mime=_CSV.mime,
        icon=":material/download:",
        on_click="ignore",
    )


if review is not None and review.narrows:
    _reviewed_list(review)
else:
    _queried_list(review)
