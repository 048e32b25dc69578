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
from pathlib import Path

from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.summary import RootIndex, TrajectorySummary, summarize_trajectory
from webeval_core.support.parallel import ProgressCallback

# The models moved to `summary`; their old import path stays (pages, tools and tests use it).
__all__ = ["RootIndex", "TrajectorySummary", "build_index", "index_as_json", "summarize_trajectory"]


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
    store's rows instead (`store.IndexStore`): this holds every summary in memory.
    """
    root = Path(root)
    with contextlib.ExitStack() as stack:
        if not use_cache:
            cache_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="webeval-index-")))
        store = IndexStore(root, cache_dir)
        refresh_index(store, workers=workers, on_progress=on_progress)
        return RootIndex(root=root, runs=store.runs(), summaries=store.summaries())


def index_as_json(index: RootIndex) -> dict[str, object]:
    """The shape `webeval ls --json` prints (each trajectory's `state` as of now, `task_progress`)."""
    return {
        "root": str(index.root),
        "runs": [
            {
                "key": run.key,
                **run.metadata,
                "trajectories": [
                    json.loads(s.model_dump_json(exclude={"run_key"})) | {"state": _state(s.path)}
                    for s in index.summaries
                    if s.run_key == run.key and not s.unreadable
                ],
            }
            for run in index.runs
        ],
        "unreadable": [
            {"path": str(s.path), "key": s.key, "run": s.run_key, "reason": s.unreadable}
            for s in index.unreadable
        ],
    }


def _state(folder: Path) -> str:
    from webeval_core.reading.task_state import task_progress

    return task_progress(folder).state.value
