"""Every process's command line, watched for the store's password while the tests run (issue 34:
the password must never be in `ps`). A watcher process reads /proc/<pid>/cmdline, as `ps` does.

A process, not a thread: a test process that runs a thread beside its tests would be one no
real caller is (the CLI runs none), and the worker pools start differently beside a thread
(`webeval_core.support.parallel`). The secret reaches the watcher on its stdin, never its argv;
the watcher stops when told on its stdin (at `stop`) or when it closes (the test process died).
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

PROC = Path("/proc")
_READY = "ready"


def command_lines() -> dict[int, bytes]:
    """Each running process's argv (NUL-separated), as `ps -eo args` reads it."""
    found = {}
    for entry in PROC.iterdir() if PROC.is_dir() else ():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:
                continue  # it ended meanwhile
    return found


class ArgvWatch:
    """Samples every process's argv every `interval_s` seconds; `seen` holds those that held `secret`."""

    def __init__(self, secret: str, interval_s: float = 0.2) -> None:
        self.secret = secret
        self.interval_s = interval_s
        self.seen: dict[int, str] = {}
        """pid -> the command line that held the secret (shown with it masked), as told so far."""
        self._process: subprocess.Popen[bytes] | None = None
        self._pending = b""

    def start(self) -> ArgvWatch:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tests.harness.argv_watch", str(self.interval_s)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(self.secret.encode() + b"\n")
        self._process.stdin.flush()
        ready = self._process.stdout.readline().decode().strip()
        assert ready == _READY, f"the argv watcher did not start: {ready!r}"
        os.set_blocking(self._process.stdout.fileno(), False)
        return self

    def refresh(self) -> dict[int, str]:
        """`seen`, with what the watcher has told since the last look (never waits)."""
        assert self._process is not None and self._process.stdout is not None
        try:
            while chunk := os.read(self._process.stdout.fileno(), 65536):
                self._pending += chunk
        except BlockingIOError:
            pass
        self._take_lines()
        return self.seen

    def stop(self) -> None:
        assert self._process is not None and self._process.stdin is not None
        # Told, not only closed: a child forked since holds the pipe's write end, so no EOF comes.
        self._process.stdin.write(b"stop\n")
        self._process.stdin.close()
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self.refresh()

    def _take_lines(self) -> None:
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            pid, _, masked = line.decode(errors="replace").partition("\t")
            self.seen[int(pid)] = masked


def _watch(secret: bytes, interval_s: float) -> None:
    told: set[int] = set()
    while not select.select([sys.stdin], [], [], interval_s)[0]:  # readable: told to stop, or closed
        for pid, line in command_lines().items():
            if secret in line and pid not in told:
                masked = line.replace(secret, b"***").replace(b"\0", b" ").replace(b"\n", b" ")
                print(f"{pid}\t{masked.decode(errors='replace')}", flush=True)
                told.add(pid)


if __name__ == "__main__":
    _secret = sys.stdin.buffer.readline().rstrip(b"\n")
    print(_READY, flush=True)
    _watch(_secret, float(sys.argv[1]))
