"""Start and stop the app's Streamlit server on a free loopback port, for the browser tests and
the app benchmark (both drive Debian's Chromium; Playwright cannot download a browser here)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from playwright.sync_api import ViewportSize

from webeval_core.serving.server import root_environment, streamlit_command

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # The machine's network is closed: background connections would only fail, many at a time.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # No animation to draw (Streamlit's spinners and fades, smooth scrolls): Chromium's CPU was
    # most of a browser test's, and a test reads the page, not its motion.
    "--force-prefers-reduced-motion",
    "--disable-smooth-scrolling",
]
SERVER_START_TIMEOUT_S = 60.0
VIEWPORT: ViewportSize = {"width": 1440, "height": 1000}
"""The window the browser tests (and the benchmarks that load pages as they do) open."""
SCRIPT_IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
"""The app once its script has finished running (a rerun's end)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def process_group_members(pgid: int) -> list[int]:
    """Live processes (zombies aside) of the process group `pgid`, read from /proc (Linux)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(stat.parent.name))
    return members


def port_free_within(port: int, timeout_s: float, host: str = "127.0.0.1") -> bool:
    """Whether `host:port` can be bound again (as a server reusing it would) within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
            except OSError:
                time.sleep(0.1)
                continue
            return True
    return False


def stop_leaves_nothing(
    process: subprocess.Popen[bytes], port: int, log: Path, signum: int = signal.SIGTERM, timeout_s: float = 5
) -> None:
    """Send `signum` to the process alone (as a service manager or an IDE's stop button does) and
    assert that its port is freed and that no process of its group (it leads one) outlives it.
    """
    process.send_signal(signum)
    assert port_free_within(port, timeout_s), log.read_text()
    process.wait(timeout=timeout_s)
    assert process_group_members(process.pid) == [], f"a process of {process.args} outlived it"


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """A test's cleanup: whatever is left of the process group it started, killed."""
    if process_group_members(process.pid):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=20)


def wait_healthy(base_url: str, process: subprocess.Popen[bytes], log: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"streamlit exited with code {process.returncode}:\n{log.read_text(errors='replace')[-4000:]}"
            )
        try:
            with urllib.request.urlopen(f"{base_url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(
        f"streamlit not healthy after {timeout_s:.0f} s:\n{log.read_text(errors='replace')[-4000:]}"
    )


def start_server(
    root: Path,
    cache_home: Path,
    log: Path,
    script: Path = REPO / "app.py",
    allowed: Sequence[Path] = (),
    host: str = "127.0.0.1",
    extra_env: Mapping[str, str] | None = None,
    port: int | None = None,
    secrets: Path | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start `streamlit run app.py` (or another script) on a free port browsing `root` (and allowed
    to open `allowed`, as `webeval app --allow-root` says); return it and its loopback URL.

    `host` is the address bound (loopback unless a test serves beyond it, e.g. 0.0.0.0, still
    browsed through 127.0.0.1); `extra_env` is what `webeval app` would add (WEBEVAL_READ_ONLY);
    `port` one chosen beforehand (a sign-in provider knows the app's address first); `secrets` the
    sign-in file (`webeval app --auth`).
    """
    port = port or free_port()
    # The command `webeval app` runs, so tests serve the app as users get it (no file watcher).
    command = streamlit_command(script, host, port, secrets=secrets)
    env = {
        **os.environ,
        **root_environment(str(root), allowed),
        "XDG_CACHE_HOME": str(cache_home),
        "XDG_DATA_HOME": str(cache_home / "data"),  # the annotation store (WEBEVAL_ANNOTATIONS wins)
        **(extra_env or {}),
    }
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base_url, process, log, SERVER_START_TIMEOUT_S)
    except BaseException:
        stop_server(process)
        raise
    return process, base_url


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextlib.contextmanager
def running_server(root: Path, cache_home: Path, log: Path, script: Path = REPO / "app.py") -> Iterator[str]:
    """`start_server` as a context manager yielding the base URL."""
    process, base_url = start_server(root, cache_home, log, script)
    try:
        yield base_url
    finally:
        stop_server(process)
