"""What pages read of a root's index at one generation (`IndexView`): the runs' heads at once, a
run's folders and summaries when asked for, each read from the index file (runs/index_db.py) once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from webeval_core.runs.index_db import IndexCounts, IndexStore

if TYPE_CHECKING:
    from webeval_core.runs.discovery import Run
    from webeval_core.runs.summary import RootIndex, TrajectorySummary

__all__ = ["IndexView"]


class IndexView:
    """What pages read of a root's index at one generation: the runs' heads at once, a run's folders
    and summaries when asked for.

    It answers as `index.RootIndex` does (`root`, `runs`, `run()`, `summaries`), but never holds
    every summary unless `summaries` is asked for, nor every folder unless `runs` is: a large root's
    lists and charts are queries (runs/listing/queries.py), and a trajectory page reads only its run.
    """

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        """The index file read."""
        self.generation = store.generation()
        """The index's generation when this view was made (read before the rows: never newer)."""
        self.root = store.root
        """The root the index is of."""
        self.run_heads = store.run_heads()
        """Every run, ordered by key, without its trajectory folders: for pickers and labels."""
        self._heads_by_key = {run.key: run for run in self.run_heads}
        self._by_run: dict[str, tuple[TrajectorySummary, ...]] = {}
        self._runs_by_key: dict[str, Run | None] = {}

    @functools.cached_property
    def runs(self) -> tuple[Run, ...]:
        """Every run with its trajectory folders, ordered by key (read when first asked: a path per
        trajectory; `run_heads` and `run()` are enough for most pages).
        """
        return self.store.runs()

    @functools.cached_property
    def counts(self) -> IndexCounts:
        """How many trajectories, runs and unreadable folders the index holds (read when first asked)."""
        return self.store.counts()

    def run(self, key: str) -> Run | None:
        """The run with this key and its trajectory folders (read once per view), or None when the
        root has none.
        """
        if key not in self._heads_by_key:
            return None
        if key not in self._runs_by_key:
            self._runs_by_key[key] = self.store.run(key)
        return self._runs_by_key[key]

    def summaries_of(self, run_key: str | None) -> tuple[TrajectorySummary, ...]:
        """One run's summaries in folder order (read once per view); none for an unknown run."""
        if run_key is None or run_key not in self._heads_by_key:
            return ()
        if run_key not in self._by_run:
            self._by_run[run_key] = self.store.summaries(run_key)
        return self._by_run[run_key]

    @property
    def summaries(self) -> tuple[TrajectorySummary, ...]:
        """Every summary, run by run (read from the file: costly for a large root)."""
        return tuple(s for run in self.run_heads for s in self.summaries_of(run.key))

    def root_index(self, run_keys: Iterable[str]) -> RootIndex:
        """A `RootIndex` of some runs (a run's report, two runs compared)."""
        from webeval_core.runs.summary import RootIndex

        runs = tuple(run for key in run_keys if (run := self.run(key)) is not None)
        return RootIndex(
            root=self.root, runs=runs, summaries=tuple(s for r in runs for s in self.summaries_of(r.key))
        )
