"""scores/*.json: one evaluation verdict per file, `{"score": number, "gpt_response_text": str}`.

`gpt_response_text` is free judge text or a JSON-encoded dict (rubric judges put `rubric_items`,
`outcome_success`, `verifier_reasoning`, ... in it); it is decoded when it is JSON so those
fields are reachable.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.diagnostics import Diagnostic
from webeval_core.reading.folderfiles import LEADS_OUTSIDE, loads_finite, read_json_file, resolve_inside

SCORES_DIR = "scores"


class ScoreFile(BaseModel):
    """One score file of a trajectory."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    name: str
    """File stem, the evaluation's hash, e.g. "gpt_eval" or "mmrubric_0.8-5-3"."""
    path: Path
    """The file inside the folder's `scores/`."""
    score: float | None = None
    """The file's `score` (1.0 full marks, 0.0 none); None when missing or not a number."""
    response_text: str | None = None
    """The judge's `gpt_response_text`: free text or JSON text; None when the file has none."""
    response: dict[str, Any] | list[Any] | None = None
    """`response_text` decoded, when it is a JSON object or array; None otherwise."""


def read_score_files(folder: Path) -> tuple[dict[str, ScoreFile], list[Diagnostic]]:
    """Every readable score file of a trajectory folder, keyed by stem; unusable files are reported."""
    directory = folder / SCORES_DIR
    if directory.is_symlink() and resolve_inside(folder, SCORES_DIR) is None:
        return {}, [Diagnostic(file=SCORES_DIR, message=LEADS_OUTSIDE)]
    try:
        entries = sorted((e for e in os.scandir(directory) if e.name.endswith(".json")), key=lambda e: e.name)
    except OSError:
        return {}, []
    scores: dict[str, ScoreFile] = {}
    diagnostics: list[Diagnostic] = []
    for entry in entries:
        file = f"{SCORES_DIR}/{entry.name}"
        path = resolve_inside(folder, file) if entry.is_symlink() else Path(entry.path)
        if path is None:
            diagnostics.append(Diagnostic(file=file, message=LEADS_OUTSIDE))
            continue
        content, problems = read_json_file(path, file)
        diagnostics.extend(problems)
        if content is None:
            continue
        if not isinstance(content, dict):
            diagnostics.append(Diagnostic(file=file, message="is not a JSON object; skipped"))
            continue
        stem = entry.name.removesuffix(".json")
        scores[stem] = ScoreFile(
            name=stem, path=Path(entry.path), score=_score(content, file, diagnostics), **_response(content)
        )
    return scores, diagnostics


def _score(content: dict[str, Any], file: str, diagnostics: list[Diagnostic]) -> float | None:
    value = content.get("score")
    if isinstance(value, int | float):
        if -1e300 < value < 1e300:  # also refuses integers too large for a float
            return float(value)
        reason = "score is out of range; ignored"
    else:
        reason = "has no score" if value is None else f"score {value!r} is not a number"
    diagnostics.append(Diagnostic(file=file, message=reason))
    return None


def _response(content: dict[str, Any]) -> dict[str, Any]:
    value = content.get("gpt_response_text")
    if isinstance(value, dict | list):
        return {"response_text": json.dumps(value, ensure_ascii=False), "response": value}
    if not isinstance(value, str):
        return {"response_text": None if value is None else str(value), "response": None}
    decoded: Any = None
    if value.lstrip()[:1] in ("{", "["):
        try:
            decoded, _ = loads_finite(value)
        except (ValueError, RecursionError):  # not JSON, or an integer beyond the digit limit
            decoded = None
    return {"response_text": value, "response": decoded if isinstance(decoded, dict | list) else None}
