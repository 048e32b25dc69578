"""A per-trajectory summary of a whole root, so large runs open fast.

Loading a trajectory parses its whole log; an overview of 1,000 of them must not. The index
keeps one small `TrajectorySummary` per folder (`summary`) in a SQLite file outside the input
tree (`store`), refreshed by reading again only the folders that changed (`refresh`). This module
holds `build_index`, which returns all of a root's summaries at once (small roots, the CLI,
tests), and the JSON `webeval ls --json` prints.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.summary import RootIndex, TrajectorySummary, summarize_trajectory
from webeval_core.support.parallel import ProgressCallback

if TYPE_CHECKING:
    from webeval_core.reading.task_state import StateCounts, TaskState
    from webeval_core.runs.discovery import Run

# The models moved to `summary`; their old import path stays (pages, tools and tests use it).
__all__ = [
    "RootIndex",
    "TrajectorySummary",
    "build_index",
    "index_as_json",
    "run_counts",
    "summarize_trajectory",
    "summary_state",
]


def build_index(
    root: Path,
    *,
    cache_dir: Path | None = None,
    use_cache: bool = True,
    workers: int | None = None,
    on_progress: ProgressCallback | None = None,
) -> RootIndex:
    """Bring the root's index file up to date (`refresh.refresh_index`) and read all of it back.

    `use_cache=False` reads every folder again into a throw-away index. For large roots, read the
    store's rows instead (`index_db.IndexStore`): this holds every summary in memory.
    """
    root = Path(root)
    with contextlib.ExitStack() as stack:
        if not use_cache:
            cache_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="webeval-index-")))
        store = IndexStore(root, cache_dir)
        refresh_index(store, workers=workers, on_progress=on_progress)
        return RootIndex(root=root, runs=store.runs(), summaries=store.summaries())


def index_as_json(index: RootIndex) -> dict[str, object]:
    """The shape `webeval ls --json` prints: each trajectory's `state` as of now (`summary_state`)
    and each run's `counts` of them (`run_counts`).
    """
    now = time.time()
    return {
        "root": str(index.root),
        "runs": [_run_json(index, run, now) for run in index.runs],
        "unreadable": [
            {"path": str(s.path), "key": s.key, "run": s.run_key, "reason": s.unreadable}
            for s in index.unreadable
        ],
    }


def _run_json(index: RootIndex, run: Run, now: float) -> dict[str, object]:
    """One run of `ls --json`: its metadata, its state counts, then its readable trajectories."""
    from webeval_core.reading.task_state import count_states

    members = [s for s in index.summaries if s.run_key == run.key and not s.unreadable]
    states = [summary_state(s, now) for s in members]
    counts = count_states(states)
    return {
        "key": run.key,
        **run.metadata,
        "counts": counts.model_dump() | {"unfinished": counts.unfinished},
        "trajectories": [
            json.loads(s.model_dump_json(exclude={"run_key"})) | {"state": state.value}
            for s, state in zip(members, states, strict=True)
        ],
    }


def summary_state(summary: TrajectorySummary, now: float | None = None) -> TaskState:
    """A summarised folder's state (`reading.task_state.state_of`) from its outcome; an unfinished
    one's running or stalled from when its folder last changed (looked at now).
    """
    from webeval_core.reading.task_state import state_of, task_progress

    when = time.time() if now is None else now
    last = task_progress(summary.path, when).last_change if summary.outcome == "unfinished" else None
    return state_of(summary.outcome, summary.crash_reason is not None, last, when)


def run_counts(members: Iterable[TrajectorySummary], now: float | None = None) -> StateCounts:
    """The state counts of a run's readable trajectories (`ls`, `ls --json`)."""
    from webeval_core.reading.task_state import count_states

    return count_states(summary_state(s, now) for s in members)
