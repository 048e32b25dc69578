"""A run's `verify_report.jsonl`: one row per trajectory the Universal Verifier checked.

The verifier writes it at the folder it was pointed at (the run folder, or its `traj/`): per
trajectory its status ("ok" or what went wrong), the score file it wrote and a summary of it
(verdicts, points, first failing step, task codes). The Judges tab lists its error rows and shows
where a row disagrees with the score file it summarises (presentation.verifier_tables.report_differences).
Values are read as tolerantly as the score files' (`verifier.FieldReader`); lines that are not JSON
objects are reported with their line number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import decode_text, read_file, read_problem
from webeval_core.reading.json_fields import FieldReader
from webeval_core.support.diagnostics import Diagnostic

__all__ = ["REPORT_NAME", "VerifyReport", "VerifyReportRow", "find_verify_reports", "read_verify_report"]

REPORT_NAME = "verify_report.jsonl"
"""The run report's file name, at the folder the verifier was pointed at."""
_MODEL = ConfigDict(frozen=True, extra="forbid")


class VerifyReportRow(BaseModel):
    """One trajectory's line of a run's `verify_report.jsonl`."""

    model_config = _MODEL

    line: int
    """1-based line of the report."""
    status: str | None = None
    """"ok", or what went wrong verifying this trajectory."""
    error: str | None = None
    """The error message an error row carries (its `error` or `message`)."""
    task_id: str | None = None
    """The trajectory's task id."""
    folder: str | None = None
    """The trajectory's folder, as the report names it."""
    score_path: str | None = None
    """The score file the row summarises."""
    rubric_score: float | None = None
    """The rubric's score."""
    rubric_total_max_points: float | None = None
    """Rubric points possible."""
    rubric_total_earned_points: float | None = None
    """Rubric points earned."""
    rubric_is_success: bool | None = None
    """The rubric verdict."""
    outcome_success: bool | None = None
    """The outcome verdict."""
    n_actions: int | None = None
    """How many actions the trajectory has."""
    has_failure: bool | None = None
    """Whether a failure was found."""
    first_failure_step: int | None = None
    """The first failing step."""
    is_ambiguous: bool | None = None
    """Whether the task is ambiguous."""
    ambiguity_codes: tuple[str, ...] = ()
    """Ambiguity codes (7.x)."""
    is_invalid: bool | None = None
    """Whether the task is invalid."""
    invalid_task_codes: tuple[str, ...] = ()
    """Invalid-task codes (8.x)."""

    @property
    def is_error(self) -> bool:
        """Whether verifying this trajectory went wrong (a status other than "ok")."""
        return (self.status or "").lower() != "ok"

    @property
    def judge(self) -> str | None:
        """The judge of the score file it summarises (the file's stem); None without one."""
        return _path_parts(self.score_path)[-1].removesuffix(".json") if self.score_path else None

    def is_of(self, folder: Path, task_id: str) -> bool:
        """Whether the row is about the trajectory in `folder` (by its score file, folder, else task id)."""
        if self.score_path:
            parts = _path_parts(self.score_path)
            if len(parts) >= 3 and parts[-2] == "scores":
                return parts[-3] == folder.name
        if self.folder:
            return _path_parts(self.folder)[-1] == folder.name
        return self.task_id is not None and self.task_id == task_id


class VerifyReport(BaseModel):
    """A run's `verify_report.jsonl`: its rows, and where it is."""

    model_config = _MODEL

    path: Path
    """The file."""
    rows: tuple[VerifyReportRow, ...] = ()
    """Its readable rows, in file order."""

    def rows_of(self, folder: Path, task_id: str) -> tuple[VerifyReportRow, ...]:
        """The rows about one trajectory."""
        return tuple(row for row in self.rows if row.is_of(folder, task_id))


def _path_parts(text: str) -> list[str]:
    return [p for p in text.replace("\\", "/").split("/") if p] or [""]


def find_verify_reports(folder: Path, root: Path) -> list[Path]:
    """The `verify_report.jsonl` files of a trajectory's run: in each folder above it, up to `root`.

    The verifier writes one where it was pointed (the run folder, or its `traj/`); nothing above
    the browsed root is looked at.
    """
    found = []
    root = Path(root)
    for parent in Path(folder).parents:
        candidate = parent / REPORT_NAME
        if candidate.is_file() and not candidate.is_symlink():
            found.append(candidate)
        if parent == root or root not in parent.parents:
            break
    return found


_FLAGS = ("rubric_is_success", "outcome_success", "has_failure", "is_ambiguous", "is_invalid")
_NUMBERS = ("rubric_score", "rubric_total_max_points", "rubric_total_earned_points")
_COUNTS = ("n_actions", "first_failure_step")
_TEXTS = ("status", "task_id", "score_path")
_CODES = ("ambiguity_codes", "invalid_task_codes")
_FOLDER_KEYS = ("folder", "traj_dir", "trajectory_dir", "task_dir", "output_dir")


def read_verify_report(path: Path, file: str | None = None) -> tuple[VerifyReport, list[Diagnostic]]:
    """The rows of a `verify_report.jsonl`; lines that are not JSON objects are reported and skipped."""
    file = file or str(path)
    try:
        data = read_file(path)
    except OSError as exc:
        return VerifyReport(path=path), [Diagnostic(file=file, message=read_problem(exc))]
    text, diagnostics = decode_text(data, file)
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            diagnostics.append(Diagnostic(file=file, line=number, message="is not valid JSON; skipped"))
            continue
        if not isinstance(value, dict):
            diagnostics.append(Diagnostic(file=file, line=number, message="is not a JSON object; skipped"))
            continue
        rows.append(_report_row(value, number, file, diagnostics))
    return VerifyReport(path=path, rows=tuple(rows)), diagnostics


def _report_row(
    value: dict[str, Any], line: int, file: str, diagnostics: list[Diagnostic]
) -> VerifyReportRow:
    fields = FieldReader(value, file)
    data: dict[str, Any] = {"line": line}
    data |= {name: fields.flag(value.get(name), name) for name in _FLAGS}
    data |= {name: fields.number(value.get(name), name) for name in _NUMBERS}
    data |= {name: fields.text(value.get(name), name) for name in _TEXTS}
    data |= {name: fields.codes(value.get(name), name) for name in _CODES}
    for name in _COUNTS:
        number = fields.number(value.get(name), name)
        data[name] = int(number) if number is not None and number.is_integer() else None
    folder = next((value[k] for k in _FOLDER_KEYS if isinstance(value.get(k), str)), None)
    error = value.get("error") or value.get("message")
    data |= {"folder": folder, "error": fields.text(error, "error")}
    # The report's fields are not inside a response text: named as the report names them.
    diagnostics.extend(
        p.model_copy(update={"line": line, "message": p.message.removeprefix("gpt_response_text.")})
        for p in fields.diagnostics
    )
    return VerifyReportRow(**data)
