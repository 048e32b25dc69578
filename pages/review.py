"""Review: the review queues of the annotation store, each with this reviewer's progress; open the next item.

A queue is a saved filter of the trajectory list plus a mode. Blind hides every verdict, score
and failure tag on the Trajectory page until the reviewer saves; informed shows them. Items come
failures first by default; "Open next" opens the first item this reviewer has not annotated in
the queue's stage, and the Annotate tab's save-and-next (Ctrl+Enter) moves on from there.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.common import current_frame, index_or_stop, inert
from pages.review_common import (
    items_of,
    judged,
    next_in_queue,
    open_item,
    review_store,
    reviewer,
)
from pages.shell import require_app_shell
from pages.state import Key, queue_filter_key
from webeval_core.review import (
    LABEL_TEXT,
    AnnotationStore,
    ReviewQueue,
    Stage,
    StoreError,
    read_queues,
    save_queue,
)
from webeval_core.runs import metrics
from webeval_core.runs.metrics import TrajectoryFilter

require_app_shell()


def _queue_form(frame: pd.DataFrame, index_runs: list[str]) -> None:
    """Create a queue from the list's filters (the ones of the Trajectories page, by name)."""
    name = st.text_input("Name", key=Key.QUEUE_NAME, placeholder="e.g. gitlab failures, blind")
    stage = st.radio(
        "Mode", list(Stage), format_func=lambda s: LABEL_TEXT[s], key=Key.QUEUE_STAGE, horizontal=True
    )
    left, right = st.columns(2)
    runs = left.multiselect("Runs", index_runs, key=queue_filter_key("runs"))
    sites = right.multiselect("Sites", sorted(frame["site"].dropna().unique()), key=queue_filter_key("sites"))
    types = left.multiselect(
        "Task types", sorted(frame["task_type"].dropna().unique()), key=queue_filter_key("types")
    )
    outcomes = right.multiselect("Outcomes", list(metrics.OUTCOME_GROUPS), key=queue_filter_key("outcomes"))
    statuses = left.multiselect("Verdicts", ["success", "failure", "error"], key=queue_filter_key("statuses"))
    tags = right.multiselect("Failure tags", metrics.tag_options(frame), key=queue_filter_key("tags"))
    judges = left.multiselect(
        "Judges", sorted({j for v in judged().values() for j in v}), key=Key.QUEUE_JUDGES
    )
    failures_first = right.checkbox("Failures first", value=True, key=Key.QUEUE_FAILURES_FIRST)
    if st.button("Create queue", key=Key.QUEUE_CREATE, disabled=not name.strip()):
        criteria = TrajectoryFilter(
            runs=frozenset(runs),
            sites=frozenset(sites),
            task_types=frozenset(types),
            outcome_groups=frozenset(outcomes),
            statuses=frozenset(statuses),
            tags=frozenset(tags),
        )
        queue = ReviewQueue(
            name=name, stage=stage, criteria=criteria, judges=frozenset(judges), failures_first=failures_first
        )
        store = review_store()
        if store is not None:
            try:
                save_queue(store, queue)
            except StoreError as exc:
                st.error(inert(str(exc)))
                return
            st.session_state[Key.QUEUE] = queue.name
            st.rerun()


def _queue_table(queues: dict[str, ReviewQueue], done_by: dict[str, int]) -> None:
    rows = [
        {
            "queue": q.name,
            "mode": q.stage.value,
            "items": len(items_of(q)),
            "done by you": done_by[q.name],
        }
        for q in queues.values()
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _page() -> None:
    st.title("Review")
    index = index_or_stop()
    store = review_store()
    if store is None:
        st.stop()
    st.caption(f"Annotation store: {inert(store.location)}")
    me = reviewer()
    try:
        queues = read_queues(store)
        done_by = {name: len(set(items_of(q)) & store.reviewed(me, q.stage)) for name, q in queues.items()}
    except StoreError as exc:
        st.error(inert(str(exc)))
        st.stop()
    if queues:
        _queue_table(queues, done_by)
        chosen = st.selectbox(
            "Queue",
            list(queues),
            key=Key.QUEUE,
            index=None,
            placeholder="choose a queue",
        )
        queue = queues.get(chosen) if chosen else None
        if queue is not None:
            _work(queue, store, done_by[queue.name], me)
    with st.expander("New queue", expanded=not queues):
        _queue_form(current_frame(), [r.key for r in index.run_heads])


def _work(queue: ReviewQueue, store: AnnotationStore, done: int, me: str) -> None:
    items = items_of(queue)
    st.progress(done / len(items) if items else 1.0, text=f"{done} / {len(items)} done by you")
    if not me:
        st.info("Name yourself in the sidebar (Reviewer) to work this queue.")
        return
    try:
        target = next_in_queue(queue, store)
    except StoreError as exc:
        st.error(inert(str(exc)))
        return
    if target is None:
        st.success("You have annotated every item of this queue.")
        return
    if st.button("Open next item", key=Key.QUEUE_OPEN, type="primary", shortcut="Enter"):
        open_item(queue, target)


_page()
