"""How every view words a count and names a file it offers: one rule for the app, the CLI and the
exported pages (`1 trajectory`, `2 trajectories`; a run's trajectory saved under a name that says
which run).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["download_name", "plural", "points_change"]


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 trajectory`, `2 trajectories`: the count and the noun that agrees with it."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def download_name(run_key: str, task_id: str, suffix: str = ".html") -> str:
    """The file name a trajectory is saved under: its run and its task, so two runs' trajectories of
    one task never share a name (`trajectory-fara-7b-demo-0-107.html`).
    """
    run = re.sub(r"[^A-Za-z0-9_.]+", "-", run_key).strip("-.")[-80:].strip("-.") or "run"
    task = re.sub(r"[^A-Za-z0-9_.]+", "-", task_id).strip("-.") or "task"
    return f"trajectory-{run}-{task}{suffix}"


class PointsChange(NamedTuple):
    """A change between two rates, as a view says it."""

    text: str
    """"+1.2 pts", "-0.4 pts", or "no change" when it rounds to zero."""
    moved: bool
    """Whether it moved at the precision shown (a view draws no arrow and no colour otherwise)."""


def points_change(before: float | None, after: float | None) -> PointsChange | None:
    """From rate `before` to `after` (fractions) in percentage points, to one decimal; None when
    either is unknown.
    """
    if before is None or after is None:
        return None
    points = round((after - before) * 100, 1)
    if points == 0:
        return PointsChange("no change", moved=False)
    return PointsChange(f"{points:+.1f} pts", moved=True)
