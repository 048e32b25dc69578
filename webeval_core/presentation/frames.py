"""The frames a trajectory is replayed as, and what the overlay draws on each: shared by the app's
replay, its side-by-side comparison and the standalone HTML page, so all three show the same.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from webeval_core.presentation.overlay import action_label
from webeval_core.reading.actionlog import Step
from webeval_core.reading.trajectory import Trajectory


class Frame(NamedTuple):
    """One stop of a replay: an agent step, or a bare screenshot when the log has no steps."""

    number: int
    """The step index, or the screenshot's position when there are no steps."""
    screenshot: str | None
    step: Step | None


def frames_of(trajectory: Trajectory) -> list[Frame]:
    if trajectory.steps:
        return [Frame(s.index, s.screenshot, s) for s in trajectory.steps]
    return [Frame(i, name, None) for i, name in enumerate(trajectory.screenshots, start=1)]


def step_point(step: Step | None) -> tuple[float, float] | None:
    return (step.point.x, step.point.y) if step is not None and step.point is not None else None


def step_marks(step: Step | None) -> dict[str, Any]:
    """The keyword arguments of `overlay.frame_image` for a step: its point, the typed text or
    scroll as a label, the scroll arrow.
    """
    if step is None:
        return {}
    return {
        "point": step_point(step),
        "label": action_label(step.action, step.typed_text, step.scroll, step.arguments),
        "scroll": step.scroll,
    }
