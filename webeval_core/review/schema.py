"""The annotation store's schema: its tables, their version, and the migrations that bring any
older store to it, run under the database's write lock so that any number of processes may open
a new store at once (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from webeval_core.review.annotations import reviewer_key

METADATA = sa.MetaData()
VERSION = sa.Table("webeval_schema", METADATA, sa.Column("version", sa.Integer, nullable=False))
ANNOTATIONS = sa.Table(
    "annotations",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("run", sa.Text, nullable=False),
    sa.Column("task_id", sa.Text, nullable=False),
    sa.Column("reviewer", sa.Text, nullable=False),
    sa.Column("stage", sa.String(16), nullable=False),
    sa.Column("outcome", sa.String(16), nullable=False),
    sa.Column("process", sa.String(32)),
    sa.Column("task", sa.String(32)),
    sa.Column("environment_problem", sa.Boolean),
    sa.Column("justification", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("verdict_source", sa.Text),
    sa.Column("verdict_status", sa.String(16)),
    sa.Column("revealed", sa.String(16), nullable=False, server_default="none"),
    sa.Column("reviewer_key", sa.Text),
    # The taxonomy fields, each a comma-separated list ("3,4"; "2.1,3.2"); NULL when not said.
    sa.Column("failing_steps", sa.Text),
    sa.Column("error_codes", sa.Text),
    sa.Column("task_codes", sa.Text),
    sa.Column("signed_in", sa.Text),
)
# What was shown to whom (a verdict, others' labels), one row per (trajectory, reviewer, what):
# a save decides its stage from it, whatever page showed it and whether the save came later.
SHOWN = sa.Table(
    "shown",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("run", sa.Text, nullable=False),
    sa.Column("task_id", sa.Text, nullable=False),
    sa.Column("reviewer_key", sa.Text, nullable=False),
    sa.Column("what", sa.String(16), nullable=False),
    sa.Column("created", sa.Text, nullable=False),
)
# Each sign-out of a verified identity: every session of it signed in before `at` is over.
SIGN_OUTS = sa.Table(
    "sign_outs",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("identity_key", sa.Text, nullable=False, index=True),
    sa.Column("at", sa.Text, nullable=False),
)
RECORDS = sa.Table(
    "records",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    # Who saved it, verified by sign-in, and when; NULL for records of a server without sign-in.
    sa.Column("signed_in", sa.Text),
    sa.Column("created", sa.Text),
)


LIST_COLUMNS = ("failing_steps", "error_codes", "task_codes")
"""Annotation fields that are tuples, stored as comma-separated text."""


def _create_tables(connection: Connection) -> None:
    """Version 1: the tables (as they are now: later migrations add only what is missing)."""
    METADATA.create_all(connection, tables=[ANNOTATIONS, RECORDS])


def _index_lookups(connection: Connection) -> None:
    """Version 2: a reviewer's items and an item's annotations are looked up, not scanned."""
    connection.execute(
        sa.text("CREATE INDEX IF NOT EXISTS ix_annotations_reviewer ON annotations (reviewer, stage)")
    )
    connection.execute(
        sa.text("CREATE INDEX IF NOT EXISTS ix_annotations_item ON annotations (run, task_id)")
    )


def _audit_columns(connection: Connection) -> None:
    """Version 3: what each row's reviewer had seen, reviewers compared case-insensitively, `shown`."""
    present = {column["name"] for column in sa.inspect(connection).get_columns("annotations")}
    if "revealed" not in present:
        connection.execute(sa.text("ALTER TABLE annotations ADD COLUMN revealed VARCHAR(16) DEFAULT 'none'"))
        connection.execute(sa.text("UPDATE annotations SET revealed = 'none' WHERE revealed IS NULL"))
    if "reviewer_key" not in present:
        connection.execute(sa.text("ALTER TABLE annotations ADD COLUMN reviewer_key TEXT"))
    names = connection.execute(sa.select(ANNOTATIONS.c.reviewer).distinct()).scalars().all()
    for name in names:
        connection.execute(
            sa.update(ANNOTATIONS)
            .where(ANNOTATIONS.c.reviewer == name)
            .values(reviewer_key=reviewer_key(name))
        )
    METADATA.create_all(connection, tables=[SHOWN])
    connection.execute(
        sa.text("CREATE INDEX IF NOT EXISTS ix_annotations_reviewer_key ON annotations (reviewer_key, stage)")
    )
    connection.execute(sa.text("CREATE INDEX IF NOT EXISTS ix_shown_item ON shown (run, task_id)"))


def _taxonomy_columns(connection: Connection) -> None:
    """Version 4: a reviewer's failing steps, error codes and task codes (issue 22), as text lists."""
    present = {column["name"] for column in sa.inspect(connection).get_columns("annotations")}
    for name in LIST_COLUMNS:
        if name not in present:
            connection.execute(sa.text(f"ALTER TABLE annotations ADD COLUMN {name} TEXT"))


def _signed_in_columns(connection: Connection) -> None:
    """Version 5: the verified identity (sign-in) that wrote each annotation and record (issue 23)."""
    for table, names in (("annotations", ("signed_in",)), ("records", ("signed_in", "created"))):
        present = {column["name"] for column in sa.inspect(connection).get_columns(table)}
        for name in names:
            if name not in present:
                connection.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN {name} TEXT"))


def _sign_out_table(connection: Connection) -> None:
    """Version 6: sign-outs, so that signing out ends every session of an identity (issue 34)."""
    METADATA.create_all(connection, tables=[SIGN_OUTS])


# Migration n brings the schema from version n to n + 1; append, never edit.
MIGRATIONS: tuple[Callable[[Connection], None], ...] = (
    _create_tables,
    _index_lookups,
    _audit_columns,
    _taxonomy_columns,
    _signed_in_columns,
    _sign_out_table,
)
SCHEMA_VERSION = len(MIGRATIONS)


class NewerSchemaError(RuntimeError):
    """A store made by a newer webeval: it is not migrated back."""


LOCKED_RETRY_S = 60.0
"""How long a SQLite opener keeps trying a new store another process is setting up."""


def migrate(engine: Engine) -> None:
    """Bring the schema to SCHEMA_VERSION in one transaction that holds the database's write lock
    from its first statement, so concurrent openers wait for each other and the later ones find
    the schema made (SQLite's driver would otherwise run each CREATE outside any transaction).

    SQLite answers "database is locked" at once, without waiting, when openers of a new file race
    to switch it to WAL (it refuses what could deadlock): that opener tries again, with backoff.
    """
    deadline = time.monotonic() + LOCKED_RETRY_S
    pause = 0.02
    while True:
        try:
            _migrate_once(engine)
            return
        except sa.exc.OperationalError as exc:
            locked = engine.dialect.name == "sqlite" and "database is locked" in str(exc)
            if not locked or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause + random.uniform(0, pause))
        pause = min(pause * 2, 1.0)


def _migrate_once(engine: Engine) -> None:
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(4242001)"))
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        _migrated(connection)
        connection.commit()


def _migrated(connection: Connection) -> None:
    """The migrations still to run, with the database's write lock held."""
    METADATA.create_all(connection, tables=[VERSION])
    found = connection.execute(sa.select(VERSION.c.version)).scalar()
    version = int(found or 0)
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(f"schema version {version} is newer than this webeval's {SCHEMA_VERSION}")
    for migration in MIGRATIONS[version:]:
        migration(connection)
    if found is None:
        connection.execute(sa.insert(VERSION).values(version=SCHEMA_VERSION))
    elif version != SCHEMA_VERSION:
        connection.execute(sa.update(VERSION).values(version=SCHEMA_VERSION))
