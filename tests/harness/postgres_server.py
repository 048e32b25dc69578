"""A throwaway PostgreSQL 15 server for tests and benchmarks: a temporary folder, a free port.

PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user (Debian's
package creates it) in a folder handed to that user. The cluster requires a password (scram), so
the tests see a URL with a password in it, as a team's store would have.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BIN = Path("/usr/lib/postgresql/15/bin")
USER, PASSWORD = "webeval", "s3cret-pw"


def postgres_binary(name: str) -> str | None:
    """A PostgreSQL program: Debian's folder, else the PATH; None when not installed."""
    candidate = BIN / name
    return str(candidate) if candidate.exists() else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """One running server; `url(db)` names a database on it (with the password)."""

    folder: Path
    """The temporary folder holding the cluster, the socket and the log."""
    port: int
    """The loopback port it listens on."""

    def _as_owner(self, *command: str) -> list[str]:
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *command]
        return list(command)

    def start(self) -> None:
        """Start (or restart) the server and wait until it accepts connections."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        log = str(self.folder / "server.log")
        ctl = postgres_binary("pg_ctl") or "pg_ctl"
        command = self._as_owner(
            ctl, "-D", str(self.folder / "data"), "-o", options, "-l", log, "-w", "start"
        )
        subprocess.run(command, check=True, capture_output=True)

    def stop(self) -> None:
        """Stop the server (fast: open sessions are cut, as when a server goes down)."""
        ctl = postgres_binary("pg_ctl") or "pg_ctl"
        command = self._as_owner(ctl, "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")
        subprocess.run(command, check=False, capture_output=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of a database on this server, password included."""
        return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def start_server() -> PostgresServer:
    """Initialise a cluster in a new temporary folder and start it; raises when it cannot."""
    from tests.conftest import refuse_in_quick_run

    refuse_in_quick_run("PostgreSQL server")
    initdb = postgres_binary("initdb")
    if initdb is None:
        raise FileNotFoundError("PostgreSQL's initdb is not installed (python3 dev.py test installs it)")
    folder = Path(tempfile.mkdtemp(prefix="webeval-pg-"))
    secret = folder / "pw"
    secret.write_text(PASSWORD)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(secret, "postgres", "postgres")
    server = PostgresServer(folder=folder, port=_free_port())
    command = [initdb, "-D", str(folder / "data"), "-U", USER, "--auth=scram-sha-256", f"--pwfile={secret}"]
    subprocess.run(server._as_owner(*command), check=True, capture_output=True)
    server.start()
    return server


def remove_server(server: PostgresServer) -> None:
    """Stop a server and delete its folder."""
    server.stop()
    shutil.rmtree(server.folder, ignore_errors=True)


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A throwaway server for a block of tests, or the test skipped when PostgreSQL is missing."""
    import pytest

    if postgres_binary("initdb") is None:
        pytest.skip("PostgreSQL is not installed and could not be (python3 dev.py test installs it)")
    server = start_server()
    try:
        yield server
    finally:
        remove_server(server)


def store_arguments(location: str) -> list[str]:
    """The command-line arguments naming a store as a user gives them: a path or a URL without a
    password as `--annotations`, a URL with one in a file (`--annotations-file`), never in argv.
    """
    if "@" not in location:
        return ["--annotations", location]
    handle, name = tempfile.mkstemp(prefix="store-", suffix=".url", dir=_URL_FILES.name)
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(location + "\n")
    return ["--annotations-file", name]


_URL_FILES = tempfile.TemporaryDirectory(prefix="webeval-store-urls-")
"""Where `store_arguments` keeps its files: removed when the test process ends."""
