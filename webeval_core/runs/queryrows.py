"""What the index's queries answer (`queries.IndexQueries`): rows of breakdowns and counts, a page of
a trajectory list, one item of a walk, and a clicked bar; small frozen models, no SQL.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

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


class ListedTrajectory(BaseModel):
    """One row of a trajectory list: the columns of `metrics.COLUMNS` a table shows."""

    model_config = _MODEL

    run: str
    """The run key."""
    task_id: str
    """The task id."""
    site: str | None
    """Site key from the catalog; None for a task it does not know."""
    task_type: str | None
    """Task type from the catalog."""
    intent: str | None
    """The task's intent from the catalog."""
    intent_template: str | None
    """The intent's template from the catalog."""
    outcome: str | None
    """Answered, no answer, aborted; None when unreadable."""
    outcome_group: str
    """Its outcome group (`trajectory_filter.OUTCOME_GROUPS`)."""
    status: str | None
    """The official verdict's status when the official evaluator is the judge used."""
    score: float | None
    """The judge's raw score."""
    result: str
    """The result label (`trajectory_filter.RESULTS`)."""
    value: float | None
    """What it adds to the success rate; None when left out."""
    steps: int
    """Actions taken."""
    duration_s: float | None
    """Solver time in seconds."""
    tokens: int | None
    """Prompt and completion tokens; None when the folder records none (`TrajectorySummary.tokens`)."""
    core_error: str | None
    """core.log's last error type."""
    answer: str | None
    """The start of the final answer."""
    tags: tuple[str, ...]
    """Failure tags: verdict and outcome tags in `TAGS` order, then the core.log error type."""
    path: str
    """The folder."""
    key: str
    """The folder's key under the root (unique, unlike task_id)."""
    judge: str | None
    """The judge whose score it carries; None when unscored by any."""
    judges_disagree: bool
    """Whether two of its judges disagree on pass or fail."""

    @property
    def counted(self) -> bool:
        """Whether it enters the success rate."""
        return self.value is not None


class TrajectoryPage(BaseModel):
    """One page of a filtered trajectory list and how many the whole list holds."""

    model_config = _MODEL

    total: int
    """Trajectories matching the filter."""
    rows: tuple[ListedTrajectory, ...]
    """The page's rows, run by run in folder order."""


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
