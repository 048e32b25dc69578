"""The Trajectory model and `load_trajectory` for both folder layouts.

- Fara webeval folder: web_surfer.log, one `<task_id>_final_answer.json`, screenshots,
  times.json, core.log, optional task_data.json, scores/*.json, optional network.har.
- WebArena-Verified agent-log folder (the official CLI's `<task_id>/`): agent_response.json,
  network.har, optional eval_result.json.

Loading never writes into the folder and never opens a path that leads out of it (`folderreader`).
Every problem becomes a warning naming the file and line; `UnreadableError` is raised only when
the folder holds nothing usable.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from webeval_core.reading.actionlog import ActionLog, Step, logged_coordinate, parse_action_log
from webeval_core.reading.coordinates import MODEL_SIZE, Point, Scaling
from webeval_core.reading.corelog import CoreLogLine
from webeval_core.reading.folderfiles import decode_text
from webeval_core.reading.folderreader import (
    LOG_READ_LIMIT,
    TIMES_NAME,
    FolderReader,
    folder_kind,
    read_guarded,
)
from webeval_core.reading.logrecords import Generation
from webeval_core.reading.markers import (
    AGENT_RESPONSE,
    ANSWER_SUFFIX,
    CORE_LOG_NAME,
    LOG_NAME,
)
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.reading.screenshots import Screenshots, discover_screenshots
from webeval_core.reading.task_state import ending_without_answer
from webeval_core.reading.taskdata import TaskText
from webeval_core.support.diagnostics import Diagnostic, UnreadableError

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

NO_ANSWER_MARKER = "<no_answer>"
FINAL_ANSWER_SUFFIX = "_final_answer.json"

Ending = Literal["answered", "no_answer", "aborted", "unfinished"]
"""How the agent's run ended: it answered, stopped without an answer, or crashed; or it has not
ended yet (`reading.task_state`). `review.Outcome` is the other question: did it succeed."""
Layout = Literal["fara", "webarena-verified"]

_REASON_CHARS = 300
_OFFSET_STEP_S = 15 * 60  # real UTC offsets are whole quarter hours
_MAX_OFFSET_S = 14 * 3600
MAX_DURATION_S = 10 * 365 * 24 * 3600
"""Seconds above which times.json's duration is a broken number (read with a warning)."""


class TokenUsage(BaseModel):
    """LLM tokens of one component (or a sum); newer writers add reasoning_tokens and num_calls."""

    model_config = ConfigDict(frozen=True, extra="allow")

    prompt_tokens: int = 0
    """Tokens sent to the LLM (prompts, images included), summed over its calls."""
    completion_tokens: int = 0
    """Tokens the LLM generated, summed over its calls."""
    reasoning_tokens: int | None = None
    """Tokens spent on hidden reasoning; None when the writer does not record them."""
    num_calls: int | None = None
    """How many LLM calls were made; None when the writer does not record it."""

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            reasoning_tokens=_add_optional(self.reasoning_tokens, other.reasoning_tokens),
            num_calls=_add_optional(self.num_calls, other.num_calls),
        )


class FinalAnswer(BaseModel):
    """`<task_id>_final_answer.json`, with upstream's defaults; unknown keys are kept."""

    model_config = ConfigDict(frozen=True, extra="allow")

    final_answer: str = NO_ANSWER_MARKER
    """The agent's answer text (a structured answer as its JSON text); "<no_answer>" when it gave none."""
    env_state_json: Any = NO_ANSWER_MARKER
    """The environment's state as the harness recorded it (any JSON); "<no_answer>" when not recorded."""
    env_state_raw: Any = NO_ANSWER_MARKER
    """The environment's raw state as the harness recorded it; "<no_answer>" when not recorded."""
    screenshots: list[str] = []
    """Screenshot paths as the writer listed them (relative when `is_rel_paths`); never trusted as is."""
    is_aborted: bool = False
    """Whether the run stopped before the agent finished (the trajectory is left out of success rates)."""
    is_rel_paths: bool = True
    """Whether `screenshots` are relative to the folder (absolute otherwise)."""
    token_usage: dict[str, TokenUsage] = {}
    """LLM token counts per component (e.g. the agent, the judge), as the writer names them."""

    @property
    def total_usage(self) -> TokenUsage:
        """LLM token counts summed over every component."""
        return sum(self.token_usage.values(), TokenUsage())

    @field_validator("final_answer", mode="before")
    @classmethod
    def _structured_answer_as_text(cls, value: Any) -> Any:
        # Some agents write the structured response itself; scorers expect its JSON text.
        return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value


