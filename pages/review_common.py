"""Shared by the review views: the reviewer, the annotation store, the queue worked, blind mode.

The reviewer is chosen once in the sidebar and kept in the URL (`?reviewer=`), so a save never
clears it. The store is opened once per location for the whole server (SQLite file or
PostgreSQL URL from `WEBEVAL_ANNOTATIONS`); errors are shown with the password masked. Blind
mode is ONE switch, `is_blind`: the trajectory page hides every verdict, score and failure tag
while it is true, i.e. while the reviewer works a blind queue and has not yet saved this item.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pandas as pd
import streamlit as st

from pages.common import PAGES, current_frame, current_index, current_root, inert, queue_named
from pages.state import Key, trajectory_link
from webeval_core.review import (
    Annotation,
    AnnotationStore,
    Outcome,
    ReviewQueue,
    Stage,
    StoreError,
    current,
    judge_verdicts,
    majority,
    next_item,
    open_annotations,
    queue_items,
    read_queues,
)
from webeval_core.review.store import default_location
from webeval_core.runs.store import IndexView


@st.cache_resource(show_spinner=False, max_entries=4)
def _store(location: str, root: str) -> AnnotationStore:
    store, _problems = open_annotations(location, Path(root))
    return store


def review_store() -> AnnotationStore | None:
    """The annotation store; None (with the reason shown) when it cannot be opened."""
    try:
        return _store(default_location(), str(current_root()))
    except StoreError as exc:
        st.error(f"The annotation store cannot be opened: {inert(str(exc))}")
        return None


def all_annotations(store: AnnotationStore) -> list[Annotation] | None:
    """Every annotation; None (with the reason shown) when the store cannot be read."""
    try:
        return store.annotations()
    except StoreError as exc:
        st.error(f"The annotation store cannot be read: {inert(str(exc))}")
        return None


def reviewer() -> str:
    """The reviewer's name, stripped; empty when none was given."""
    name = st.query_params.get(Key.REVIEWER.value) or st.session_state.get(Key.REVIEWER_KEPT) or ""
    return str(name).strip()


@st.cache_resource(show_spinner=False, max_entries=4)
def _judged(_index: IndexView, index_id: int) -> dict[tuple[str, str], dict[str, Outcome]]:
    return judge_verdicts(_index.root_index(run.key for run in _index.run_heads))


def judged() -> dict[tuple[str, str], dict[str, Outcome]]:
    """Each judge's outcome per trajectory of the current root (computed once per loaded index)."""
    index = current_index()
    return _judged(index, id(index))


def current_queue(store: AnnotationStore) -> ReviewQueue | None:
    """The queue named in the URL, when the store has it."""
    name = queue_named()
    if name is None:
        return None
    try:
        return read_queues(store).get(name)
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
    """Whether verdicts must be hidden: a blind queue is worked and this item is not yet saved."""
    store = _quiet_store()
    if store is None:
        return bool(st.session_state.get(Key.QUEUE))  # cannot tell: hide rather than reveal
    queue = current_queue(store)
    if queue is None or queue.stage != Stage.BLIND:
        return False
    try:
        return (run_key, task_id) not in store.reviewed(reviewer(), Stage.BLIND)
    except StoreError:
        return True


def blind_list() -> bool:
    """Whether the trajectory list hides verdict columns: a blind queue is being worked."""
    store = _quiet_store()
    queue = current_queue(store) if store is not None else None
    return queue is not None and queue.stage == Stage.BLIND


def _quiet_store() -> AnnotationStore | None:
    try:
        return _store(default_location(), str(current_root()))
    except StoreError:
        return None


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


VERDICT_COLUMNS = ("result", "status", "score", "tags")
"""Columns of the trajectory list that a blind review hides."""


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

    None when the annotation store cannot be opened (no review columns then).
    """
    store = _quiet_store()
    annotations = all_annotations(store) if store is not None else None
    if annotations is None:
        return None
    left, middle, right = st.columns([1, 2, 1])
    mine = left.segmented_control(
        "Annotated by me", ["yes", "no"], key=Key.MINE, bind="query-params", disabled=not reviewer()
    )
    human = middle.multiselect(
        "Human outcome", [o.value for o in Outcome], key=Key.HUMAN_OUTCOMES, bind="query-params"
    )
    disagree = right.checkbox("Disagrees with the evaluator", key=Key.HUMAN_DISAGREES, bind="query-params")
    return ReviewChoice(annotations, mine, human, disagree)


def review_rows(frame: pd.DataFrame, choice: ReviewChoice | None) -> pd.DataFrame:
    """`frame` with its review columns, narrowed by `choice`; verdicts dropped in a blind review."""
    if choice is None:
        return frame
    shown = human_columns(frame, choice.annotations, reviewer())
    if choice.mine:
        shown = shown[shown["mine"] == (choice.mine == "yes")]
    if choice.human:
        shown = shown[shown["human"].isin(choice.human)]
    if choice.disagree:
        shown = shown[shown["disagree"]]
    if blind_list():
        shown = shown.drop(columns=list(VERDICT_COLUMNS)).assign(disagree=None)
    return shown
