"""One trajectory as its viewer may see it: what its own files say of its verdicts, through the gate.

The index's queries answer verdicts only to a viewer (`runs.viewing`); a trajectory read from its
folder carries its own (score files, eval_result.json, a harness's reward), and they reach a view
only through `trajectory_seen_by`: asked of the viewer (`Viewer.disclose`, which records the item
as shown first), else the trajectory comes without them (`Trajectory.without_verdicts`). A view
given a `SeenTrajectory` (the trajectory page's tabs, Compare's pair, the Tasks page's attempts)
has nothing to draw of a verdict it may not show, whatever it forgets.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.trajectory_model import Trajectory
from webeval_core.runs.viewing import Item, Viewer, Withheld

__all__ = ["SeenTrajectory", "trajectory_seen_by"]


class SeenTrajectory(BaseModel):
    """A trajectory as one viewer may see it (`trajectory_seen_by`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    trajectory: Trajectory
    """The trajectory: whole when its verdicts were disclosed, else without them (no score file,
    no eval_result.json, no harness reward)."""
    item: Item
    """(run key, task id): what the viewer was asked about."""
    disclosed: bool = False
    """The viewer let its verdicts through (recorded as shown where that matters): a view may also
    compute them now (the evaluator's live verdict, a run report's rows)."""
    withheld: Withheld | None = None
    """Why its verdicts were kept back; None when they were not (disclosed, or nothing to disclose)."""
    detail: str = ""
    """The store's message when recording failed; empty otherwise."""

    def again(self, trajectory: Trajectory) -> SeenTrajectory:
        """A newer read of the same folder under this decision (a running task's replay reads its
        folder every few seconds): whole only when this one's verdicts were disclosed, so a score
        file written since is not shown to whom nobody asked.
        """
        if trajectory.task_id != self.item[1]:
            raise ValueError(f"task {trajectory.task_id} is not the item {self.item[1]} seen")
        shown = trajectory if self.disclosed else trajectory.without_verdicts()
        return self.model_copy(update={"trajectory": shown})


def trajectory_seen_by(
    viewer: Viewer | None, trajectory: Trajectory, item: Item, *, evaluable: bool = False
) -> SeenTrajectory:
    """`trajectory` (the item `item`) as `viewer` may see it: its verdicts disclosed by the viewer
    (recorded as shown first), else left out; no viewer, none.

    `evaluable`: a view can compute a verdict of it now (its task is in the official catalog), so
    the viewer is asked even when no file of it holds one yet. Nothing to show, nothing asked (a
    trajectory nobody judged is not recorded as shown), but one held blind says so still.
    """
    if not (evaluable or trajectory.judged):
        held = viewer is not None and item in viewer.holds([item])
        return SeenTrajectory(
            trajectory=trajectory, item=item, withheld=Withheld.BLIND_PASS if held else None
        )
    disclosed = viewer.disclose([item]) if viewer is not None else None
    if disclosed is not None and item in disclosed.shown:
        return SeenTrajectory(trajectory=trajectory, item=item, disclosed=True)
    return SeenTrajectory(
        trajectory=trajectory.without_verdicts(),
        item=item,
        withheld=disclosed.why if disclosed is not None and disclosed.why else Withheld.NO_VIEWER,
        detail=disclosed.detail if disclosed is not None else "",
    )