class Times(BaseModel):
    """times.json: unix seconds around the solver run."""

    # The harness writes this file: keys a newer writer adds are not ours to refuse.
    model_config = ConfigDict(frozen=True, extra="ignore")

    start_time: float | None = None
    """When the solver started, in unix seconds; None when not recorded."""
    end_time: float | None = None
    """When the solver ended, in unix seconds; None when not recorded."""
    duration: float | None = None
    """How long the solver ran, in seconds; None when not recorded."""

    @property
    def solver_seconds(self) -> float | None:
        """How long the solver ran, in seconds (`duration`, else end - start); None if unknown."""
        if self.duration is not None:
            return self.duration
        if self.start_time is not None and self.end_time is not None:
            return self.end_time - self.start_time  # both checked to be real times
        return None


class Trajectory(BaseModel):
    """Everything one trajectory folder says, checked and cross-referenced."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The trajectory folder, as given to `load_trajectory`."""
    task_id: str
    """The task's id: from the answer file's name (Fara), else the folder's name."""
    layout: Layout
    """Which writer's folder layout it is: Fara webeval or the WebArena-Verified CLI's agent log."""
    outcome: Ending
    """Whether the agent answered, ran out of budget without an answer, or the run was aborted."""
    final_answer: FinalAnswer | None = None
    """The `*_final_answer.json` read (Fara layout); None when missing, unreadable or the other layout."""
    answer_file: str | None = None
    """The answer file read, relative to the folder; None when there is none."""
    final_answer_text: str | None = None
    """The agent's answer (Fara) or agent_response.json's text; None when the agent gave none."""
    steps: tuple[Step, ...] = ()
    """The agent's actions with their screenshots, points and UTC times; empty without a web_surfer.log."""
    screenshots: tuple[str, ...] = ()
    """Relative paths of PNGs inside the folder, in order."""
    coordinate_scaling: Scaling | None = None
    """How logged coordinates were mapped to PNG pixels (the first size seen); None when no step has one."""
    times: Times | None = None
    """times.json; None when missing or not understood."""
    core_log: tuple[CoreLogLine, ...] = ()
    """core.log's records in file order; empty when there is no core.log."""
    task_data: dict[str, Any] | None = None
    """task_data.json as written (the rubric verifier's data); None when missing or unreadable."""
    task_text: TaskText | None = None
    """The task as the folder states it (task_data.json), with its source; None when it does not."""
    scores: dict[str, ScoreFile] = {}
    """The readable `scores/*.json` files, by file stem."""
    har_path: Path | None = None
    """The network trace inside the folder (not read here): network.har, else a Playwright trace
    (a zip, or trace.network); None when missing or leading outside the folder."""
    eval_result: dict[str, Any] | None = None
    """eval_result.json as written by the official CLI; None when missing or unreadable."""
    crash_reason: str | None = None
    """Why the task crashed, from core.log's last error line, when core.log is all the folder holds
    (re-executing a crashed task deletes everything else); such a trajectory is aborted. None otherwise."""
    log_generation: Generation | None = None
    """Which writer produced web_surfer.log; None when it holds no action or the layout has none."""
    utc_offset_s: float | None = None
    """Inferred offset of the log's naive local times in seconds (local minus UTC); None without log times."""
    warnings: tuple[Diagnostic, ...] = ()
    """Everything skipped or guessed while loading, each naming its file and line."""

    @property
    def duration_s(self) -> float | None:
        """How long the solver ran, in seconds (times.json's duration, else end - start); None if unknown."""
        return self.times.solver_seconds if self.times is not None else None

    @property
    def token_usage(self) -> TokenUsage:
        """LLM token counts summed over every component of the answer file (zero without one)."""
        return self.final_answer.total_usage if self.final_answer else TokenUsage()

    @property
    def error_lines(self) -> tuple[CoreLogLine, ...]:
        """The core.log records logged at ERROR level or above, in file order."""
        return tuple(line for line in self.core_log if line.is_error)


def load_trajectory(path: Path) -> Trajectory:
    """Read a trajectory folder of either layout; raises UnreadableError only when nothing is usable.

    Whatever goes wrong inside one folder, even an error no reader foresaw, becomes that
    folder's UnreadableError, so a list of folders never stops at one.
    """
    return read_guarded(Path(path), _load)


def _load(reader: FolderReader) -> Trajectory:
    kind = folder_kind(reader)
    if kind == "fara":
        return _load_fara(reader)
    if kind == "webarena-verified":
        return _load_webarena_verified(reader)
    return _load_crashed(reader)


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


def read_fara_answer_and_log(reader: FolderReader) -> tuple[str | None, FinalAnswer | None, bytes | None]:
    """A Fara folder's answer file name, its answer and web_surfer.log's bytes (each None when
    missing or unusable); UnreadableError when neither the answer nor the log is usable.
    """
    answer_file = choose_answer_file(reader, reader.answer_files())
    answer = read_answer(reader, answer_file) if answer_file else None
    if LOG_NAME not in reader.names:
        reader.warn(LOG_NAME, "missing: the trajectory has no steps to show")
    log_data = reader.read_bytes(LOG_NAME, LOG_READ_LIMIT)
    if answer is None and log_data is None:
        problems = "; ".join(str(w) for w in reader.warnings)
        raise UnreadableError(
            reader.folder, f"neither a usable answer file nor a readable web_surfer.log ({problems})"
        )
    return answer_file, answer, log_data


def _load_fara(reader: FolderReader) -> Trajectory:
    folder = reader.folder
    answer_file, answer, log_data = read_fara_answer_and_log(reader)
    log = parse_action_log(log_data) if log_data is not None else ActionLog()
    reader.extend(log.diagnostics)
    screenshots, frame_problems = discover_screenshots(
        folder, answer.screenshots if answer else (), answer_file
    )
    reader.extend(frame_problems)
    times = read_times(reader)
    offset = _utc_offset(reader, log.first_time, times)
    steps, scaling = _complete_steps(reader, log.steps, screenshots, offset)
    common = reader.common()
    return Trajectory(
        path=folder,
        task_id=answer_task_id(answer_file) if answer_file else folder.name,
        layout="fara",
        outcome=fara_outcome(reader, answer),
        final_answer=answer,
        answer_file=answer_file,
        final_answer_text=answer.final_answer if answer and answer.final_answer != NO_ANSWER_MARKER else None,
        steps=steps,
        screenshots=tuple(frame.name for frame in screenshots.frames),
        coordinate_scaling=scaling,
        times=times,
        log_generation=log.generation,
        utc_offset_s=offset,
        **common,
        warnings=tuple(reader.warnings),
    )


def read_agent_response(reader: FolderReader) -> tuple[str | None, Ending]:
    """agent_response.json's text (None when empty or unreadable) and the outcome it gives."""
    data = reader.read_bytes(AGENT_RESPONSE)
    if data is None:
        return None, answerless_ending(reader, AGENT_RESPONSE)
    text, decode_problems = decode_text(data, AGENT_RESPONSE)
    reader.extend(decode_problems)
    if not text.strip():
        reader.warn(AGENT_RESPONSE, "is empty: the agent gave no response")
        return None, "no_answer"
    return text, "answered"


def _load_webarena_verified(reader: FolderReader) -> Trajectory:
    text, outcome = read_agent_response(reader)
    screenshots, problems = discover_screenshots(reader.folder)
    reader.extend(problems)
    common = reader.common()
    return Trajectory(
        path=reader.folder,
        task_id=reader.folder.name,
        layout="webarena-verified",
        outcome=outcome,
        final_answer_text=text,
        screenshots=tuple(frame.name for frame in screenshots.frames),
        **common,
        warnings=tuple(reader.warnings),
    )


def _load_crashed(reader: FolderReader) -> Trajectory:
    """A folder holding only core.log: the task crashed and was left for re-execution."""
    common = reader.common()
    if ending_without_answer(reader.names, reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT)) == "unfinished":
        reader.warn(CORE_LOG_NAME, "is all the folder holds: the task is starting (again, after a resume)")
        return Trajectory(
            path=reader.folder,
            task_id=reader.folder.name,
            layout="fara",
            outcome="unfinished",
            **common,
            warnings=tuple(reader.warnings),
        )
    errors = [line for line in common["core_log"] if line.is_error]
    reason = crash_reason(errors[-1].message if errors else None)
    reader.warn(CORE_LOG_NAME, f"is all the folder holds: the task crashed ({reason}); counted as aborted")
    return Trajectory(
        path=reader.folder,
        task_id=reader.folder.name,
        layout="fara",
        outcome="aborted",
        crash_reason=reason,
        **common,
        warnings=tuple(reader.warnings),
    )


def crash_reason(last_error: str | None) -> str:
    """Why a crashed task crashed, from the message of core.log's last error (None: it logged none)."""
    return last_error_line(last_error) if last_error is not None else "core.log logs no error"


def last_error_line(message: str) -> str:
    """The line of an error record that says what failed: a traceback's last line, else its first."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return "an error without a message"
    return (lines[-1] if len(lines) > 1 else lines[0])[:_REASON_CHARS]


def choose_answer_file(reader: FolderReader, answers: list[str]) -> str | None:
    if not answers:
        return None
    if len(answers) == 1:
        return answers[0]
    preferred = f"{reader.folder.name}{FINAL_ANSWER_SUFFIX}"
    chosen = preferred if preferred in answers else answers[0]
    reader.warn(
        chosen,
        f"{len(answers)} answer files ({', '.join(answers)}); upstream refuses such folders; using this one",
    )
    return chosen


def read_answer(reader: FolderReader, name: str) -> FinalAnswer | None:
    content = reader.read_object(name)
    if content is None:
        return None
    try:
        return FinalAnswer.model_validate(content)
    except ValidationError as exc:
        errors = exc.errors()
    bad = sorted({str(err["loc"][0]) for err in errors if err["loc"]})
    reader.warn(
        name, f"field(s) {', '.join(bad)} not understood ({errors[0]['msg']}); their defaults are used"
    )
    try:
        return FinalAnswer.model_validate({k: v for k, v in content.items() if k not in bad})
    except ValidationError:
        return None


def answer_task_id(answer_file: str) -> str:
    suffix = FINAL_ANSWER_SUFFIX if answer_file.endswith(FINAL_ANSWER_SUFFIX) else ANSWER_SUFFIX
    return answer_file.removesuffix(suffix)


def fara_outcome(reader: FolderReader, answer: FinalAnswer | None) -> Ending:
    """How a Fara folder's run ended, from its answer; without one, whether its task is over."""
    if answer is None and not reader.answer_files():
        return answerless_ending(reader, f"*{FINAL_ANSWER_SUFFIX}")
    if answer is None or answer.is_aborted:  # an unusable answer file was warned of where read
        return "aborted"
    return "no_answer" if answer.final_answer == NO_ANSWER_MARKER else "answered"


def answerless_ending(reader: FolderReader, missing: str) -> Ending:
    """A folder without an answer (`missing` names what it lacks): aborted when its task is over,
    unfinished while it runs (the task state's rule), with the warning that says which.
    """
    ending = ending_without_answer(reader.names, reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT))
    if ending == "aborted":
        reader.warn(missing, "missing: the run stopped before writing an answer; counted as aborted")
    else:
        reader.warn(missing, "missing: the task has not finished; left out of every rate until it does")
    return ending


def read_times(reader: FolderReader) -> Times | None:
    content = reader.read_object(TIMES_NAME)
    if content is None:
        return None
    try:
        times = Times.model_validate(content)
    except ValidationError as exc:
        reader.warn(TIMES_NAME, f"not understood ({exc.errors()[0]['msg']}); ignored")
        return None
    unusable = [name for name in ("start_time", "end_time") if not _is_time(getattr(times, name))]
    if times.duration is not None and not 0 <= times.duration < MAX_DURATION_S:
        unusable.append("duration")
    for name in unusable:
        reader.warn(TIMES_NAME, f"{name} {getattr(times, name)!r} is out of range; ignored")
    return times.model_copy(update=dict.fromkeys(unusable)) if unusable else times


def _is_time(value: float | None) -> bool:
    """Whether unix seconds `value` is a real moment (None counts: it says nothing wrong)."""
    if value is None:
        return True
    try:
        datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        return False
    return True


