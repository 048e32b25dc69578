"""The task's text as a trajectory folder keeps it, and where it came from.

WebArena-Verified tasks are in the catalog (`tasks`); the other Fara benchmarks keep theirs in
`task_data.json` (written by the WebTailBench rubric verifier: `task_proposal`, `task_summary`...)
or, for WebVoyager and Online-Mind2Web rows copied into it, under their own benchmark's key
(`ques`, `confirmed_task`). The first non-empty key, in the order below, is the task.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

__all__ = ["SITE_KEYS", "TASK_TEXT_KEYS", "TaskText", "site_of", "task_text_of"]

TASK_DATA_NAME = "task_data.json"
TASK_TEXT_KEYS = (
    "task_proposal",  # WebTailBench: the task as proposed to the agent
    "task",
    "intent",  # WebArena-style rows
    "confirmed_task",  # Online-Mind2Web
    "ques",  # WebVoyager
    "question",
    "instruction",
    "goal",
    "task_summary",  # WebTailBench's summary: a last resort, it paraphrases
)
"""Keys of task_data.json that may hold the task, most faithful first."""
SITE_KEYS = ("website", "site", "web_name", "domain", "web", "start_url", "url", "init_url")
"""Keys of task_data.json that may name the task's website (a name, or a URL whose host is kept)."""


class TaskText(BaseModel):
    """The task as the agent was given it, and which file and key it was read from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    """The task, verbatim."""
    source: str
    """Where it was read, e.g. "task_data.json: task_proposal"."""


def task_text_of(task_data: dict[str, Any] | None, file: str = TASK_DATA_NAME) -> TaskText | None:
    """The task text held by a task_data.json (or a benchmark row of that shape); None when none is."""
    if not task_data:
        return None
    for key in TASK_TEXT_KEYS:
        value = task_data.get(key)
        if isinstance(value, str) and value.strip():
            return TaskText(text=value.strip(), source=f"{file}: {key}")
    return None


def site_of(task_data: dict[str, Any] | None) -> str | None:
    """The task's website as task_data.json names it: a name as written, a URL's host without
    "www."; None when no key of `SITE_KEYS` holds one (nothing is guessed from the task id).
    """
    if not task_data:
        return None
    for key in SITE_KEYS:
        value = task_data.get(key)
        if isinstance(value, str) and value.strip():
            return _site_name(value.strip())
    return None


def _site_name(value: str) -> str | None:
    if "://" not in value:
        return value
    return (urlsplit(value).hostname or "").removeprefix("www.") or None
