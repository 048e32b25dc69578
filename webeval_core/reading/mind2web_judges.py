"""Online-Mind2Web's own judges' output, read as judges of the result folders they judged.

Its evaluation script (`src/run.py`) judges every `<results>/<task_id>/` and appends one JSON line
per task to `<output_path>/<mode>_<model>_score_threshold_<n>_auto_eval_results.json`: a copy of the
task's result.json plus `task_id` (the folder's name), `predicted_label` (1 success, 0 failure, as
its reply's "Status:" line said), `evaluation_details` {`response`: the final reply,
`predicted_label`}, `input_text` and `system_msg` (the final prompt), and for the WebJudge modes
`key_points` (text) and `image_judge_record` ([{`Response`, `Score`}]: each screenshot's reply and
its 1-5 score, in the order of the screenshots). Resumed runs skip tasks already in the file.

Where `--output_path` points is the user's choice, so the file is looked for in the task folder,
the results folder (the run) and `<results>_result/` beside it; the judge is named for the mode and
the model (`webjudge-online-mind2web-o4-mini`), so judges of two models stay apart, and apart from
our own re-judge (`llm_judging.webjudge`). A file is parsed once per version (its records by task).
The index reads it with the task folder, whose mtime the script's appends do not change: an output
written after a folder was indexed shows once the folder changes or the index is rebuilt.
Malformed lines and fields are warnings naming the file, line and field; never an exception.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import decode_text, read_file, read_problem
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.support.diagnostics import Diagnostic

__all__ = ["AUTOEVAL_SUFFIX", "AutoEvalRecord", "ImageJudgement", "autoeval_records", "autoeval_scores"]

AUTOEVAL_SUFFIX = "_auto_eval_results.json"
"""How the evaluation script's output files end."""
DEFAULT_THRESHOLD = 3
"""The script's default `--score_threshold` (not written into the judge's name)."""
_NAME = re.compile(
    r"(?P<mode>.+?_eval)_(?P<model>.+)_score_threshold_(?P<threshold>\d+)" + re.escape(AUTOEVAL_SUFFIX)
)
_OUTPUT_BESIDE = "_result"  # `<results>_result/`: an output folder named after the results folder
_READ_LIMIT = 512 * 1024 * 1024  # bytes of one output file read (a record is a few hundred kB)
_MODEL = ConfigDict(frozen=True, extra="forbid")


class ImageJudgement(BaseModel):
    """WebJudge's verdict on one screenshot (an `image_judge_record` entry)."""

    model_config = _MODEL

    position: int
    """1-based position among the screenshots judged (the task's screenshots, in order)."""
    score: int | None
    """The 1-5 relevance the reply gave (0: the script found none); None when the entry has none."""
    response: str
    """The judge's reply on this screenshot."""


class AutoEvalRecord(BaseModel):
    """One task's line of an Online-Mind2Web evaluation output file."""

    model_config = _MODEL

    judge: str
    """The judge's name: its mode and model (`webjudge-online-mind2web-o4-mini`)."""
    file: str
    """The output file, as the problems and the Judges tab name it (relative to the task folder)."""
    line: int
    """1-based line of the file."""
    mode: str
    """The evaluation mode (`WebJudge_Online_Mind2Web_eval`, `WebVoyager_eval`, ...)."""
    model: str
    """The judging model as the file's name gives it (`o4-mini`)."""
    threshold: int
    """The screenshot score at which WebJudge kept a screenshot for its final judgement."""
    task_id: str
    """The task folder the line judges."""
    predicted_label: int | None
    """1 success, 0 failure; None when the line's label is missing or malformed."""
    response: str | None = None
    """The final reply ("Thoughts: ... Status: success"); None when the line has none."""
    key_points: str | None = None
    """The key points WebJudge identified in the task; None for modes without them."""
    images: tuple[ImageJudgement, ...] = ()
    """Each screenshot's score and reply, in order; empty for modes that score none."""
    input_text: str | None = None
    """The final prompt's text (task, key points, actions, the kept screenshots' reasons)."""
    system_msg: str | None = None
    """The final prompt's system message."""

    @property
    def score(self) -> float | None:
        """The verdict as a judge's score (1.0 success, 0.0 failure); None without a label."""
        return None if self.predicted_label is None else float(self.predicted_label)


def judge_name(mode: str, model: str, threshold: int) -> str:
    """`WebJudge_Online_Mind2Web_eval`, `o4-mini`, 3 -> `webjudge-online-mind2web-o4-mini`; another
    mode says whose judge it is (`webvoyager-online-mind2web-...`), another threshold is named.
    """
    slug = mode.removesuffix("_eval").lower().replace("_", "-")
    slug = slug if "online-mind2web" in slug else f"{slug}-online-mind2web"
    kept = "" if threshold == DEFAULT_THRESHOLD else f"-threshold-{threshold}"
    return f"{slug}-{model}{kept}"


def output_files(task_folder: Path) -> list[Path]:
    """The evaluation output files that may judge `task_folder`: in it, in its results folder, and
    in `<results>_result/` beside that; regular files only, in name order.
    """
    results = task_folder.parent
    places = (task_folder, results, results.parent / f"{results.name}{_OUTPUT_BESIDE}")
    found = []
    for place in places:
        try:
            with os.scandir(place) as entries:
                names = sorted(e.name for e in entries if _is_output(e))
        except OSError:
            continue
        found += [place / name for name in names if _NAME.fullmatch(name)]
    return found


