"""Annotations to and from files (CSV or JSON lines), in CUAVerifierBench's `annotations` shape.

Export writes one row per (trajectory, reviewer, stage), the current judgement, with the columns
`EXPORT_COLUMNS` (the failing steps and taxonomy codes as comma-separated text, "3,4") and then
one column per judge with its verdict; `review_columns` is the same
judgements as columns of a trajectory's row (`webeval export --annotations`). Import reads the same columns
(judge columns and any other unknown ones ignored, `created` optional) and is all or nothing:
every bad row is named with its line and reason, and then nothing of the file is stored.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from webeval_core.review.agreement_stats import majority
from webeval_core.review.annotations import Annotation, Outcome, current
from webeval_core.support.diagnostics import Diagnostic
from webeval_core.support.row_files import rows_text
from webeval_core.support.safe_output import cell_from_spreadsheet

EXPORT_COLUMNS = (
    "run",
    "task_id",
    "reviewer",
    "stage",
    "outcome",
    "process",
    "task",
    "environment_problem",
    "justification",
    "created",
    "failing_steps",
    "error_codes",
    "task_codes",
    "signed_in",
    "revealed",
)
_OPTIONAL_LABELS = ("process", "task", "environment_problem", "created", "signed_in", "revealed")
_LISTS = ("failing_steps", "error_codes", "task_codes")
"""Columns holding a list, written as comma-separated text ("3,4") in both formats."""
_YES = {"yes", "true", "1", "y"}
_NO = {"no", "false", "0", "n"}


class ImportRow(NamedTuple):
    """One row of an import file."""

    annotation: Annotation
    """The annotation it holds (made now when the row gave no time)."""
    timed: bool
    """Whether the row gave its `created` time."""


class ImportRejectedError(ValueError):
    """A file that cannot be imported; `problems` name each bad line and why."""

    def __init__(self, problems: list[Diagnostic]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems
        """Each line that was refused, with its reason."""


def export_rows(
    annotations: Iterable[Annotation], judged: Mapping[tuple[str, str], Mapping[str, Outcome]]
) -> list[dict[str, Any]]:
    """One row per (trajectory, reviewer, stage) of the trajectories `judged` lists."""
    judges = sorted({name for verdicts in judged.values() for name in verdicts})
    rows = []
    latest = current(annotations)
    for key in sorted(latest, key=lambda k: (k[0], k[1], k[2], str(k[3]))):
        annotation = latest[key]
        if annotation.item not in judged:
            continue
        row = annotation.model_dump(mode="json", include=set(EXPORT_COLUMNS))
        row |= {name: ",".join(str(v) for v in row[name]) for name in _LISTS}
        verdicts = judged[annotation.item]
        rows.append(
            {column: row[column] for column in EXPORT_COLUMNS}
            | {name: verdicts[name].value if name in verdicts else None for name in judges}
        )
    return rows


REVIEW_COLUMNS = ("reviews", "review_majority", "reviewers")
"""The columns `review_columns` adds to a trajectory's row."""


def review_columns(annotations: Iterable[Annotation]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per trajectory (run, task id): how many current judgements it has, their majority outcome
    (None on a tie) and each one as `reviewer (stage): outcome`; trajectories without any are absent.
    """
    latest = current(annotations)
    by_item: dict[tuple[str, str], list[Annotation]] = {}
    for key in sorted(latest, key=lambda k: (k[0], k[1], k[2], str(k[3]))):
        by_item.setdefault(latest[key].item, []).append(latest[key])
    columns: dict[tuple[str, str], dict[str, Any]] = {}
    for item, judged in by_item.items():
        agreed = majority(a.outcome for a in judged)
        columns[item] = {
            "reviews": len(judged),
            "review_majority": agreed.value if agreed is not None else None,
            "reviewers": "; ".join(f"{a.reviewer} ({a.stage.value}): {a.outcome.value}" for a in judged),
        }
    return columns


def rows_as_text(rows: list[dict[str, Any]], fmt: str) -> str:
    """Rows as CSV (empty cells for None) or JSON lines (`support.row_files`: every export's writers)."""
    return rows_text(rows, fmt, None if rows else EXPORT_COLUMNS)


def read_import(path: Path, known: set[tuple[str, str]] | None = None) -> list[ImportRow]:
    """The annotations of a CSV or JSON-lines file (by extension); ImportRejectedError names bad lines.

    With `known`, a row about a trajectory not in it (run, task id) is refused too.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ImportRejectedError([Diagnostic(file=str(path), message=f"cannot be read ({exc})")]) from None
    rows = _csv_rows(text) if path.suffix.lower() == ".csv" else _jsonl_rows(text)
    annotations: list[ImportRow] = []
    problems: list[Diagnostic] = []
    for line, row in rows:
        try:
            annotation = _annotation(row)
        except (ValueError, TypeError) as exc:
            problems.append(Diagnostic(file=str(path), line=line, message=_reason(exc)))
            continue
        if known is not None and annotation.item not in known:
            message = f"no trajectory of task {annotation.task_id!r} in run {annotation.run!r} under the root"
            problems.append(Diagnostic(file=str(path), line=line, message=message))
            continue
        annotations.append(
            ImportRow(annotation, timed=isinstance(row, dict) and row.get("created") not in ("", None))
        )
    if problems:
        raise ImportRejectedError(problems)
    return annotations


def unseen(rows: Iterable[ImportRow], stored: Iterable[Annotation]) -> list[Annotation]:
    """The annotations of rows to add: a row without a time is skipped when its judgement is stored.

    A row with a time is stored once by the store itself (its digest includes the time).
    """
    known = {a.judgement for a in stored}
    fresh = []
    for row in rows:
        if row.timed or row.annotation.judgement not in known:
            fresh.append(row.annotation)
            known.add(row.annotation.judgement)
    return fresh


def _csv_rows(text: str) -> list[tuple[int, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    # Our export prefixes formula-like cells with `'`; read them back as they were written.
    return [
        (reader.line_num, {k: cell_from_spreadsheet(v) if isinstance(v, str) else v for k, v in row.items()})
        for row in reader
    ]


def _jsonl_rows(text: str) -> list[tuple[int, Any]]:
    rows: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            rows.append((number, ValueError(f"not JSON ({exc.msg})")))
    return rows


def _annotation(row: Any) -> Annotation:
    if isinstance(row, Exception):
        raise row
    if not isinstance(row, dict):
        raise TypeError("not an object with the annotation columns")
    values = {key: row[key] for key in EXPORT_COLUMNS if key in row}
    for key in _OPTIONAL_LABELS:
        if values.get(key) in ("", None):
            values.pop(key, None)
    if values.get("justification") is None:
        values["justification"] = ""
    if isinstance(values.get("environment_problem"), str):
        values["environment_problem"] = _yes_no(values["environment_problem"])
    for key in _LISTS:
        values[key] = _listed(values.get(key))
    return Annotation.model_validate(values)


def _listed(value: Any) -> list[Any]:
    # Older files have no such column; a spreadsheet may have put spaces after the commas.
    if value in ("", None):
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return list(value) if isinstance(value, list) else [value]


def _yes_no(text: str) -> bool:
    word = text.strip().lower()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise ValueError(f"environment_problem: expected yes or no, not {text!r}")


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        return f"{where}: {error['msg']}" if where else str(error["msg"])
    return str(exc)
