"""Proposals to exclude, made from the data (a verifier's invalid task, an infeasible correction,
an environment error in core.log), each accepted or dismissed by a person and then offered no more.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Sample
from tests.harness.verifier_files import TASK, verifier_root
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review.annotation_db import open_store
from webeval_core.review.corrections import CorrectionKind, TaskCorrection, read_corrections, save_correction
from webeval_core.review.exclusions import (
    Dismissal,
    Exclusion,
    ProposalSource,
    dismiss,
    open_proposals,
    proposals_from,
    read_dismissals,
    read_exclusions,
    save_exclusion,
    undecided_proposals,
)
from webeval_core.runs import IndexQueries, IndexStore, refresh_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW


def _queries(root: Path, cache: Path) -> IndexQueries:
    store = IndexStore(root, cache)
    refresh_index(store, workers=1)
    return IndexQueries(store, load_catalog(), viewer=OUTSIDE_REVIEW)


def test_an_invalid_task_and_an_infeasible_correction_are_proposed_for_every_run(tmp_path: Path) -> None:
    queries = _queries(verifier_root(tmp_path), tmp_path / "cache")
    store = open_store(str(tmp_path / "store.sqlite"))
    correction = TaskCorrection(
        task_id=11, kind=CorrectionKind.INFEASIBLE, reason="order deleted", reviewer="bob"
    )
    save_correction(store, correction)
    proposals = proposals_from(queries, read_corrections(store))
    by_source = {(p.source, p.task_id): p for p in proposals}
    invalid = by_source[(ProposalSource.INVALID_TASK, TASK)]
    assert invalid.run is None and "8.1" in invalid.evidence and "7." not in invalid.evidence
    infeasible = by_source[(ProposalSource.INFEASIBLE, "11")]
    assert infeasible.run is None and infeasible.evidence == "bob: order deleted"


def test_environment_errors_are_proposed_one_trajectory_at_a_time(
    scored_sample: Sample, tmp_path: Path
) -> None:
    queries = _queries(scored_sample.root, tmp_path / "cache")
    proposals = [p for p in proposals_from(queries, []) if p.source == ProposalSource.ENVIRONMENT]
    errors = {row.core_error for row in queries.page(None).rows if row.core_error}
    assert "KeyError" in errors  # an agent's own bug: not the environment's
    assert {p.evidence for p in proposals} == errors - {"KeyError"}
    assert all(p.run is not None for p in proposals)


def test_a_decided_proposal_is_offered_no_more(tmp_path: Path) -> None:
    queries = _queries(verifier_root(tmp_path), tmp_path / "cache")
    store = open_store(str(tmp_path / "store.sqlite"))
    save_correction(
        store,
        TaskCorrection(task_id=11, kind=CorrectionKind.INFEASIBLE, reason="order deleted", reviewer="bob"),
    )
    proposals = proposals_from(queries, read_corrections(store))
    invalid, infeasible = sorted(proposals, key=lambda p: p.source != ProposalSource.INVALID_TASK)[:2]
    assert open_proposals(proposals, [], []) == sorted(proposals, key=lambda p: p.key)

    save_exclusion(
        store,
        Exclusion(task_id=invalid.task_id, reason="verifier and I agree", author="ann", proposal=invalid.key),
    )
    dismiss(store, Dismissal(proposal=infeasible.key, reason="feasible with the admin account", author="ann"))
    left = open_proposals(proposals, read_exclusions(store), read_dismissals(store))
    assert invalid not in left and infeasible not in left
    assert len(left) == len(proposals) - 2
    assert undecided_proposals(queries, store) == left  # what the Results page and the CLI offer
