"""Results: the table a team publishes, per run or per site, as published and as scored, with
intervals and provenance, to download in four formats; the trajectories each line counts with the
verdict each contributed; the edits to re-check, the exclusions, the data's proposals to exclude,
and the last scoring's flips. Everything on it is decided by webeval_core/review/publication.py.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from webeval_core.policy import Write
from webeval_core.presentation import TableFormat, render_results, results_frame
from webeval_core.review import (
    AnnotationStore,
    Dismissal,
    Exclusion,
    ExclusionProposal,
    GroupBy,
    PublishedTrajectory,
    ResultLine,
    StoreError,
    counted_by,
    dismiss,
    edited,
    engines_of,
    exclusions_in_force,
    published_root,
    read_exclusions,
    results,
    save_exclusion,
    undecided_proposals,
)
from webeval_core.runs import last_scoring
from webeval_ui.app_shell import require_app_shell
from webeval_ui.judge_choice import judge_caption, judge_picker
from webeval_ui.loaders import current_queries, index_or_stop
from webeval_ui.page_links import PAGES, trajectory_query
from webeval_ui.review_mode import gated_queries, hide_in_blind_review
from webeval_ui.review_store import review_store
from webeval_ui.reviewer import reviewer
from webeval_ui.state import Key, download_key
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid, selected_rows
from webeval_ui.write_controls import as_reviewer, blocked

require_app_shell()


def _table(trajectories: list[PublishedTrajectory], by: GroupBy) -> None:
    lines = results(trajectories, by)
    engines = engines_of(trajectories)
    st.caption("Select a line to list the trajectories it counts, with the verdict each contributed.")
    picked = selected_rows(results_frame(lines, engines, by), Key.RESULTS_TABLE)
    with st.container(horizontal=True):
        for fmt in TableFormat:
            st.download_button(
                f"Download {fmt.value}",
                render_results(lines, engines, by, fmt),
                file_name=f"results-by-{by.value}.{fmt.suffix}",
                key=download_key(fmt.value),
            )
    if picked:
        _counted(counted_by(trajectories, lines[picked[0]], by), lines[picked[0]])


def _counted(items: list[PublishedTrajectory], line: ResultLine) -> None:
    st.subheader(f"What {inert(line.group)} counts")
    frame = pd.DataFrame(
        [
            {
                "run": t.row.run,
                "task": t.row.task_id,
                "site": t.row.site,
                "as scored": t.row.result,
                "as published": t.verdict_in_words,
                "counted as published": t.published_value is not None,
            }
            for t in items
        ]
    )
    picked = selected_rows(frame, Key.RESULTS_COUNTED)
    if picked:
        chosen = items[picked[0]]
        st.page_link(
            PAGES["trajectory"],
            label=f"Open task {inert(chosen.row.task_id)} of {inert(chosen.row.run)}",
            query_params=trajectory_query(chosen.row.run, chosen.row.task_id, chosen.row.path),
        )


def _rechecks(trajectories: list[PublishedTrajectory]) -> None:
    edits = edited(trajectories)
    st.subheader(f"Verdict edits ({len(edits)})")
    if not edits:
        st.caption("No verdict edited: the judges' verdicts are published as they are.")
        return
    rows = [
        {
            "run": t.row.run,
            "task": t.row.task_id,
            "published": t.verdict_in_words,
            "judge's verdict now": t.machine.describe(),
            "to re-check": bool(t.edit and t.edit.recheck),
        }
        for t in edits
    ]
    st.caption("Edits to re-check come first: confirm or withdraw them on the trajectory's Published tab.")
    picked = selected_rows(pd.DataFrame(rows), Key.RESULTS_EDITS)
    if picked:
        chosen = edits[picked[0]]
        st.page_link(
            PAGES["trajectory"],
            label=f"Open task {inert(chosen.row.task_id)}'s Published tab",
            query_params={**trajectory_query(chosen.row.run, chosen.row.task_id), "tab": "Published"},
        )


def _exclusions(store: AnnotationStore) -> None:
    kept = list(exclusions_in_force(read_exclusions(store)).values())
    st.subheader(f"Exclusions ({len(kept)})")
    if kept:
        grid(
            pd.DataFrame([{"what": e.describe(), "who": e.author, "why": e.reason} for e in kept]),
            hide_index=True,
            width="stretch",
        )
    else:
        st.caption("Nothing excluded.")


def _proposals(store: AnnotationStore) -> None:
    left = undecided_proposals(gated_queries(), store)
    st.subheader(f"Proposals to exclude ({len(left)})")
    if not left:
        st.caption(
            "None open: the data proposes invalid tasks, infeasible corrections and environment errors."
        )
        return
    picked = selected_rows(
        pd.DataFrame(
            [
                {
                    "task": p.task_id,
                    "run": p.run or "every run",
                    "source": p.source.value,
                    "evidence": p.evidence,
                }
                for p in left
            ]
        ),
        Key.RESULTS_PROPOSALS,
    )
    if not picked or blocked(Write.EXCLUSION, "no proposal is decided."):
        return
    _decide(store, left[picked[0]])


def _decide(store: AnnotationStore, proposal: ExclusionProposal) -> None:
    with st.form(Key.PROPOSAL_FORM):
        reason = st.text_input("Reason (recorded)", key=Key.PROPOSAL_REASON)
        left, right = st.columns(2)
        accept = left.form_submit_button("Accept: exclude", type="primary")
        refuse = right.form_submit_button("Dismiss")
    if not (accept or refuse):
        return
    if not str(reason).strip():
        st.error("Say why: the reason is recorded with the decision.")
        return
    try:
        with as_reviewer():
            if accept:
                row = Exclusion(
                    task_id=proposal.task_id,
                    run=proposal.run,
                    reason=str(reason),
                    author=reviewer(),
                    proposal=proposal.key,
                )
                save_exclusion(store, row)
            else:
                dismiss(store, Dismissal(proposal=proposal.key, reason=str(reason), author=reviewer()))
    except StoreError as exc:
        st.error(inert(str(exc)))
        return
    st.rerun()


def _last_scoring(root: str) -> None:
    report = last_scoring(Path(root))
    st.subheader("Last scoring")
    if report is None:
        st.caption("No scoring recorded for this root yet (webeval score, or the Re-score tab).")
        return
    st.caption(f"{report.created:%Y-%m-%d %H:%M} UTC · {inert(report.summary())}")
    if not report.flips:
        return
    rows = [
        {
            "task": f.task_id,
            "folder": str(f.folder),
            "before": f"{f.before.describe()} · {f.before.source}",
            "after": f"{f.after.describe()} · {f.after.source}",
        }
        for f in report.flips
    ]
    picked = selected_rows(pd.DataFrame(rows), Key.RESULTS_FLIPS)
    if picked:
        flip = report.flips[picked[0]]
        folder = Path(flip.folder)
        key = folder.relative_to(root).as_posix() if folder.is_relative_to(root) else None
        run = current_queries().run_of(key) if key is not None else None
        if run is not None:
            st.page_link(
                PAGES["trajectory"],
                label=f"Open task {inert(flip.task_id)}: both score files on its Evidence tab",
                query_params={**trajectory_query(run, flip.task_id, str(flip.folder)), "tab": "Evidence"},
            )


def _page() -> None:
    hide_in_blind_review("Results")
    st.title("Results")
    index = index_or_stop()
    judge = judge_picker(index)
    st.caption(judge_caption(judge))
    store = review_store()
    by = GroupBy(st.radio("One line per", [g.value for g in GroupBy], horizontal=True, key=Key.RESULTS_BY))
    trajectories = published_root(gated_queries(), judge, store)
    _table(trajectories, by)
    _rechecks(trajectories)
    if store is not None:
        _exclusions(store)
        _proposals(store)
    _last_scoring(str(index.root))


_page()
