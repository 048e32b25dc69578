"""The file names that make a folder a trajectory, and the folders discovery never goes into.

Apart from the readers (no pydantic, no parser), so the index's refresh can walk a root, tell
what is a trajectory and hand it to workers to read, without loading any of them.
"""

from __future__ import annotations

import os
from pathlib import Path

LOG_NAME = "web_surfer.log"
"""The Fara agent's action log."""
ANSWER_SUFFIX = "_answer.json"
"""A Fara final answer file ends so (upstream globs `*_answer.json`)."""
AGENT_RESPONSE = "agent_response.json"
"""The answer of a WebArena-Verified (official layout) trajectory."""
CORE_LOG_NAME = "core.log"
"""The harness's log."""
CRASHED_PARENT = "traj"
"""The folder of a Fara run's trajectories, where a folder holding only core.log is a crashed task."""

TRACE_SUFFIXES = (".har", ".zip")
"""A network trace: a HAR file or a Playwright trace archive."""
LAYOUTS = (
    f"a trajectory folder holds {LOG_NAME} or <task_id>{ANSWER_SUFFIX.replace('_answer', '_final_answer')}"
    f" (Fara's layout), or {AGENT_RESPONSE} with its network.har (WebArena-Verified's agent logs)"
)
"""What makes a folder a trajectory, as every message that finds none says it."""

# Folders inside a trajectory or a run that never hold trajectories of their own.
_SKIP_DIRS = {"scores", "__pycache__", "node_modules"}


def is_trajectory_folder(path: Path | str) -> bool:
    """Cheap check for run discovery: an answer file, a web_surfer.log or an agent_response.json
    (or, in a Fara run's `traj/`, a core.log: what a crashed task leaves).
    """
    try:
        with os.scandir(path) as entries:
            names = [e.name for e in entries]
    except OSError:
        return False
    if any(n in (LOG_NAME, AGENT_RESPONSE) or n.endswith(ANSWER_SUFFIX) for n in names):
        return True
    return CORE_LOG_NAME in names and Path(path).parent.name == CRASHED_PARENT


def is_walked(entry: os.DirEntry[str]) -> bool:
    """Whether discovery goes into this entry: a real folder (no link), not hidden, not `scores/`,
    named in UTF-8 (a name of other bytes can be neither shown nor kept in the index's text).
    """
    if entry.name.startswith(".") or entry.name in _SKIP_DIRS or not _is_utf8(entry.name):
        return False
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def is_misnamed_folder(entry: os.DirEntry[str]) -> bool:
    """Whether discovery skips this entry for its name alone: a folder (not hidden, not `scores/`)
    whose name is not UTF-8. Its trajectories cannot be indexed; the index names it instead.
    """
    if entry.name.startswith(".") or entry.name in _SKIP_DIRS or _is_utf8(entry.name):
        return False
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def shown_name(name: str) -> str:
    """A name as listed (bytes that are not UTF-8 kept as lone surrogates) that can be printed:
    each such byte becomes U+FFFD.
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _is_utf8(name: str) -> bool:
    # os.listdir turns bytes that are not UTF-8 into lone surrogates ("surrogateescape").
    return name.isascii() or not any("\ud800" <= c <= "\udfff" for c in name)


def not_a_trajectory(path: Path) -> str:
    """Why `path` is no trajectory folder, with the layouts that are: a network trace alone (a HAR
    or a trace archive) is named as such and told where it belongs.
    """
    if path.suffix.lower() in TRACE_SUFFIXES and path.is_file():
        return (
            f"this is a network trace ({path.suffix.lower()[1:].upper()}), not a trajectory: put it in a"
            f" task folder beside the agent's {AGENT_RESPONSE} (that folder is the trajectory); {LAYOUTS}"
        )
    if path.is_file():
        return f"this is a file, not a trajectory folder; {LAYOUTS}"
    return f"no trajectory folder found; {LAYOUTS}"


def traces_in(folder: Path) -> int:
    """How many network traces lie directly in `folder` (what a user may have meant to open)."""
    try:
        with os.scandir(folder) as entries:
            return sum(1 for e in entries if e.name.lower().endswith(TRACE_SUFFIXES) and e.is_file())
    except OSError:
        return 0
