"""The beginning of a trajectory's web_surfer.log as text, for people reading the raw evidence.

The steps parsed from the log come from actionlog.py; this is the log itself, cut at a size a
page can show. The file is read through folderfiles, so it is opened only inside the folder.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import read_file, resolve_inside
from webeval_core.reading.markers import LOG_NAME

EXCERPT_BYTES = 64 * 1024
"""How much of the log an excerpt holds by default."""


class LogExcerpt(BaseModel):
    """The first bytes of a log file, decoded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    """The excerpt as UTF-8 text, invalid bytes replaced with U+FFFD."""
    limit: int
    """How many bytes the excerpt was cut at."""
    truncated: bool
    """Whether the file holds more than `limit` bytes."""


def read_log_excerpt(folder: Path, limit: int = EXCERPT_BYTES) -> LogExcerpt | None:
    """The first `limit` bytes of the folder's web_surfer.log; None when it has no readable one."""
    path = resolve_inside(folder, LOG_NAME)
    if path is None or not path.is_file():
        return None
    try:
        data = read_file(path, limit + 1)
    except OSError:
        return None
    text = data[:limit].decode("utf-8", errors="replace")
    return LogExcerpt(text=text, limit=limit, truncated=len(data) > limit)
