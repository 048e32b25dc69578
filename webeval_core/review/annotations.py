"""Annotator verdicts on trajectories: is the agent, the evaluator or the task wrong?

Annotations are an append-only JSON-lines file kept outside the input tree (input folders are
read-only to us), one file per root by default. Each line records which verdict it judged (the
score file's eval_hash and status), so a later re-scoring with another evaluator version does
not silently inherit an old judgement. A damaged line is skipped with a warning; nothing already
written is ever rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from webeval_core.diagnostics import Diagnostic

Label = Literal[
    "verdict correct",
    "agent right, evaluator wrong",
    "agent wrong, evaluator right",
    "task ambiguous",
    "task expected answer wrong",
    "environment problem",
    "unsure",
]
LABELS: tuple[Label, ...] = get_args(Label)


class Annotation(BaseModel):
    """One annotator's judgement of one trajectory's verdict."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    run_key: str
    """The key of the run judged (`Run.key`); never blank."""
    task_id: str
    """The task id of the trajectory judged; never blank."""
    label: Label
    """The judgement: who is wrong, if anyone (one of `LABELS`)."""
    note: str = ""
    """The annotator's free-text reasoning; empty when none was given."""
    annotator: str = ""
    """Who judged, as they named themselves; empty when anonymous."""
    verdict_source: str | None = None
    """Score file stem (eval_hash) of the verdict judged; None when the trajectory had no verdict."""
    verdict_status: str | None = None
    """Its status at the time: success | failure | error; None when there was no verdict."""
    created: datetime = Field(default_factory=lambda: datetime.now(UTC))
    """When the judgement was made (timezone-aware, UTC when made here); the newest one wins."""

    @field_validator("run_key", "task_id")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        """A judgement must say which trajectory it is about."""
        if not value.strip():
            raise ValueError("must not be blank")
        return value


def default_annotations_file(root: Path) -> Path:
    """`$WEBEVAL_ANNOTATIONS`, else one file per root under the user's data folder."""
    chosen = os.environ.get("WEBEVAL_ANNOTATIONS")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    digest = hashlib.sha1(str(Path(root).resolve()).encode()).hexdigest()[:16]
    return Path(base) / "webeval" / f"annotations-{digest}.jsonl"


def read_annotations(path: Path) -> tuple[list[Annotation], list[Diagnostic]]:
    """Every annotation in the file, oldest first (it is append-only); damaged lines are reported.

    A line with keys this version does not know (written by a newer one) is kept without them,
    and the keys are reported.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], []
    except OSError as exc:
        return [], [Diagnostic(file=str(path), message=f"cannot be read ({exc.strerror or exc})")]
    annotations: list[Annotation] = []
    problems: list[Diagnostic] = []
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            annotation, unknown = _parse_line(raw)
        except ValidationError as exc:
            reason = exc.errors()[0].get("msg", "invalid annotation")
            problems.append(Diagnostic(file=str(path), line=number, message=f"skipped: {reason}"))
            continue
        annotations.append(annotation)
        if unknown:
            message = f"unknown key(s) {', '.join(unknown)} ignored (written by a newer webeval?)"
            problems.append(Diagnostic(file=str(path), line=number, message=message))
    return annotations, problems


def _parse_line(raw: bytes) -> tuple[Annotation, list[str]]:
    """The annotation of one line and the keys it holds that `Annotation` does not know."""
    try:
        return Annotation.model_validate_json(raw), []
    except ValidationError as exc:
        if any(error["type"] != "extra_forbidden" for error in exc.errors()):
            raise
        content = json.loads(raw)  # valid JSON: only its extra keys were refused
    unknown = [key for key in content if key not in Annotation.model_fields]
    known = {key: value for key, value in content.items() if key in Annotation.model_fields}
    return Annotation.model_validate(known), unknown


def add_annotation(path: Path, annotation: Annotation) -> None:
    """Append one annotation as a single write, so concurrent writers never interleave a line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = annotation.model_dump_json() + "\n"
    # A file cut short by a crash must not glue the new record onto its damaged last line.
    if path.exists() and path.stat().st_size and not path.read_bytes().endswith(b"\n"):
        line = "\n" + line
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def latest(annotations: Iterable[Annotation]) -> dict[tuple[str, str], Annotation]:
    """The newest annotation per (run_key, task_id): what a reviewer last decided."""
    newest: dict[tuple[str, str], Annotation] = {}
    for annotation in sorted(annotations, key=lambda a: a.created):
        newest[(annotation.run_key, annotation.task_id)] = annotation
    return newest


def annotations_as_rows(annotations: Iterable[Annotation]) -> list[dict[str, object]]:
    """Plain rows for CSV / JSON-lines export."""
    return [json.loads(a.model_dump_json()) for a in annotations]
