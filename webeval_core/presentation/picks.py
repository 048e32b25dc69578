"""How a picker names one run's trajectories: by task id, and by folder where ids repeat.

Two folders of one run may hold the same task (a retried task, a copied folder). A picker keyed
by task id alone could open only one of them, so each shown name here is unique within its run:
the task id, or for an id held by several folders the id and the summary's key (its folder
relative to the root).
The name is what a bound picker puts in the URL, so it stays readable there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webeval_core.runs.summary import TrajectorySummary


def trajectory_choices(members: Sequence[TrajectorySummary]) -> dict[str, TrajectorySummary]:
    """One run's trajectories by the name a picker shows, in the run's order."""
    repeated = {task for task, count in Counter(s.task_id for s in members).items() if count > 1}
    return {f"{s.task_id} ({s.key})" if s.task_id in repeated else s.task_id: s for s in members}


def choice_of(summary: TrajectorySummary, members: Sequence[TrajectorySummary]) -> str:
    """The name `trajectory_choices` gives `summary` among its run's `members`."""
    return next(name for name, s in trajectory_choices(members).items() if s.key == summary.key)
