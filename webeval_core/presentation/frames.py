"""The frames a trajectory is replayed as, and what the overlay draws on each: shared by the app's
replay, its side-by-side comparison and the standalone HTML page, so all three show the same.

This module decides what a step shows (its point, its label, its scroll); `overlay` only draws
those plain values on pixels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from webeval_core.reading.actionlog import Step
from webeval_core.reading.trajectory_reader import Trajectory

if TYPE_CHECKING:
    from webeval_core.presentation.overlay import PixelXY

_LABEL_MAX_CHARS = 80
# Arguments naming what an action without a point did (visit_url, web_search, key, terminate...).
_SHOWN_ARGUMENTS = ("url", "query", "keys", "fact", "status")


class Frame(NamedTuple):
    """One stop of a replay: an agent step, or a bare screenshot when the log has no steps."""

    number: int
    """The step index, or the screenshot's position when there are no steps."""
    screenshot: str | None
    """The screenshot shown, relative to the trajectory folder; None when the step has none."""
    step: Step | None
    """The agent step shown; None when the log has no steps and only the screenshot is replayed."""


def frames_of(trajectory: Trajectory) -> list[Frame]:
    """The replay of a trajectory: one frame per step (then the page the last step led to, where the
    harness keeps it apart: `Trajectory.final_page`), else one per screenshot when it has no steps.
    """
    if trajectory.steps:
        frames = [Frame(s.index, s.screenshot, s) for s in trajectory.steps]
        if trajectory.final_page is not None:
            frames.append(Frame(trajectory.steps[-1].index + 1, trajectory.final_page, None))
        return frames
    return [Frame(i, name, None) for i, name in enumerate(trajectory.screenshots, start=1)]


def step_point(step: Step | None) -> PixelXY | None:
    """Where the step's action aimed, in its screenshot's pixels; None without a step or a point."""
    return (step.point.x, step.point.y) if step is not None and step.point is not None else None


def action_label(
    action: str,
    typed_text: str | None = None,
    scroll: str | None = None,
    arguments: Mapping[str, Any] | None = None,
) -> str | None:
    """The words drawn beside the mark (or top-left for actions without a point): what was
    typed, which way the page scrolled, or the argument that says what a pointless action did.
    """
    if typed_text is not None:
        return _shorten(f"type: {typed_text!r}")
    if scroll:
        return f"scroll {scroll}"
    for name in _SHOWN_ARGUMENTS:
        value = (arguments or {}).get(name)
        if value not in (None, "", []):
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            return _shorten(f"{action}: {shown}")
    return None


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


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LABEL_MAX_CHARS else text[: _LABEL_MAX_CHARS - 3] + "..."
