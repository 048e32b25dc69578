"""A glance at a trajectory folder: only what the index's summary needs, read cheaply.

`load_trajectory` builds every step with its screenshot, point and UTC time, reads each PNG
header, parses core.log and decodes every judge's text; an index of 100,000 folders must not. A
glance reads the same files through the same `FolderReader` (so the same files are refused: links
out of the folder, FIFOs, huge files) and the same rules (layout, answer file, outcome, times),
but counts steps without building them (`actionlog.count_steps`), counts screenshots by name
(`screenshots.count_screenshots`), parses core.log only when it holds an error level, and decodes
only the judge texts a verdict can come from. Its answers equal the full reader's except where
`Glance` says otherwise (screenshots, warnings).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.actionlog import count_steps
from webeval_core.reading.corelog import last_error_message
from webeval_core.reading.folderreader import (
    EVAL_RESULT_NAME,
    LOG_READ_LIMIT,
    TASK_DATA_NAME,
    FolderReader,
    folder_kind,
    read_guarded,
)
from webeval_core.reading.markers import CORE_LOG_NAME
from webeval_core.reading.scorefiles import SCORES_DIR, ScoreFile, read_score_files
from webeval_core.reading.screenshots import count_screenshots
from webeval_core.reading.task_state import ending_without_answer
from webeval_core.reading.taskdata import site_of, task_text_of
from webeval_core.reading.trajectory_reader import (
    NO_ANSWER_MARKER,
    Ending,
    Layout,
    TokenUsage,
    answer_task_id,
    crash_reason,
    fara_outcome,
    read_agent_response,
    read_fara_answer_and_log,
    read_times,
)
from webeval_core.support.diagnostics import Diagnostic


class Glance(BaseModel):
    """What the index keeps of one trajectory folder, each field as `Trajectory` gives it unless
    its docstring says otherwise.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    """The task's id (`Trajectory.task_id`)."""
    layout: Layout
    """The folder layout (`Trajectory.layout`)."""
    outcome: Ending
    """Answered, no answer or aborted (`Trajectory.outcome`)."""
    steps: int = 0
    """How many actions the agent took (`len(Trajectory.steps)`), counted without building them."""
    screenshots: int = 0
    """Screenshot FILES by name (`count_screenshots`): unlike `Trajectory.screenshots`, a file of the
    right name that is not a PNG or leads out of the folder still counts."""
    duration_s: float | None = None
    """How long the solver ran, in seconds (`Trajectory.duration_s`)."""
    token_usage: TokenUsage = TokenUsage()
    """LLM tokens summed over every component (`Trajectory.token_usage`)."""
    final_answer_text: str | None = None
    """The agent's answer (`Trajectory.final_answer_text`)."""
    scores: dict[str, ScoreFile] = {}
    """The readable score files (`Trajectory.scores`), with `response` decoded only where it may hold
    an `engine` key (the stored evaluations verdicts are read from) or taxonomy codes (a verifier's),
    None elsewhere."""
    eval_result: dict[str, Any] | None = None
    """eval_result.json as written (`Trajectory.eval_result`)."""
    last_error: str | None = None
    """The message of core.log's last error record (`Trajectory.error_lines[-1].message`); None when
    it logged no error."""
    crash_reason: str | None = None
    """Why the task crashed, when core.log is all the folder holds (`Trajectory.crash_reason`)."""
    task_text: str | None = None
    """The task as task_data.json states it (`Trajectory.task_text`'s text); None when it does not."""
    site: str | None = None
    """The task's website as task_data.json names it (`taskdata.site_of`); None when it does not."""
    warnings: tuple[Diagnostic, ...] = ()
    """The problems this glance met: a subset of `Trajectory.warnings` (what the full reader finds in
    the steps, screenshots and task data, which a glance does not read, is not among them)."""


def glance_trajectory(path: Path) -> Glance:
    """Glance at a trajectory folder of either layout; raises UnreadableError exactly when
    `load_trajectory` does (with the same reason), so the index keeps the same unreadable folders.
    """
    return read_guarded(path if isinstance(path, Path) else Path(path), _glance)


def _glance(reader: FolderReader) -> Glance:
    kind = folder_kind(reader)
    if kind == "fara":
        found = _fara(reader)
    elif kind == "webarena-verified":
        text, outcome = read_agent_response(reader)
        found = {
            "task_id": reader.folder.name,
            "layout": "webarena-verified",
            "outcome": outcome,
            "final_answer_text": text,
            "screenshots": count_screenshots(reader.folder, reader.names),
        }
    else:
        outcome = ending_without_answer(reader.names, reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT))
        found = {"task_id": reader.folder.name, "layout": "fara", "outcome": outcome}
    last_error = _last_error(reader)
    if kind == "crashed" and found["outcome"] == "aborted":
        found["crash_reason"] = crash_reason(last_error)
    scores: dict[str, ScoreFile] = {}
    if SCORES_DIR in reader.names:  # else listing it fails, which the full reader ignores
        scores, problems = read_score_files(reader.folder, responses="engine")
        reader.extend(problems)
    task_data = reader.read_object(TASK_DATA_NAME)
    task_text = task_text_of(task_data)
    return Glance(
        **found,
        task_text=task_text.text if task_text is not None else None,
        site=site_of(task_data),
        scores=scores,
        eval_result=reader.read_object(EVAL_RESULT_NAME),
        last_error=last_error,
        warnings=tuple(reader.warnings),
    )


def _fara(reader: FolderReader) -> dict[str, Any]:
    answer_file, answer, log_data = read_fara_answer_and_log(reader)
    times = read_times(reader)
    text = answer.final_answer if answer is not None else NO_ANSWER_MARKER
    return {
        "task_id": answer_task_id(answer_file) if answer_file else reader.folder.name,
        "layout": "fara",
        "outcome": fara_outcome(reader, answer),
        "final_answer_text": text if text != NO_ANSWER_MARKER else None,
        "steps": count_steps(log_data) if log_data is not None else 0,
        "screenshots": count_screenshots(reader.folder, reader.names, answer.screenshots if answer else ()),
        "duration_s": times.solver_seconds if times is not None else None,
        "token_usage": answer.total_usage if answer is not None else TokenUsage(),
    }


def _last_error(reader: FolderReader) -> str | None:
    data = reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT)
    return last_error_message(data) if data is not None else None
