"""The CPU the whole machine has spent, for benchmarks whose work leaves its parent process.

rusage counts a process's waited-for children only: Chromium's renderers and daemonised servers
are reparented and escape it. Read the machine's counters before and after instead, on a machine
otherwise idle.
"""

from __future__ import annotations

import os
from pathlib import Path


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy since boot (Linux's /proc/stat)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
