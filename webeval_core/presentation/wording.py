"""How every view words a count and names a file it offers: one rule for the app, the CLI and the
exported pages (`1 trajectory`, `2 trajectories`; a run's trajectory saved under a name that says
which run).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

# UNKNOWN: the one word every view writes for a value it does not have, the same the runs group
# missing values under (filters, charts), so a list, a chart and a page never name it two ways.
from webeval_core.support.vocabulary import UNKNOWN

if TYPE_CHECKING:
    from webeval_core.reading.task_state import StateCounts

__all__ = [
    "UNKNOWN",
    "download_name",
    "file_size",
    "moment",
    "over_in_words",
    "plural",
    "points_change",
    "states_in_words",
]


def moment(when: datetime | None, local_offset_s: float | None = None, *, precise: bool = False) -> str:
    """A time as every view writes it, `2025-11-10 21:15:12 UTC`. An aware time is converted to UTC;
    a naive one is the run's local time (a log's), converted with the run's inferred offset
    (`Trajectory.utc_offset_s`), else written with "local time, zone unknown"; None is `UNKNOWN`.
    `precise` keeps milliseconds.
    """
    if when is None:
        return UNKNOWN
    shape = "%Y-%m-%d %H:%M:%S.%f" if precise else "%Y-%m-%d %H:%M:%S"
    cut = -3 if precise else None
    if when.tzinfo is None and local_offset_s is None:
        return f"{when.strftime(shape)[:cut]} (local time, zone unknown)"
    if when.tzinfo is None:
        when = (when - timedelta(seconds=local_offset_s or 0)).replace(tzinfo=UTC)
    return f"{when.astimezone(UTC).strftime(shape)[:cut]} UTC"


def over_in_words(finished: int, aborted: int, crashed: int) -> str:
    """The tasks that are over, as every view says them: `42 finished, 2 aborted (1 crashed)`
    (`reading.task_state`: crashed tasks are aborted ones whose last attempt raised).
    """
    said = f"{finished} finished, {aborted} aborted"
    return f"{said} ({crashed} crashed)" if crashed else said


def states_in_words(counts: StateCounts) -> str:
    """A run's task states in one line (`ls`): `42 finished, 2 aborted (1 crashed) · 0 unfinished`,
    the unfinished split into running and stalled when there are any.
    """
    said = over_in_words(counts.finished, counts.aborted, counts.crashed)
    if not counts.unfinished:
        return f"{said} · 0 unfinished"
    return f"{said} · {counts.unfinished} unfinished ({counts.running} running, {counts.stalled} stalled)"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 trajectory`, `2 trajectories`: the count and the noun that agrees with it."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def file_size(size: int) -> str:
    """A file's size as every view writes it: `840 KB` below a megabyte, else `2.4 MB` (decimal units)."""
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.0f} KB"


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
