"""Wall time of a part of the test suite run as `dev.py test` runs it, beside other ways to run it.

    .venv/bin/python benchmarks/bench_test_suite.py [--part all|browser|quick|services] [--ways WAY,...]

Each way is pytest on the same selection, run one after the other in this process's checkout;
ways: `one` (one process, test after test), `workers` (pytest-xdist on every core, tests spread
one at a time), `files` (on every core, a file's tests on one worker), `groups` (on every core,
a browser test file's tests on one worker, the others spread), `workers3`, `groups3`, `files3`
(the same on three workers for two cores: a test waiting for a server or a browser leaves its
core to another's) and `files4` (four), `steal` (on every core, an idle worker taking tests queued for
another). `sessions` runs the whole suite as dev.py does: the tests outside
tests/browser on one worker more than cores, then the browser tests by file. Parts: `all`,
`browser` (tests/browser), `quick` (what `dev.py test --quick` runs), `services` (the rest:
PostgreSQL, Azurite, the Dask cluster, many processes). Each line gives the
wall time, the CPU time of pytest and every process it waited for, the CPU time the whole
machine spent meanwhile (Chromium's renderers and daemonised servers leave their parent, so only
this counts them) and that time over the cores (the least wall time any way could take), pytest's
summary line and the tests that failed (its whole output: test-artifacts/bench_test_suite/PART-WAY.log).
Results are printed and put at the top of --out (default benchmarks/results/test_suite.txt).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from benchmarks.machine_cpu import machine_busy_seconds
from benchmarks.results_file import record
from dev import BROWSER_WORKERS, SUITE_WORKERS, test_environment

REPO = Path(__file__).resolve().parent.parent
PARTS = {
    "all": "browser or not browser",
    "browser": "browser",
    "quick": "not browser and not service and not slow",
    "services": "not browser and (service or slow)",
}
LOGS = REPO / "test-artifacts" / "bench_test_suite"
"""pytest's whole output of each way (test-artifacts/ is not committed)."""
WAYS = {
    "one": [],
    "workers": ["-n", "auto"],
    "files": ["-n", "auto", "--dist", "loadfile"],
    "groups": ["-n", "auto", "--dist", "loadgroup"],
    "steal": ["-n", "auto", "--dist", "worksteal"],
    "workers3": ["-n", "3"],
    "groups3": ["-n", "3", "--dist", "loadgroup"],
    "files3": ["-n", "3", "--dist", "loadfile"],
    "files4": ["-n", "4", "--dist", "loadfile"],
}
SESSIONS = [("not browser", SUITE_WORKERS), ("browser", BROWSER_WORKERS)]
"""The `sessions` way: pytest twice, each on its selection (within the part's)."""


class Timing(NamedTuple):
    """One way's figures."""

    wall: float
    """Seconds from its start to its end."""
    cpu: float
    """CPU seconds of pytest and of every process it waited for (rusage of children)."""
    machine_cpu: float
    """CPU seconds the whole machine spent meanwhile (/proc/stat): with the processes that leave
    their parent, which rusage misses (Chromium's renderers, daemonised servers), and whatever
    else ran on the machine."""
    summary: str
    """pytest's summary lines and the tests that failed."""


def run(part: str, way: str) -> Timing:
    """One way's wall time, CPU times and pytest's summary."""
    env = test_environment()  # dev.py's: compiled modules kept
    if part == "quick":
        env["WEBEVAL_TEST_QUICK"] = "1"
    runs = (
        [(f"({PARTS[part]}) and ({m})", o) for m, o in SESSIONS]
        if way == "sessions"
        else [(PARTS[part], WAYS[way])]
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    machine_before = machine_busy_seconds()
    started = time.monotonic()
    output = ""
    by_session = []
    for selection, options in runs:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", selection, *options]
        session_before = machine_busy_seconds()
        done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=False)
        by_session.append(f"{machine_busy_seconds() - session_before:.1f}")
        output += done.stdout + done.stderr
    wall = time.monotonic() - started
    machine_cpu = machine_busy_seconds() - machine_before
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log = LOGS / f"{part}-{way}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(output, encoding="utf-8")
    lines = output.splitlines()
    ends = [line for line in lines if " in " in line and ("passed" in line or "failed" in line)]
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    summary = " + ".join(end.strip("= ") for end in ends) if ends else "no summary line"
    if len(by_session) > 1:
        summary += f" (machine CPU s by session: {' + '.join(by_session)})"
    return Timing(wall, cpu, machine_cpu, "; ".join([summary, *failed]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=sorted(PARTS), default="browser")
    parser.add_argument(
        "--ways", default="files,one", help="comma-separated: " + ", ".join([*WAYS, "sessions"])
    )
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "test_suite.txt")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    head = (
        f"bench_test_suite: {os.cpu_count()} cores, load {load:.1f} at the start, part {args.part!r}"
        f" ({PARTS[args.part]}), {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    columns = f"{'way':<10}{'wall s':>9}{'CPU s':>9}{'machine':>9}{'least':>9}  pytest"
    lines = [head, columns]
    print(*lines, sep="\n", flush=True)
    cores = os.cpu_count() or 1
    for way in args.ways.split(","):
        t = run(args.part, way)
        least = t.machine_cpu / cores  # no way of spreading the work beats it on these cores
        lines.append(f"{way:<10}{t.wall:>9.1f}{t.cpu:>9.1f}{t.machine_cpu:>9.1f}{least:>9.1f}  {t.summary}")
        print(lines[-1], flush=True)
    record(args.out, "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
