"""Annotate tab: the reviewer's labels for this trajectory, saved to the store; in a queue, save-and-next.

Labels do not overlap (outcome, process, task, environment problem) and nothing is preselected;
saving needs an outcome. One key per label (S/F/U outcome, 1-3 process, 4-7 task, E/N
environment) and Ctrl+Enter to save (and open the queue's next item). A save clears the labels,
never the reviewer. When the store refuses a save (e.g. the PostgreSQL server is down), the form
keeps what was entered and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

import streamlit as st

from pages.common import inert
from pages.review_common import (
    current_queue,
    items_of,
    next_in_queue,
    review_store,
    reviewer,
)
from pages.state import Key, label_key
from pages.trajectory_tabs.context import TabContext
from pages.trajectory_tabs.navigation import reset_step
from webeval_core.presentation.tables import annotation_table
from webeval_core.review import (
    LABEL_TEXT,
    Annotation,
    AnnotationStore,
    Outcome,
    Process,
    ReviewQueue,
    Stage,
    StoreError,
    TaskLabel,
)
from webeval_core.scoring import read_verdict

_SHORTCUTS: dict[str, str] = {
    Outcome.SUCCESS: "S",
    Outcome.FAILURE: "F",
    Outcome.UNSURE: "U",
    Process.CORRECT: "1",
    Process.HARMLESS_MISTAKE: "2",
    Process.UNSAFE: "3",
    TaskLabel.FINE: "4",
    TaskLabel.AMBIGUOUS: "5",
    TaskLabel.EXPECTED_WRONG: "6",
    TaskLabel.INFEASIBLE: "7",
}
_ENVIRONMENT = {"yes": ("environment problem", "E"), "no": ("no environment problem", "N")}
_FIELDS = (
    Key.REVIEW_OUTCOME,
    Key.REVIEW_PROCESS,
    Key.REVIEW_TASK,
    Key.REVIEW_ENVIRONMENT,
    Key.REVIEW_JUSTIFICATION,
)


def _choose(group: Key, value: str) -> None:
    st.session_state[group] = value


def _label_row(title: str, group: Key, options: Sequence[tuple[str, str, str]]) -> None:
    """One button per label value (text, shortcut); the chosen one is primary."""
    chosen = st.session_state.get(group)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"**{title}**")
        for value, text, shortcut in options:
            st.button(
                text,
                key=label_key(group, value),
                type="primary" if chosen == value else "secondary",
                shortcut=shortcut,
                on_click=_choose,
                args=(group, value),
            )


def _enum_options(values: type[StrEnum]) -> list[tuple[str, str, str]]:
    return [(v.value, LABEL_TEXT[v], _SHORTCUTS[v]) for v in values]


def _save(store: AnnotationStore, draft: dict[str, object], queue: ReviewQueue | None) -> None:
    """The save button's callback: store the annotation, clear the labels, pick the next item."""
    state = st.session_state
    if state.get(Key.REVIEW_OUTCOME) is None:
        state[Key.REVIEW_SAVED] = ("error", "Choose an outcome first: nothing was saved.")
        return
    environment = state.get(Key.REVIEW_ENVIRONMENT)
    try:
        annotation = Annotation.model_validate(
            draft
            | {
                "outcome": state.get(Key.REVIEW_OUTCOME),
                "process": state.get(Key.REVIEW_PROCESS),
                "task": state.get(Key.REVIEW_TASK),
                "environment_problem": None if environment is None else environment == "yes",
                "justification": state.get(Key.REVIEW_JUSTIFICATION) or "",
            }
        )
        store.add(annotation)
    except StoreError as exc:
        state[Key.REVIEW_SAVED] = ("error", f"Not saved, your labels are kept: {exc}")
        return
    for field in _FIELDS:
        state.pop(field, None)
    state[Key.REVIEW_SAVED] = ("ok", "Annotation saved.")
    if queue is not None:
        try:
            target = next_in_queue(queue, store, annotation.item)
        except StoreError as exc:
            state[Key.REVIEW_SAVED] = ("error", f"Saved, but the next item cannot be found: {exc}")
            return
        if target is None:
            state[Key.REVIEW_NEXT] = "done"
        else:
            # The page's run and task pickers are bound to the URL: the next item is chosen through
            # them (a callback runs before they are drawn), not by switching pages.
            state[Key.RUN], state[Key.TASK] = target
            reset_step()


