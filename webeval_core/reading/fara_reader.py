"""Fara's webeval folders read (`reading.formats.fara` calls these): the full trajectory
(`load_fara`: steps with their screenshots, points in the screenshots' pixels and UTC times) and
the index's glance (`glance_fara`: steps counted, not built), by the same rules (answer file,
outcome, times). A folder holding only core.log is a task that crashed, or one a resume starts again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import ValidationError

from webeval_core.reading.actionlog import ActionLog, Step, count_steps, logged_coordinate, parse_action_log
from webeval_core.reading.coordinates import MODEL_SIZE, Scaling
from webeval_core.reading.corelog import CoreLogLine
from webeval_core.reading.folderreader import LOG_READ_LIMIT, FolderReader
from webeval_core.reading.formats.fara import is_over
from webeval_core.reading.glance import Glance, glance_with_common_files
from webeval_core.reading.markers import ANSWER_SUFFIX, CORE_LOG_NAME, LOG_NAME, TIMES_NAME
from webeval_core.reading.screenshots import Screenshots, count_screenshots, discover_screenshots
from webeval_core.reading.task_state import answer_ending, answer_outcome, ending_without_answer, has_crashed
from webeval_core.reading.trajectory_model import (
    NO_ANSWER_MARKER,
    Ending,
    FinalAnswer,
    Times,
    TokenUsage,
    Trajectory,
)
from webeval_core.reading.trajectory_reader import answerless_ending, crash_reason
from webeval_core.support.diagnostics import UnreadableError

__all__ = [
    "FINAL_ANSWER_SUFFIX",
    "MAX_DURATION_S",
    "answer_task_id",
    "glance_fara",
    "load_fara",
    "local_offset",
]

FINAL_ANSWER_SUFFIX = "_final_answer.json"
_OFFSET_STEP_S = 15 * 60  # real UTC offsets are whole quarter hours
_MAX_OFFSET_S = 14 * 3600
MAX_DURATION_S = 10 * 365 * 24 * 3600
"""Seconds above which times.json's duration is a broken number (read with a warning)."""


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


def load_fara(reader: FolderReader) -> Trajectory:
    """A Fara folder read in full (`reading.formats.fara`); one holding only core.log is a crashed task."""
    if not reader.answer_files() and LOG_NAME not in reader.names:
        return _load_crashed(reader)
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
    outcome = fara_outcome(reader, answer)
    return Trajectory(
        path=folder,
        task_id=answer_task_id(answer_file) if answer_file else folder.name,
        layout="fara",
        outcome=outcome,
        crash_reason=_crashed_reason(reader, common["core_log"]) if outcome == "aborted" else None,
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


def _load_crashed(reader: FolderReader) -> Trajectory:
    """A folder holding only core.log: the task crashed and was left for re-execution."""
    common = reader.common()
    if (
        ending_without_answer(is_over(reader.names), reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT))
        == "unfinished"
    ):
        reader.warn(CORE_LOG_NAME, "is all the folder holds: the task is starting (again, after a resume)")
        return Trajectory(
            path=reader.folder,
            task_id=reader.folder.name,
            layout="fara",
            outcome="unfinished",
            **common,
            warnings=tuple(reader.warnings),
        )
    reason = _crashed_reason(reader, common["core_log"]) or crash_reason(None)
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


def _crashed(reader: FolderReader) -> bool:
    """Whether the folder's task crashed (`task_state.has_crashed`: not over, its last attempt raised)."""
    return has_crashed(is_over(reader.names), reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT))


def _crashed_reason(reader: FolderReader, core_log: Sequence[CoreLogLine]) -> str | None:
    """Why the folder's task crashed, from core.log's last error; None when it did not crash."""
    if not _crashed(reader):
        return None
    errors = [line for line in core_log if line.is_error]
    return crash_reason(errors[-1].message if errors else None)


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
    """The task id an answer file's name says (`<task_id>_final_answer.json`, or `*_answer.json`)."""
    suffix = FINAL_ANSWER_SUFFIX if answer_file.endswith(FINAL_ANSWER_SUFFIX) else ANSWER_SUFFIX
    return answer_file.removesuffix(suffix)


def fara_outcome(reader: FolderReader, answer: FinalAnswer | None) -> Ending:
    """How a Fara folder's run ended, from its answer; without one, whether its task is over."""
    if answer is None and not reader.answer_files():
        return answerless_ending(reader, f"*{FINAL_ANSWER_SUFFIX}", is_over(reader.names))
    core_log = reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT)
    over = is_over(reader.names)
    if answer is None:  # an unusable answer file was warned of where read
        return ending_without_answer(over, core_log)
    ending = answer_ending(over, core_log, answer_outcome(answer.is_aborted, answer.final_answer))
    if ending == "unfinished":
        reader.warn(
            TIMES_NAME,
            "missing: the task has not returned yet (Fara writes it once the task is over, and a"
            " resume runs a folder without it again); left out of every rate until it does",
        )
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


def glance_fara(reader: FolderReader) -> Glance:
    """A Fara folder's glance (`reading.formats.fara`); one holding only core.log is a crashed task."""
    if not reader.answer_files() and LOG_NAME not in reader.names:
        outcome = ending_without_answer(
            is_over(reader.names), reader.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT)
        )
        found: dict[str, Any] = {"task_id": reader.folder.name, "layout": "fara", "outcome": outcome}
        return glance_with_common_files(reader, found, crashed=outcome == "aborted")
    found = _fara(reader)
    return glance_with_common_files(reader, found, crashed=found["outcome"] == "aborted" and _crashed(reader))


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
