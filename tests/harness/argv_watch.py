"""Every process's command line, watched for the store's password while the tests run (issue 34:
the password must never be in `ps`). A thread reads /proc/<pid>/cmdline, as `ps` does."""

from __future__ import annotations

import threading
from pathlib import Path

PROC = Path("/proc")


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
        self.secret = secret.encode()
        self.interval_s = interval_s
        self.seen: dict[int, str] = {}
        """pid -> the command line that held the secret (shown with it masked)."""
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="argv-watch", daemon=True)

    def start(self) -> ArgvWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _watch(self) -> None:
        while not self._stop.is_set():
            for pid, line in command_lines().items():
                if self.secret in line:
                    masked = line.replace(self.secret, b"***").replace(b"\0", b" ")
                    self.seen[pid] = masked.decode(errors="replace")
            self.samples += 1
            self._stop.wait(self.interval_s)
