"""The Streamlit server behind `webeval app`: where the app is, which roots it may open, and a child
that signals stop.

The app opens the root given on the command line, folders under it, and the folders named by
`--allow-root` (and folders under those); nothing else, whoever asks (a link carrying `?root=`, the
sidebar). `webeval app` runs Streamlit as a child process. SIGINT and SIGTERM are forwarded to it and it is
killed if it has not exited after a grace period, so the command never returns leaving a server
holding the port; a busy port is named before anything starts.
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType

ROOT_ENV = "WEBEVAL_ROOT"
"""The environment variable naming the root `webeval app` was started on."""
ALLOWED_ROOTS_ENV = "WEBEVAL_ALLOWED_ROOTS"
"""The environment variable naming the `--allow-root` folders (joined by os.pathsep)."""

# How long a stopped server gets to close its sessions before it is killed.
_STOP_GRACE_S = 4.0
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def app_file() -> Path:
    """The Streamlit script of the inspector shipped with this copy of webeval_core.

    An installed wheel carries the app as `webeval_app/` beside `webeval_core/`; a checkout (and an
    editable install, which points into it) has `app.py` beside `webeval_core/`. Both sit next to
    this package, so the app found always matches the core it runs on.
    """
    beside = Path(__file__).resolve().parents[2]  # webeval_core/serving/server.py: beside webeval_core
    for candidate in (beside / "webeval_app" / "app.py", beside / "app.py"):
        if candidate.is_file() and (candidate.parent / "pages").is_dir():
            return candidate
    raise FileNotFoundError(f"the inspector's app.py is neither in {beside / 'webeval_app'} nor in {beside}")


def default_root() -> Path:
    """The checkout's sample runs when there are some, else the current folder."""
    sample = Path(__file__).resolve().parents[2] / "sample_runs"  # beside webeval_core
    return sample if sample.is_dir() else Path.cwd()


def allowed_roots(environ: Mapping[str, str], default: Path) -> tuple[Path, ...]:
    """The folders the app may open (each with the folders under it): its root, then `--allow-root`'s.

    Args:
        environ: The environment the app runs in (`ROOT_ENV`, `ALLOWED_ROOTS_ENV`).
        default: The root when `ROOT_ENV` is unset (the app started without `webeval app`).
    """
    given = [environ.get(ROOT_ENV) or str(default)]
    given += [part for part in environ.get(ALLOWED_ROOTS_ENV, "").split(os.pathsep) if part]
    return tuple(dict.fromkeys(Path(path).expanduser().resolve() for path in given))


def root_refusal(candidate: Path, allowed: Sequence[Path]) -> str | None:
    """Why the app refuses to open `candidate` (None: it may): outside every allowed root, or no folder."""
    resolved = candidate.expanduser().resolve()
    if not any(resolved == root or root in resolved.parents for root in allowed):
        return (
            f"{resolved} is not a folder this server may open: only {', '.join(map(str, allowed))}"
            f" and folders under {'it' if len(allowed) == 1 else 'them'}"
            f" (start it with `webeval app --allow-root {resolved}` to open it)."
        )
    if not resolved.is_dir():
        return f"{resolved} is not a folder."
    return None


def root_environment(root: str, allowed: Sequence[Path]) -> dict[str, str]:
    """The environment variables telling the app its root (a folder or a store URL) and the
    `--allow-root` folders.
    """
    # Always both: a value inherited from the caller's environment must not widen what is allowed.
    return {ROOT_ENV: root, ALLOWED_ROOTS_ENV: os.pathsep.join(str(path) for path in allowed)}


def port_in_use(host: str, port: int) -> bool:
    """Whether binding `host:port` fails, as it would for Streamlit (which reuses TIME_WAIT ports)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


class AppServer:
    """The Streamlit server as a child of `webeval app` that SIGINT and SIGTERM stop too.

    The signal is forwarded (the server then closes its port) and the server is killed if it has
    not exited within a grace period, so `webeval app` never returns leaving it running.
    """

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.command = command
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.deadline: float | None = None
        """When a stop was asked for, the time after which the server is killed."""

    def _forward(self, signum: int, _frame: FrameType | None) -> None:
        if self.deadline is None:
            self.deadline = time.monotonic() + _STOP_GRACE_S
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signum)

    def run(self) -> int:
        """Serve until the server exits; 0 when it was stopped by a signal, else its exit code."""
        # Handlers first: a signal that comes while the server starts must not orphan it.
        previous = {signum: signal.signal(signum, self._forward) for signum in _STOP_SIGNALS}
        try:
            self.process = subprocess.Popen(self.command, env=self.env)
            if self.deadline is not None:
                self.process.terminate()
            return self._wait(self.process)
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            if self.process is not None and self.process.poll() is None:
                self.process.kill()
                self.process.wait()

    def _wait(self, process: subprocess.Popen[bytes]) -> int:
        while True:
            try:
                code = process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                if self.deadline is not None and time.monotonic() > self.deadline:
                    process.kill()
                continue
            return 0 if self.deadline is not None else code


def streamlit_command(
    script: Path, host: str, port: int, *, reload: bool = False, secrets: Path | None = None
) -> list[str]:
    """The command that serves `script` on host:port, headless and without usage statistics.

    `secrets`: the sign-in file (`webeval app --auth`), read by Streamlit as its secrets file; only its
    path is on the command line.

    A user's server watches no file (`reload=False`): Streamlit's watcher would follow the whole
    checkout, `.venv/` included, and overflow inotify's queue while anything else writes there.
    `reload=True` (`webeval app --reload`, for working on the app) reruns it when its code changes.
    """
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(script),
        f"--server.address={host}",
        f"--server.port={port}",
        "--server.headless=true",
        "--browser.gatherUsageStats=false",
        f"--server.fileWatcherType={'auto' if reload else 'none'}",
        f"--server.runOnSave={'true' if reload else 'false'}",
        # The checkout's .streamlit/config.toml is read only from the working folder.
        "--client.toolbarMode=minimal",
        *([f"--secrets.files={secrets}"] if secrets is not None else []),
    ]
