"""What earlier versions left, carried over on first use: JSON-lines annotations, old run keys.

Earlier versions appended one JSON object per line to `annotations-<root digest>.jsonl` under the
user's data folder (or to the file `WEBEVAL_ANNOTATIONS` named), with one overlapping label
("verdict correct", "agent right, evaluator wrong", ...). Each old line becomes an informed
annotation (the old form showed the verdict) with the labels it implies; the old file is only
read, never changed, and importing it again adds nothing (the store keeps one row per content).

Earlier versions also keyed the run of a root that is itself a run or a trajectory by how the
path was typed ("." or the parent's absolute path); `carry_over_run_keys` moves those rows to
today's key (`runs.discovery.run_key`), for the trajectories of that root only.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from webeval_core.reading.formats import is_trajectory_folder
from webeval_core.review.annotation_db import AnnotationStore
from webeval_core.review.annotations import Annotation, Outcome, Stage, TaskLabel
from webeval_core.runs.discovery import run_key
from webeval_core.support.diagnostics import Diagnostic

ANONYMOUS = "anonymous"


def legacy_file(root: Path) -> Path:
    """Where an earlier version kept a root's annotations by default."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    digest = hashlib.sha1(str(Path(root).resolve()).encode()).hexdigest()[:16]
    return Path(base) / "webeval" / f"annotations-{digest}.jsonl"


def carry_over_run_keys(store: AnnotationStore, root: Path) -> int:
    """Move annotations keyed the old way for a root that is a run or a trajectory; how many moved."""
    root = Path(root)
    if is_trajectory_folder(root):
        task_ids = {root.name}
        olds = {".", str(root.parent), str(root.parent.absolute()), str(root.resolve().parent)}
    else:
        try:
            with os.scandir(root) as entries:
                task_ids = {e.name for e in entries if e.is_dir() and is_trajectory_folder(e.path)}
        except OSError:
            return 0
        olds = {".", root.name, "" if root.name else "."}
    if not task_ids:
        return 0
    new = run_key(root, root)
    return sum(store.rename_run(old, new, task_ids) for old in sorted(olds - {new, ""}))


def read_legacy(path: Path) -> tuple[list[Annotation], list[Diagnostic]]:
    """The annotations of an old JSON-lines file as today's; lines that cannot be read are reported."""
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
            annotations.append(_convert(json.loads(raw)))
        except (ValueError, TypeError, KeyError, ValidationError) as exc:
            reason = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
            problems.append(Diagnostic(file=str(path), line=number, message=f"not imported: {reason}"))
    return annotations, problems


def _convert(old: dict[str, Any]) -> Annotation:
    """One old line as an annotation: the old label split into outcome, task and environment."""
    label = old["label"]
    verdict = old.get("verdict_status")
    fields: dict[str, Any] = {"outcome": Outcome.UNSURE}
    if label == "verdict correct" and verdict in ("success", "failure"):
        fields["outcome"] = Outcome(verdict)
    elif label == "agent right, evaluator wrong":
        fields["outcome"] = Outcome.SUCCESS
    elif label == "agent wrong, evaluator right":
        fields["outcome"] = Outcome.FAILURE
    elif label == "task ambiguous":
        fields["task"] = TaskLabel.AMBIGUOUS
    elif label == "task expected answer wrong":
        fields["task"] = TaskLabel.EXPECTED_WRONG
    elif label == "environment problem":
        fields["environment_problem"] = True
    elif label not in ("unsure", "verdict correct"):
        raise ValueError(f"unknown label {label!r}")
    return Annotation(
        run=old["run_key"],
        task_id=old["task_id"],
        reviewer=old.get("annotator") or ANONYMOUS,
        stage=Stage.INFORMED,
        justification=old.get("note") or "",
        created=old["created"],
        verdict_source=old.get("verdict_source"),
        verdict_status=verdict,
        **fields,
    )
