"""The annotation store, the same tests on SQLite and PostgreSQL: append-only, idempotent, safe."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.harness.postgres_server import PASSWORD, PostgresServer
from webeval_core.policy.access import AccessPolicy, Role, Roles, acting_as
from webeval_core.review.annotation_db import RENAME_RECORD, StoreError, mask, open_store
from webeval_core.review.annotations import Annotation, Outcome, Shown, Stage, current
from webeval_core.review.disclosure import BlindPass, Gate
from webeval_core.review.schema import SCHEMA_VERSION
from webeval_core.runs.viewing import OUTSIDE_REVIEW

REPO = Path(__file__).resolve().parents[3]


def judgement(task: str, reviewer: str = "ann", minute: int = 0, **kw: object) -> Annotation:
    values: dict[str, object] = {"outcome": Outcome.FAILURE, "stage": Stage.BLIND} | kw
    return Annotation(
        run="run-a",
        task_id=task,
        reviewer=reviewer,
        created=datetime(2026, 11, 22, 10, minute, tzinfo=UTC),
        **values,  # type: ignore[arg-type]
    )


def test_an_annotation_reads_back_as_it_was_saved(location: str) -> None:
    saved = judgement("7", justification="the *total* is wrong <b>", environment_problem=False)
    store = open_store(location)
    assert store.add(saved)
    assert store.annotations(OUTSIDE_REVIEW) == [saved]


def test_a_reader_without_a_viewer_gets_no_others_labels(location: str) -> None:
    """Others' labels are read only through a viewer: without one, the acting identity's own; the
    gate records them as shown first and holds them back in a blind pass; the CLI's gets all."""
    store = open_store(location)
    store.add_many([judgement("1", "ann"), judgement("1", "bob", minute=1), judgement("2", "bob")])
    assert store.annotations() == [] and store.annotations_of("run-a", "1") == []  # nobody acting
    with acting_as("Ann"):
        assert [a.reviewer for a in store.annotations()] == ["ann"]
        assert [a.reviewer for a in store.annotations_of("run-a", "1")] == ["ann"]
    pending = BlindPass(queue="q", pending=frozenset({("run-a", "1")}))
    seen = store.annotations(Gate(store, "ann", blind=pending))  # bob's of item 1 held back
    assert [(a.reviewer, a.task_id) for a in seen] == [("ann", "1"), ("bob", "2")]
    assert store.revealed("ann") == {("run-a", "2")}  # the item not pending: recorded, then returned
    assert [a.reviewer for a in store.annotations_of("run-a", "1", Gate(store, "ann"))] == ["ann", "bob"]
    assert store.shown("run-a", "1", "ann") == {Shown.OTHERS}
    assert len(store.annotations(OUTSIDE_REVIEW)) == 3
    assert store.revealed("") == set()


def test_the_same_judgement_is_stored_once_and_a_change_is_a_new_row(location: str) -> None:
    store = open_store(location)
    first = judgement("7", minute=1)
    changed = judgement("7", minute=2, outcome=Outcome.SUCCESS, stage=Stage.INFORMED)
    assert store.add(first)
    assert not store.add(first)
    assert store.add_many([first, changed]) == 1
    history = store.annotations(OUTSIDE_REVIEW)
    assert history == [first, changed]  # history kept, oldest first
    assert current(history)[("run-a", "7", "ann", Stage.BLIND)] == first
    assert current(history)[("run-a", "7", "ann", Stage.INFORMED)] == changed


def test_reopening_keeps_everything_and_records_the_schema_version(location: str) -> None:
    open_store(location).add(judgement("1"))
    store = open_store(location)
    assert len(store.annotations(OUTSIDE_REVIEW)) == 1
    engine = sa.create_engine(_sqlalchemy_url(location))
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version FROM webeval_schema")).scalar() == SCHEMA_VERSION
    engine.dispose()


def test_a_store_written_by_a_newer_version_is_refused_with_its_name(location: str) -> None:
    open_store(location).close()
    engine = sa.create_engine(_sqlalchemy_url(location))
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE webeval_schema SET version = 99"))
    engine.dispose()
    with pytest.raises(StoreError, match="schema version 99 is newer"):
        open_store(location)


