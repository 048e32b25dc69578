"""Store fixtures: every store test runs against SQLite and against a throwaway PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.postgres_server import PostgresServer, running_postgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL 15 server for the session, in a temporary folder, on a free port."""
    with running_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store's location: a SQLite file, or a fresh database on the session's server."""
    if request.param == "sqlite":
        return str(tmp_path / "store" / "annotations.sqlite")
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()
