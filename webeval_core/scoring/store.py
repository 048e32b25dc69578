"""Score files: where an evaluation is stored, its exact bytes, and reading it back.

Verdicts are written to `scores/<eval_hash>.json` in the Fara score-file shape
(`{"score": ..., "gpt_response_text": "<the Evaluation as JSON>"}`). The name pins the engine
version, its checksum, the dataset checksum and the URL config, so a different engine or config
never overwrites an older verdict; the bytes depend only on the evaluation, so unchanged inputs
give an identical file.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from pydantic import ValidationError

from webeval_core.reading.scorefiles import SCORES_DIR
from webeval_core.scoring.evaluation import Evaluation


def score_file_path(folder: Path, eval_hash: str) -> Path:
    """Where a trajectory folder's verdict of one engine and config is stored."""
    return Path(folder) / SCORES_DIR / f"{eval_hash}.json"


def score_file_bytes(evaluation: Evaluation, score: float) -> bytes:
    """The Fara score-file shape; sorted keys and no timestamps, so unchanged inputs give the same bytes."""
    payload = json.dumps(
        evaluation.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    document = {"score": score, "gpt_response_text": payload}
    return (json.dumps(document, sort_keys=True, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def write_score_file(folder: Path, evaluation: Evaluation, score: float) -> Path:
    """Write scores/<eval_hash>.json atomically (temp file beside it, then os.replace)."""
    target = score_file_path(folder, evaluation.engine.eval_hash)
    content = score_file_bytes(evaluation, score)
    try:
        if target.read_bytes() == content:
            return target  # identical verdict: leave the file (and its mtime) alone
    except OSError:
        pass
    target.parent.mkdir(exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), 0o644)
            handle.write(content)
        os.replace(temp, target)
    except BaseException:
        # Also on Ctrl-C: no half-written or stray file is left in scores/.
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return target


def stored_evaluation(target: Path) -> Evaluation | None:
    """The evaluation a score file holds; None when it is missing, unreadable or of another shape."""
    try:
        document = json.loads(target.read_bytes())
        return Evaluation.model_validate_json(document["gpt_response_text"])
    except (OSError, ValueError, KeyError, TypeError, ValidationError):
        return None