def test_threads_writing_at_once_lose_nothing(location: str) -> None:
    open_store(location).close()  # created once; each writer opens its own, like two app sessions

    def write(reviewer: str) -> None:
        store = open_store(location)
        for number in range(20):
            store.add(judgement(str(number), reviewer=reviewer))
        store.close()

    writers = [threading.Thread(target=write, args=(f"r{n}",)) for n in range(4)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert len(open_store(location).annotations(OUTSIDE_REVIEW)) == 80


_WRITER = """
import sys
from datetime import UTC, datetime, timedelta
from webeval_core.review.annotations import Annotation
from webeval_core.review.annotation_db import open_store
store = open_store()  # WEBEVAL_ANNOTATIONS: a URL's password is never in a process's argv
start = datetime(2026, 1, 1, tzinfo=UTC)
for n in range(int(sys.argv[2])):
    store.add(Annotation(run="r", task_id=str(n), reviewer=sys.argv[1], stage="blind", outcome="success",
                         created=start + timedelta(seconds=n)))
    if n == 0:
        print("started", flush=True)
"""


def _writer(location: str, reviewer: str, count: int) -> subprocess.Popen[str]:
    command = [sys.executable, "-c", _WRITER, reviewer, str(count)]
    environment = {**os.environ, "WEBEVAL_ANNOTATIONS": location}
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, text=True, env=environment)


def _open_and_write(where: str, reviewer: str, count: int, together: Any) -> None:
    """A writer process: waits for the others, then opens the store (creating it if need be) and saves."""
    together.wait(timeout=60)
    store = open_store(where)
    for n in range(count):
        store.add(judgement(str(n), reviewer=reviewer))
    store.close()


@pytest.mark.slow
def test_processes_opening_a_new_store_at_once_all_succeed_with_every_row(
    location: str, request: pytest.FixtureRequest
) -> None:
    """8 processes open a store that does not exist yet, at one instant, 20 times over: schema
    creation is one locked transaction, so none fails and every row is kept.

    The processes are forked from a forkserver, its imports done, and released by one barrier:
    they race from the same instant. Not forked from this process: earlier tests may have left
    threads in it (the app's background refreshes) that hold SQLite's lock at the fork, and a
    writer forked then waits for it for ever (`webeval_core.support.parallel`).
    """
    fork = multiprocessing.get_context("forkserver")
    for round_ in range(20):
        if location.endswith(".sqlite"):
            where = f"{location}-{round_}"
        else:
            where = request.getfixturevalue("postgres").new_database()
        together = fork.Barrier(8)
        writers = [fork.Process(target=_open_and_write, args=(where, f"p{n}", 5, together)) for n in range(8)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join(timeout=120)
        assert [w.exitcode for w in writers] == [0] * 8, f"round {round_}"
        assert len(open_store(where).annotations(OUTSIDE_REVIEW)) == 40, f"round {round_}"


def test_processes_writing_at_once_lose_nothing(location: str) -> None:
    open_store(location).close()
    writers = [_writer(location, f"p{n}", 30) for n in range(3)]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0]
    assert len(open_store(location).annotations(OUTSIDE_REVIEW)) == 90


def test_a_writer_killed_mid_save_leaves_a_readable_sqlite_store(tmp_path: Path) -> None:
    location = str(tmp_path / "a.sqlite")
    open_store(location).close()
    writer = _writer(location, "killed", 100_000)
    assert writer.stdout is not None and writer.stdout.readline().strip() == "started"
    time.sleep(0.5)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    saved = open_store(location).annotations(OUTSIDE_REVIEW)
    assert 0 < len(saved) < 100_000
    assert [a.task_id for a in saved] == [str(n) for n in range(len(saved))]  # a prefix: no gap
    with sqlite3.connect(location) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_stopped_server_is_a_clear_error_without_the_password_and_works_again(
    postgres: PostgresServer,
) -> None:
    store = open_store(postgres.new_database())
    store.add(judgement("1"))
    postgres.stop()
    try:
        with pytest.raises(StoreError) as failure:
            store.add(judgement("2"))
        message = str(failure.value)
        assert "annotation store postgresql://webeval:***@127.0.0.1" in message
        assert PASSWORD not in message
    finally:
        postgres.start()
    assert store.add(judgement("2"))
    assert [a.task_id for a in store.annotations(OUTSIDE_REVIEW)] == ["1", "2"]


