"""`dev.py`, the one entry point of a fresh machine: `app` stopped by a signal leaves nothing running;
an install that meets a held dpkg lock waits for it, then fails in one line; the tests keep compiled
modules out of the tree."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.streamlit_server import free_port, kill_group, stop_leaves_nothing, wait_healthy
from tests.harness.builders import fara_folder

REPO = Path(__file__).resolve().parents[1]

# apt-get as far as the lock goes: it waits up to DPkg::Lock::Timeout for an fcntl lock on the file
# FAKE_DPKG_LOCK names (the real one: /var/lib/dpkg/lock-frontend), then fails as apt-get does.
FAKE_APT_GET = """\
import fcntl, os, sys, time

timeout = next(float(a.split("=")[1]) for a in sys.argv if a.startswith("DPkg::Lock::Timeout="))
lock = os.environ["FAKE_DPKG_LOCK"]
deadline = time.monotonic() + timeout
with open(lock, "a") as handle:
    while True:
        try:
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except OSError:
            if time.monotonic() > deadline:
                sys.exit(f"E: Could not get lock {lock}. It is held by another process")
            time.sleep(0.05)
    with open(os.environ["FAKE_APT_LOG"], "a") as log:
        log.write(" ".join(a for a in sys.argv[1:] if not a.startswith(("-o", "DPkg"))) + "\\n")
"""
HOLD_LOCK = """\
import fcntl, sys, time

with open(sys.argv[1], "a") as handle:
    fcntl.lockf(handle, fcntl.LOCK_EX)
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def _lock_holder(lock: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process holding the lock for `seconds` (returned once it holds it)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


def _install(tmp_path: Path, lock_timeout_s: int) -> subprocess.CompletedProcess[str]:
    """dev.py's install of chromium, run with the fake apt-get in a process of its own."""
    fake = tmp_path / "apt-get"
    fake.write_text(f"#!{sys.executable}\n{FAKE_APT_GET}")
    fake.chmod(0o755)
    call = f"apt_get_install({str(fake)!r}, 'chromium', 'WEBEVAL_SKIP_BROWSER', {lock_timeout_s})"
    code = f"import dev; dev.{call}"
    env = {**os.environ, "FAKE_DPKG_LOCK": str(tmp_path / "lock"), "FAKE_APT_LOG": str(tmp_path / "apt.log")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_install_waits_for_a_held_dpkg_lock(tmp_path: Path) -> None:
    holder = _lock_holder(tmp_path / "lock", seconds=1.5)
    try:
        done = _install(tmp_path, lock_timeout_s=30)
    finally:
        holder.wait(timeout=10)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "apt.log").read_text().splitlines() == ["update -qq", "install -y -qq chromium"]


def test_install_under_a_lock_held_too_long_fails_in_one_line(tmp_path: Path) -> None:
    holder = _lock_holder(tmp_path / "lock", seconds=60)
    try:
        done = _install(tmp_path, lock_timeout_s=1)
    finally:
        holder.kill()
        holder.wait(timeout=10)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("dev.py: could not install chromium: apt-get failed")
    assert "`sudo apt-get install chromium`" in last
    assert "WEBEVAL_SKIP_BROWSER=1" in last


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the server's processes in /proc")
@pytest.mark.skipif(
    not (REPO / ".venv" / "bin" / "webeval").exists(), reason="dev.py app runs the checkout's venv"
)
def test_app_stopped_by_sigterm_leaves_no_server(tmp_path: Path) -> None:
    root = tmp_path / "root"
    fara_folder(root)
    port = free_port()
    log = tmp_path / "app.log"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    command = [sys.executable, str(REPO / "dev.py"), "app", str(root), "--port", str(port)]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log, timeout_s=90)
        stop_leaves_nothing(process, port, log, signal.SIGTERM, timeout_s=10)
    finally:
        kill_group(process)


def test_the_tests_keep_compiled_modules_outside_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dev

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # as this machine's shell has it
    env = dev.test_environment()
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["PYTHONPYCACHEPREFIX"] == str(dev.PYCACHE)
    assert dev.PYCACHE.is_relative_to(dev.VENV)  # out of the tree, gone with the virtualenv
    (tmp_path / "probe_module.py").write_text("X = 1\n")
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    subprocess.run([sys.executable, "-c", "import probe_module"], cwd=tmp_path, env=env, check=True)
    assert not (tmp_path / "__pycache__").exists()
    kept = [p.relative_to(tmp_path / "pycache") for p in (tmp_path / "pycache").rglob("probe_module.*.pyc")]
    assert kept == [tmp_path.relative_to("/") / f"probe_module.{sys.implementation.cache_tag}.pyc"]
