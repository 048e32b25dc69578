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

from webeval_core.reading.corelog import last_error_message
from webeval_core.reading.folderreader import (
    LOG_READ_LIMIT,
    FolderReader,
    Listing,
    folder_format,
    read_guarded,
)
from webeval_core.reading.formats import TaskEnd
from webeval_core.reading.markers import CORE_LOG_NAME, EVAL_RESULT_NAME, SCORES_DIR, TASK_DATA_NAME
from webeval_core.reading.scorefiles import ScoreFile, read_score_files
from webeval_core.reading.taskdata import site_of, task_text_of
from webeval_core.reading.trajectory_model import Ending, Layout, TokenUsage
from webeval_core.reading.trajectory_reader import crash_reason
from webeval_core.support.diagnostics import Diagnostic


class Glance(BaseModel):
    """What the index keeps of one trajectory folder, each field as `Trajectory` gives it unless
    its docstring says otherwise.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    """The task's id (`Trajectory.task_id`)."""
    layout: Layout
    """The name of the format that read it (`Trajectory.layout`)."""
    outcome: Ending
    """Answered, no answer or aborted (`Trajectory.outcome`)."""
    steps: int = 0
    """How many actions the agent took (`len(Trajectory.steps)`), counted without building them."""
    screenshots: int = 0
    """Screenshot FILES by name (`count_screenshots`): unlike `Trajectory.screenshots`, a file of the
    right name that is not a PNG or leads out of the folder still counts; a cube-harness episode's are
    inside its observation step files, which a glance counts without decompressing them (one screenshot
    each, as cube-harness's browser tool takes them)."""
    duration_s: float | None = None
    """How long the solver ran, in seconds (`Trajectory.duration_s`)."""
    token_usage: TokenUsage = TokenUsage()
    """LLM tokens summed over every component (`Trajectory.token_usage`)."""
    final_answer_text: str | None = None
    """The agent's answer (`Trajectory.final_answer_text`); None for an AgentLab episode, whose answer
    is in a step pickle, which a glance never opens (a cube-harness episode's last act file is read
    as far as its actions: within the decompression bound even where the whole file is not)."""
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
    """Why the task crashed: its harness recorded that it raised, or it is not over and core.log's
    last attempt raised (`Trajectory.crash_reason`)."""
    task_text: str | None = None
    """The task as task_data.json states it (`Trajectory.task_text`'s text); None when it does not."""
    site: str | None = None
    """The task's website as task_data.json names it (`taskdata.site_of`); None when it does not."""
    warnings: tuple[Diagnostic, ...] = ()
    """The problems this glance met: a subset of `Trajectory.warnings` (what the full reader finds in
    the steps, screenshots and task data, which a glance does not read, is not among them)."""


def glance_trajectory(path: Path, listing: Listing | None = None) -> Glance:
    """Glance at a trajectory folder of any registered format; raises UnreadableError exactly when
    `load_trajectory` does (with the same reason), so the index keeps the same unreadable folders.
    `listing`: the folder's, when the caller has just listed it.
    """
    return read_guarded(path if isinstance(path, Path) else Path(path), _glance, listing)


def _glance(reader: FolderReader) -> Glance:
    return folder_format(reader).glance(reader)


def glance_end(glance: Glance, marker: str) -> TaskEnd | None:
    """A task's end as its format's glance says it (`TrajectoryFormat.ended` of a format whose
    `marker` file says the run is over and whose glance reads the rest): its outcome and crash;
    None when the glance finds it unfinished.
    """
    if glance.outcome == "unfinished":
        return None
    return TaskEnd(glance.outcome, marker, glance.crash_reason)


def glance_with_common_files(reader: FolderReader, found: dict[str, Any], *, crashed: bool = False) -> Glance:
    """The glance of a format's own `found` fields (Glance's names) with what any trajectory folder
    may hold read too: core.log's last error (a crash's reason when `crashed`), our `scores/`,
    task_data.json and the official CLI's eval_result.json.
    """
    last_error = _last_error(reader)
    if crashed:
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


def _last_error(reader: FolderReader) -> str | None:
    data = reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT)
    return last_error_message(data) if data is not None else None
