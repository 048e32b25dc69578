"""What a judge is shown of one trajectory: the task, the final answer, the actions and the
screenshots (as paths: encoded only when a request is sent).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.screenshots import png_size
from webeval_core.reading.task_catalog import TaskCatalog, installed_catalog
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory

_ARGUMENT_CHARS = 200  # of one action's arguments in the history a judge reads


class JudgeMaterial(BaseModel):
    """One trajectory as a judge reads it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    folder: Path
    """The trajectory folder."""
    task_id: str
    """Its task id."""
    task: str | None
    """The task as the agent was given it; None when neither the folder nor the catalog says."""
    answer: str | None
    """The agent's final answer; None when it gave none."""
    actions: tuple[str, ...]
    """The action history, one line per step ("3. click {...}"), numbered from 1 as the replay is."""
    screenshots: tuple[Path, ...]
    """The screenshots in order."""

    def with_answer(self, answer: str) -> JudgeMaterial:
        """The same trajectory with another final answer (the "what if" of an edited answer)."""
        return self.model_copy(update={"answer": answer})

    def last_screenshots(self, count: int) -> tuple[Path, ...]:
        """The last `count` screenshots (the outcome judge's view of the end)."""
        return self.screenshots[-count:] if count > 0 else ()

    def image_sizes(self, paths: tuple[Path, ...]) -> list[tuple[int, int] | None]:
        """Each screenshot's size read from its header (for a token estimate)."""
        return [png_size(path) for path in paths]


def material_of(trajectory: Trajectory, catalog: TaskCatalog | None = None) -> JudgeMaterial:
    """What a judge reads of a loaded trajectory (the task from the folder, else the catalog)."""
    task = trajectory.task_text.text if trajectory.task_text is not None else None
    known = catalog or _catalog()
    if task is None and known is not None:
        found = known.get(trajectory.task_id)
        task = found.intent if found is not None else None
    return JudgeMaterial(
        folder=trajectory.path,
        task_id=trajectory.task_id,
        task=task,
        answer=trajectory.final_answer_text,
        actions=tuple(
            _action_line(n, step.action, step.arguments) for n, step in enumerate(trajectory.steps, 1)
        ),
        screenshots=tuple(trajectory.path / name for name in trajectory.screenshots),
    )


def load_material(folder: Path, catalog: TaskCatalog | None = None) -> JudgeMaterial:
    """A trajectory folder read for a judge.

    Raises:
        UnreadableError: when nothing of the folder is usable.
    """
    return material_of(load_trajectory(folder), catalog)


def _action_line(number: int, action: str, arguments: dict[str, object]) -> str:
    shown = json.dumps(arguments, ensure_ascii=False, sort_keys=True, default=str)
    if len(shown) > _ARGUMENT_CHARS:
        shown = shown[: _ARGUMENT_CHARS - 1] + "…"
    return f"{number}. {action} {shown}"


@cache
def _catalog() -> TaskCatalog | None:
    return installed_catalog()
