"""The Tasks page's "Propose a correction" box: a corrected expected response, or ambiguous/infeasible.

The proposal is checked by the official task model and tried at once on every attempt of the task
in the loaded runs (scored with the proposed expected answer, nothing written), showing how many
verdicts would flip; saving stores it in the annotation store for `webeval annotations export`.
The form's fields are the task's own (`correction_field_key`): opening another task never carries
what was typed for this one into its proposal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import streamlit as st

from webeval_core.policy import Write
from webeval_core.presentation import plural
from webeval_core.reading import Task, Trajectory, load_catalog
from webeval_core.review import CorrectionKind, StoreError, TaskCorrection, save_correction, try_correction
from webeval_ui.loaders import load_trajectory_cached
from webeval_ui.review_mode import seen_trajectory
from webeval_ui.review_store import review_store
from webeval_ui.reviewer import reviewer
from webeval_ui.roots import current_root
from webeval_ui.state import Key, correction_field_key
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, lazy_expander
from webeval_ui.write_controls import as_reviewer, blocked


def _proposal(task: Task) -> TaskCorrection | None:
    """The proposal the form describes; None (with the reason shown) when it is not one yet."""
    kind = st.radio(
        "Proposal",
        list(CorrectionKind),
        key=correction_field_key(Key.CORRECTION_KIND, task.task_id),
        horizontal=True,
    )
    text = st.text_area(
        "Corrected expected response (JSON)",
        value=json.dumps(task.expected.model_dump(mode="json"), indent=2),
        key=correction_field_key(Key.CORRECTION_EXPECTED, task.task_id),
        height=200,
        disabled=kind != CorrectionKind.CORRECTED,
    )
    reason = st.text_input(
        "Reason",
        key=correction_field_key(Key.CORRECTION_REASON, task.task_id),
        placeholder="what is wrong with the task",
    )
    if not reason.strip() or not reviewer():
        st.caption("A proposal needs a reason and a reviewer (sidebar).")
        return None
    expected = None
    if kind == CorrectionKind.CORRECTED:
        try:
            expected = json.loads(text)
        except json.JSONDecodeError as exc:
            st.error(f"Not JSON: line {exc.lineno}, column {exc.colno}: {inert(exc.msg)}")
            return None
    return TaskCorrection(
        task_id=task.task_id, kind=kind, expected=expected, reason=reason, reviewer=reviewer()
    )


def _attempts_seen(attempts: pd.DataFrame) -> list[tuple[str, Trajectory]]:
    """The attempts whose verdicts this viewer may see (recorded as shown first): trying the
    proposal scores each one, before and after, so the others are not tried.
    """
    tried = []
    for run, path in zip(attempts["run"].astype(str), attempts["path"], strict=True):
        read = load_trajectory_cached(str(Path(path)))
        if seen_trajectory(read, (run, read.task_id), evaluable=True).disclosed:
            tried.append((run, read))
    return tried


def correction_box(task: Task, attempts: pd.DataFrame) -> None:
    """A lazy expander with the proposal form, its effect on the attempts, and a save button."""
    box = lazy_expander("Propose a correction of this task", key=Key.CORRECTION_BOX)
    if box is None:
        return
    with box:
        proposal = _proposal(task)
        if proposal is None:
            return
        tried = _attempts_seen(attempts)
        if len(tried) < len(attempts):
            hidden = plural(len(attempts) - len(tried), "attempt")
            st.caption(f"{hidden} not tried: their verdicts are hidden from you.")
        try:
            flips = try_correction(load_catalog(), proposal, tried, config_root=current_root())
        except ValueError as exc:
            st.error(inert(str(exc)))
            return
        changed = sum(1 for f in flips if f.flipped)
        st.metric("Verdicts that would flip", f"{changed} of {len(flips)}")
        if flips:
            grid(
                pd.DataFrame([f.model_dump() | {"flipped": f.flipped} for f in flips]),
                hide_index=True,
                width="stretch",
            )
        if blocked(Write.CORRECTION, "proposals are tried here but not saved."):
            return
        if st.button("Save the proposal", key=Key.CORRECTION_SAVE, type="primary"):
            store = review_store()
            if store is None:
                return
            try:
                with as_reviewer():
                    save_correction(store, proposal)
            except StoreError as exc:
                st.error(inert(str(exc)))
                return
            st.success("Proposal saved; `webeval annotations export ROOT --corrections FILE` writes it.")
