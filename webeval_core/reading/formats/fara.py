"""Fara's webeval folders: `web_surfer.log`, one `<task_id>_final_answer.json`, screenshots,
times.json, core.log, optional task_data.json and network.har, our `scores/`. A run's folders sit
in `<system>/<model>/<user>/<benchmark>/<run_id>/traj/<task_id>/`; a folder of `traj/` holding only
core.log is a task that crashed (or one a resume is starting again). A task is over once
times.json is written (Fara's run loop writes it after the answer file, when the task returned; a
resume runs every folder without it again), or once the official CLI judged it (eval_result.json).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.reading.formats import RunPlace, TaskEnd
from webeval_core.reading.markers import (
    ANSWER_SUFFIX,
    CORE_LOG_NAME,
    CRASHED_PARENT,
    EVAL_RESULT_NAME,
    LOG_NAME,
    TIMES_NAME,
    any_name_ends_with,
)

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.glance import Glance
    from webeval_core.reading.trajectory_model import Trajectory

_RUN_FACTS = ("system", "model", "user", "benchmark", "run_id")
OVER = (TIMES_NAME, EVAL_RESULT_NAME)
"""The files whose presence says a Fara task's run is over (whatever its outcome)."""


def is_over(names: Collection[str]) -> bool:
    """Whether a Fara folder listing `names` is a task whose run is over (`OVER`)."""
    return any(name in names for name in OVER)


class Fara:
    """Fara's webeval folder (see the module docstring)."""

    name = "fara"
    title = "Fara webeval folder"
    holds = f"{LOG_NAME} or <task_id>{ANSWER_SUFFIX.replace('_answer', '_final_answer')} (Fara's layout)"
    markers = (LOG_NAME,)
    watched = frozenset(
        {LOG_NAME, "times.json", CORE_LOG_NAME, "task_data.json", "eval_result.json", "network.har"}
    )
    watched_suffixes = (ANSWER_SUFFIX,)
    tasks_dir = CRASHED_PARENT

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        """An answer file or web_surfer.log; core.log alone in `traj/` (anywhere when asked)."""
        if LOG_NAME in names or any_name_ends_with(names, ANSWER_SUFFIX):
            return True
        return CORE_LOG_NAME in names and (asked or Path(folder).parent.name == CRASHED_PARENT)

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        """`<...>/traj/<task>`: the folder above `traj/`, with the five names above it as facts."""
        run_dir = trajectory_dir.parent
        if run_dir.name != CRASHED_PARENT or run_dir == Path(root):
            return None
        run_dir = run_dir.parent
        try:
            parts = run_dir.relative_to(root).parts  # folders above the root say nothing of a run
        except ValueError:
            parts = ()
        facts = tuple(zip(_RUN_FACTS, parts[-5:], strict=True)) if len(parts) >= len(_RUN_FACTS) else ()
        return RunPlace(run_dir, facts)

    def glance(self, reader: FolderReader) -> Glance:
        """The index's glance (answer, steps counted, times, core.log's last error)."""
        from webeval_core.reading.fara_reader import glance_fara

        return glance_fara(reader)

    def load(self, reader: FolderReader) -> Trajectory:
        """Steps with their screenshots, points and UTC times; a crashed task's reason."""
        from webeval_core.reading.fara_reader import load_fara

        return load_fara(reader)

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        """Over once times.json (or eval_result.json) is written: what its answer file says then,
        aborted without a usable one.
        """
        marker = next((name for name in OVER if name in reader.names), None)
        if marker is None:
            return None
        from webeval_core.reading.fara_reader import choose_answer_file, read_answer
        from webeval_core.reading.task_state import answer_outcome

        chosen = choose_answer_file(reader, reader.answer_files())
        answer = read_answer(reader, chosen) if chosen is not None else None
        if answer is None:
            return TaskEnd("aborted", marker)
        return TaskEnd(answer_outcome(answer.is_aborted, answer.final_answer), marker)


FORMAT = Fara()
"""The Fara format, as the registry holds it."""
