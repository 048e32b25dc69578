"""The mirror's record of the remote listing: one row per remote object (SQLite, in the mirror folder).

It says which objects exist remotely (so screenshots are known before they are fetched), the
version of each (size + etag / generation / mtime) and the version of the local copy, so an
unchanged object is never fetched twice and a changed one is fetched again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from pydantic import BaseModel, ConfigDict

MANIFEST_NAME = "manifest.sqlite"
_VERSION = "1"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS objects (
    path TEXT PRIMARY KEY,
    folder TEXT NOT NULL,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    tag TEXT NOT NULL,
    width INTEGER,
    height INTEGER,
    local_tag TEXT
);
CREATE INDEX IF NOT EXISTS objects_folder ON objects (folder);
"""


class RemoteObject(BaseModel):
    """One object of the remote listing, as the mirror recorded it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    """Path relative to the root, "/"-separated (e.g. "runs/m/traj/108/screenshot3.png")."""
    size: int
    """Size in bytes, from the listing."""
    tag: str
    """The object's version as the store names it (etag, generation or modification time)."""
    width: int | None = None
    """An image's width in pixels, from its PNG header (a ranged read when a view first lists its
    folder); 0 when that header is not a PNG's; None until read."""
    height: int | None = None
    """An image's height in pixels, from its PNG header; 0 when not a PNG; None until read."""
    local_tag: str | None = None
    """The version the local copy was fetched at; None when there is no (complete) local copy."""

    @property
    def folder(self) -> str:
        """The folder holding it, relative to the root ("" at the root)."""
        return self.path.rpartition("/")[0]

    @property
    def name(self) -> str:
        """The file's own name."""
        return self.path.rpartition("/")[2]

    @property
    def is_current(self) -> bool:
        """Whether the local copy is the version listed."""
        return self.local_tag == self.tag


@contextmanager
def connect(mirror: Path) -> Iterator[sqlite3.Connection]:
    """The manifest of the mirror folder `mirror` (created when missing), committed on success.

    A manifest of another version, or one SQLite cannot read, is started afresh: it is a cache,
    and the next sync lists the store again.
    """
    path = mirror / MANIFEST_NAME
    try:
        db = _open(path)
    except sqlite3.DatabaseError:
        path.unlink(missing_ok=True)
        db = _open(path)
    with closing(db), db:
        yield db


def _open(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30)
    db.executescript(_SCHEMA)
    row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    if row is None or row[0] != _VERSION:
        db.execute("DELETE FROM objects")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (_VERSION,))
        db.commit()
    return db


def all_objects(db: sqlite3.Connection) -> dict[str, RemoteObject]:
    """Every recorded object, by path."""
    rows = db.execute("SELECT path, size, tag, width, height, local_tag FROM objects")
    return {row[0]: _object(row) for row in rows}


def objects_in(db: sqlite3.Connection, folder: str) -> list[RemoteObject]:
    """The objects directly inside `folder` (relative to the root)."""
    rows = db.execute(
        "SELECT path, size, tag, width, height, local_tag FROM objects WHERE folder = ?", (folder,)
    )
    return [_object(row) for row in rows]


def object_at(db: sqlite3.Connection, path: str) -> RemoteObject | None:
    """The object recorded at `path`, or None."""
    row = db.execute(
        "SELECT path, size, tag, width, height, local_tag FROM objects WHERE path = ?", (path,)
    ).fetchone()
    return None if row is None else _object(row)


def save(db: sqlite3.Connection, objects: Iterable[RemoteObject]) -> None:
    """Record (insert or replace) `objects`."""
    db.executemany(
        "INSERT OR REPLACE INTO objects VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(o.path, o.folder, o.name, o.size, o.tag, o.width, o.height, o.local_tag) for o in objects],
    )


def forget(db: sqlite3.Connection, paths: Iterable[str]) -> None:
    """Drop the records of `paths` (objects gone from the store)."""
    db.executemany("DELETE FROM objects WHERE path = ?", [(p,) for p in paths])


def set_meta(db: sqlite3.Connection, key: str, value: str) -> None:
    """Record one fact about the mirror (its URL, when it was last synced)."""
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))


def get_meta(db: sqlite3.Connection, key: str) -> str | None:
    """One recorded fact about the mirror, or None."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def _object(row: tuple[str, int, str, int | None, int | None, str | None]) -> RemoteObject:
    return RemoteObject(path=row[0], size=row[1], tag=row[2], width=row[3], height=row[4], local_tag=row[5])