def _progress(queue: ReviewQueue, store: AnnotationStore) -> None:
    items = items_of(queue)
    try:
        done = len(set(items) & store.reviewed(reviewer(), queue.stage))
    except StoreError as exc:
        st.error(f"The annotation store cannot be read: {inert(str(exc))}")
        return
    st.progress(done / len(items) if items else 1.0, text=f"{done} / {len(items)} done in this queue")
    st.caption(f"Queue {inert(queue.name)} · {LABEL_TEXT[queue.stage]}")


def _flash() -> None:
    saved = st.session_state.pop(Key.REVIEW_SAVED, None)
    if saved is None:
        return
    kind, message = saved
    if kind == "ok":
        st.success(message)
    else:
        st.error(inert(message))


def _follow(queue: ReviewQueue | None) -> None:
    if st.session_state.pop(Key.REVIEW_NEXT, None) and queue is not None:
        st.success("You have annotated every item of this queue.")


def render(context: TabContext) -> None:
    """The labels form, then this trajectory's earlier annotations (hidden in blind mode)."""
    store = review_store()
    if store is None:
        return
    if not reviewer():
        st.info("Name yourself in the sidebar (Reviewer) to annotate; the name is kept for the session.")
        return
    queue = current_queue(store)
    _follow(queue)
    if queue is not None:
        _progress(queue, store)
    verdict = read_verdict(context.trajectory.scores, context.trajectory.eval_result)
    if not context.blind:
        st.caption(
            "Informed: the verdict in force is "
            + (f"{verdict.status} (from {inert(verdict.source)})" if verdict and verdict.status else "none")
        )
    _labels()
    draft = {
        "run": context.run_key,
        "task_id": context.trajectory.task_id,
        "reviewer": reviewer(),
        "stage": queue.stage if queue is not None else Stage.INFORMED,
        "verdict_source": verdict.source if verdict else None,
        "verdict_status": verdict.status if verdict else None,
    }
    # Outside the labels' fragment, so a save reruns the whole page (which then shows the next
    # item) in one go; it cannot be disabled until an outcome is chosen for the same reason, so
    # a save without one is refused with a message instead.
    st.button(
        "Save and next" if queue is not None else "Save",
        key=Key.REVIEW_SAVE,
        type="primary",
        shortcut="Ctrl+Enter",
        help="Needs an outcome",
        on_click=_save,
        args=(store, draft, queue),
    )
    _flash()
    if not context.blind:
        _history(context, store, verdict.source if verdict else None)


# A fragment: choosing a label reruns these rows only, not the whole trajectory page.
@st.fragment
def _labels() -> None:
    _label_row("Outcome", Key.REVIEW_OUTCOME, _enum_options(Outcome))
    _label_row("Process", Key.REVIEW_PROCESS, _enum_options(Process))
    _label_row("Task", Key.REVIEW_TASK, _enum_options(TaskLabel))
    _label_row("Environment", Key.REVIEW_ENVIRONMENT, [(k, *v) for k, v in _ENVIRONMENT.items()])
    st.text_area("Justification", key=Key.REVIEW_JUSTIFICATION, placeholder="Why? (kept as plain text)")


def _history(context: TabContext, store: AnnotationStore, source: str | None) -> None:
    try:
        mine = store.annotations_of(context.run_key, context.trajectory.task_id)
    except StoreError as exc:
        st.error(f"The annotation store cannot be read: {inert(str(exc))}")
        return
    if mine:
        st.dataframe(annotation_table(mine, source), hide_index=True, width="stretch")
