"""`webeval app`: the server on loopback, stopped with its child by a signal, a busy port named."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.streamlit_server import (
    kill_group,
    process_group_members,
    stop_leaves_nothing,
    wait_healthy,
)
from tests.core.cli.helpers import run_cli, start_app


def test_app_refuses_a_root_that_is_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no such root"
    code, _ = run_cli("app", str(missing))
    assert code == 1
    assert f"{missing}: not a folder" in capsys.readouterr().err


def _outward_address() -> str | None:
    """This machine's address on its main network interface (no packet is sent), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


def test_app_serves_the_root_on_loopback_only(tmp_path: Path) -> None:
    root, port, log, process = start_app(tmp_path)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        assert f"Opening {root.resolve()} at http://127.0.0.1:{port}" in log.read_text()
        outward = _outward_address()
        if outward is None:
            pytest.skip("this machine has no address beside loopback to try the server on")
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((outward, port), timeout=5).close()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the server's processes in /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_app_stops_its_server_on_a_signal(tmp_path: Path, signum: signal.Signals) -> None:
    _, port, log, process = start_app(tmp_path)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        assert len(process_group_members(process.pid)) >= 2, "webeval app runs Streamlit as a child"
        stop_leaves_nothing(process, port, log, signum)
        assert process.returncode == 0, log.read_text()
    finally:
        kill_group(process)


def test_app_on_a_busy_port_says_so_and_names_it(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        command = [sys.executable, "-m", "webeval_core.cli", "app", str(root), "--port", str(port)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the server's environment in /proc")
def test_app_hands_the_review_store_to_its_server_and_never_prints_it(tmp_path: Path) -> None:
    store = "postgresql://reviewer:s3cret-pw@127.0.0.1:1/reviews"
    _, port, log, process = start_app(tmp_path, "--annotations", store)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        environments = [
            Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            for pid in process_group_members(process.pid)
        ]
        assert any(f"WEBEVAL_ANNOTATIONS={store}".encode() in env for env in environments)
        assert "s3cret-pw" not in log.read_text()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def _server_argv(group: int) -> list[str]:
    """The command line of the Streamlit server in a process group (the child of `webeval app`)."""
    for pid in process_group_members(group):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        if "streamlit" in argv:
            return argv
    raise AssertionError("no Streamlit server among the processes of `webeval app`")


@pytest.mark.skipif(
    not Path("/proc/self/cmdline").exists(), reason="reads the server's command line in /proc"
)
@pytest.mark.parametrize(
    ("options", "watcher", "run_on_save"), [((), "none", "false"), (("--reload",), "auto", "true")]
)
def test_app_server_watches_no_file_unless_asked_to_reload(
    tmp_path: Path, options: tuple[str, ...], watcher: str, run_on_save: str
) -> None:
    _, port, log, process = start_app(tmp_path, *options)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        argv = _server_argv(process.pid)
        assert f"--server.fileWatcherType={watcher}" in argv
        assert f"--server.runOnSave={run_on_save}" in argv
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
