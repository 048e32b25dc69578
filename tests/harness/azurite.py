"""Azurite, Microsoft's Azure Blob Storage emulator, for the remote-root tests.

Started on a free loopback port with a temporary folder and stopped after (`running_azurite`);
`python3 dev.py test` installs it with npm beside the checkout (`.node/`). Where it is missing the
tests that need it are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import Sample

REPO = Path(__file__).resolve().parents[2]
# Azurite's documented development account (public, the same in every installation).
ACCOUNT = "devstoreaccount1"
ACCOUNT_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
CONTAINER = "runs"


@dataclass(frozen=True)
class Azurite:
    """A running Azurite blob service."""

    process: subprocess.Popen[bytes]
    """The emulator's process (its own process group)."""
    port: int
    """Its loopback port."""

    @property
    def connection_string(self) -> str:
        """What adlfs reads from AZURE_STORAGE_CONNECTION_STRING to reach it."""
        return (
            f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={ACCOUNT_KEY};"
            f"BlobEndpoint=http://127.0.0.1:{self.port}/{ACCOUNT};"
        )

    def pause(self) -> None:
        """Stop answering (the process is frozen; connections hang, as with a dead store)."""
        os.killpg(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """Answer again."""
        os.killpg(self.process.pid, signal.SIGCONT)


def azurite_binary() -> Path | None:
    """`azurite-blob` installed by dev.py beside the checkout, or on PATH."""
    local = REPO / ".node" / "node_modules" / ".bin" / "azurite-blob"
    if local.exists():
        return local
    found = shutil.which("azurite-blob")
    return Path(found) if found else None


def require_azurite() -> Path:
    """The binary, or skip with the reason."""
    binary = azurite_binary()
    if binary is None:
        pytest.skip(
            "azurite is not installed (npm package `azurite`): `python3 dev.py test` installs it"
            " with npm into .node/; without npm these remote-root tests cannot run"
        )
    return binary


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_azurite(folder: Path) -> Iterator[Azurite]:
    """Azurite's blob service on a free loopback port keeping its data in `folder`; stopped after."""
    from tests.conftest import refuse_in_quick_run

    refuse_in_quick_run("Azurite")
    binary = require_azurite()
    port = _free_port()
    command = [
        str(binary), "--blobHost", "127.0.0.1", "--blobPort", str(port), "--location", str(folder),
        "--skipApiVersionCheck", "--disableTelemetry", "--silent",
    ]  # fmt: skip
    log = (folder / "azurite.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for(port, process)
        yield Azurite(process=process, port=port)
    finally:
        os.killpg(process.pid, signal.SIGCONT)
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def _wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"azurite exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"azurite did not listen on port {port} within 30 s")


def upload_tree(connection_string: str, local: Path, prefix: str) -> int:
    """Upload every file under `local` to `<CONTAINER>/<prefix>/...`; the number of files."""
    import adlfs

    fs = adlfs.AzureBlobFileSystem(connection_string=connection_string)
    if not fs.exists(CONTAINER):
        fs.mkdir(CONTAINER)
    files = {
        f"{CONTAINER}/{prefix}/{path.relative_to(local).as_posix()}": path.read_bytes()
        for path in sorted(local.rglob("*"))
        if path.is_file()
    }
    fs.pipe(files)
    return len(files)


def blob_listing(connection_string: str, prefix: str) -> dict[str, str]:
    """Every blob under `<CONTAINER>/<prefix>` with its etag: to show nothing was written."""
    import adlfs

    fs = adlfs.AzureBlobFileSystem(connection_string=connection_string, skip_instance_cache=True)
    return {name: str(info["etag"]) for name, info in fs.find(f"{CONTAINER}/{prefix}", detail=True).items()}


@dataclass(frozen=True)
class RemoteSample:
    """The session's scored sample_runs/ uploaded to Azurite."""

    azurite: Azurite
    """The emulator holding it."""
    url: str
    """Its root URL (az://runs/sample_runs)."""
    local: Path
    """The local scored copy it was uploaded from (the same files)."""


@pytest.fixture(scope="session")
def azurite_sample(scored_sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RemoteSample]:
    """Azurite holding the scored sample runs; AZURE_STORAGE_CONNECTION_STRING names it meanwhile."""
    require_azurite()
    with running_azurite(tmp_path_factory.mktemp("azurite")) as azurite:
        upload_tree(azurite.connection_string, scored_sample.root, "sample_runs")
        before = os.environ.get("AZURE_STORAGE_CONNECTION_STRING")
        os.environ["AZURE_STORAGE_CONNECTION_STRING"] = azurite.connection_string
        try:
            yield RemoteSample(azurite=azurite, url=f"az://{CONTAINER}/sample_runs", local=scored_sample.root)
        finally:
            if before is None:
                os.environ.pop("AZURE_STORAGE_CONNECTION_STRING", None)
            else:
                os.environ["AZURE_STORAGE_CONNECTION_STRING"] = before
