"""Shared by the review views: the next item of a queue, blind mode and the list's review columns.

The trajectory page hides every verdict, score and failure tag while `is_blind` is true: the
session works a blind queue (webeval_ui/queue_state.py) and the reviewer has not yet saved this
item (the gate, webeval_ui/review_mode.py, decides). The store is webeval_ui/review_store.py's.
"""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd
import streamlit as st

from webeval_core.review import (
    OTHERS_COLUMNS,
    VERDICT_COLUMNS,
    Annotation,
    AnnotationStore,
    Outcome,
    ReviewQueue,
    Withheld,
    done_in,
    figure_labels,
    next_item,
    review_list_columns,
)
from webeval_ui.page_links import PAGES
from webeval_ui.queue_state import in_blind_review, items_of
from webeval_ui.review_mode import gate, withheld_text
from webeval_ui.review_store import all_annotations, review_store_quiet
from webeval_ui.reviewer import reviewer
from webeval_ui.state import Key, trajectory_link


def next_in_queue(
    queue: ReviewQueue, store: AnnotationStore, after: tuple[str, str] | None = None
) -> tuple[str, str] | None:
    """The reviewer's next item of a queue they are not done with (`done_in`: in a blind queue an
    item revealed to them is done, informed).

    Raises:
        StoreError: When the store cannot be read.
    """
    return next_item(items_of(queue), done_in(store, reviewer(), queue.stage), after)


def open_item(queue: ReviewQueue, item: tuple[str, str]) -> None:
    """Open one queue item on the Trajectory page's Annotate tab, the queue kept in the URL."""
    params = trajectory_link(*item) | {Key.QUEUE.value: queue.name, Key.TAB.value: "Annotate"}
    st.switch_page(PAGES["trajectory"], query_params=params)


def is_blind(run_key: str, task_id: str) -> bool:
    """Whether this trajectory's verdicts stay hidden: it is pending in the reviewer's blind pass
    (the core's gate decides; when the store cannot say, they stay hidden).
    """
    worked = gate().blind
    return worked is not None and worked.holds((run_key, task_id))


def blind_list() -> bool:
    """Whether lists hide verdict columns: the reviewer's blind pass has items pending."""
    return bool(gate().closed())


class ReviewChoice(NamedTuple):
    """The Trajectories page's review filters as chosen (`review_choice`)."""

    annotations: list[Annotation]
    """Every annotation of the root."""
    mine: str | None
    """"yes" / "no": annotated by me or not; None keeps both."""
    human: list[str]
    """Human majority outcomes kept; empty keeps all."""
    disagree: bool
    """Keep only trajectories whose human majority disagrees with the evaluator."""
    me: str = ""
    """The reviewer the `mine` column is about (taken when the page ran: a download's rows are
    made after it, where the session's reviewer cannot be read)."""

    @property
    def narrows(self) -> bool:
        """Whether a review filter is set (the list then needs every row's review columns)."""
        return bool(self.mine or self.human or self.disagree)


def review_choice() -> ReviewChoice | None:
    """The review filters of the Trajectories page (annotated by me, human outcome, disagreement).

    None when the annotation store cannot be opened (no review columns then). In blind review only
    "annotated by me" is offered: the others are other reviewers' labels.
    """
    store = review_store_quiet()
    # Others' labels for the list's review columns: `gated_rows` records the rows it draws.
    annotations = all_annotations(store, figure_labels(gate())) if store is not None else None
    if annotations is None:
        return None
    left, middle, right = st.columns([1, 2, 1])
    mine = left.segmented_control(
        "Annotated by me", ["yes", "no"], key=Key.MINE, bind="query-params", disabled=not reviewer()
    )
    if in_blind_review():
        return ReviewChoice(annotations, mine, [], False, reviewer())
    human = middle.multiselect(
        "Human outcome", [o.value for o in Outcome], key=Key.HUMAN_OUTCOMES, bind="query-params"
    )
    disagree = right.checkbox("Disagrees with the evaluator", key=Key.HUMAN_DISAGREES, bind="query-params")
    return ReviewChoice(annotations, mine, human, disagree, reviewer())


def review_rows(frame: pd.DataFrame, choice: ReviewChoice | None, blind: bool) -> pd.DataFrame:
    """`frame` with its review columns, narrowed by `choice`; verdicts dropped when `blind`.

    `blind` is passed, not looked up: a download's rows are made after the script ran, where the
    session's review mode cannot be read.
    """
    if choice is None:  # the store cannot be opened: no review columns
        return without_verdicts(frame) if blind else frame
    shown = review_list_columns(frame, choice.annotations, choice.me)
    if choice.mine:
        shown = shown[shown["mine"] == (choice.mine == "yes")]
    if choice.human:
        shown = shown[shown["human"].isin(choice.human)]
    if choice.disagree:
        shown = shown[shown["disagree"]]
    return without_verdicts(shown) if blind else shown


def gated_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows as the gate lets them through: their verdicts and human labels recorded as shown
    first, or dropped (said on the page) when that cannot be recorded.
    """
    passed = gate().rows(rows)
    if passed.why == Withheld.NOT_RECORDED:
        st.warning(withheld_text(passed.detail), icon=":material/visibility_off:")
    return passed.frame


def without_verdicts(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows without any column that shows a verdict or another reviewer's label."""
    return rows.drop(columns=[c for c in VERDICT_COLUMNS | OTHERS_COLUMNS if c in rows])
