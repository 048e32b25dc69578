"""A real Dask cluster on loopback: a scheduler and a `dask worker` (its nanny and worker processes),
each a process of its own, started from this venv's Python, for the cluster tests and benchmark.

Not `LocalCluster`: its threads share this process, so a worker could neither die alone nor read
what only its own environment gives it (a store's credentials).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

START_SECONDS = 90  # workers importing dask on two busy cores


@dataclass(frozen=True)
class DaskCluster:
    """A running scheduler and its workers."""

    address: str
    """tcp://127.0.0.1:PORT."""
    workers: int
    """Worker processes started (each with one thread)."""

    def worker_pids(self) -> list[int]:
        """The worker processes themselves (the nanny's children), by asking each."""
        from distributed import Client

        with Client(self.address, timeout=10, set_as_default=False) as client:
            return sorted(client.run(os.getpid).values())

    def wait_for_workers(self, count: int | None = None) -> None:
        """Until `count` workers (default: all started) are connected."""
        from distributed import Client

        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                with Client(self.address, timeout=5, set_as_default=False) as client:
                    client.wait_for_workers(
                        count or self.workers, timeout=max(1, deadline - time.monotonic())
                    )
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_cluster(
    folder: Path, workers: int = 2, env: dict[str, str] | None = None
) -> Iterator[DaskCluster]:
    """A scheduler and `workers` one-thread workers keeping their files in `folder`; stopped after.

    The workers get `env` (default: this process's), with TMPDIR in `folder`: what they copy
    from a store lands there.
    """
    from tests.conftest import refuse_in_quick_run

    refuse_in_quick_run("Dask cluster")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    environment = {**(env if env is not None else os.environ), "TMPDIR": str(folder)}
    environment.pop("WEBEVAL_DASK_SCHEDULER", None)
    python = sys.executable
    commands = {
        "scheduler": [python, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                      "--port", str(port), "--no-dashboard", "--no-show"],
        "workers": [python, "-m", "distributed.cli.dask_worker", address, "--nworkers", str(workers),
                    "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard", "--memory-limit", "0",
                    "--local-directory", str(folder / "workers")],
    }  # fmt: skip
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for name, command in commands.items():
            with (folder / f"{name}.log").open("wb") as log:
                processes.append(
                    subprocess.Popen(
                        command, stdout=log, stderr=subprocess.STDOUT, env=environment, start_new_session=True
                    )
                )
        cluster = DaskCluster(address=address, workers=workers)
        cluster.wait_for_workers()
        yield cluster
    finally:
        for process in reversed(processes):
            _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=15)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue
