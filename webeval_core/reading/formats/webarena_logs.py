"""WebArena-Verified's agent logs, the official CLI's `<task_id>/` folders: agent_response.json
and network.har (or a Playwright trace), optional eval_result.json once the CLI judged it. A task
folder holding its trace and no agent_response.json yet is a task still running, or one that died
before answering: it is listed too, in the state `reading.task_state` gives it. The task is over
once agent_response.json is written (the agent's last act), or once the CLI judged the folder.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.reading.formats import TaskEnd
from webeval_core.reading.markers import (
    AGENT_RESPONSE,
    CORE_LOG_NAME,
    EVAL_RESULT_NAME,
    HAR_NAME,
    TASK_DATA_NAME,
    is_trace_name,
)

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.formats import RunPlace
    from webeval_core.reading.glance import Glance
    from webeval_core.reading.trajectory_model import Ending, Trajectory


OVER = (AGENT_RESPONSE, EVAL_RESULT_NAME)
"""The files whose presence says the task's run is over: the agent's response, or the CLI's verdict."""


class WebArenaLogs:
    """The official CLI's agent log folder (see the module docstring)."""

    name = "webarena-verified"
    title = "WebArena-Verified agent log"
    holds = f"{AGENT_RESPONSE} with its {HAR_NAME} (WebArena-Verified's agent logs)"
    markers = (AGENT_RESPONSE,)
    watched = frozenset({AGENT_RESPONSE, EVAL_RESULT_NAME, HAR_NAME, CORE_LOG_NAME, TASK_DATA_NAME})
    watched_suffixes = ()
    tasks_dir = ""

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        """agent_response.json; or, in a folder named by a task id, a network trace alone."""
        if AGENT_RESPONSE in names:
            return True
        task_id = os.path.basename(folder.rstrip(os.sep))  # the walk asks every folder: no Path made
        return task_id.isascii() and task_id.isdigit() and any(is_trace_name(n) for n in names)

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        """The CLI's output folder, the task folders' parent: the default."""
        return None

    def glance(self, reader: FolderReader) -> Glance:
        """The answer as written, screenshots counted."""
        from webeval_core.reading.glance import glance_with_common_files
        from webeval_core.reading.screenshots import count_screenshots

        text, outcome = self.read_response(reader)
        found = {
            "task_id": reader.folder.name,
            "layout": self.name,
            "outcome": outcome,
            "final_answer_text": text,
            "screenshots": count_screenshots(reader.folder, reader.names),
        }
        return glance_with_common_files(reader, found)

    def load(self, reader: FolderReader) -> Trajectory:
        """The answer and the trace's path (the network is read by the Network tab)."""
        from webeval_core.reading.screenshots import discover_screenshots
        from webeval_core.reading.trajectory_model import Trajectory

        text, outcome = self.read_response(reader)
        screenshots, problems = discover_screenshots(reader.folder)
        reader.extend(problems)
        return Trajectory(
            path=reader.folder,
            task_id=reader.folder.name,
            layout=self.name,
            outcome=outcome,
            final_answer_text=text,
            screenshots=tuple(frame.name for frame in screenshots.frames),
            **reader.common(),
            warnings=tuple(reader.warnings),
        )

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        """Over once agent_response.json (or eval_result.json) is written: what the response says."""
        marker = next((name for name in OVER if name in reader.names), None)
        if marker is None:
            return None
        _, outcome = self.read_response(reader)
        return TaskEnd(outcome, marker) if outcome != "unfinished" else None

    def read_response(self, reader: FolderReader) -> tuple[str | None, Ending]:
        """agent_response.json's text (None when empty or unreadable) and the outcome it gives; a
        task folder without one yet is aborted or unfinished (`trajectory_reader.answerless_ending`).
        """
        from webeval_core.reading.folderfiles import decode_text
        from webeval_core.reading.trajectory_reader import answerless_ending

        data = reader.read_bytes(AGENT_RESPONSE)
        if data is None:
            return None, answerless_ending(reader, AGENT_RESPONSE, EVAL_RESULT_NAME in reader.names)
        text, decode_problems = decode_text(data, AGENT_RESPONSE)
        reader.extend(decode_problems)
        if not text.strip():
            reader.warn(AGENT_RESPONSE, "is empty: the agent gave no response")
            return None, "no_answer"
        return text, "answered"


FORMAT = WebArenaLogs()
"""The WebArena-Verified agent log format, as the registry holds it."""
