"""Annotate tab: the reviewer's labels for this trajectory, saved to the store; in a queue, save-and-next.

Labels do not overlap (outcome, process, task, environment problem) and nothing is preselected;
saving needs an outcome. Optional, in the verifier's own taxonomy: the first failing step(s), the
error codes and the task codes, so reviewers and judges can be compared failure by failure.
One key per label (S/F/U outcome, 1-3 process, 4-7 task, E/N environment) and Ctrl+Enter to
save (and open the queue's next item), from the text box too.

The form belongs to one trajectory: one draft per item, kept across tab switches and reruns until
it is saved or the item changes (Streamlit forgets an undrawn widget's state, so the text boxes
and code pickers are kept beside it). Its widgets are keyed by the item, and when the page shows
another item by any route (save-and-next, the list's keys, a link, the pickers) the previous
item's unsaved labels are dropped, so a save holds exactly what was on screen for that item; a
save empties the form, on screen too (when the item stays, outside a queue). The stage a save is
stored in is the core's decision (review.judging): this form only says whether it was filled in
blind. When the store refuses a save (e.g. the PostgreSQL server is down), the form keeps what
was entered, stays in its mode, and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

import streamlit as st

from webeval_core.policy import Write
from webeval_core.presentation import annotation_table
from webeval_core.reading import (
    CODES,
    category_of,
    code_label,
    describes_task,
    parse_step_numbers,
    sorted_codes,
)
from webeval_core.review import (
    LABEL_TEXT,
    AnnotationStore,
    Draft,
    Outcome,
    Process,
    ReviewQueue,
    Saved,
    Stage,
    StoreError,
    TaskLabel,
    done_in,
    save_judgement,
)
from webeval_core.runs import OFFICIAL, judge_label, judge_passes, judge_scores, trajectory_key
from webeval_core.scoring import Verdict, read_verdict
from webeval_ui.judge_choice import root_default_judge
from webeval_ui.loaders import current_index
from webeval_ui.queue_state import WorkedQueue, current_queue, items_of, worked_queue
from webeval_ui.review_mode import gate
from webeval_ui.review_queue import next_in_queue
from webeval_ui.review_store import review_store
from webeval_ui.reviewer import reviewer
from webeval_ui.state import Key, label_key, review_field_key
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.navigation import reset_step
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid
from webeval_ui.write_controls import as_reviewer, blocked, read_only

Item = tuple[str, str]

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
_LABELS = (Key.REVIEW_OUTCOME, Key.REVIEW_PROCESS, Key.REVIEW_TASK, Key.REVIEW_ENVIRONMENT)
_TEXT_WIDGETS = (Key.REVIEW_JUSTIFICATION, Key.REVIEW_STEPS)
_CODE_WIDGETS = (Key.REVIEW_ERROR_CODES, Key.REVIEW_TASK_CODES)
_FIELDS = (*_LABELS, *_TEXT_WIDGETS, *_CODE_WIDGETS)
# The taxonomy codes a reviewer may give: the agent's errors (1-6) and the task's (7-8); category
# 9 is a harness recheck that takes no part in a judgement.
_ERROR_CODES = [code for code in sorted_codes(list(CODES)) if category_of(code) in set("123456")]
_TASK_CODES = [code for code in sorted_codes(list(CODES)) if describes_task(code)]


def _field(group: Key, item: Item) -> str:
    return review_field_key(group, *item)


def _choose(group: str, value: str) -> None:
    st.session_state[group] = value


def _label_row(title: str, group: str, options: Sequence[tuple[str, str, str]]) -> None:
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


def _draft_kept() -> dict[str, object]:
    """The text boxes' and code pickers' values by widget key: Streamlit drops a widget's state
    when a run does not draw it (another tab open), so what was typed is kept here too.
    """
    kept: dict[str, object] = st.session_state.setdefault(Key.REVIEW_DRAFT, {})
    return kept


def _restored(key: str) -> str:
    """`key` with what was typed into it before another tab was opened (set before it is drawn)."""
    kept = _draft_kept()
    if key not in st.session_state and key in kept:
        st.session_state[key] = kept[key]
    return key


def _keep(key: str) -> None:
    """Keep what the widget `key` holds now (drawn this run)."""
    _draft_kept()[key] = st.session_state.get(key)


def _clear(item: Item) -> None:
    for group in _FIELDS:
        st.session_state.pop(_field(group, item), None)
        _draft_kept().pop(_field(group, item), None)


def _empty(item: Item) -> None:
    """Empty the form of `item`, which may stay on screen: its widgets are set to empty (a widget's
    state removed would leave the browser showing what was typed), its labels removed.
    """
    for group in _LABELS:
        st.session_state.pop(_field(group, item), None)
    for group in _TEXT_WIDGETS:
        st.session_state[_field(group, item)] = ""
    for group in _CODE_WIDGETS:
        st.session_state[_field(group, item)] = []  # a new list each time: session state keeps it
    for group in (*_TEXT_WIDGETS, *_CODE_WIDGETS):
        _draft_kept().pop(_field(group, item), None)


def _start_form(item: Item) -> None:
    """A form for `item`: the labels left unsaved on another item are dropped, never carried over."""
    previous = st.session_state.get(Key.REVIEW_FORM_ITEM)
    if previous is not None and tuple(previous) != item:
        _clear(tuple(previous))
    st.session_state[Key.REVIEW_FORM_ITEM] = item


def _draft(item: Item, base: dict[str, object]) -> Draft:
    state = st.session_state
    environment = state.get(_field(Key.REVIEW_ENVIRONMENT, item))
    return Draft.model_validate(
        base
        | {
            "outcome": state[_field(Key.REVIEW_OUTCOME, item)],
            "process": state.get(_field(Key.REVIEW_PROCESS, item)),
            "task": state.get(_field(Key.REVIEW_TASK, item)),
            "environment_problem": None if environment is None else environment == "yes",
            "justification": state.get(_field(Key.REVIEW_JUSTIFICATION, item)) or "",
            "failing_steps": parse_step_numbers(state.get(_field(Key.REVIEW_STEPS, item)) or "") or (),
            "error_codes": tuple(state.get(_field(Key.REVIEW_ERROR_CODES, item)) or ()),
            "task_codes": tuple(state.get(_field(Key.REVIEW_TASK_CODES, item)) or ()),
        }
    )


def _save(store: AnnotationStore, item: Item, base: dict[str, object]) -> None:
    """The save button's callback: store what is on screen for `item`, clear it, open the next item."""
    state = st.session_state
    if state.get(_field(Key.REVIEW_OUTCOME, item)) is None:
        _say("error", "Choose an outcome first (S, F or U): nothing was saved.")
        return
    if parse_step_numbers(state.get(_field(Key.REVIEW_STEPS, item)) or "") is None:
        _say("error", 'Write the failing steps as numbers ("4", "4, 5" or "4-6"): nothing was saved.')
        return
    try:
        with as_reviewer(str(base["reviewer"])):
            saved = save_judgement(store, _draft(item, base))
    except StoreError as exc:
        _say("error", f"Not saved; your labels and text are kept: {exc}")
        return
    _empty(item)
    _say("ok", _saved_text(saved, base["stage"] == Stage.BLIND))
    queue = current_queue(store)
    if queue is not None:
        _open_next(queue, store, item)


