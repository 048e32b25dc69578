"""Online-Mind2Web result folders, what WebJudge reads: `<results>/<task_id>/result.json` (either
generation) with its `trajectory/` screenshots; the results folder is the run, named after the
agent that ran (`seeact-gpt-4o`, `browser_use`): its name is the run's system (`run_folder`).
The runners make `<task_id>/trajectory/` first, save a screenshot into it at every step (named by
its step's number: `0.png`, `3_full_screenshot.png`) and write result.json once the task is done,
so a folder holding one is over, and a folder holding only its `trajectory/` of numbered
screenshots (and logs) is a task being run. Read by `reading.mind2web_reader`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.reading.formats import RunPlace, TaskEnd
from webeval_core.reading.markers import SCORES_DIR

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.glance import Glance
    from webeval_core.reading.trajectory_reader import Trajectory

RESULT = "result.json"
"""A task's result, as Online-Mind2Web's runners write it."""
SCREENSHOTS_DIR = "trajectory"
"""The folder of its screenshots."""
V2 = "online-mind2web-v2"
"""The second generation's `schema_version`."""
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
"""The screenshots' kinds."""
FRAMES_LISTED = 4096
"""Entries of a running task's `trajectory/` looked at to tell it is one (a runner's holds a few hundred)."""
_NUMBERED = re.compile(r"\d")


def is_running_task(folder: str, names: Collection[str]) -> bool:
    """Whether a folder without result.json is an Online-Mind2Web task being run: it holds a
    `trajectory/` folder of numbered screenshots (at least one; nothing else but hidden files) and
    nothing else but our `scores/` and files (a name with a suffix: logs). The name `trajectory` is
    common, so its listing is the evidence: one listing, only where that name is.
    """
    if SCREENSHOTS_DIR not in names or RESULT in names:
        return False
    if any(n not in (SCREENSHOTS_DIR, SCORES_DIR) and "." not in n for n in names):
        return False  # another sub-folder: no runner's task folder (steps/, agent/, traj/...)
    return _numbered_frames(os.path.join(folder, SCREENSHOTS_DIR))


def _numbered_frames(where: str) -> bool:
    found = False
    try:
        with os.scandir(where) as entries:
            for number, entry in enumerate(entries):
                if number >= FRAMES_LISTED or entry.name.startswith("."):
                    continue
                name = entry.name.lower()
                if not (name.endswith(IMAGE_SUFFIXES) and _NUMBERED.search(name) and entry.is_file()):
                    return False
                found = True
    except OSError:
        return False
    return found


class Mind2Web:
    """An Online-Mind2Web task result (see the module docstring)."""

    name = "online-mind2web"
    title = "Online-Mind2Web result"
    holds = f"{RESULT} with its {SCREENSHOTS_DIR}/ screenshots (Online-Mind2Web results)"
    markers = ()  # result.json alone is other tools' name too (a Harbor trial's)
    watched = frozenset({RESULT, SCREENSHOTS_DIR})  # trajectory/: a running task's screenshots land in it
    watched_suffixes = ()
    tasks_dir = ""

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        """result.json beside a trajectory/ folder (a result.json alone when the folder is named);
        a task being run (`is_running_task`: one listing of trajectory/, only where it is).
        """
        if RESULT in names:
            return SCREENSHOTS_DIR in names or asked
        return is_running_task(folder, names)

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        """The results folder, the tasks' parent, its name the agent's (the run's system); None
        for a path that is no task of its (a stat of trajectory/ tells; the root's own folder is
        the default's).
        """
        results = trajectory_dir.parent
        if trajectory_dir == Path(root):
            return None
        if not (trajectory_dir / SCREENSHOTS_DIR).is_dir():
            return None
        return RunPlace(results, results_facts(results))

    def glance(self, reader: FolderReader) -> Glance:
        """result.json read, trajectory/ listed."""
        from webeval_core.reading.mind2web_reader import glance_mind2web

        return glance_mind2web(reader)

    def load(self, reader: FolderReader) -> Trajectory:
        """Steps, thoughts, screenshots, the answer and the task."""
        from webeval_core.reading.mind2web_reader import load_mind2web

        return load_mind2web(reader)

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        """Over once result.json is written: the outcome its glance reads."""
        if RESULT not in reader.names:
            return None
        from webeval_core.reading.glance import glance_end

        return glance_end(self.glance(reader), RESULT)


def results_facts(results: Path) -> tuple[tuple[str, str], ...]:
    """What a results folder's name says: the agent that ran, with its model when the runner
    names it so (`seeact-gpt-4o`, `browser_use`): the run's system.
    """
    return (("system", results.name),) if results.name else ()


FORMAT = Mind2Web()
"""The Online-Mind2Web format, as the registry holds it."""
