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
    assert f"{missing}: the folder does not exist" in capsys.readouterr().err


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
    given = tmp_path / "store.url"
    given.write_text(store + "\n", encoding="utf-8")
    _, port, log, process = start_app(tmp_path, "--annotations-file", str(given))
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        environments = [
            Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            for pid in process_group_members(process.pid)
        ]
        assert any(f"WEBEVAL_ANNOTATIONS={store}".encode() in env for env in environments)
        assert "s3cret-pw" not in log.read_text()
        for pid in process_group_members(process.pid):  # what `ps` shows: no process's argv has it
            assert b"s3cret-pw" not in Path(f"/proc/{pid}/cmdline").read_bytes()
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


def _access(*argv: str) -> tuple[dict[str, str], str, str]:
    """The access environment `webeval app ARGV` gives its server, what it said, and what it warned."""
    import io

    from webeval_core.cli.app_command import _access_environment
    from webeval_core.cli.entry import build_parser

    args = build_parser().parse_args(["app", *argv])
    out, err = io.StringIO(), io.StringIO()
    real_err, sys.stderr = sys.stderr, err
    try:
        env = _access_environment(args, out)
    finally:
        sys.stderr = real_err
    return env, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("argv", "read_only"),
    [
        ((), False),
        (("--host", "localhost"), False),
        (("--host", "::1"), False),
        (("--read-only",), True),
        (("--host", "0.0.0.0"), True),
        (("--host", "192.168.1.20"), True),
        (("--host", "0.0.0.0", "--read-only"), True),
        (("--host", "0.0.0.0", "--writable"), False),
    ],
)
def test_app_is_read_only_when_asked_or_bound_beyond_loopback(argv: tuple[str, ...], read_only: bool) -> None:
    env, _said, _warned = _access(*argv)
    assert env == {
        "WEBEVAL_READ_ONLY": "1" if read_only else "0",
        "WEBEVAL_ROLES": "",
        "WEBEVAL_SIGN_IN": "0",
    }


def test_app_says_why_it_is_read_only_and_warns_when_writable_beyond_loopback() -> None:
    _env, said, warned = _access("--host", "0.0.0.0")
    assert "Read-only: 0.0.0.0 is reachable beyond this machine" in said and "--writable" in said
    assert warned == ""
    _env, said, warned = _access("--host", "0.0.0.0", "--writable")
    assert said == ""
    assert "warning: --writable on 0.0.0.0: anyone who reaches this server can write" in warned
    assert _access("--writable") == (
        {"WEBEVAL_READ_ONLY": "0", "WEBEVAL_ROLES": "", "WEBEVAL_SIGN_IN": "0"},
        "",
        "",
    )


def test_app_refuses_read_only_and_writable_together(capsys: pytest.CaptureFixture[str]) -> None:
    from webeval_core.cli.entry import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["app", "--read-only", "--writable"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_app_hands_its_roles_file_to_its_server_and_refuses_one_that_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text('[roles]\n"ann@example.org" = "reviewer"\n', encoding="utf-8")
    env, _said, _warned = _access("--roles", str(roles))
    assert env == {"WEBEVAL_READ_ONLY": "0", "WEBEVAL_ROLES": str(roles.resolve()), "WEBEVAL_SIGN_IN": "0"}
    assert _access()[0]["WEBEVAL_ROLES"] == ""  # never inherited from the caller
    roles.write_text('[roles]\n"ann@example.org" = "admin"\n', encoding="utf-8")
    capsys.readouterr()
    code, _out = run_cli("app", str(tmp_path), "--roles", str(roles), "--port", "1")
    assert code == 1
    err = capsys.readouterr().err
    assert "--roles" in err and "roles.ann@example.org: Input should be 'viewer'" in err


def test_app_with_sign_in_is_writable_beyond_loopback_and_passes_only_the_files_path(tmp_path: Path) -> None:
    from tests.core.serving.test_signin import COMPLETE, SECRET

    auth = tmp_path / "auth.toml"
    auth.write_text(COMPLETE, encoding="utf-8")
    auth.chmod(0o600)
    env, said, _warned = _access("--host", "0.0.0.0", "--auth", str(auth))
    assert env["WEBEVAL_SIGN_IN"] == "1" and env["WEBEVAL_READ_ONLY"] == "0"
    assert "every signed-in user may annotate" in said  # no --roles
    _, port, log, process = start_app(tmp_path, "--auth", str(auth))
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=60)
        argv = _server_argv(process.pid)
        assert f"--secrets.files={auth.resolve()}" in argv
        environments = [
            Path(f"/proc/{pid}/environ").read_bytes() for pid in process_group_members(process.pid)
        ]
        for text in [*argv, *map(repr, environments), log.read_text()]:
            assert SECRET not in text
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def test_app_refuses_a_sign_in_file_naming_the_key_it_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.core.serving.test_signin import COMPLETE, SECRET

    auth = tmp_path / "auth.toml"
    auth.write_text(COMPLETE.replace("client_id", "id"), encoding="utf-8")
    code, _out = run_cli("app", str(tmp_path), "--auth", str(auth), "--port", "1")
    assert code == 1
    err = capsys.readouterr().err
    assert "--auth" in err and "client_id" in err and SECRET not in err


def test_app_takes_sign_in_from_streamlits_usual_secrets_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A provider configured the usual way turns sign-in on; its file is checked like --auth's."""
    from tests.core.serving.test_signin import COMPLETE, SECRET
    from webeval_core.serving.signin import USUAL_SECRETS

    secrets = tmp_path / USUAL_SECRETS
    secrets.parent.mkdir()
    secrets.write_text(COMPLETE.replace("client_id", "id"), encoding="utf-8")
    secrets.chmod(0o600)
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("app", str(tmp_path), "--port", "1")
    assert code == 1
    assert f"Sign-in: the [auth] section of {secrets}" in out
    err = capsys.readouterr().err
    assert "--auth" in err and "client_id" in err and SECRET not in err
