"""Task corrections: checked by the official task model, tried on the attempts, exported upstream-ready."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import Sample
from tests.harness.builders import snapshot
from tests.harness.postgres_server import store_arguments
from webeval_core.cli import main
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.review.annotation_db import open_store
from webeval_core.review.corrections import (
    CorrectionKind,
    TaskCorrection,
    corrected_task,
    raw_task,
    read_corrections,
    save_correction,
    try_correction,
)
from webeval_core.runs.index import build_index
from webeval_core.scoring import task_problem


def _proposal(expected: dict[str, object] | None, kind: str = "corrected") -> TaskCorrection:
    return TaskCorrection(
        task_id=108, kind=CorrectionKind(kind), expected=expected, reason="recount", reviewer="ann"
    )


WRONG_MONTHS = {
    "task_type": "retrieve",
    "status": "SUCCESS",
    "retrieved_data": [{"month": "January", "count": 1}],
}


def test_a_corrected_task_keeps_the_official_shape_with_revision_raised() -> None:
    catalog = load_catalog()
    before = raw_task(catalog, 108)
    task = corrected_task(catalog, _proposal(WRONG_MONTHS))
    assert task["revision"] == before["revision"] + 1
    assert task["eval"][0]["expected"] == WRONG_MONTHS
    assert set(task) == set(before)
    assert task_problem(task) is None
    assert raw_task(catalog, 108) == before  # the catalog is not changed


def test_the_official_task_model_refuses_a_bad_proposal_naming_the_field() -> None:
    with pytest.raises(ValueError, match=r"official task model refuses it: .*task_type"):
        corrected_task(load_catalog(), _proposal({"task_type": "fly", "status": "SUCCESS"}))


def test_trying_a_proposal_scores_every_attempt_and_writes_nothing(scored_sample: Sample) -> None:
    before = snapshot(scored_sample.root)
    index = build_index(scored_sample.root)
    attempts = [(s.run_key, load_trajectory(s.path)) for s in index.summaries if s.task_id == "108"]
    assert attempts
    flips = try_correction(load_catalog(), _proposal(WRONG_MONTHS), attempts, scored_sample.root)
    same = try_correction(load_catalog(), _proposal(None, "ambiguous"), attempts, scored_sample.root)
    assert [f.run for f in flips] == [run for run, _ in attempts]
    passed = [f for f in flips if f.before == "success"]
    assert passed and all(f.after == "failure" and f.flipped for f in passed)  # nobody answered 1 order
    assert not any(f.flipped for f in same)  # only the revision changed
    assert snapshot(scored_sample.root) == before


def test_proposals_are_stored_and_exported_as_dataset_tasks(location: str, tmp_path: Path) -> None:
    store = open_store(location)
    proposal = _proposal(WRONG_MONTHS)
    save_correction(store, proposal)
    save_correction(store, proposal)  # the same proposal: stored once
    assert len(read_corrections(store)) == 1
    target = tmp_path / "corrections.json"
    args = ["annotations", "export", str(tmp_path), *store_arguments(location), "--corrections", str(target)]
    assert main(args, io.StringIO()) == 0
    (task,) = json.loads(target.read_text())
    assert (task["task_id"], task["revision"]) == (108, raw_task(load_catalog(), 108)["revision"] + 1)
    assert task_problem(task) is None


def test_every_proposal_is_exported_with_who_why_and_when(location: str, tmp_path: Path) -> None:
    """Two reviewers on one task: a corrected answer, then an "ambiguous"; a third task infeasible."""
    store = open_store(location)
    corrected = _proposal(WRONG_MONTHS).model_copy(update={"created": datetime(2026, 11, 1, tzinfo=UTC)})
    ambiguous = TaskCorrection(
        task_id=108,
        kind=CorrectionKind.AMBIGUOUS,
        reason="which year?",
        reviewer="bob",
        created=datetime(2026, 11, 2, tzinfo=UTC),
    )
    infeasible = ambiguous.model_copy(
        update={"task_id": 7, "kind": CorrectionKind.INFEASIBLE, "reason": "gone"}
    )
    for proposal in (corrected, ambiguous, infeasible):
        save_correction(store, proposal)
    target = tmp_path / "corrections.json"
    args = ["annotations", "export", str(tmp_path), *store_arguments(location), "--corrections", str(target)]
    assert main(args, io.StringIO()) == 0
    # The dataset-shaped file holds the corrected task: a later "ambiguous" does not displace it.
    (task,) = json.loads(target.read_text())
    assert task["task_id"] == 108 and task_problem(task) is None
    lines = [json.loads(line) for line in (tmp_path / "corrections.proposals.jsonl").read_text().splitlines()]
    assert [(p["task_id"], p["kind"], p["reviewer"], p["reason"], p["in_dataset_file"]) for p in lines] == [
        (7, "infeasible", "bob", "gone", False),
        (108, "corrected", "ann", "recount", True),
        (108, "ambiguous", "bob", "which year?", False),
    ]
    assert lines[1]["expected"] == WRONG_MONTHS and lines[1]["created"].startswith("2026-11-01")
