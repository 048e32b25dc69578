"""Review: the review queues of the annotation store, each with this reviewer's progress; open the next item.

A queue is a saved filter of the trajectory list plus a mode, assigned to some reviewers or to
anyone; the queue chosen shows each reviewer's progress through it. Choosing one enters review mode
(webeval_ui/review_mode.py) until the reviewer leaves it: a blind queue hides every verdict, score,
failure tag and other reviewer's label across the app until the reviewer saves an item; informed
shows them. Items come failures first by default; "Open next" opens the first item this reviewer
has not annotated in the queue's stage, and the Annotate tab's save-and-next (Ctrl+Enter) moves on.

The queue picker is only ever set by callbacks (before it is drawn): a new queue is saved and
chosen by the create button's callback.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from webeval_core.policy import Write
from webeval_core.review import (
    LABEL_TEXT,
    AnnotationStore,
    QueueRefusedError,
    ReviewQueue,
    Stage,
    StoreError,
    done_in,
    queue_progress,
    queues_on,
    read_queues,
    save_queue,
)
from webeval_core.runs import (
    OUTCOME_GROUPS,
    VERDICT_OUTCOME_GROUPS,
    IndexQueries,
    TrajectoryFilter,
    filter_from_params,
)
from webeval_ui.app_shell import require_app_shell
from webeval_ui.loaders import index_or_stop
from webeval_ui.queue_state import enter, items_of, judged, leave, worked_queue
from webeval_ui.review_mode import gate, gated_queries
from webeval_ui.review_queue import next_in_queue, open_item
from webeval_ui.review_store import review_store
from webeval_ui.reviewer import reviewer
from webeval_ui.roots import chosen_root
from webeval_ui.state import Key, queue_filter_key
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid
from webeval_ui.write_controls import as_reviewer, blocked

require_app_shell()


def _present(queries: IndexQueries, column: str) -> list[str]:
    """The values of a filter's column present under the root (a missing one is not offered)."""
    return sorted(queries.distinct(column, None, missing=False))


def _queue_form(queries: IndexQueries, index_runs: list[str], known: list[str]) -> None:
    """Create a queue from the list's filters (the ones of the Trajectories page, by name). A blind
    queue, or any queue made during a blind pass, selects and orders by nothing a verdict decides.

    The mode stays outside the form (it decides which criteria are offered); the rest is one form,
    so the name typed and the click on "Create queue" arrive in one rerun: a click can never be lost
    to the rerun the name box's own commit starts.
    """
    stage = st.radio(
        "Mode", list(Stage), format_func=lambda s: LABEL_TEXT[s], key=Key.QUEUE_STAGE, horizontal=True
    )
    by_verdict = stage == Stage.INFORMED and not gate().closed()
    with st.form(Key.QUEUE_FORM, border=False):
        st.text_input("Name", key=Key.QUEUE_NAME, placeholder="e.g. gitlab failures, blind")
        left, right = st.columns(2)
        left.multiselect("Runs", index_runs, key=queue_filter_key("runs"))
        right.multiselect("Sites", _present(queries, "site"), key=queue_filter_key("sites"))
        left.multiselect("Task types", _present(queries, "task_type"), key=queue_filter_key("types"))
        outcome_groups = [g for g in OUTCOME_GROUPS if by_verdict or g not in VERDICT_OUTCOME_GROUPS]
        right.multiselect("Outcomes", outcome_groups, key=queue_filter_key("outcomes"))
        if by_verdict:
            _verdict_criteria(queries, left, right)
        st.multiselect("Judges", sorted({j for v in judged().values() for j in v}), key=Key.QUEUE_JUDGES)
        if not by_verdict:
            st.caption("In list order (run, then task): a blind pass selects and orders by no verdict.")
        st.multiselect(
            "Assigned to",
            known,
            key=Key.QUEUE_REVIEWERS,
            accept_new_options=True,
            placeholder="anyone (choose or type reviewers)",
            help="Whose queue this is: reviewer names, or the identities they sign in with. None: anyone's.",
        )
        st.form_submit_button("Create queue", key=Key.QUEUE_CREATE, on_click=_create, args=(by_verdict,))
    if (problem := st.session_state.pop(Key.QUEUE_PROBLEM, None)) is not None:
        st.error(inert(problem))


def _verdict_criteria(queries: IndexQueries, left: DeltaGenerator, right: DeltaGenerator) -> None:
    """An informed queue's verdict criteria: verdicts, failure tags, failures first."""
    left.multiselect("Verdicts", ["success", "failure", "error"], key=queue_filter_key("statuses"))
    right.multiselect("Failure tags", list(queries.tags(None)), key=queue_filter_key("tags"))
    st.checkbox("Failures first", value=True, key=Key.QUEUE_FAILURES_FIRST)


def _form_criteria(by_verdict: bool) -> TrajectoryFilter:
    """The new queue's filter from the submitted form, named as the Trajectories page's filters are;
    a blind queue selects by no verdict (its verdict criteria are not even read).
    """
    state = st.session_state
    names: dict[str, str] = {
        Key.RUNS: "runs",
        Key.SITES: "sites",
        Key.TYPES: "types",
        Key.OUTCOMES: "outcomes",
    }
    if by_verdict:
        names |= {Key.STATUSES: "statuses", Key.TAGS: "tags"}
    params = {param: list(state.get(queue_filter_key(name)) or []) for param, name in names.items()}
    return filter_from_params(params, verdicts=by_verdict)


