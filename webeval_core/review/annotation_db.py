"""The annotation store: one SQLite file by default, a PostgreSQL database for a team.

Both go through SQLAlchemy Core, one code path; a `postgresql://` URL selects the team store
(driver psycopg 3). Rows are only ever inserted: a changed judgement is a new row, and the current
view is derived (`annotations.current`). Each row carries a digest of its content under a unique
constraint, so importing a file twice adds nothing. The schema, its version and its migrations are
review.schema's. SQLite runs in WAL mode, so a writer killed mid-save leaves the last commit readable.
The URL's password never leaves this module: every location shown and every error is masked.
Every write checks the process's access policy (webeval_core.policy.access): a read-only server opens the
store without migrating or creating it and refuses to write to it. A write by a signed-in user
records the verified identity (`signed_in`) on its row, annotation or record alike.

Reading labels needs a reader (`LabelViewer`): a reviewer's own labels are always returned, other
reviewers' only as the reader discloses them (`review.Gate`: recorded as shown first, none while
pending in a blind pass; `OUTSIDE_REVIEW` for the CLI and exports: all). Without one, only the
acting identity's own (`acting_as`): a page that forgets the gate shows nobody else's label.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from webeval_core.policy.access import AccessPolicy, Write, WriteRefusedError, current_policy
from webeval_core.review.annotations import Annotation, ReviewMark, Shown, reviewer_key
from webeval_core.review.schema import (
    ANNOTATIONS,
    LIST_COLUMNS,
    RECORDS,
    SCHEMA_VERSION,
    SHOWN,
    SIGN_OUTS,
    VERSION,
    NewerSchemaError,
    migrate,
)
from webeval_core.runs.viewing import Disclosure, Item, Withheld

ENV_VARIABLE = "WEBEVAL_ANNOTATIONS"
RENAME_RECORD = "reviewer_rename"
"""The kind of record `AnnotationStore.rename_reviewer` leaves: who became whom, when, how many rows."""
POSTGRES_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


class AuditEntry(BaseModel):
    """One row of the store's history: what was written, when, under which name, by whom verified."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    """"annotation", or the kind of record ("queue", "correction", ...)."""
    created: str | None
    """When it was written (ISO 8601, UTC); None for records stored before the store kept it."""
    name: str
    """The reviewer name an annotation is stored under; empty for records (their body names it)."""
    signed_in: str | None
    """The identity sign-in verified for the writer; None when written without sign-in."""
    digest: str
    """The row's content digest (its identity in the store and in exports)."""
    stage: str | None = None
    """An annotation's stage (blind / informed); None for records."""
    revealed: str | None = None
    """What an annotation's reviewer had been shown before saving it (`Revealed`); None for records."""
    body: str | None = None
    """A record's JSON body: what it says, and the who and why it names (a verdict edit's author,
    reason and replaced verdict; an exclusion's); None for annotations (their rows are exported)."""


class StoreError(RuntimeError):
    """The store cannot be reached or refused a write; the message names it, password masked."""


class StoreWriteRefusedError(StoreError, WriteRefusedError):
    """A write the access policy refuses (a read-only server); pages catching StoreError show it."""


def default_location() -> str:
    """`$WEBEVAL_ANNOTATIONS`, else `annotations.sqlite` under the user's data folder."""
    chosen = os.environ.get(ENV_VARIABLE)
    if chosen:
        return chosen
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "webeval" / "annotations.sqlite")


def is_postgres(location: str) -> bool:
    """Whether a location is a PostgreSQL URL (the team store) rather than a SQLite file."""
    return location.startswith(POSTGRES_SCHEMES)


def has_password(location: str) -> bool:
    """Whether a location is a PostgreSQL URL that carries a password."""
    if not is_postgres(location):
        return False
    try:
        return bool(sa.make_url(location).password)
    except (SQLAlchemyError, ValueError):
        return ":" in location.split("://", 1)[-1].split("@", 1)[0] and "@" in location


def mask(location: str) -> str:
    """The location as it may be shown: a URL's password replaced by ***."""
    if not is_postgres(location):
        return location
    try:
        return sa.make_url(location).render_as_string(hide_password=True)
    except (SQLAlchemyError, ValueError):
        return "postgresql://***"


