"""Shared by the review views: the queue worked, its items, blind mode and the list's review columns.

The trajectory page hides every verdict, score and failure tag while `is_blind` is true: the
session works a blind queue (pages/review_mode.py) and the reviewer has not yet saved this item.
The store, the reviewer and what was shown to them are pages/review_store.py's.
"""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd
import streamlit as st

from pages.common import PAGES, current_frame, current_index, current_root
from pages.review_mode import in_blind_review, worked_queue
from pages.review_store import all_annotations, note_shown, review_store_quiet
from pages.reviewer import reviewer
from pages.state import Key, trajectory_link
from webeval_core.review import (
    Annotation,
    AnnotationStore,
    Outcome,
    ReviewQueue,
    StoreError,
    current,
    judge_verdicts,
    majority,
    next_item,
    queue_items,
    read_queues,
)
from webeval_core.review.annotations import Shown
from webeval_core.runs.view import IndexView


@st.cache_resource(show_spinner=False, max_entries=4)
def _judged(_index: IndexView, index_id: int) -> dict[tuple[str, str], dict[str, Outcome]]:
    return judge_verdicts(_index.root_index(run.key for run in _index.run_heads))


def judged() -> dict[tuple[str, str], dict[str, Outcome]]:
    """Each judge's outcome per trajectory of the current root (computed once per loaded index)."""
    index = current_index()
    return _judged(index, id(index))


def current_queue(store: AnnotationStore) -> ReviewQueue | None:
    """The queue the session works, when the store has it (None too while the store is down)."""
    worked = worked_queue()
    if worked is None:
        return None
    try:
        return read_queues(store).get(worked.name)
    except StoreError:
        return None


@st.cache_data(show_spinner=False, max_entries=16)
def _items(root: str, queue_json: str) -> list[tuple[str, str]]:
    return queue_items(current_frame(), ReviewQueue.model_validate_json(queue_json), judged())


def items_of(queue: ReviewQueue) -> list[tuple[str, str]]:
    """The queue's trajectories in review order (cached per root and queue)."""
    return _items(str(current_root()), queue.model_dump_json())


def next_in_queue(
    queue: ReviewQueue, store: AnnotationStore, after: tuple[str, str] | None = None
) -> tuple[str, str] | None:
    """The reviewer's next item of a queue, not yet annotated by them in its stage.

    Raises:
        StoreError: When the store cannot be read.
    """
    return next_item(items_of(queue), store.reviewed(reviewer(), queue.stage), after)


def open_item(queue: ReviewQueue, item: tuple[str, str]) -> None:
    """Open one queue item on the Trajectory page's Annotate tab, the queue kept in the URL."""
    params = trajectory_link(*item) | {Key.QUEUE.value: queue.name, Key.TAB.value: "Annotate"}
    st.switch_page(PAGES["trajectory"], query_params=params)


def is_blind(run_key: str, task_id: str) -> bool:
    """Whether verdicts must be hidden: a blind queue is worked and the reviewer has not saved this item.

    When the store cannot say (unreachable), they stay hidden.
    """
    if not in_blind_review():
        return False
    store = review_store_quiet()
    if store is None:
        return True
    try:
        return (run_key, task_id) not in store.reviewed(reviewer())
    except StoreError:
        return True


def blind_list() -> bool:
    """Whether the trajectory list hides verdict columns: a blind queue is being worked."""
    return in_blind_review()


def human_columns(frame: pd.DataFrame, annotations: list[Annotation], me: str) -> pd.DataFrame:
    """The list's review columns: annotated by me, reviewer count, human outcome, disagreement."""
    latest = current(annotations)
    by_item: dict[tuple[str, str], dict[str, Outcome]] = {}
    for (run, task_id, name, _stage), annotation in latest.items():
        by_item.setdefault((run, task_id), {})[name] = annotation.outcome
    keys = list(zip(frame["run"].astype(str), frame["task_id"].astype(str), strict=True))
    votes = [by_item.get(key, {}) for key in keys]
    human = [majority(v.values()) for v in votes]
    evaluator = [_evaluator_outcome(status) for status in frame["status"]]
    return frame.assign(
        mine=[bool(me) and me in v for v in votes],
        reviewers=[len(v) for v in votes],
        human=[h.value if h else None for h in human],
        disagree=[
            h is not None and e is not None and h not in (Outcome.UNSURE, e)
            for h, e in zip(human, evaluator, strict=True)
        ],
    )


def _evaluator_outcome(status: object) -> Outcome | None:
    if status == "success":
        return Outcome.SUCCESS
    if status in ("failure", "error"):
        return Outcome.FAILURE
    return None


VERDICT_COLUMNS = ("result", "status", "score", "tags", "value", "counted", "human", "disagree")
"""Columns of the trajectory list that a blind review hides (verdicts, and others' labels)."""


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
    annotations = all_annotations(store) if store is not None else None
    if annotations is None:
        return None
    left, middle, right = st.columns([1, 2, 1])
    mine = left.segmented_control(
        "Annotated by me", ["yes", "no"], key=Key.MINE, bind="query-params", disabled=not reviewer()
    )
    if in_blind_review():
        return ReviewChoice(annotations, mine, [], False)
    human = middle.multiselect(
        "Human outcome", [o.value for o in Outcome], key=Key.HUMAN_OUTCOMES, bind="query-params"
    )
    disagree = right.checkbox("Disagrees with the evaluator", key=Key.HUMAN_DISAGREES, bind="query-params")
    return ReviewChoice(annotations, mine, human, disagree)


def review_rows(frame: pd.DataFrame, choice: ReviewChoice | None, blind: bool) -> pd.DataFrame:
    """`frame` with its review columns, narrowed by `choice`; verdicts dropped when `blind`.

    `blind` is passed, not looked up: a download's rows are made after the script ran, where the
    session's review mode cannot be read.
    """
    if choice is None:  # the store cannot be opened: no review columns
        return without_verdicts(frame) if blind else frame
    shown = human_columns(frame, choice.annotations, reviewer())
    if choice.mine:
        shown = shown[shown["mine"] == (choice.mine == "yes")]
    if choice.human:
        shown = shown[shown["human"].isin(choice.human)]
    if choice.disagree:
        shown = shown[shown["disagree"]]
    return without_verdicts(shown) if blind else shown


def note_rows_shown(rows: pd.DataFrame) -> None:
    """The list showed these rows' verdicts and human labels to the reviewer: record it."""
    items = list(zip(rows["run"].astype(str), rows["task_id"].astype(str), strict=True))
    if "status" in rows:
        note_shown(
            [item for item, status in zip(items, rows["status"], strict=True) if status], Shown.VERDICT
        )
    if "human" in rows:
        note_shown([item for item, human in zip(items, rows["human"], strict=True) if human], Shown.OTHERS)


def without_verdicts(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows without any column that shows a verdict or another reviewer's label."""
    return rows.drop(columns=[c for c in VERDICT_COLUMNS if c in rows])
