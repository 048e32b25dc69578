"""Verdict edits and exclusions on the record, and the two figures they make: on SQLite and on
PostgreSQL, with a real re-score under a new eval hash (a copy of the dataset with a task changed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Sample, private_copy
from tests.harness.datasets import changed_dataset, response_tasks
from webeval_core.policy.access import AccessPolicy, Role, Roles, acting_as
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review.annotation_db import StoreError, open_store
from webeval_core.review.exclusions import Exclusion, ExclusionAction, read_exclusions, save_exclusion
from webeval_core.review.publication import (
    GroupBy,
    by_item,
    counted_by,
    figures_in_words,
    published_root,
    results,
    write_edit,
)
from webeval_core.review.verdict_edits import EditAction, history, read_edits
from webeval_core.runs import IndexQueries, IndexStore, ListedTrajectory, refresh_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_core.scoring import score_trajectory


def _queries(root: Path, cache: Path) -> IndexQueries:
    store = IndexStore(root, cache)
    refresh_index(store, workers=1)
    return IndexQueries(store, load_catalog(), viewer=OUTSIDE_REVIEW)


def _failed_response_task(rows: tuple[ListedTrajectory, ...]) -> ListedTrajectory:
    """A WebArena-Verified trajectory the official evaluator failed on its response."""
    failed = [r for r in rows if r.status == "failure"]
    wanted = set(response_tasks(load_catalog(), [r.task_id for r in failed]))
    return next(r for r in failed if int(r.task_id) in wanted)


def test_an_edit_survives_a_rescore_under_a_new_eval_hash_and_is_marked_to_recheck(
    location: str, scored_sample: Sample, tmp_path: Path
) -> None:
    root = private_copy(scored_sample.root, tmp_path / "sample_runs")
    queries = _queries(root, tmp_path / "cache")
    store = open_store(location)
    row = _failed_response_task(queries.page(None).rows)
    item = (row.run, row.task_id)
    scores_before = sorted(p.name for p in (Path(row.path) / "scores").iterdir())

    first = by_item(published_root(queries, None, store))[item]
    write_edit(store, first, EditAction.SET, "the right total, written as text", "ann", status="success")
    edited = by_item(published_root(queries, None, store))[item]
    assert edited.row.value == 0.0 and edited.published_value == 1.0
    assert edited.edit is not None and not edited.edit.recheck
    assert (
        sorted(p.name for p in (Path(row.path) / "scores").iterdir()) == scores_before
    )  # no score file touched

    # The task corrected in a copy of the dataset: a re-score writes a new score file, a new eval hash.
    dataset = changed_dataset(load_catalog(), [int(row.task_id)], tmp_path / "dataset")
    outcome = score_trajectory(Path(row.path), catalog=dataset)
    assert outcome.eval_hash is not None and outcome.eval_hash != first.machine.source
    queries = _queries(root, tmp_path / "cache")  # the queries of the refreshed index
    rescored = by_item(published_root(queries, None, store))[item]
    assert rescored.machine.source == outcome.eval_hash
    assert rescored.edit is not None and rescored.edit.recheck  # kept, and flagged
    assert rescored.published_value == 1.0

    write_edit(store, rescored, EditAction.CONFIRM, "still right under the corrected task", "bob")
    confirmed = by_item(published_root(queries, None, store))[item]
    assert confirmed.edit is not None and not confirmed.edit.recheck
    write_edit(store, confirmed, EditAction.WITHDRAW, "the answer was wrong after all", "ann")
    withdrawn = by_item(published_root(queries, None, store))[item]
    assert withdrawn.edit is None and withdrawn.published_value == withdrawn.row.value

    rows = history(read_edits(store), item)
    assert [(e.action, e.author) for e in rows] == [
        (EditAction.SET, "ann"),
        (EditAction.CONFIRM, "bob"),
        (EditAction.WITHDRAW, "ann"),
    ]
    assert rows[0].replaced == first.machine and rows[0].replaced.status == "failure"
    assert rows[1].replaced.source == outcome.eval_hash
    assert all(e.reason and e.created.tzinfo is not None for e in rows)


def test_an_exclusion_changes_the_published_rate_and_not_the_scored_one(
    location: str, scored_sample: Sample, tmp_path: Path
) -> None:
    queries = _queries(scored_sample.root, tmp_path / "cache")
    store = open_store(location)
    before = {line.group: line for line in results(published_root(queries, None, store))}
    assert all(not line.differs for line in before.values())
    assert all(line.scored == line.published for line in before.values())

    # One trajectory, and a task in every run that attempted it.
    rows = [r for r in queries.page(None).rows if r.value is not None]
    one, task = rows[0], rows[-1]
    save_exclusion(store, Exclusion(run=one.run, task_id=one.task_id, reason="site was down", author="ann"))
    save_exclusion(store, Exclusion(task_id=task.task_id, reason="the task is infeasible", author="ann"))
    trajectories = published_root(queries, None, store)
    after = {line.group: line for line in results(trajectories)}
    left_out = {
        (r.run, r.task_id)
        for r in rows
        if (r.run, r.task_id) == (one.run, one.task_id) or r.task_id == task.task_id
    }
    assert after["all"].scored == before["all"].scored
    assert after["all"].published.counted == before["all"].scored.counted - len(left_out)
    assert after["all"].excluded == len(left_out)
    assert "excluded" in figures_in_words(after["all"]) and "as published" in figures_in_words(after["all"])
    run_line = after[one.run]
    counted = counted_by(trajectories, run_line, GroupBy.RUN)
    assert len(counted) == run_line.trajectories
    assert {t.verdict_in_words for t in counted if t.exclusion} >= {"excluded (site was down)"}

    save_exclusion(
        store,
        Exclusion(
            run=one.run, task_id=one.task_id, action=ExclusionAction.WITHDRAW, reason="back up", author="bob"
        ),
    )
    save_exclusion(
        store,
        Exclusion(task_id=task.task_id, action=ExclusionAction.WITHDRAW, reason="feasible", author="bob"),
    )
    again = {line.group: line for line in results(published_root(queries, None, store))}
    assert again == before
    assert len(read_exclusions(store)) == 4  # the history keeps all four rows


@pytest.mark.parametrize("who", ["vic", "rev"])
def test_viewers_and_reviewers_are_refused_edits_and_exclusions(
    location: str, scored_sample: Sample, tmp_path: Path, who: str
) -> None:
    queries = _queries(scored_sample.root, tmp_path / "cache")
    row = published_root(queries, None, open_store(str(tmp_path / "empty.sqlite")))[0]
    roles = Roles(roles={"rev": Role.REVIEWER, "adj": Role.ADJUDICATOR})
    store = open_store(location, AccessPolicy(roles=roles))
    with acting_as(who), pytest.raises(StoreError, match="needs the adjudicator role"):
        write_edit(store, row, EditAction.SET, "looks right", who, status="success")
    with acting_as(who), pytest.raises(StoreError, match="needs the adjudicator role"):
        save_exclusion(store, Exclusion(task_id=row.row.task_id, reason="broken", author=who))
    assert read_edits(store) == [] and read_exclusions(store) == []
    with acting_as("adj"):
        write_edit(store, row, EditAction.SET, "looks right", "adj", status="success")
    assert [e.author for e in read_edits(store)] == ["adj"]
    with pytest.raises(StoreError, match="read-only"):
        write_edit(open_store(location, AccessPolicy(read_only=True)), row, EditAction.WITHDRAW, "no", "adj")


def test_a_signed_in_adjudicator_edits_under_no_other_name(
    location: str, scored_sample: Sample, tmp_path: Path
) -> None:
    queries = _queries(scored_sample.root, tmp_path / "cache")
    row = published_root(queries, None, open_store(str(tmp_path / "empty.sqlite")))[0]
    store = open_store(location, AccessPolicy(roles=Roles(roles={"adj@example.org": Role.ADJUDICATOR})))
    with acting_as("adj@example.org", verified=True), pytest.raises(StoreError, match="signed in"):
        write_edit(store, row, EditAction.SET, "looks right", "someone else", status="failure")
    assert read_edits(store) == []


def test_an_edit_needs_a_reason_and_a_set_needs_a_verdict() -> None:
    from pydantic import ValidationError

    from webeval_core.review.verdict_edits import MachineVerdict, VerdictEdit

    machine = MachineVerdict(judge="j", status="failure", score=0.0)
    with pytest.raises(ValidationError, match="blank"):
        VerdictEdit(
            run="r",
            task_id="1",
            action=EditAction.SET,
            status="success",
            reason=" ",
            author="a",
            replaced=machine,
        )
    with pytest.raises(ValidationError, match="publishes a status"):
        VerdictEdit(run="r", task_id="1", action=EditAction.SET, reason="x", author="a", replaced=machine)
    with pytest.raises(ValidationError, match="between 0 and 1"):
        VerdictEdit(
            run="r",
            task_id="1",
            action=EditAction.SET,
            status="success",
            score=2,
            reason="x",
            author="a",
            replaced=machine,
        )
