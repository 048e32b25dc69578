"""A judge's score file, as Fara writes them: `scores/<judge id>.json` = `{score,
gpt_response_text}`, with what produced it recorded alongside under `judge` (method, prompt
version, model, parameters, what it kept, tokens, time), which readers of score files pass over.

Written through `scoring.score_writer` (the write policy, temp file + rename); a file of that name
that is not this judge's is never written over.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.llm_judging.judge_verdict import JudgeDecision
from webeval_core.reading.folderfiles import read_file
from webeval_core.reading.markers import SCORES_DIR
from webeval_core.scoring.score_writer import WrittenScore, write_score_bytes

JUDGE_KEY = "judge"
"""The score file's key holding what produced the verdict."""


class JudgeCost(BaseModel):
    """What judging one trajectory took."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    calls: int = 0
    """Requests made (cached ones included)."""
    cached_calls: int = 0
    """Of those, answered from the cache."""
    prompt_tokens: int = 0
    """Prompt tokens of the replies (as the endpoint counted them when they were asked)."""
    completion_tokens: int = 0
    """Completion tokens."""
    seconds: float = 0.0
    """Wall time of the judging."""


class FileOwner(StrEnum):
    """Whose a score file of a judge id's name is."""

    NONE = "none"
    """There is none: the judge has not judged the trajectory."""
    OURS = "ours"
    """This judge wrote it: the trajectory is judged (a resumed run skips it)."""
    OTHER = "other"
    """Someone else's file of that name: never written over."""


def judge_file_path(folder: Path, judge_id: str) -> Path:
    """Where a judge's verdict of a trajectory is stored."""
    return Path(folder) / SCORES_DIR / f"{judge_id}.json"


def judge_file_bytes(
    decision: JudgeDecision, judge_id: str, identity: dict[str, Any], cost: JudgeCost
) -> bytes:
    """The file's bytes: the verdict (1 or 0), the reply, and the judge's record (sorted keys)."""
    record = {
        "id": judge_id,
        **identity,
        **cost.model_dump(),
        "details": decision.details,
        "judged_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    document = {
        "score": 1.0 if decision.success else 0.0,
        "gpt_response_text": decision.response_text,
        JUDGE_KEY: record,
    }
    return (json.dumps(document, sort_keys=True, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def file_owner(folder: Path, judge_id: str) -> FileOwner:
    """Whether `scores/<judge id>.json` exists, and whether this judge wrote it."""
    try:
        document = json.loads(read_file(judge_file_path(folder, judge_id)))
    except FileNotFoundError:
        return FileOwner.NONE
    except (OSError, ValueError):
        return FileOwner.OTHER  # unreadable, or a link: never written over
    record = document.get(JUDGE_KEY) if isinstance(document, dict) else None
    return FileOwner.OURS if isinstance(record, dict) and record.get("id") == judge_id else FileOwner.OTHER


def write_judge_file(folder: Path, judge_id: str, content: bytes) -> WrittenScore:
    """Write the judge's file (atomic; the write policy checked).

    Raises:
        ScoreWriteError: as `scoring.score_writer.write_score_bytes`.
    """
    return write_score_bytes(folder, f"{judge_id}.json", content)
