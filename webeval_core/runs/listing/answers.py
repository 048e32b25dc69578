"""What the index's queries answer (`queries.IndexQueries`): rows of breakdowns and counts, a page of
a trajectory list (its rows: `list_columns.ListedTrajectory`), one item of a walk, and a clicked
bar; small frozen models, no SQL.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from webeval_core.runs.listing.list_columns import ListedTrajectory
from webeval_core.runs.viewing import Withheld

__all__ = [
    "BarChoice",
    "BreakdownRow",
    "CodeCountRow",
    "CountRow",
    "ListedTrajectory",
    "MeasureStats",
    "TrajectoryPage",
    "WalkItem",
]

_MODEL = ConfigDict(frozen=True, extra="forbid")


class BreakdownRow(BaseModel):
    """Success of one run's trajectories sharing one value of a breakdown (site, task type...)."""

    model_config = _MODEL

    run: str
    """The run key."""
    value: str
    """The breakdown's value (`trajectory_filter.UNKNOWN` for tasks the catalog does not know)."""
    trajectories: int
    """How many of the run's trajectories have it."""
    counted: int
    """How many of those enter the success rate."""
    passed: int
    """How many of those scored full marks."""
    success_rate: float | None
    """Mean value over the counted ones (0 to 1); None when none is counted."""


class CountRow(BaseModel):
    """How many of one run's trajectories fall in one category (a result, an outcome, a tag)."""

    model_config = _MODEL

    run: str
    """The run key."""
    value: str
    """The category."""
    trajectories: int
    """How many trajectories."""


class CodeCountRow(BaseModel):
    """How many of one run's trajectories one judge gives one error-taxonomy code (or category)."""

    model_config = _MODEL

    run: str
    """The run key (or the pool's name)."""
    judge: str
    """The judge (score file stem)."""
    code: str
    """The code ("2.3") or, counted by category, the category's number ("2")."""
    trajectories: int
    """How many trajectories (a trajectory with two failure points of one code counts once)."""


class MeasureStats(BaseModel):
    """Count / mean / min / median / max of one measure (steps, duration, tokens) over one run."""

    model_config = _MODEL

    run: str
    """The run key."""
    count: int
    """Trajectories with a value."""
    mean: float | None
    """Their mean; None without values."""
    min: float | None
    """The smallest value."""
    median: float | None
    """The median (mean of the two middle values for an even count)."""
    max: float | None
    """The largest value."""


class TrajectoryPage(BaseModel):
    """One page of a filtered trajectory list and how many the whole list holds."""

    model_config = _MODEL

    total: int
    """Trajectories matching the filter."""
    rows: tuple[ListedTrajectory, ...]
    """The page's rows, run by run in folder order."""
    withheld: Withheld | None = None
    """Why the rows come without their verdicts (and were chosen by no criterion of verdicts);
    None when their verdicts are in them (recorded as shown to the viewer first)."""
    detail: str = ""
    """The store's message when recording them failed, or which blind queues hold the `held` rows;
    empty otherwise."""
    held: int = 0
    """Rows shown without their verdicts, each pending in one of the viewer's blind queues not
    worked now (the others' verdicts are in theirs)."""

    def withheld_as(self, why: Withheld, detail: str = "") -> TrajectoryPage:
        """This page without its rows' verdicts, saying why."""
        rows = tuple(row.without_verdict() for row in self.rows)
        return self.model_copy(update={"rows": rows, "withheld": why, "detail": detail})

    def holding(self, items: frozenset[tuple[str, str]], detail: str) -> TrajectoryPage:
        """This page with the verdicts of `items`' rows left out (`held`), the rest kept."""
        rows = tuple(r.without_verdict() if (r.run, r.task_id) in items else r for r in self.rows)
        return self.model_copy(
            update={
                "rows": rows,
                "held": sum(r is not k for r, k in zip(rows, self.rows, strict=True)),
                "detail": detail,
            }
        )


class WalkItem(BaseModel):
    """A trajectory of a list as the walk through it needs it."""

    model_config = _MODEL

    key: str
    """The folder's key under the root."""
    failed: bool
    """Counted in the success rate, below full marks (a stop for "next failure")."""


class BarChoice(BaseModel):
    """A clicked bar of an overview chart: a run's trajectories with one value of a breakdown."""

    model_config = _MODEL

    run: str | None
    """The run key; None for a bar counting every run listed together."""
    field: str
    """The `TrajectoryFilter` criterion the bar sets (`sites`, `results`, `tags`...)."""
    value: str
    """Its value."""