def test_a_wrong_password_is_refused_without_showing_it(postgres: PostgresServer) -> None:
    url = postgres.url().replace(PASSWORD, "wrong-pass-123")
    with pytest.raises(StoreError) as failure:
        open_store(url)
    assert "wrong-pass-123" not in str(failure.value)
    assert "password authentication failed" in str(failure.value)


def test_a_store_path_under_a_file_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("a file, not a folder")
    with pytest.raises(
        StoreError, match=r"annotation store .*notes/annotations.sqlite: its folder .*notes cannot"
    ):
        open_store(str(tmp_path / "notes" / "annotations.sqlite"))
    assert (tmp_path / "notes").read_text() == "a file, not a folder"


def test_mask_hides_a_urls_password_and_leaves_a_path() -> None:
    assert mask("postgresql://u:pw@h:5/db") == "postgresql://u:***@h:5/db"
    assert mask("/data/annotations.sqlite") == "/data/annotations.sqlite"


def _sqlalchemy_url(location: str) -> str:
    if location.startswith("postgresql://"):
        return location.replace("postgresql://", "postgresql+psycopg://", 1)
    return f"sqlite:///{location}"


def test_a_version_1_store_is_migrated_and_keeps_its_rows(location: str) -> None:
    open_store(location).add(judgement("1"))
    engine = sa.create_engine(_sqlalchemy_url(location))
    with engine.begin() as connection:  # back to what version 1 made: no lookup indexes
        connection.execute(sa.text("DROP INDEX ix_annotations_reviewer"))
        connection.execute(sa.text("DROP INDEX ix_annotations_item"))
        connection.execute(sa.text("UPDATE webeval_schema SET version = 1"))
    store = open_store(location)
    assert [a.task_id for a in store.annotations(OUTSIDE_REVIEW)] == ["1"]
    assert store.reviewed("ann", "blind") == {("run-a", "1")}
    indexes = {index["name"] for index in sa.inspect(engine).get_indexes("annotations")}
    assert {"ix_annotations_reviewer", "ix_annotations_item"} <= indexes
    with engine.connect() as connection:
        assert (
            connection.execute(sa.text("SELECT version FROM webeval_schema")).scalar() == SCHEMA_VERSION == 6
        )
    engine.dispose()


def test_a_version_2_store_gains_the_audit_columns_and_keeps_its_rows(location: str) -> None:
    open_store(location).add(judgement("1", reviewer="Ann"))
    engine = sa.create_engine(_sqlalchemy_url(location))
    with engine.begin() as connection:  # back to what version 2 made
        connection.execute(sa.text("DROP INDEX ix_annotations_reviewer_key"))
        connection.execute(sa.text("ALTER TABLE annotations DROP COLUMN revealed"))
        connection.execute(sa.text("ALTER TABLE annotations DROP COLUMN reviewer_key"))
        connection.execute(sa.text("DROP TABLE shown"))
        connection.execute(sa.text("UPDATE webeval_schema SET version = 2"))
    store = open_store(location)
    (row,) = store.annotations(OUTSIDE_REVIEW)
    assert (row.reviewer, row.revealed) == ("Ann", "none")
    assert store.reviewed("ANN", "blind") == {("run-a", "1")}  # names compared case-insensitively
    assert store.reviewer_name("aNN") == "Ann"  # and kept as first typed
    engine.dispose()


def test_a_version_3_store_gains_the_taxonomy_columns_and_its_rows_keep_their_digest(location: str) -> None:
    old = judgement("1")
    open_store(location).add(old)
    engine = sa.create_engine(_sqlalchemy_url(location))
    with engine.begin() as connection:  # back to what version 3 made
        for column in ("failing_steps", "error_codes", "task_codes"):
            connection.execute(sa.text(f"ALTER TABLE annotations DROP COLUMN {column}"))
        connection.execute(sa.text("UPDATE webeval_schema SET version = 3"))
    store = open_store(location)
    assert store.annotations(OUTSIDE_REVIEW) == [old]
    assert not store.add(old)  # the same digest: found, not stored twice
    named = judgement("2", failing_steps=(5, 4, 5), error_codes=("2.1", "3.2"), task_codes=("7.1",))
    assert store.add(named)
    assert store.annotations(OUTSIDE_REVIEW)[-1] == named
    assert named.failing_steps == (4, 5)
    engine.dispose()


