"""`load_trajectory`: a trajectory folder read by the format that claims it (`reading.formats`),
into `trajectory_model.Trajectory`, with what readers of several formats share: how a folder
without an answer ended (`answerless_ending`), a crash's reason from core.log's last error.

Loading never writes into the folder and never opens a path that leads out of it (`folderreader`).
Every problem becomes a warning naming the file and line; `UnreadableError` is raised only when
the folder holds nothing usable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webeval_core.reading.actionlog import Step
from webeval_core.reading.coordinates import Point
from webeval_core.reading.folderreader import LOG_READ_LIMIT, FolderReader, folder_format, read_guarded
from webeval_core.reading.markers import CORE_LOG_NAME
from webeval_core.reading.task_state import ending_without_answer
from webeval_core.reading.trajectory_model import (
    Ending,
    FinalAnswer,
    Layout,
    Times,
    TokenUsage,
    Trajectory,
)

__all__ = [
    "Ending",
    "FinalAnswer",
    "Layout",
    "Point",
    "Step",
    "Times",
    "TokenUsage",
    "Trajectory",
    "load_trajectory",
    "trajectory_json",
]


_REASON_CHARS = 300


def load_trajectory(path: Path) -> Trajectory:
    """Read a trajectory folder of any registered format; raises UnreadableError only when nothing is usable.

    Whatever goes wrong inside one folder, even an error no reader foresaw, becomes that
    folder's UnreadableError, so a list of folders never stops at one.
    """
    return read_guarded(Path(path), _load)


def _load(reader: FolderReader) -> Trajectory:
    return folder_format(reader).load(reader)


def trajectory_json(t: Trajectory) -> dict[str, Any]:
    """The shape `webeval show --json` prints."""
    return {
        "task_id": t.task_id,
        "task_text": t.task_text.model_dump(mode="json") if t.task_text else None,
        "layout": t.layout,
        "outcome": t.outcome,
        "path": str(t.path),
        "log_generation": t.log_generation,
        "final_answer": t.final_answer_text,
        "answer_file": t.answer_file,
        "steps": [step.model_dump(mode="json") for step in t.steps],
        "screenshots": list(t.screenshots),
        "coordinate_scaling": str(t.coordinate_scaling) if t.coordinate_scaling else None,
        "duration_s": t.duration_s,
        "utc_offset_s": t.utc_offset_s,
        "token_usage": t.token_usage.model_dump(mode="json"),
        "scores": {
            name: {
                "score": sf.score,
                "response": sf.response if sf.response is not None else sf.response_text,
            }
            for name, sf in t.scores.items()
        },
        "har_path": str(t.har_path) if t.har_path else None,
        "eval_result": t.eval_result,
        "core_log_errors": [line.model_dump(mode="json") for line in t.error_lines],
        "warnings": [str(w) for w in t.warnings],
    }


def crash_reason(last_error: str | None) -> str:
    """Why a crashed task crashed, from the message of core.log's last error (None: it logged none)."""
    return last_error_line(last_error) if last_error is not None else "core.log logs no error"


def last_error_line(message: str) -> str:
    """The line of an error record that says what failed: a traceback's last line, else its first."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return "an error without a message"
    return (lines[-1] if len(lines) > 1 else lines[0])[:_REASON_CHARS]


def answerless_ending(reader: FolderReader, missing: str, over: bool) -> Ending:
    """A folder without an answer (`missing` names what it lacks): aborted when its task is `over`
    (its format's word) or crashed, unfinished while it runs (the task state's rule), with the
    warning that says which.
    """
    ending = ending_without_answer(over, reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT))
    if ending == "aborted":
        reader.warn(missing, "missing: the run stopped before writing an answer; counted as aborted")
    else:
        reader.warn(missing, "missing: the task has not finished; left out of every rate until it does")
    return ending