def _utc_offset(reader: FolderReader, first_time: datetime | None, times: Times | None) -> float | None:
    """Offset of the log's naive local times: first log time vs times.json start, to 15 minutes."""
    if first_time is None:
        return None
    aware_offset = first_time.utcoffset()
    if aware_offset is not None:
        return aware_offset.total_seconds()
    if times is None or times.start_time is None:
        reader.warn(LOG_NAME, "no start_time in times.json to place its local times; assumed to be UTC")
        return 0.0
    try:
        start = datetime.fromtimestamp(times.start_time, UTC).replace(tzinfo=None)
    except (OverflowError, OSError, ValueError):
        reader.warn(
            TIMES_NAME, f"start_time {times.start_time} is not a usable time; log times assumed to be UTC"
        )
        return 0.0
    offset = local_offset(first_time, start.replace(tzinfo=UTC).timestamp())
    if offset is None:
        reader.warn(
            TIMES_NAME,
            f"start_time is {(first_time - start).total_seconds() / 3600:+.1f} h from the first"
            " web_surfer.log time; log times assumed to be UTC",
        )
        return 0.0
    return offset


def local_offset(local: datetime, at: float) -> float | None:
    """The UTC offset (seconds) of a naive local time written at the epoch time `at`, to the
    quarter hour real zones use; None when it is beyond any zone's (the two are not one moment).
    """
    seconds = (local - datetime.fromtimestamp(at, UTC).replace(tzinfo=None)).total_seconds()
    offset = round(seconds / _OFFSET_STEP_S) * _OFFSET_STEP_S
    return float(offset) if abs(offset) <= _MAX_OFFSET_S else None


def _complete_steps(
    reader: FolderReader, steps: tuple[Step, ...], screenshots: Screenshots, offset: float | None
) -> tuple[tuple[Step, ...], Scaling | None]:
    """Give each step its screenshot, its point in that screenshot's pixels and its UTC time."""
    scalings: dict[tuple[int, int], Scaling] = {}
    completed: list[Step] = []
    without_frame: list[int] = []
    out_of_range: list[int] = []
    for step, frame in zip(steps, screenshots.frames_for_actions(len(steps)), strict=True):
        update: dict[str, Any] = {}
        if step.timestamp is not None and offset is not None:
            update["time_utc"] = _to_utc(step.timestamp, offset)
            if update["time_utc"] is None:
                out_of_range.append(step.index)
        if frame is None:
            without_frame.append(step.index)
        else:
            update["screenshot"] = frame.name
            coordinate = logged_coordinate(step.arguments)
            if coordinate is not None:
                scaling = scalings.setdefault(
                    (frame.width, frame.height),
                    Scaling(
                        model_width=MODEL_SIZE[0],
                        model_height=MODEL_SIZE[1],
                        png_width=frame.width,
                        png_height=frame.height,
                    ),
                )
                point = scaling.to_png(*coordinate)
                if math.isfinite(point.x) and math.isfinite(point.y):
                    update["point"] = point
                else:
                    out_of_range.append(step.index)
        completed.append(step.model_copy(update=update) if update else step)
    if without_frame:
        reader.warn(
            "screenshots",
            f"no screenshot for action(s) {_numbers(without_frame)}"
            if screenshots.frames
            else "the folder has no screenshots",
        )
    if out_of_range:
        reader.warn(
            LOG_NAME,
            f"action(s) {_numbers(out_of_range)}: a time or coordinate is out of range; left out",
        )
    if len(scalings) > 1:
        reader.warn(
            "screenshots",
            "screenshots differ in size; each point is scaled to its own screenshot: "
            + "; ".join(str(s) for s in scalings.values()),
        )
    return tuple(completed), next(iter(scalings.values()), None)


def _to_utc(timestamp: datetime, offset: float) -> datetime | None:
    """The moment in UTC; None when it falls outside the years datetime can hold (year 1 minus an offset)."""
    try:
        if timestamp.tzinfo is not None:
            return timestamp.astimezone(UTC)
        return (timestamp - timedelta(seconds=offset)).replace(tzinfo=UTC)
    except (OverflowError, ValueError):
        return None


def _numbers(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:10])) + (" ..." if len(numbers) > 10 else "")


def _add_optional(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)
