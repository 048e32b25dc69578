"""The file names harnesses write into a trajectory folder, and the folders discovery never goes into.

Apart from the readers (no pydantic, no parser), so the index's refresh can walk a root, tell
what is a trajectory (`reading.formats`, whose formats name these files) and hand it to workers to
read, without loading any of them.
"""

from __future__ import annotations

import os
from collections.abc import Collection
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

TIMES_NAME = "times.json"
"""Fara's times of the solver's run, written once the task returned."""
TASK_DATA_NAME = "task_data.json"
"""The task as the harness gave it (the rubric verifier's data)."""
HAR_NAME = "network.har"
"""The network trace the official evaluator reads."""
EVAL_RESULT_NAME = "eval_result.json"
"""The official CLI's verdict, written beside the agent log it judged."""
SCORES_DIR = "scores"
"""Our judges' score files, inside the trajectory folder (the one place we write into one)."""
TRACE_SUFFIXES = (".har", ".zip")
"""A network trace: a HAR file or a Playwright trace archive."""
TRACE_NETWORK = "trace.network"
"""A Playwright trace unpacked: the folder holding this file is the trace."""
TRACE_WORDS = ("trace", "network")
"""Words a Playwright trace's zip (or its folder) is named with."""

# Folders inside a trajectory or a run that never hold trajectories of their own.
_SKIP_DIRS = {SCORES_DIR, "__pycache__", "node_modules"}


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


def any_name_ends_with(names: Collection[str], suffix: str) -> bool:
    """Whether one of `names` ends with `suffix`: one search in C over the names joined, not a
    Python call a name (the index's walk asks it of every folder). No file name holds NUL, so a
    name ends exactly where a NUL follows.
    """
    return f"{suffix}\0" in "\0".join(names) + "\0"


def is_trace_name(name: str) -> bool:
    """Whether a file of that name in a task folder is its network trace: network.har, a zip whose
    name mentions trace or network (a Playwright trace), or `trace.network` (one unpacked).
    """
    if name in (HAR_NAME, TRACE_NETWORK):
        return True
    return name.endswith(".zip") and any(word in name.lower() for word in TRACE_WORDS)


def traces_in(folder: Path) -> int:
    """How many network traces lie directly in `folder` (what a user may have meant to open)."""
    try:
        with os.scandir(folder) as entries:
            return sum(1 for e in entries if e.name.lower().endswith(TRACE_SUFFIXES) and e.is_file())
    except OSError:
        return 0
