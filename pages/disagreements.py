"""Judges disagree: for the loaded runs, how often each pair of judges differs, and where.

The judges are the official evaluator, every score-file judge, the outcome and rubric halves of a
rubric verifier (read from its files) and the reviewers' majority (when the annotation store can
be read). A cell of the table is "disagreements of n judged by both"; selecting it lists those
trajectories, and a row there opens one, which walks that list (webeval_ui/list_walk.py). The computation is
`webeval_core.review.disagreement`; this page only draws it. Hidden in a blind review: it is made
of verdicts.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from webeval_core.review import (
    REVIEWERS,
    Item,
    JudgePair,
    Outcome,
    Shown,
    StoreError,
    figure_labels,
    judge_pairs,
    reviewers_majority,
    verifier_halves,
    with_reviewers,
)
from webeval_core.runs import OFFICIAL, judge_label, order_judges, run_labels
from webeval_ui.app_shell import require_app_shell
from webeval_ui.list_walk import keys_list_params
from webeval_ui.loaders import index_or_stop
from webeval_ui.queue_state import judged
from webeval_ui.review_mode import gate, gated_queries, hide_in_blind_review, reveal
from webeval_ui.review_store import review_store_quiet
from webeval_ui.state import Key
from webeval_ui.trajectory_table import trajectory_table
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid

require_app_shell()


@st.cache_data(show_spinner="Reading the verifiers' outcome and rubric verdicts…", max_entries=4)
def _halves(
    root: str, generation: int, folders: tuple[tuple[str, str, str], ...]
) -> dict[Item, dict[str, Outcome]]:
    # The index keeps a verifier's score only; its two halves are read from the files, once per
    # index generation, and only for trajectories that have a score file at all.
    return {(run, task): verifier_halves(Path(path)) for run, task, path in folders}


def _label(name: str) -> str:
    """A judge in words; a verifier's half keeps its own name (`mmrubric_… · outcome`)."""
    if name == REVIEWERS:
        return "reviewers' majority"
    return name if " · " in name else judge_label(name)


def _all_verdicts() -> dict[Item, dict[str, Outcome]]:
    """Every judge's verdict per trajectory: the index's judges, the verifiers' halves, the reviewers."""
    verdicts = {item: dict(v) for item, v in judged().items()}
    # The folders of trajectories another judge than the official one scored (a verifier's halves
    # are read from its file): only their rows are read from the index.
    other = [item for item, by in verdicts.items() if any(name != OFFICIAL for name in by)]
    scored = gated_queries().items_frame(None, other)
    folders = tuple(
        (str(r), str(t), str(p))
        for r, t, p in zip(scored["run"], scored["task_id"], scored["path"], strict=True)
    )
    index = index_or_stop()
    for item, halves in _halves(str(index.root), index.generation, folders).items():
        verdicts.setdefault(item, {}).update(halves)
    store = review_store_quiet()
    if store is not None:
        try:
            verdicts = with_reviewers(verdicts, reviewers_majority(store.annotations(figure_labels(gate()))))
        except StoreError:
            st.caption("The annotation store cannot be read: the reviewers' majority is left out.")
    return verdicts


def _matrix(pairs: tuple[JudgePair, ...]) -> tuple[pd.DataFrame, list[str]]:
    """Judges by judges; a cell: "k of n" (disagreements of trajectories both judged), else blank.

    Rows are numbered judges named in full, columns their numbers: judges' names are long, and a
    matrix of them both ways is wider than the page. Returns the table and the judges in its order.
    """
    names = list(order_judges(name for p in pairs for name in (p.a, p.b)))
    rows = [f"{i}. {_label(n)}" for i, n in enumerate(names, 1)]
    table = pd.DataFrame("", index=rows, columns=[f"{i}." for i in range(1, len(names) + 1)])
    for p in pairs:
        a, b = names.index(p.a), names.index(p.b)
        table.iat[a, b] = table.iat[b, a] = f"{len(p.disagree)} of {p.n}"
    return table, names


def _revealed(pair: JudgePair) -> bool:
    """Whether the listed trajectories may be drawn: they tell the reader their judges' verdicts
    (and the reviewers' majority, when one of the two), recorded as shown for a named reviewer first.
    """
    if not reveal(pair.disagree):
        return False
    return REVIEWERS not in (pair.a, pair.b) or reveal(pair.disagree, Shown.OTHERS)


def _page() -> None:
    hide_in_blind_review("Judges disagree")
    st.title("Judges disagree")
    index = index_or_stop()
    pairs = judge_pairs(_all_verdicts())
    if not pairs:
        st.caption("No two judges gave a verdict on the same trajectory in the loaded runs.")
        return
    st.caption(
        "Each cell: on how many trajectories two judges disagree (one passed, the other failed), of"
        " those both judged. Select a cell to list them; a row there opens the trajectory."
    )
    table, names = _matrix(pairs)
    event = grid(table, key=Key.DISAGREE_TABLE, on_select="rerun", selection_mode="single-cell")
    if not event.selection.cells:
        return
    row, column = event.selection.cells[0]
    if column not in table.columns:  # the judges' names (the index), not a pair
        return
    a, b = names[row], names[list(table.columns).index(column)]
    chosen = next((p for p in pairs if {p.a, p.b} == {a, b}), None)
    if chosen is None:
        return
    a, b = _label(a), _label(b)
    rows = gated_queries().items_frame(None, chosen.disagree)
    found = "1 trajectory" if len(rows) == 1 else f"{len(rows)} trajectories"
    st.caption(f"{found} where the {inert(a)} and the {inert(b)} disagree")
    if not _revealed(chosen):
        return
    # The trajectory opened from the list walks it (previous / next), in this table's order.
    listed = keys_list_params(rows["key"].tolist())
    trajectory_table(rows, run_labels(index.run_heads), key=Key.TRAJECTORIES_TABLE, listed=listed)


_page()