def _saved_text(saved: Saved, blind_form: bool) -> str:
    stored = saved.annotation
    if not saved.added:
        return "Already saved a moment ago with the same labels: nothing was added."
    if blind_form and stored.stage == Stage.INFORMED:
        return (
            f"Saved as informed (not blind): {stored.revealed.value} had been shown to you"
            " for this trajectory before this save."
        )
    return f"Annotation saved ({stored.stage.value})."


def _open_next(queue: ReviewQueue, store: AnnotationStore, item: Item) -> None:
    try:
        target = next_in_queue(queue, store, item)
    except StoreError as exc:
        _say("error", f"Saved, but the next item cannot be found: {exc}")
        return
    if target is None:
        st.session_state[Key.REVIEW_NEXT] = "done"
    else:
        # The page's run and task pickers are bound to the URL: the next item is chosen through
        # them (a callback runs before they are drawn), not by switching pages.
        st.session_state[Key.RUN], st.session_state[Key.TASK] = target
        reset_step()


def _say(kind: str, message: str) -> None:
    """Said at the top of the form (where the reviewer looks) and as a toast."""
    st.session_state[Key.REVIEW_SAVED] = (kind, message)


def _progress(queue: ReviewQueue, store: AnnotationStore) -> None:
    items = items_of(queue)
    try:
        done = len(set(items) & done_in(store, reviewer(), queue.stage))
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
        st.success(inert(message))
        st.toast(inert(message), icon=":material/check:")
    else:
        st.error(inert(message))
        st.toast(inert(message), icon=":material/error:")


def _follow(worked: WorkedQueue | None) -> None:
    if st.session_state.pop(Key.REVIEW_NEXT, None) and worked is not None:
        st.success("You have annotated every item of this queue.")