class LabelViewer(Protocol):
    """Whoever reads the store's labels (`review.Gate`, `Gate`'s `figure_labels`, `OUTSIDE_REVIEW`,
    `own_labels`): their own always, others' only as `disclose` lets them through.
    """

    @property
    def reviewer(self) -> str:
        """The reviewer whose own labels these are; empty when nobody is named."""
        ...

    def disclose(self, items: Iterable[Item], what: Shown = Shown.VERDICT) -> Disclosure:
        """The items whose `what` (here others' labels) may be shown, recorded as shown first where
        that matters.
        """
        ...


class _OwnLabels:
    """`own_labels`: a reader shown nobody else's label."""

    def __init__(self, reviewer: str) -> None:
        self.reviewer = reviewer

    def disclose(self, items: Iterable[Item], what: Shown = Shown.VERDICT) -> Disclosure:
        return Disclosure(shown=frozenset(), withheld=frozenset(items), why=Withheld.NO_VIEWER)


def own_labels(reviewer: str) -> LabelViewer:
    """A reader of `reviewer`'s own labels only (what a save compares itself with)."""
    return _OwnLabels(reviewer)


class AnnotationStore:
    """Annotations and other review records in one database; open with `open_store`."""

    def __init__(self, engine: Engine, location: str, policy: AccessPolicy | None = None) -> None:
        self._engine = engine
        self._secret = engine.url.password
        self.location = mask(location)
        """Where the store is, as it may be shown (password masked)."""
        self._given = policy
        # `shown` rows known written by this store (they are never removed but by a rename, which
        # forgets them): a page that shows a thousand verdicts on each rerun writes them once.
        self._noted: set[str] = set()
        self.read_only = (policy or current_policy()).read_only
        """Opened read-only: nothing was created or migrated, and every write refuses."""
        self.writes = 0
        """Writes asked of this object so far (the app's sessions share it): what was read from
        the store before (a page run's gate) may be out of date once it grows."""

    @property
    def policy(self) -> AccessPolicy:
        """What may be written now: the policy given, else the process's (its roles file, who acts)."""
        return (self._given or current_policy()).as_acting()

    def maintenance(self) -> AnnotationStore:
        """This store for the core's own upkeep (legacy import, carried-over run keys): no role
        applies, but a read-only store stays read-only.
        """
        return AnnotationStore(self._engine, self.location, AccessPolicy(read_only=self.read_only))

    def _check(self, write: Write, author: str | None = None) -> AccessPolicy:
        """The policy, after checking `write` (by `author`, when a row names one); refusals raise."""
        self.writes += 1
        policy = self.policy
        try:
            if author is None:
                policy.check(write)
            else:
                policy.check_author(write, author)
        except WriteRefusedError as exc:
            raise StoreWriteRefusedError(f"annotation store {self.location}: {exc}") from None
        return policy

    def add(self, annotation: Annotation) -> bool:
        """Store one annotation; False when the same judgement was stored already."""
        return self.add_many([annotation]) == 1

    def add_many(self, annotations: Iterable[Annotation]) -> int:
        """Store annotations in one transaction (all or none); how many were new."""
        policy = self._check(Write.ANNOTATION)
        given = list(annotations)
        for author in {annotation.reviewer for annotation in given}:
            self._check(Write.ANNOTATION, author)
        # A signed-in user's rows record who they are; others (an import) keep what they say.
        stamped = [
            a.model_copy(update={"signed_in": policy.signed_in}) if policy.signed_in else a for a in given
        ]
        rows = [_annotation_row(a) for a in stamped]
        if not rows:
            return 0
        with self._transaction() as connection:
            return sum(self._insert(connection, ANNOTATIONS, row) for row in rows)

    def annotations(self, viewer: LabelViewer | None = None) -> list[Annotation]:
        """Every annotation `viewer` may see, oldest first (history included): their own, and
        others' of the items it discloses (`Shown.OTHERS`); without a viewer, the acting identity's own.
        """
        query = sa.select(ANNOTATIONS).order_by(ANNOTATIONS.c.created, ANNOTATIONS.c.id)
        with self._transaction() as connection:
            rows = connection.execute(query).mappings().all()
        return self._seen([_annotation_from(row) for row in rows], viewer)

    def marks(self) -> list[ReviewMark]:
        """Who judged which trajectory in which stage, oldest first, without a label: anyone may
        be shown them (a queue's progress), so no viewer is asked.
        """
        columns = ANNOTATIONS.c
        query = sa.select(columns.run, columns.task_id, columns.reviewer, columns.stage).order_by(
            columns.created, columns.id
        )
        with self._transaction() as connection:
            rows = connection.execute(query).mappings().all()
        return [ReviewMark.model_validate(dict(row)) for row in rows]

    def _seen(self, annotations: list[Annotation], viewer: LabelViewer | None) -> list[Annotation]:
        """`annotations` as `viewer` may see them: its own, and others' once disclosed."""
        reader = viewer if viewer is not None else own_labels(self.policy.who)
        me = reviewer_key(reader.reviewer)
        others = {a.item for a in annotations if a.reviewer_key != me}
        shown = reader.disclose(sorted(others), Shown.OTHERS).shown if others else frozenset()
        return [a for a in annotations if (me and a.reviewer_key == me) or a.item in shown]

    def reviewed(self, reviewer: str, stage: str | None = None) -> set[tuple[str, str]]:
        """The trajectories (run, task id) a reviewer (any case) annotated in a stage (None: any)."""
        columns = ANNOTATIONS.c
        query = sa.select(columns.run, columns.task_id).where(columns.reviewer_key == reviewer_key(reviewer))
        if stage is not None:
            query = query.where(columns.stage == stage)
        with self._transaction() as connection:
            return {(run, task_id) for run, task_id in connection.execute(query.distinct())}

    def reviewer_name(self, name: str) -> str:
        """`name` as the store first knew it ("ann" saved before: "Ann" is stored as "ann")."""
        columns = ANNOTATIONS.c
        query = (
            sa.select(columns.reviewer)
            .where(columns.reviewer_key == reviewer_key(name))
            .order_by(columns.created, columns.id)
            .limit(1)
        )
        with self._transaction() as connection:
            found = connection.execute(query).scalar()
        return str(found) if found else name.strip()

    def reviewers(self) -> list[str]:
        """Every reviewer who annotated, as each first named themselves (any case is one), by name."""
        columns = ANNOTATIONS.c
        query = sa.select(columns.reviewer_key, columns.reviewer).order_by(columns.created, columns.id)
        with self._transaction() as connection:
            rows = connection.execute(query).all()
        first = {str(row[0]): str(row[1]) for row in reversed(rows)}
        return sorted(first.values(), key=str.casefold)

    def note_shown(self, items: Iterable[tuple[str, str]], reviewer: str, what: Shown) -> int:
        """Record that `what` of each trajectory (run, task id) was shown to a reviewer; how many new."""
        who = reviewer_key(reviewer)
        now = datetime.now(UTC).isoformat()
        rows = [_shown_row(run, task_id, who, str(what), now) for run, task_id in dict.fromkeys(items)]
        rows = [row for row in rows if row["digest"] not in self._noted]
        if not rows or not who:
            return 0  # known written: a page redrawn writes (and counts in `writes`) nothing
        self._check(Write.SHOWN, reviewer)
        with self._transaction() as connection:
            added = sum(self._insert(connection, SHOWN, row) for row in rows)
        self._noted.update(row["digest"] for row in rows)
        return added

    def shown(self, run: str, task_id: str, reviewer: str) -> set[Shown]:
        """What of one trajectory has been shown to a reviewer (any case)."""
        columns = SHOWN.c
        query = sa.select(columns.what).where(
            columns.run == run, columns.task_id == task_id, columns.reviewer_key == reviewer_key(reviewer)
        )
        with self._transaction() as connection:
            return {Shown(what) for what in connection.execute(query).scalars()}

    def revealed(self, reviewer: str) -> set[tuple[str, str]]:
        """The trajectories (run, task id) of which anything was shown to a reviewer (any case)."""
        columns = SHOWN.c
        query = sa.select(columns.run, columns.task_id).where(columns.reviewer_key == reviewer_key(reviewer))
        with self._transaction() as connection:
            return {(run, task_id) for run, task_id in connection.execute(query.distinct())}

    def record_sign_out(self, identity: str, at: datetime) -> None:
        """Record that `identity` (a verified sign-in) signed out at `at`: its older sessions are over."""
        self._check(Write.SIGN_OUT, identity)
        row = {"identity_key": reviewer_key(identity), "at": at.astimezone(UTC).isoformat()}
        with self._transaction() as connection:
            connection.execute(sa.insert(SIGN_OUTS).values(**row))

    def last_sign_out(self, identity: str) -> datetime | None:
        """When `identity` (any case) last signed out; None when it never did."""
        query = sa.select(sa.func.max(SIGN_OUTS.c.at)).where(
            SIGN_OUTS.c.identity_key == reviewer_key(identity)
        )
        with self._transaction() as connection:
            found = connection.execute(query).scalar()
        return datetime.fromisoformat(found) if found else None

    def rename_run(self, old: str, new: str, task_ids: Iterable[str]) -> int:
        """Move the annotations and `shown` rows of trajectories (by task id) from run key `old` to `new`.

        Run keys changed rule once (a root that is itself a run or trajectory); the rows keyed the
        old way are carried over, each kept once. Returns how many annotations moved.
        """
        self._check(Write.ANNOTATION)
        self._noted.clear()
        wanted = set(task_ids)
        moved = 0
        with self._transaction() as connection:
            for row in connection.execute(sa.select(ANNOTATIONS).where(ANNOTATIONS.c.run == old)).mappings():
                if row["task_id"] not in wanted:
                    continue
                annotation = _annotation_from(row).model_copy(update={"run": new})
                connection.execute(sa.delete(ANNOTATIONS).where(ANNOTATIONS.c.id == row["id"]))
                moved += self._insert(connection, ANNOTATIONS, _annotation_row(annotation))
            for task_id in wanted:
                connection.execute(
                    sa.update(SHOWN).where(SHOWN.c.run == old, SHOWN.c.task_id == task_id).values(run=new)
                )
        return moved

    def rename_reviewer(self, old: str, new: str) -> tuple[int, int]:
        """Move the annotations and `shown` rows of reviewer `old` (any case) to the name `new` (as
        the store first knew it), in one transaction that records the change (a `RENAME_RECORD`,
        in the audit history): how many annotations and `shown` rows moved. It is how a name typed
        before sign-in becomes the identity that signs in. Rows saved signed in keep their name.

        Raises:
            StoreError: When `old` saved rows signed in, or `old` and `new` are one reviewer.
        """
        policy = self._check(Write.REVIEWER_NAME)
        self._noted.clear()
        old_key, old_name, name = reviewer_key(old), self.reviewer_name(old), self.reviewer_name(new)
        if old_key == reviewer_key(name) or not old_key or not name:
            raise StoreError(f"annotation store {self.location}: {old!r} and {new!r} are one reviewer")
        a, s = ANNOTATIONS.c, SHOWN.c
        with self._transaction() as connection:
            rows = (
                connection.execute(sa.select(ANNOTATIONS).where(a.reviewer_key == old_key)).mappings().all()
            )
            if any(row["signed_in"] for row in rows):
                raise StoreError(
                    f"annotation store {self.location}: {old!r} saved annotations signed in; a verified"
                    " identity's annotations keep its name"
                )
            shown = connection.execute(sa.select(SHOWN).where(s.reviewer_key == old_key)).mappings().all()
            if not rows and not shown:
                return 0, 0  # no such reviewer: nothing to record
            connection.execute(sa.delete(ANNOTATIONS).where(a.reviewer_key == old_key))
            moved = [_annotation_from(row).model_copy(update={"reviewer": name}) for row in rows]
            count = sum(self._insert(connection, ANNOTATIONS, _annotation_row(m)) for m in moved)
            connection.execute(sa.delete(SHOWN).where(s.reviewer_key == old_key))
            for row in shown:
                again = _shown_row(
                    row["run"], row["task_id"], reviewer_key(name), row["what"], row["created"]
                )
                self._insert(connection, SHOWN, again)
            now = datetime.now(UTC).isoformat()
            body = json.dumps({"from": old_name, "to": name, "annotations": count, "at": now})
            digest = hashlib.sha256(f"{RENAME_RECORD}\x1f{body}".encode()).hexdigest()
            record = {"digest": digest, "kind": RENAME_RECORD, "body": body, "signed_in": policy.signed_in}
            self._insert(connection, RECORDS, {**record, "created": now})
        return count, len(shown)

    def annotations_of(self, run: str, task_id: str, viewer: LabelViewer | None = None) -> list[Annotation]:
        """The annotations of one trajectory `viewer` may see, oldest first (history included), as
        `annotations` gives them.
        """
        columns = ANNOTATIONS.c
        query = (
            sa.select(ANNOTATIONS)
            .where(columns.run == run, columns.task_id == task_id)
            .order_by(columns.created, columns.id)
        )
        with self._transaction() as connection:
            rows = connection.execute(query).mappings().all()
        return self._seen([_annotation_from(row) for row in rows], viewer)

    def add_record(
        self, kind: str, body: str, write: Write = Write.RECORD, author: str | None = None
    ) -> bool:
        """Store one JSON record of a kind (a queue, a task correction); False when already there.

        `write` is what the record is to the access policy (a queue needs a reviewer, a correction an
        adjudicator); `author` the name the record gives its writer, when it gives one (a signed-in
        user writes under no other).
        """
        policy = self._check(write, author)
        digest = hashlib.sha256(f"{kind}\x1f{body}".encode()).hexdigest()
        row = {"digest": digest, "kind": kind, "body": body, "signed_in": policy.signed_in}
        row["created"] = datetime.now(UTC).isoformat()
        with self._transaction() as connection:
            return self._insert(connection, RECORDS, row)

    def records(self, kind: str) -> list[str]:
        """The JSON bodies of one kind of record, oldest first."""
        query = sa.select(RECORDS.c.body).where(RECORDS.c.kind == kind).order_by(RECORDS.c.id)
        with self._transaction() as connection:
            return list(connection.execute(query).scalars())

    def audit(self) -> list[AuditEntry]:
        """Who wrote what, oldest first: every annotation and record, with the identity sign-in
        verified (None for rows written without sign-in or before it existed).
        """
        notes = sa.select(
            sa.literal("annotation").label("kind"),
            ANNOTATIONS.c.created,
            ANNOTATIONS.c.reviewer.label("name"),
            ANNOTATIONS.c.signed_in,
            ANNOTATIONS.c.digest,
            ANNOTATIONS.c.stage,
            ANNOTATIONS.c.revealed,
            sa.cast(sa.null(), sa.Text).label("body"),
        )
        nothing = sa.cast(sa.null(), sa.String)
        kept = sa.select(
            RECORDS.c.kind,
            RECORDS.c.created,
            sa.literal("").label("name"),
            RECORDS.c.signed_in,
            RECORDS.c.digest,
            nothing.label("stage"),
            nothing.label("revealed"),
            RECORDS.c.body,
        )
        with self._transaction() as connection:
            rows = connection.execute(notes.union_all(kept)).mappings().all()
        entries = [AuditEntry.model_validate(dict(row)) for row in rows]
        return sorted(entries, key=lambda entry: entry.created or "")

    def close(self) -> None:
        """Release the store's connections."""
        self._engine.dispose()

    def _insert(self, connection: Connection, table: sa.Table, row: dict[str, Any]) -> bool:
        dialect = postgresql if self._engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(table).values(**row).on_conflict_do_nothing(index_elements=["digest"])
        # rowcount is -1 on PostgreSQL for an insert with RETURNING; the returned id is not.
        return connection.execute(statement.returning(table.c.id)).first() is not None

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        try:
            with self._engine.begin() as connection:
                yield connection
        except SQLAlchemyError as exc:
            raise StoreError(self._explain(exc)) from None

    def _explain(self, exc: SQLAlchemyError) -> str:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        text = reason[0] if reason else type(exc).__name__
        if self._secret:
            text = text.replace(self._secret, "***")
        return f"annotation store {self.location}: {text}"


