"""The watch that keeps passwords out of `ps` sees a password in a process's argv (so its silence
during the suite means something)."""

from __future__ import annotations

import subprocess
import sys
import time

from tests.harness.argv_watch import ArgvWatch


def test_the_watch_sees_a_secret_in_a_command_line() -> None:
    secret = "not-the-store-password-41"
    watch = ArgvWatch(secret, interval_s=0.05).start()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)", secret])
    try:
        deadline = time.monotonic() + 10
        while child.pid not in watch.refresh() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        child.kill()
        child.wait()
        watch.stop()
    assert "***" in watch.seen[child.pid] and secret not in watch.seen[child.pid]