def render(context: TabContext) -> None:
    """The labels form, then this trajectory's earlier annotations (hidden in blind mode)."""
    store = review_store()
    if store is None:
        return
    if not reviewer() and not read_only():
        st.info("Name yourself in the sidebar (Reviewer) to annotate; the name is kept for the session.")
        return
    if blocked(Write.ANNOTATION, "annotations are not saved here; the labels given so far are below."):
        if not context.blind:
            _history(context, store, None)
        return
    worked = worked_queue()
    item = (context.run_key, context.trajectory.task_id)
    _start_form(item)
    _follow(worked)
    queue = current_queue(store) if worked is not None else None
    if queue is not None:
        _progress(queue, store)
    elif worked is not None:
        st.warning(f"The queue {inert(worked.name)} cannot be read now; you stay in its mode.")
    verdict = read_verdict(context.trajectory.scores, context.trajectory.eval_result)
    if context.seen.disclosed:  # the index's score of this item too: only once it is recorded as shown
        st.caption(_informed_caption(context, verdict))
    _flash()
    _labels(item)
    base: dict[str, object] = {
        "run": item[0],
        "task_id": item[1],
        "reviewer": reviewer(),
        # Hidden verdicts (a blind pass, or another blind queue holding it) make a blind judgement,
        # wherever it is saved from: an informed draft would record verdicts never shown.
        "stage": Stage.BLIND if context.blind or (worked is not None and worked.blind) else Stage.INFORMED,
        "verdict_source": verdict.source if verdict else None,
        "verdict_status": verdict.status if verdict else None,
    }
    _taxonomy(item)
    # Outside the labels' fragment, so that committing the text (Ctrl+Enter in the box) and the
    # save run the whole page, which then shows the next item, in one go.
    st.text_area(
        "Justification",
        key=_restored(_field(Key.REVIEW_JUSTIFICATION, item)),
        placeholder="Why? (kept as plain text; Ctrl+Enter saves)",
    )
    _keep(_field(Key.REVIEW_JUSTIFICATION, item))
    st.button(
        "Save and next" if worked is not None else "Save",
        key=Key.REVIEW_SAVE,
        type="primary",
        shortcut="Ctrl+Enter",
        help="Needs an outcome",
        on_click=_save,
        args=(store, item, base),
    )
    if not context.blind:
        _history(context, store, verdict.source if verdict else None)


def _informed_caption(context: TabContext, verdict: Verdict | None) -> str:
    """The official verdict in force and, when the overview's rates use another judge, its verdict."""
    official = f"{verdict.status} (from {inert(verdict.source)})" if verdict and verdict.status else "none"
    text = f"Informed: the official verdict in force is {official}"
    index = current_index()
    judge = root_default_judge(index)
    if judge is None or judge == OFFICIAL:
        return text + "."
    key = trajectory_key(context.root, context.folder)
    summary = next((s for s in index.summaries_of(context.run_key) if s.key == key), None)
    score = judge_scores(summary).get(judge) if summary is not None else None
    if score is None:
        return f"{text}; the overview's judge, the {inert(judge_label(judge))}, gave no score."
    mark = "pass" if judge_passes(judge, score) else "fail"
    return f"{text}; the overview's judge, the {inert(judge_label(judge))}, gave {score:g} ({mark})."


# A fragment: choosing a label reruns these rows only, not the whole trajectory page.
@st.fragment
def _labels(item: Item) -> None:
    _label_row("Outcome", _field(Key.REVIEW_OUTCOME, item), _enum_options(Outcome))
    _label_row("Process", _field(Key.REVIEW_PROCESS, item), _enum_options(Process))
    _label_row("Task", _field(Key.REVIEW_TASK, item), _enum_options(TaskLabel))
    _label_row(
        "Environment", _field(Key.REVIEW_ENVIRONMENT, item), [(k, *v) for k, v in _ENVIRONMENT.items()]
    )


def _taxonomy(item: Item) -> None:
    """The failure in the verifier's own terms (optional): first failing step(s), error and task codes."""
    steps, errors, tasks = st.columns([1, 2, 2])
    steps.text_input(
        "First failing step(s)",
        key=_restored(_field(Key.REVIEW_STEPS, item)),
        placeholder="e.g. 4 or 4, 5",
        help="Where the agent first went wrong, numbered as the verifier numbers steps (optional).",
    )
    errors.multiselect(
        "Error codes",
        _ERROR_CODES,
        key=_restored(_field(Key.REVIEW_ERROR_CODES, item)),
        format_func=code_label,
    )
    tasks.multiselect(
        "Task codes", _TASK_CODES, key=_restored(_field(Key.REVIEW_TASK_CODES, item)), format_func=code_label
    )
    for group in (Key.REVIEW_STEPS, *_CODE_WIDGETS):
        _keep(_field(group, item))


def _history(context: TabContext, store: AnnotationStore, source: str | None) -> None:
    try:
        # The store gives others' labels only as the gate lets them through (recorded as shown
        # first); the reviewer's own always.
        rows = store.annotations_of(context.run_key, context.trajectory.task_id, gate())
    except StoreError as exc:
        st.error(f"The annotation store cannot be read: {inert(str(exc))}")
        return
    if rows:
        grid(annotation_table(rows, source), hide_index=True, width="stretch")