def _create(by_verdict: bool) -> None:
    """Callback: save the new queue and choose it (the picker is drawn after this, on the rerun)."""
    state = st.session_state
    name = str(state.get(Key.QUEUE_NAME) or "").strip()
    if not name:
        state[Key.QUEUE_PROBLEM] = "Name the queue first."
        return
    queue = ReviewQueue(
        name=name,
        stage=state.get(Key.QUEUE_STAGE) or Stage.BLIND,
        criteria=_form_criteria(by_verdict),
        judges=frozenset(state.get(Key.QUEUE_JUDGES) or ()),
        failures_first=by_verdict and bool(state.get(Key.QUEUE_FAILURES_FIRST, True)),
        reviewers=tuple(state.get(Key.QUEUE_REVIEWERS) or ()),
        root=chosen_root(),
    )
    store = review_store()
    if store is None:
        return
    try:
        with as_reviewer():
            save_queue(store, queue)
    except (StoreError, QueueRefusedError) as exc:
        state[Key.QUEUE_PROBLEM] = str(exc)
        return
    _work_queue(queue)
    state[Key.QUEUE_NAME] = ""  # set, not removed: the browser shows the emptied field too
    state[Key.QUEUE_REVIEWERS] = []


def _work_queue(queue: ReviewQueue) -> None:
    """Choose a queue in the picker and enter its review mode."""
    st.session_state[Key.QUEUE_PICK] = queue.name
    enter(queue.name, queue.stage == Stage.BLIND)


def _picked(queues: dict[str, ReviewQueue]) -> None:
    """Callback of the queue picker: work the queue chosen (none: leave review mode)."""
    chosen = queues.get(str(st.session_state.get(Key.QUEUE_PICK)))
    if chosen is None:
        leave()
    else:
        _work_queue(chosen)


def _queue_table(queues: dict[str, ReviewQueue], done_by: dict[str, int]) -> None:
    rows = [
        {
            "queue": q.name,
            "mode": q.stage.value,
            "assigned to": ", ".join(q.reviewers) or "anyone",
            "items": len(items_of(q)),
            "done by you": done_by[q.name],
        }
        for q in queues.values()
    ]
    grid(pd.DataFrame(rows), hide_index=True, width="stretch")


def _page() -> None:
    st.title("Review")
    index = index_or_stop()
    store = review_store()
    if store is None:
        st.stop()
    st.caption(f"Annotation store: {inert(store.location)}")
    me = reviewer()
    try:
        queues = queues_on(read_queues(store), chosen_root())
        done_by = {name: len(set(items_of(q)) & done_in(store, me, q.stage)) for name, q in queues.items()}
        known = store.reviewers()
    except StoreError as exc:
        st.error(inert(str(exc)))
        st.stop()
    if queues:
        _queue_table(queues, done_by)
        worked = worked_queue()
        if worked is not None and worked.name in queues:
            st.session_state[Key.QUEUE_PICK] = worked.name  # before the picker is drawn: it shows it
        chosen = st.selectbox(
            "Queue",
            list(queues),
            key=Key.QUEUE_PICK,
            index=None,
            placeholder="choose a queue",
            on_change=_picked,
            args=(queues,),
            help="Choosing a queue enters review mode (a blind queue hides every verdict until you leave).",
        )
        queue = queues.get(chosen) if chosen else None
        if queue is not None:
            _work(queue, store, done_by[queue.name], me)
            _progress_table(queue, store)
    if blocked(Write.QUEUE, "new queues are not saved here."):
        return
    known += [me] if me and me.casefold() not in {k.casefold() for k in known} else []
    with st.expander("New queue", expanded=not queues):
        _queue_form(gated_queries(), [r.key for r in index.run_heads], known)


def _work(queue: ReviewQueue, store: AnnotationStore, done: int, me: str) -> None:
    items = items_of(queue)
    st.progress(done / len(items) if items else 1.0, text=f"{done} / {len(items)} done by you")
    if blocked(Write.ANNOTATION, "annotations are not saved here."):
        return  # a viewer or a read-only server: nothing to work, nothing offered
    if me and not queue.assigned_to(me):
        st.warning(
            inert(f"This queue is assigned to {', '.join(queue.reviewers)}, not to you.")
            + " What you annotate in it still counts, as anywhere else."
        )
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


def _progress_table(queue: ReviewQueue, store: AnnotationStore) -> None:
    """Each reviewer's progress through the queue: those it is assigned to, then anyone else's."""
    items = items_of(queue)
    try:
        marks = store.marks()  # who judged what, no label: shown in a blind pass too
    except StoreError as exc:
        st.error(inert(str(exc)))
        return
    rows = [
        {
            "reviewer": p.reviewer,
            "assigned": "yes" if p.assigned else "anyone" if not queue.reviewers else "no",
            "done": p.done,
            "of": len(items),
        }
        for p in queue_progress(queue, items, marks)
    ]
    if rows:
        st.caption("Each reviewer's progress through this queue")
        grid(pd.DataFrame(rows), hide_index=True, width="stretch", key=Key.QUEUE_PROGRESS)


_page()