def open_store(location: str | None = None, policy: AccessPolicy | None = None) -> AnnotationStore:
    """The store at a SQLite path or PostgreSQL URL (default: `default_location()`), migrated.

    Under a read-only policy (default: the process's) nothing is created or migrated: see `_open_read_only`.
    """
    chosen = location or default_location()
    policy = policy or current_policy()
    if policy.read_only:
        return _open_read_only(chosen, policy)
    engine = _engine(chosen)
    store = AnnotationStore(engine, chosen, policy)
    try:
        migrate(engine)
    except SQLAlchemyError as exc:
        engine.dispose()
        raise StoreError(store._explain(exc)) from None
    except NewerSchemaError as exc:
        engine.dispose()
        raise StoreError(f"annotation store {store.location}: {exc}") from None
    return store


def _open_read_only(location: str, policy: AccessPolicy) -> AnnotationStore:
    """The store as it is: a missing SQLite file reads as an empty store held in memory (no file is
    made), and a store whose schema is not this webeval's is refused rather than migrated.
    """
    if not is_postgres(location) and not Path(location).expanduser().is_file():
        memory = sa.create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
        migrate(memory)
        return AnnotationStore(memory, location, policy)
    engine = _engine(location, read_only=True)
    store = AnnotationStore(engine, location, policy)
    try:
        with engine.connect() as connection:
            version = connection.execute(sa.select(VERSION.c.version)).scalar()
    except SQLAlchemyError as exc:
        engine.dispose()
        raise StoreError(store._explain(exc)) from None
    if version != SCHEMA_VERSION:
        engine.dispose()
        raise StoreError(
            f"annotation store {store.location}: schema version {version}, this webeval's is"
            f" {SCHEMA_VERSION}; a read-only server does not migrate it"
            " (open it once with `webeval annotations`)"
        )
    return store


