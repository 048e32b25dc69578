"""Annotate tab: record what a reviewer decides about this verdict; earlier decisions stay listed."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.common import inert
from pages.state import Key
from pages.trajectory_tabs.context import TabContext
from webeval_core.presentation.tables import annotation_table
from webeval_core.review.annotations import (
    LABELS,
    Annotation,
    add_annotation,
    annotations_as_rows,
    default_annotations_file,
    read_annotations,
)
from webeval_core.scoring.verdicts import read_verdict


def render(context: TabContext) -> None:
    """The verdict judged, a form to record a decision, and this trajectory's earlier ones."""
    run_key, trajectory = context.run_key, context.trajectory
    file = default_annotations_file(context.root)
    verdict = read_verdict(trajectory.scores, trajectory.eval_result)
    st.caption(
        "Judging the verdict "
        + (
            f"**{inert(verdict.status or 'unknown')}** from {inert(verdict.source)}"
            if verdict
            else "(none: not scored yet)"
        )
        + f". Annotations are kept in {inert(str(file))}, never inside the runs."
    )
    with st.form(Key.ANNOTATION_FORM, clear_on_submit=True, border=False):
        label = st.radio("Decision", LABELS, horizontal=True, key=Key.ANNOTATION_LABEL)
        note = st.text_area("Note", placeholder="Why? (shown as plain text)", key=Key.ANNOTATION_NOTE)
        annotator = st.text_input("Your name", key=Key.ANNOTATOR)
        if st.form_submit_button("Save annotation", type="primary"):
            add_annotation(
                file,
                Annotation(
                    run_key=run_key,
                    task_id=trajectory.task_id,
                    label=label,
                    note=note,
                    annotator=annotator,
                    verdict_source=verdict.source if verdict else None,
                    verdict_status=verdict.status if verdict else None,
                ),
            )
            st.toast("Annotation saved")
    annotations, problems = read_annotations(file)
    for problem in problems:
        st.warning(inert(str(problem)))
    mine = [a for a in annotations if (a.run_key, a.task_id) == (run_key, trajectory.task_id)]
    if mine:
        table = annotation_table(mine, verdict.source if verdict else None)
        st.dataframe(table, hide_index=True, width="stretch")
    if annotations:
        st.download_button(
            f"Download all {len(annotations)} annotations of this root (CSV)",
            pd.DataFrame(annotations_as_rows(annotations)).to_csv(index=False),
            file_name="annotations.csv",
            mime="text/csv",
        )
