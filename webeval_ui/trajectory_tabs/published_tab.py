"""Published tab: the verdict this trajectory contributes to the published figures, who decided it
and why, its whole history; for adjudicators, a verdict edit (set, confirm, withdraw) and an
exclusion of the trajectory or its task (webeval_core/review/publication.py decides the figures;
the store refuses a viewer or a reviewer whatever this tab offers).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from webeval_core.policy import Write
from webeval_core.review import (
    AnnotationStore,
    EditAction,
    Exclusion,
    ExclusionAction,
    PublishedStatus,
    PublishedTrajectory,
    StoreError,
    history,
    read_edits,
    read_exclusions,
    save_exclusion,
    write_edit,
)
from webeval_ui.published_figures import published_trajectory
from webeval_ui.review_store import review_store
from webeval_ui.reviewer import reviewer
from webeval_ui.state import Key
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid
from webeval_ui.write_controls import as_reviewer, blocked


def render(context: TabContext) -> None:
    """The published verdict, its history, and the adjudicator's controls."""
    store = review_store()
    if store is None:
        return
    trajectory = published_trajectory(context.run_key, context.key)
    if trajectory is None:
        st.info("This trajectory is not in the index yet: reload from disk, then edit its verdict.")
        return
    _in_force(trajectory)
    _history(store, trajectory)
    if blocked(Write.VERDICT_EDIT, "no verdict is edited or excluded."):
        return
    _edit_form(store, trajectory)
    _exclusion_form(store, trajectory)


def _in_force(trajectory: PublishedTrajectory) -> None:
    st.markdown(f"**Published verdict:** {inert(trajectory.verdict_in_words)}")
    st.caption(f"The judge's verdict in force: {inert(trajectory.machine.describe())}")
    if trajectory.edit is not None and trajectory.edit.recheck:
        st.warning(
            "To re-check: the judge's verdict changed since this edit was written (it was "
            f"{inert(trajectory.edit.checked_against.describe())}). Confirm the edit or withdraw it.",
            icon=":material/history:",
        )


def _history(store: AnnotationStore, trajectory: PublishedTrajectory) -> None:
    item = (trajectory.row.run, trajectory.row.task_id)
    rows = [
        {
            "when": f"{e.created:%Y-%m-%d %H:%M} UTC",
            "who": e.author,
            "what": f"{e.action.value} {e.status or ''}".strip(),
            "replaced": e.replaced.describe(),
            "why": e.reason,
        }
        for e in history(read_edits(store), item)
    ]
    rows += [
        {
            "when": f"{x.created:%Y-%m-%d %H:%M} UTC",
            "who": x.author,
            "what": f"{x.action.value} {x.describe()}",
            "replaced": "",
            "why": x.reason,
        }
        for x in read_exclusions(store)
        if x.task_id == trajectory.row.task_id and x.run in (None, trajectory.row.run)
    ]
    if rows:
        st.markdown("**History**")
        grid(pd.DataFrame(sorted(rows, key=lambda r: r["when"])), hide_index=True, width="stretch")
    else:
        st.caption("No edit or exclusion yet: the judge's verdict is published as it is.")


def _edit_form(store: AnnotationStore, trajectory: PublishedTrajectory) -> None:
    with st.form(Key.EDIT_FORM, border=True):
        st.markdown("**Edit the published verdict**")
        status = st.radio("Verdict", ["success", "failure"], horizontal=True, key=Key.EDIT_STATUS)
        reason = st.text_input(
            "Reason (recorded)", key=Key.EDIT_REASON, placeholder="e.g. right total, as text"
        )
        left, middle, right = st.columns(3)
        chosen = None
        if left.form_submit_button("Set", type="primary"):
            chosen = EditAction.SET
        if middle.form_submit_button("Confirm against the verdict now", disabled=trajectory.edit is None):
            chosen = EditAction.CONFIRM
        if right.form_submit_button("Withdraw the edit", disabled=trajectory.edit is None):
            chosen = EditAction.WITHDRAW
    if chosen is not None:
        _write(store, trajectory, chosen, str(reason), str(status))


def _write(
    store: AnnotationStore, trajectory: PublishedTrajectory, action: EditAction, reason: str, status: str
) -> None:
    if not reason.strip():
        st.error("Say why: the reason is recorded with the edit.")
        return
    try:
        with as_reviewer():
            published: PublishedStatus | None = None
            if action == EditAction.SET:
                published = "success" if status == "success" else "failure"
            write_edit(store, trajectory, action, reason, reviewer(), status=published)
    except (StoreError, ValueError) as exc:
        st.error(inert(str(exc)))
        return
    st.rerun()


def _exclusion_form(store: AnnotationStore, trajectory: PublishedTrajectory) -> None:
    with st.form(Key.EXCLUDE_FORM, border=True):
        st.markdown("**Leave out of the published figures**")
        scope = st.radio(
            "What", ["this trajectory", "this task in every run"], horizontal=True, key=Key.EXCLUDE_SCOPE
        )
        reason = st.text_input("Reason (recorded)", key=Key.EXCLUDE_REASON, placeholder="e.g. site was down")
        excluded = trajectory.exclusion is not None
        label = "Count it again" if excluded else "Exclude"
        pressed = st.form_submit_button(label)
    if not pressed:
        return
    if not str(reason).strip():
        st.error("Say why: the reason is recorded with the exclusion.")
        return
    run = trajectory.row.run if scope == "this trajectory" else None
    if excluded and trajectory.exclusion is not None:
        run = trajectory.exclusion.run
    action = ExclusionAction.WITHDRAW if excluded else ExclusionAction.EXCLUDE
    row = Exclusion(
        task_id=trajectory.row.task_id, run=run, action=action, reason=str(reason), author=reviewer()
    )
    try:
        with as_reviewer():
            save_exclusion(store, row)
    except StoreError as exc:
        st.error(inert(str(exc)))
        return
    st.rerun()