def _engine(location: str, *, read_only: bool = False) -> Engine:
    if is_postgres(location):
        url = sa.make_url(location).set(drivername="postgresql+psycopg")
        return sa.create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 5})
    path = Path(location).expanduser()
    if read_only:  # SQLite itself refuses to write: no journal mode is changed, no byte of the file
        return sa.create_engine(
            f"sqlite:///file:{path}?mode=ro&uri=true",
            connect_args={"timeout": 30, "check_same_thread": False},
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file where a folder of the path should be, a folder we may not write
        raise StoreError(
            f"annotation store {path}: its folder {path.parent} cannot be made ({exc.strerror or exc})"
        ) from None
    engine = sa.create_engine(f"sqlite:///{path}", connect_args={"timeout": 30, "check_same_thread": False})
    sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(connection: Any, _record: object) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _shown_row(run: str, task_id: str, who: str, what: str, created: str) -> dict[str, Any]:
    digest = hashlib.sha256(f"{run}\x1f{task_id}\x1f{who}\x1f{what}".encode()).hexdigest()
    return {
        "digest": digest,
        "run": run,
        "task_id": task_id,
        "reviewer_key": who,
        "what": what,
        "created": created,
    }


def _annotation_row(annotation: Annotation) -> dict[str, Any]:
    row = annotation.model_dump(mode="json")
    for name in LIST_COLUMNS:
        row[name] = ",".join(str(value) for value in row[name]) or None
    row["digest"] = annotation.digest
    row["signed_in"] = annotation.signed_in
    row["reviewer_key"] = annotation.reviewer_key
    return row


def _annotation_from(row: Any) -> Annotation:
    values = {key: row[key] for key in Annotation.model_fields}
    values["created"] = datetime.fromisoformat(values["created"])
    values["revealed"] = values["revealed"] or "none"
    for name in LIST_COLUMNS:
        values[name] = tuple(part for part in (values[name] or "").split(",") if part)
    return Annotation.model_validate(values)