def _is_output(entry: os.DirEntry[str]) -> bool:
    return entry.name.endswith(AUTOEVAL_SUFFIX) and entry.is_file(follow_symlinks=False)


def autoeval_records(task_folder: Path) -> tuple[list[AutoEvalRecord], list[Diagnostic]]:
    """Every output file's line about `task_folder` (by its name, the script's task id; the last
    line when a file has several), and the problems met reading those files.
    """
    records: list[AutoEvalRecord] = []
    problems: list[Diagnostic] = []
    for path in output_files(task_folder):
        label = os.path.relpath(path, task_folder)
        try:
            stat = path.stat()
        except OSError as exc:
            problems.append(Diagnostic(file=label, message=read_problem(exc)))
            continue
        by_task, found = _parsed(str(path), stat.st_mtime_ns, stat.st_size)
        record, own = by_task.get(task_folder.name, (None, ()))
        problems += [p.model_copy(update={"file": label}) for p in (*found, *own)]
        if record is not None:
            records.append(record.model_copy(update={"file": label}))
    return records, problems


def autoeval_scores(task_folder: Path) -> tuple[dict[str, ScoreFile], list[Diagnostic]]:
    """The output files' verdicts of `task_folder` as judges' scores (`Trajectory.scores`)."""
    records, problems = autoeval_records(task_folder)
    scores = {
        r.judge: ScoreFile(
            name=r.judge,
            path=Path(os.path.normpath(task_folder / r.file)),
            score=r.score,
            response_text=r.response,
        )
        for r in records
        if r.score is not None
    }
    return scores, problems


_Judged = tuple[AutoEvalRecord, tuple[Diagnostic, ...]]  # a task's line, and what was wrong in it


@functools.lru_cache(maxsize=8)
def _parsed(path: str, mtime_ns: int, size: int) -> tuple[dict[str, _Judged], tuple[Diagnostic, ...]]:
    """One version of an output file (its mtime and size in the key), read once: each task's line
    with its own problems, and the file's (unreadable, lines that judge no task).
    """
    name = Path(path).name
    named = _NAME.fullmatch(name)
    assert named is not None  # output_files lists no other
    how = (named["mode"], named["model"], int(named["threshold"]))
    try:
        data = read_file(path, _READ_LIMIT + 1)
    except OSError as exc:
        return {}, (Diagnostic(file=name, message=read_problem(exc)),)
    if len(data) > _READ_LIMIT:
        return {}, (Diagnostic(file=name, message="is larger than 512 MB; not read"),)
    text, problems = decode_text(data, name)
    judged: dict[str, _Judged] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            line = _Line(name, number)
            record = line.record(raw, judge_name(*how), how)
            if record is None:
                problems += line.problems
            else:  # a later line of the same task is the newer verdict
                judged[record.task_id] = (record, tuple(line.problems))
    return judged, tuple(problems)


class _Line:
    """One line being read: its fields checked, each problem named with the file, line and field."""

    def __init__(self, file: str, number: int) -> None:
        self.file, self.number = file, number
        self.problems: list[Diagnostic] = []

    def warn(self, message: str) -> None:
        self.problems.append(Diagnostic(file=self.file, line=self.number, message=message))

    def record(self, raw: str, judge: str, how: tuple[str, str, int]) -> AutoEvalRecord | None:
        try:
            value = json.loads(raw)
        except ValueError:
            self.warn("is not valid JSON; skipped")
            return None
        if not isinstance(value, dict) or not isinstance(value.get("task_id"), str) or not value["task_id"]:
            self.warn("is not a judged task (a JSON object with a task_id); skipped")
            return None
        details = value.get("evaluation_details")
        details = details if isinstance(details, dict) else {}
        mode, model, threshold = how
        return AutoEvalRecord(
            judge=judge, file=self.file, line=self.number, mode=mode, model=model, threshold=threshold,
            task_id=value["task_id"], predicted_label=self.label(value.get("predicted_label")),
            response=self.text(details.get("response"), "evaluation_details.response"),
            key_points=self.text(value.get("key_points"), "key_points"),
            images=self.images(value.get("image_judge_record")),
            input_text=self.text(value.get("input_text"), "input_text"),
            system_msg=self.text(value.get("system_msg"), "system_msg"),
        )  # fmt: skip

    def label(self, value: Any) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            return value
        shown = "missing" if value is None else f"{json.dumps(value)[:40]}, not 0 or 1"
        self.warn(f"predicted_label is {shown}; the task has no verdict from this judge")
        return None

    def text(self, value: Any, field: str) -> str | None:
        if value is None or isinstance(value, str):
            return value or None
        self.warn(f"{field} is a {type(value).__name__}, not text; shown as its JSON")
        return json.dumps(value, ensure_ascii=False)

    def images(self, value: Any) -> tuple[ImageJudgement, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            self.warn("image_judge_record is not a list; no screenshot score is shown")
            return ()
        judged = []
        for position, raw in enumerate(value, start=1):
            entry = raw if isinstance(raw, dict) else {}
            score = entry.get("Score")
            if not (isinstance(score, int) and not isinstance(score, bool) and 0 <= score <= 5):
                self.warn(f"image_judge_record[{position - 1}].Score is not a score of 0 to 5; left out")
                score = None
            reply = entry.get("Response")
            text = reply if isinstance(reply, str) else ""
            judged.append(ImageJudgement(position=position, score=score, response=text))
        return tuple(judged)
