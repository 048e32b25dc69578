"""Trajectories: every trajectory under the root, filtered and searched; a row opens its viewer.

Each filter is bound to a URL query parameter, so a filtered view is a link that can be shared
(the Overview's chart clicks open this page through the same parameters). The parameter names
are this page's own: a widget key shared with another page would carry that page's value over.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from pages.common import current_frame, index_or_stop, judge_caption, judge_picker, trajectory_table
from pages.review_common import review_filters
from pages.shell import require_app_shell
from pages.state import Key
from pages.submission_view import package_issues
from pages.walk import current_filters, list_params
from webeval_core.reading.tasks import TASK_TYPES
from webeval_core.runs import metrics
from webeval_core.safe_output import spreadsheet_cell

require_app_shell()


def _options(values: pd.Series, order: tuple[str, ...] = ()) -> list[str]:
    present = set(values.fillna(metrics.UNKNOWN).astype(str))
    return [v for v in order if v in present] + sorted(present - set(order))


def _multiselect(
    label: str, key: Key, options: list[str], format_func: Callable[[str], str] = str, help: str | None = None
) -> list[str]:
    return st.multiselect(
        label, options, default=[], format_func=format_func, help=help, key=key, bind="query-params"
    )


st.title("Trajectories")
index = index_or_stop()

judge = judge_picker(index)
frame = current_frame(judge)
labels = metrics.run_labels(index.runs)

text = st.text_input(
    "Search",
    key=Key.SEARCH,
    bind="query-params",
    placeholder="task id, intent or answer text",
    icon=":material/search:",
)
row1 = st.columns(5)
row2 = st.columns([1, 1, 2])
with row1[0]:
    runs = _multiselect("Run", Key.RUNS, [r.key for r in index.runs], format_func=labels.__getitem__)
with row1[1]:
    sites = _multiselect("Site", Key.SITES, _options(frame["site"]))
with row1[2]:
    types = _multiselect("Task type", Key.TYPES, _options(frame["task_type"], TASK_TYPES))
with row1[3]:
    outcomes = _multiselect("Outcome", Key.OUTCOMES, _options(frame["outcome_group"], metrics.OUTCOME_GROUPS))
with row1[4]:
    results = _multiselect(
        "Result", Key.RESULTS, _options(frame["result"], metrics.RESULTS), help="As counted in success rates"
    )
with row2[0]:
    statuses = _multiselect(
        "Verdict status",
        Key.STATUSES,
        _options(frame["status"], ("success", "failure", "error")),
        help="WebArena-Verified status; (unknown) = not scored",
    )
with row2[1]:
    tags = _multiselect("Failure tag", Key.TAGS, metrics.tag_options(frame), help="Any of the chosen tags")
with row2[2]:
    templates = _multiselect("Intent template", Key.TEMPLATES, _options(frame["intent_template"]))
disagree = st.toggle(
    "Judges disagree",
    key=Key.DISAGREE,
    bind="query-params",
    help="Only trajectories whose judges (official evaluator, rubric, LLM) disagree on pass or fail.",
)

shown = metrics.filter_frame(
    frame,
    runs=runs,
    sites=sites,
    task_types=types,
    intent_templates=templates,
    outcome_groups=outcomes,
    results=results,
    statuses=statuses,
    tags=tags,
    text=text,
    judges_disagree=disagree,
)
shown = review_filters(shown)  # review columns and filters; verdicts dropped in a blind review
head = metrics.headline(shown) if "result" in shown else None
rate = "–" if head is None or head.success_rate is None else f"{head.success_rate:.1%}"
counted = f" ({head.passed} of {head.counted} counted)" if head is not None else " (hidden: blind review)"
st.caption(
    f"{len(shown)} of {len(frame)} trajectories · success rate {rate}{counted} · select a row to open it"
    f" · {judge_caption(judge)}"
)
package_issues(r for r in index.runs if not runs or r.key in runs)
trajectory_table(shown, labels, key=Key.TRAJECTORIES_TABLE, listed=list_params(current_filters()))
st.download_button(
    "Download these rows (CSV)",
    (shown.assign(tags=shown["tags"].map("; ".join)) if "tags" in shown else shown)
    .drop(columns=["counted", "value"])
    .map(spreadsheet_cell)  # a cell from an answer or a folder name never runs as a formula
    .to_csv(index=False),
    file_name="trajectories.csv",
    mime="text/csv",
    icon=":material/download:",
)