def test_an_old_json_lines_location_opens_the_sqlite_file_beside_it(tmp_path: Path) -> None:
    from webeval_core.review.store_opener import open_annotations

    old = tmp_path / "notes.jsonl"
    line = {"run_key": "r", "task_id": "7", "label": "unsure", "created": "2026-01-01T00:00:00Z"}
    old.write_text(json.dumps(line) + "\n")
    store, problems = open_annotations(str(old))
    assert problems == []
    assert store.location == str(tmp_path / "notes.sqlite")
    assert [(a.task_id, a.outcome) for a in store.annotations(OUTSIDE_REVIEW)] == [("7", "unsure")]


def test_a_typed_name_moves_to_the_identity_with_its_history_and_a_record(location: str) -> None:
    store = open_store(location)
    typed = [
        judgement("1", "Ann", minute=0),
        judgement("1", "ann", minute=5, outcome=Outcome.SUCCESS, stage=Stage.INFORMED),
        judgement("2", "ann", minute=1),
    ]
    signed = judgement("2", "ann@example.org", minute=9, outcome=Outcome.SUCCESS)
    store.add_many([*typed, signed, judgement("1", "bob")])
    store.note_shown([("run-a", "1")], "ann", Shown.VERDICT)

    assert store.rename_reviewer(" ANN ", "Ann@Example.org") == (3, 1)

    history = store.annotations(OUTSIDE_REVIEW)
    assert sorted(a.reviewer for a in history) == ["ann@example.org"] * 4 + ["bob"]
    moved = sorted((a for a in history if a.reviewer != "bob" and a != signed), key=lambda a: a.created)
    # Only the name changed: what was judged, when, in which stage and having seen what.
    assert [a.model_copy(update={"reviewer": "ann"}) for a in moved] == [
        t.model_copy(update={"reviewer": "ann"}) for t in sorted(typed, key=lambda t: t.created)
    ]
    assert store.reviewed("ann") == set()
    assert store.reviewed("ann@example.org") == {("run-a", "1"), ("run-a", "2")}
    assert store.shown("run-a", "1", "ann@example.org") == {Shown.VERDICT}
    assert store.shown("run-a", "1", "ann") == set()
    # Both names judged task 2 blind: the first blind judgement counts, the later one is history.
    assert current(history)[("run-a", "2", "ann@example.org", Stage.BLIND)].created == typed[2].created
    (record,) = store.records(RENAME_RECORD)
    assert json.loads(record) | {"at": ""} == {
        "from": "Ann",  # as the store first knew the name
        "to": "ann@example.org",
        "annotations": 3,
        "at": "",
    }
    assert [e.kind for e in store.audit()].count(RENAME_RECORD) == 1
    assert store.rename_reviewer("ann", "ann@example.org") == (0, 0)  # nobody left by that name
    assert len(store.records(RENAME_RECORD)) == 1


def test_a_verified_identity_and_one_reviewer_are_not_renamed(location: str) -> None:
    store = open_store(location)
    with acting_as("ann@example.org", verified=True):
        store.add(judgement("1", "ann@example.org"))
    store.add(judgement("2", "bob"))
    with pytest.raises(StoreError, match="signed in"):
        store.rename_reviewer("ann@example.org", "mallory")
    with pytest.raises(StoreError, match="one reviewer"):
        store.rename_reviewer("bob", " BOB ")
    assert sorted(a.reviewer for a in store.annotations(OUTSIDE_REVIEW)) == ["ann@example.org", "bob"]
    assert store.records(RENAME_RECORD) == []


def test_a_rename_needs_the_operator_role_and_a_writable_store(location: str) -> None:
    open_store(location).add(judgement("1", "ann"))
    roles = Roles(roles={"judge@example.org": Role.ADJUDICATOR, "ops@example.org": Role.OPERATOR})
    store = open_store(location, AccessPolicy(roles=roles))
    with acting_as("judge@example.org"), pytest.raises(StoreError, match="needs the operator role"):
        store.rename_reviewer("ann", "ann@example.org")
    with pytest.raises(StoreError, match="read-only"):
        open_store(location, AccessPolicy(read_only=True)).rename_reviewer("ann", "ann@example.org")
    assert [a.reviewer for a in store.annotations(OUTSIDE_REVIEW)] == ["ann"]
    with acting_as("ops@example.org"):
        assert store.rename_reviewer("ann", "ann@example.org") == (1, 0)
