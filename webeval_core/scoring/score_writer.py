"""Score files: where an evaluation is stored, its exact bytes, and reading it back.

Verdicts are written to `scores/<eval_hash>.json` in the Fara score-file shape
(`{"score": ..., "gpt_response_text": "<the Evaluation as JSON>"}`). The name pins the engine
version, its checksum, the dataset checksum and the URL config, so a different engine or config
never overwrites an older verdict; the bytes depend only on the evaluation, so unchanged inputs
give an identical file. Each long text is stored once (`reading.scorefiles.share_long_strings`).

A score written by a signed-in user (webeval_core.policy.access) is recorded beside it, in
`scores/written_by.jsonl` (file, identity, time): the score file itself stays the verdict's bytes.
Every file written touches the cache's `scores-written` marker (`support.user_cache`), which an
open app watches.

Writes stay inside the trajectory folder: `scores/` is opened relative to the folder without
following a link, and the file is written through that descriptor (temp file, then rename).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from pydantic import ValidationError

from webeval_core.policy.access import Write, WriteRefusedError, current_policy
from webeval_core.reading.folderfiles import read_file
from webeval_core.reading.markers import SCORES_DIR
from webeval_core.reading.scorefiles import expand_shared_strings, share_long_strings
from webeval_core.scoring.evaluation import Evaluation
from webeval_core.support.user_cache import note_scores_written

WRITERS_FILE = "written_by.jsonl"
"""The sidecar in `scores/` recording who, signed in, wrote each score file (not a `*.json`: no
reader of score files reads it)."""
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0)
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class ScoreWriteError(Exception):
    """A score file that could not be written; the message names it and says why, for the user."""


def score_file_path(folder: Path, eval_hash: str) -> Path:
    """Where a trajectory folder's verdict of one engine and config is stored."""
    return Path(folder) / SCORES_DIR / f"{eval_hash}.json"


def score_file_bytes(evaluation: Evaluation, score: float) -> bytes:
    """The Fara score-file shape; sorted keys and no timestamps, so unchanged inputs give the same bytes."""
    payload = json.dumps(
        share_long_strings(evaluation.model_dump(mode="json")),
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    document = {"score": score, "gpt_response_text": payload}
    return (json.dumps(document, sort_keys=True, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


class WrittenScore(NamedTuple):
    """Where a verdict's score file is, and whether writing it changed anything."""

    path: Path
    """scores/<eval_hash>.json in the folder."""
    changed: bool
    """False when the file already held exactly this verdict: nothing was written or recorded."""


def write_score_file(folder: Path, evaluation: Evaluation, score: float) -> WrittenScore:
    """Write scores/<eval_hash>.json atomically (temp file beside it, then os.replace); a file
    already holding the same bytes is left alone, and no writer is recorded for it.

    Raises:
        ScoreWriteError: when the process is read-only (webeval_core.policy.access), `scores/` is a link
            or not a folder, or the file cannot be written (read-only folder, disk full...); the
            message names the file and the cause.
    """
    target = score_file_path(folder, evaluation.engine.eval_hash)
    return write_score_bytes(folder, target.name, score_file_bytes(evaluation, score))


def write_score_bytes(folder: Path, name: str, content: bytes) -> WrittenScore:
    """Write `scores/<name>` (any judge's score file, already encoded) as `write_score_file` does:
    the policy checked, atomically, left alone when it already holds `content`, a signed-in writer
    recorded.

    Raises:
        ScoreWriteError: as `write_score_file`.
    """
    target = Path(folder) / SCORES_DIR / name
    shown = f"{SCORES_DIR}/{name}"
    # Checked here, where every score file is written, so no page or link of a read-only server can.
    policy = current_policy()
    try:
        policy.check(Write.SCORE)
    except WriteRefusedError as exc:
        raise ScoreWriteError(f"cannot write {shown}: {exc}") from None
    try:
        scores_fd = _open_scores(Path(folder), shown)
    except OSError as exc:
        raise ScoreWriteError(f"cannot write {shown}: {_cause(exc)}") from None
    try:
        changed = _write(scores_fd, name, content)
        if changed and policy.signed_in is not None:
            _record_writer(scores_fd, name, policy.signed_in)
    except OSError as exc:
        raise ScoreWriteError(f"cannot write {shown}: {_cause(exc)}") from None
    finally:
        os.close(scores_fd)
    if changed:  # an open viewer of any root holding this folder reads it within seconds
        note_scores_written()
    return WrittenScore(target, changed)


def _open_scores(folder: Path, shown: str) -> int:
    """A descriptor on the folder's `scores/` (made if missing), never reached through a link."""
    folder_fd = os.open(folder, _DIRECTORY_FLAGS)
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(SCORES_DIR, 0o755, dir_fd=folder_fd)
        kind = os.lstat(SCORES_DIR, dir_fd=folder_fd).st_mode
        if stat.S_ISLNK(kind) or not stat.S_ISDIR(kind):
            what = "a symlink" if stat.S_ISLNK(kind) else "not a folder"
            raise ScoreWriteError(
                f"cannot write {shown}: {SCORES_DIR} is {what}; nothing is written through it"
            )
        return os.open(SCORES_DIR, _DIRECTORY_FLAGS | os.O_NOFOLLOW, dir_fd=folder_fd)
    finally:
        os.close(folder_fd)


def _write(scores_fd: int, name: str, content: bytes) -> bool:
    """Write `content` as `name`; False when the file already held it (left alone, mtime too)."""
    with contextlib.suppress(OSError):
        if read_file(name, dir_fd=scores_fd) == content:
            return False
    temp = f".{name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(temp, _CREATE_FLAGS, 0o644, dir_fd=scores_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), 0o644)
            handle.write(content)
        os.replace(temp, name, src_dir_fd=scores_fd, dst_dir_fd=scores_fd)
    except BaseException:
        # Also on Ctrl-C: no half-written or stray file is left in scores/.
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=scores_fd)
        raise
    return True


def _record_writer(scores_fd: int, name: str, who: str) -> None:
    """Append who (verified by sign-in) wrote score file `name`, and when, to `WRITERS_FILE`.

    A sidecar rather than a field: the score file's bytes stay those of the verdict alone (the same
    whoever scores it), and readers of score files (`*.json`) never see it.
    """
    line = json.dumps({"file": name, "signed_in": who, "at": datetime.now(UTC).isoformat()}, sort_keys=True)
    fd = os.open(
        WRITERS_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o644, dir_fd=scores_fd
    )
    with os.fdopen(fd, "ab") as handle:
        handle.write(line.encode("utf-8") + b"\n")


def _cause(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()


def stored_evaluation(target: Path) -> Evaluation | None:
    """The evaluation a score file holds; None when it is missing, unreadable or of another shape."""
    try:
        document = json.loads(read_file(target))
        payload = expand_shared_strings(json.loads(document["gpt_response_text"]))
        return Evaluation.model_validate(payload)
    except (OSError, ValueError, LookupError, TypeError, RecursionError, ValidationError):
        return None
