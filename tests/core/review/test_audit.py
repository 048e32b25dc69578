"""Who did what, on SQLite and PostgreSQL: a signed-in user's annotations, queues and corrections
record the verified identity (schema version 5), a signed-in user writes under no other name, the
roles file applies to that identity, and `webeval annotations export --audit` writes the history.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.core.review.test_annotation_db import _sqlalchemy_url, judgement
from webeval_core.policy.access import AccessPolicy, Roles, acting_as
from webeval_core.review import ReviewQueue, Stage, save_queue
from webeval_core.review.annotation_commands import export_command
from webeval_core.review.annotation_db import StoreError, open_store
from webeval_core.review.corrections import CorrectionKind, TaskCorrection, save_correction
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW

ROLES = Roles.model_validate({"roles": {"ann@example.org": "reviewer", "judge@example.org": "adjudicator"}})
SIGNED_IN = AccessPolicy(sign_in=True, roles=ROLES)


def test_a_signed_in_users_writes_record_the_verified_identity(location: str) -> None:
    store = open_store(location, SIGNED_IN)
    with acting_as("ann@example.org", verified=True):
        assert store.add(judgement("1", reviewer="ann@example.org"))
        save_queue(store, ReviewQueue(name="mine", stage=Stage.BLIND, criteria=TrajectoryFilter()))
    correction = TaskCorrection(task_id=108, kind=CorrectionKind.AMBIGUOUS, reason="?", reviewer="judge")
    with acting_as("judge@example.org", verified=True):
        with pytest.raises(StoreError, match="under the name 'judge'"):
            save_correction(store, correction)  # a proposal names its author: the identity, no other
        save_correction(store, correction.model_copy(update={"reviewer": "judge@example.org"}))
    (annotation,) = store.annotations(OUTSIDE_REVIEW)
    assert annotation.signed_in == "ann@example.org"
    history = [(entry.kind, entry.name, entry.signed_in) for entry in store.audit()]
    assert history == [
        ("annotation", "ann@example.org", "ann@example.org"),
        ("queue", "", "ann@example.org"),
        ("task_correction", "", "judge@example.org"),
    ]
    store.close()


def test_with_sign_in_on_nothing_is_written_without_a_verified_identity(
    location: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = open_store(location, SIGNED_IN)
    with caplog.at_level("WARNING", logger="webeval.access"):
        with acting_as("ann@example.org"), pytest.raises(StoreError, match="Sign in first"):
            store.add(judgement("1", reviewer="ann@example.org"))  # a typed name, however right
        with (
            acting_as("ann@example.org", verified=True),
            pytest.raises(StoreError, match=r"ann@example\.org is signed in"),
        ):
            store.add(judgement("1", reviewer="bob"))  # under another's name
        with acting_as("someone@example.org", verified=True), pytest.raises(StoreError, match="viewer"):
            store.add(judgement("1", reviewer="someone@example.org"))  # no role: a viewer
    assert "'ann@example.org' (signed in) tried to write an annotation" in caplog.text
    assert "'someone@example.org' (signed in) tried to write an annotation" in caplog.text
    assert store.annotations(OUTSIDE_REVIEW) == []
    with acting_as("ANN@example.org", verified=True):  # the provider's case is the same person
        assert store.add(judgement("2", reviewer="ann@example.org"))
    store.close()


def test_rows_written_without_sign_in_record_nobody_and_an_import_keeps_what_it_says(location: str) -> None:
    store = open_store(location, AccessPolicy())
    with acting_as("ann"):
        store.add(judgement("1"))
        save_queue(store, ReviewQueue(name="q", stage=Stage.BLIND, criteria=TrajectoryFilter()))
    store.add(judgement("2", signed_in="ann@example.org"))  # an exported row carried back
    assert [a.signed_in for a in store.annotations(OUTSIDE_REVIEW)] == [None, "ann@example.org"]
    assert [entry.signed_in for entry in store.audit()] == [None, "ann@example.org", None]
    store.close()


def test_a_version_4_store_gains_the_identity_columns_and_keeps_its_rows(location: str) -> None:
    old = judgement("1")
    store = open_store(location, AccessPolicy())
    store.add(old)
    save_queue(store, ReviewQueue(name="q", stage=Stage.BLIND, criteria=TrajectoryFilter()))
    store.close()
    engine = sa.create_engine(_sqlalchemy_url(location))
    with engine.begin() as connection:  # back to what version 4 made
        connection.execute(sa.text("ALTER TABLE annotations DROP COLUMN signed_in"))
        connection.execute(sa.text("ALTER TABLE records DROP COLUMN signed_in"))
        connection.execute(sa.text("ALTER TABLE records DROP COLUMN created"))
        connection.execute(sa.text("UPDATE webeval_schema SET version = 4"))
    engine.dispose()
    store = open_store(location, SIGNED_IN)
    assert store.annotations(OUTSIDE_REVIEW) == [old]
    assert next((entry.kind, entry.created, entry.signed_in) for entry in store.audit()) == (
        "queue",
        None,
        None,
    )
    with acting_as("ann@example.org", verified=True):
        assert store.add(judgement("2", reviewer="ann@example.org"))
    assert store.annotations(OUTSIDE_REVIEW)[-1].signed_in == "ann@example.org"
    store.close()


def test_export_writes_the_identity_column_and_the_audit_history(location: str, tmp_path: Path) -> None:
    from tests.conftest import SAMPLE_RUNS
    from webeval_core.review import judge_verdicts
    from webeval_core.runs.index import build_index

    run, task = min(judge_verdicts(build_index(SAMPLE_RUNS)))
    store = open_store(location, SIGNED_IN)
    mine = judgement(task, reviewer="ann@example.org").model_copy(
        update={"run": run, "created": datetime(2026, 11, 26, tzinfo=UTC)}
    )
    with acting_as("ann@example.org", verified=True):
        store.add(mine)
    rows, audit = tmp_path / "rows.jsonl", tmp_path / "audit.jsonl"
    assert export_command("jsonl", str(rows), audit=str(audit))(store, SAMPLE_RUNS, None) == 0  # type: ignore[arg-type]
    (row,) = [json.loads(line) for line in rows.read_text().splitlines()]
    assert (row["reviewer"], row["signed_in"]) == ("ann@example.org", "ann@example.org")
    (entry,) = [json.loads(line) for line in audit.read_text().splitlines()]
    assert entry["kind"] == "annotation"
    assert entry["signed_in"] == "ann@example.org"
    assert entry["digest"] == mine.digest
    store.close()
