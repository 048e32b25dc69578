"""Tests about forking, run where forking happens: a process running no other thread.

`support.parallel` forks its workers only from such a process. A suite's worker process may run
threads left by earlier tests (the app's background refreshes), so a test marked `one_thread` is
run again in a fresh pytest process (one thread) whenever this one runs others.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


_RUNS: dict[Path, dict[str, str]] = {}
"""Per test file, each of its `one_thread` tests' outcome line in one fresh pytest run of them."""


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if pyfuncitem.get_closest_marker("one_thread") is None or threading.active_count() == 1:
        return None
    others = sorted(t.name for t in threading.enumerate() if t is not threading.current_thread())
    outcomes = _RUNS.get(pyfuncitem.path) or _RUNS.setdefault(pyfuncitem.path, _run_alone(pyfuncitem.path))
    outcome = outcomes.get(pyfuncitem.nodeid, "not run")
    assert outcome.startswith("PASSED"), f"run alone (this process runs {others}): {outcome}"
    return True


def _run_alone(path: Path) -> dict[str, str]:
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "-m", "one_thread", path],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    outcomes: dict[str, str] = {}
    for line in ran.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in {"PASSED", "FAILED", "ERROR"}:
            outcomes[rest.split(" - ")[0]] = f"{line}\n{ran.stdout[-4000:]}" if word != "PASSED" else line
    return outcomes
