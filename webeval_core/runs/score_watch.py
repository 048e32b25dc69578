"""Noticing score files written by any program while an app is open: Fara's verifier, a judge of
another project, or a `webeval` of another machine writing into the same folders.

Our own writers touch the cache's `scores-written` marker (`support.user_cache`), but another
program knows nothing of it. A score file is a new entry in a trajectory's `scores/` folder, which
moves that folder's mtime (and a first one creates `scores/`). `ScoreWatch.changed` stats every
indexed trajectory's `scores/` (one `stat` each, from the index's list of folders) and answers
True once for each move since it last looked: the background refresh then starts at once.
"""

from __future__ import annotations

import contextlib
import os

from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import scores_mtime

__all__ = ["ScoreWatch"]


class ScoreWatch:
    """The `scores/` folders of one root's indexed trajectories, as last seen."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        """The index whose trajectory folders are watched."""
        self._generation = -1
        self._seen: dict[str, int] = {}

    def changed(self) -> bool:
        """Whether a trajectory's `scores/` changed since the last look (or since the index saw it)."""
        self._follow_index()
        moved = False
        for folder, seen in self._seen.items():
            now = scores_mtime(folder)
            if now != seen:
                self._seen[folder] = now
                moved = True
        return moved

    def _follow_index(self) -> None:
        """Take the index's folders again when a refresh changed it (new folders, or read again)."""
        generation = self.store.generation()
        if generation == self._generation:
            return
        self._generation = generation
        with contextlib.closing(self.store.connect()) as db:
            known = self.store.known_folders(db)
        # What the index saw is the baseline; a folder it read since our last look keeps ours.
        self._seen = {self.store.path_text(rel): int(row[2]) for rel, row in known.items()} | {
            folder: stamp for folder, stamp in self._seen.items() if os.path.isdir(folder)
        }
