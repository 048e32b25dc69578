"""`webeval verdicts`' actions in the core: a run named by a part of its key, a decision written
and said in one line, and the listing of what is in force (lines and JSON) on the sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLE_RUNS, private_copy
from webeval_core.policy.access import acting_as
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review.annotation_db import open_store
from webeval_core.review.verdict_commands import (
    VerdictRequest,
    apply_request,
    listing_document,
    listing_lines,
    run_named,
)
from webeval_core.runs import IndexQueries, IndexStore, refresh_index


@pytest.fixture
def queries(tmp_path: Path) -> IndexQueries:
    store = IndexStore(private_copy(SAMPLE_RUNS, tmp_path / "sample_runs"), tmp_path / "cache")
    refresh_index(store, workers=1)
    return IndexQueries(store, load_catalog())


def test_a_run_is_named_by_its_key_or_the_one_key_holding_the_part_given(queries: IndexQueries) -> None:
    runs = sorted(queries.run_tasks())
    assert run_named(queries, runs[0]) == runs[0]
    assert run_named(queries, "WebTailBench") == next(run for run in runs if "WebTailBench" in run)
    with pytest.raises(ValueError, match=r"names \d+ runs"):
        run_named(queries, "runs/")
    with pytest.raises(ValueError, match="names no run; give one of"):
        run_named(queries, "no such run")


def test_an_exclusion_is_written_said_and_listed(queries: IndexQueries, tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "annotations.sqlite"))
    request = VerdictRequest(action="exclude", author="ann", reason="site down", task="556")
    with acting_as("ann"):
        said = apply_request(queries, store, request)
    assert said == "Excluded: task 556 in every run"
    lines = listing_lines(queries, store, history=True)
    assert lines[:3] == [
        "Verdict edits in force: 0",
        "Exclusions in force: 1",
        "  task 556 in every run by ann (site down)",
    ]
    assert any(line.endswith("ann: exclude task 556 in every run (site down)") for line in lines)
    document = listing_document(queries, store, history=False)
    assert [row["task_id"] for row in document["exclusions"]] == ["556"]  # type: ignore[index]
    assert "exclusion_history" not in document


def test_an_edit_needs_its_run(queries: IndexQueries, tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "annotations.sqlite"))
    request = VerdictRequest(action="set", author="ann", reason="r", task="11", verdict="success")
    with pytest.raises(ValueError, match="give --run"):
        apply_request(queries, store, request)
