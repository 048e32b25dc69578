"""Agreement: reviewers with each other and each judge with the reviewers' majority, per stage.

Cohen's kappa for each pair of reviewers on the items both annotated; kappa, accuracy,
precision, recall, F1 and false-positive rate of each judge (the official evaluator and every
score-file judge) against the majority outcome (success = positive); each figure with its number of items. The
confusion table of one judge: select a cell to list its trajectories, and a row there opens one.
Each reviewer against each verifier's first point of failure, in the taxonomy's terms.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from webeval_core.review import (
    LABEL_TEXT,
    Agreement,
    Annotation,
    JudgeFailure,
    Outcome,
    Stage,
    agreement_report,
    current,
    failure_report,
    figure_labels,
    read_failures,
)
from webeval_core.runs import judge_label, run_labels
from webeval_core.support import UNDEFINED, agreement_figure
from webeval_ui.app_shell import require_app_shell
from webeval_ui.loaders import index_or_stop
from webeval_ui.queue_state import judged
from webeval_ui.review_mode import gate, gated_queries, hide_in_blind_review
from webeval_ui.review_store import all_annotations, review_store
from webeval_ui.state import Key
from webeval_ui.trajectory_table import trajectory_table
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid

require_app_shell()


def _confusion(report: Agreement, stage: Stage, judge: str) -> pd.DataFrame:
    """Rows: the judge's outcome; columns: the reviewers' majority; cells: item counts."""
    table = pd.DataFrame(
        0, index=[Outcome.SUCCESS.value, Outcome.FAILURE.value], columns=[o.value for o in Outcome]
    )
    for cell in report.confusion:
        if cell.stage == stage and cell.judge == judge:
            table.loc[cell.judge_outcome.value, cell.human_outcome.value] = len(cell.items)
    table.index.name = f"{judge_label(judge)} said"
    return table


def _figures(table: pd.DataFrame) -> pd.DataFrame:
    """Three decimals; a figure with nothing behind it (one class only, no positive) is undefined, not 0."""
    named = ("kappa", "accuracy", "precision", "recall", "f1", "false_positive_rate")
    figures = [c for c in named if c in table]
    return table.assign(**{c: table[c].map(agreement_figure) for c in figures})


@st.cache_data(show_spinner=False, max_entries=8)
def _failures(folders: tuple[tuple[str, str, str], ...]) -> dict[tuple[str, str], dict[str, JudgeFailure]]:
    # Read from the verifiers' files, and only for reviewed trajectories (the index keeps codes only).
    return read_failures({(run, task): Path(path) for run, task, path in folders})


def _failure_section(annotations: list[Annotation], stage: Stage) -> None:
    """Each reviewer against each verifier's first point of failure, in the taxonomy's terms."""
    reviewed = gated_queries().items_frame(None, {a.item for a in annotations})
    folders = tuple(
        (str(r), str(t), str(p))
        for r, t, p in zip(reviewed["run"], reviewed["task_id"], reviewed["path"], strict=True)
    )
    figures = [f for f in failure_report(annotations, _failures(folders)) if f.stage == stage]
    rows = [f.model_dump(exclude={"stage"}) for f in figures]
    st.subheader("Failures in the taxonomy (each reviewer against each verifier)")
    if not rows:
        st.caption("No reviewed trajectory has a verifier's first point of failure in this stage yet.")
        return
    shown = pd.DataFrame(rows).assign(judge=lambda t: t["judge"].map(judge_label))
    named = ("has_failure", "category", "step_exact", "step_within_one")
    grid(shown.assign(**{c: shown[c].map(agreement_figure) for c in named}), hide_index=True, width="stretch")
    st.caption(
        "Share of (reviewer, verifier) pairs agreeing on whether there is a failure, on the first"
        " failure's category, and on its first step (exactly, or within one); each _n: the pairs behind it."
    )


def _adjudicator(annotations: list[Annotation]) -> str | None:
    """The reviewer whose outcome settles ties, chosen on the page (kept in the URL); None: no one."""
    names = sorted({a.reviewer for a in current(annotations).values()}, key=str.casefold)
    chosen = st.selectbox(
        "Adjudicator",
        names,
        index=None,
        key=Key.ADJUDICATOR,
        bind="query-params",
        placeholder="no one: ties are left out",
        help="Where the reviewers of an item tie, this reviewer's outcome settles it (if they judged it).",
    )
    return str(chosen) if chosen else None


def _page() -> None:
    hide_in_blind_review("Agreement")
    st.title("Agreement")
    index = index_or_stop()
    store = review_store()
    annotations = all_annotations(store, figure_labels(gate())) if store is not None else None
    if annotations is None:
        st.stop()
    adjudicator = _adjudicator(annotations)
    report = agreement_report(annotations, judged(), adjudicator)
    stage = st.segmented_control(
        "Stage",
        list(Stage),
        default=Stage.BLIND,
        format_func=lambda s: LABEL_TEXT[s],
        key=Key.AGREEMENT_STAGE,
        bind="query-params",
        required=True,
    )
    stage = Stage(stage or Stage.BLIND)
    st.subheader("Reviewers (Cohen's kappa of the outcome)")
    pairs = [p.model_dump(exclude={"stage"}) for p in report.reviewers if p.stage == stage]
    if pairs:
        # The same UNDEFINED for an undefined kappa as the judges' table, its legend and the CLI.
        grid(_figures(pd.DataFrame(pairs)), hide_index=True, width="stretch")
    else:
        st.caption("No two reviewers annotated the same trajectory in this stage yet.")
    rule = "majority, ties settled by the adjudicator" if adjudicator else "majority"
    st.subheader(f"Judges against the reviewers' outcome ({rule}; success = positive)")
    figures = [j.model_dump(exclude={"stage", "rule"}) for j in report.judges if j.stage == stage]
    if not figures:
        st.caption("No reviewed trajectory has a judge's verdict in this stage yet.")
        return
    shown = pd.DataFrame(figures).assign(judge=lambda t: t["judge"].map(judge_label))
    # A figure without items behind it (no positive case, one class only) is undefined, not zero.
    grid(_figures(shown), hide_index=True, width="stretch")
    st.caption(
        "n: items behind the figures · ties: items left out because their reviewers tied"
        + (
            " and the adjudicator did not judge them"
            if adjudicator
            else " (name an adjudicator to settle them)"
        )
        + f" · settled: ties the adjudicator settled · {UNDEFINED} : undefined for these items (e.g. kappa"
        " when all are one class; precision with no success) · false_positive_rate: of the items the"
        " reviewers failed, the share the judge passed."
    )
    _failure_section(annotations, stage)
    judges = [f["judge"] for f in figures]
    judge = st.selectbox(
        "Confusion table of", judges, format_func=judge_label, key=Key.CONFUSION_JUDGE, bind="query-params"
    )
    table = _confusion(report, stage, str(judge))
    st.caption(
        f"Rows: what the {inert(judge_label(str(judge)))} said · columns: the reviewers' majority outcome"
    )
    event = grid(table, key=Key.CONFUSION_TABLE, on_select="rerun", selection_mode="single-cell")
    if event.selection.cells:
        row, column = event.selection.cells[0]
        said, human = table.index[row], column
        items = next(
            (
                c.items
                for c in report.confusion
                if (c.stage, c.judge, c.judge_outcome, c.human_outcome) == (stage, judge, said, human)
            ),
            (),
        )
        rows = gated_queries().items_frame(None, items)
        who = inert(judge_label(str(judge)))
        st.caption(f"{len(rows)} trajectories where the {who} said {said} and the reviewers {human}")
        trajectory_table(rows, run_labels(index.run_heads), key=Key.TRAJECTORIES_TABLE)


_page()
