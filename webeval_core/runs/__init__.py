"""Runs: trajectory folders found under a root, grouped into runs, indexed and aggregated.

Owns discovery (which folders are trajectories, which run each belongs to), the index of one
summary per folder (summary: the models every other module builds on; index: all of a root's at
once) for fast lists of large roots: a SQLite file (store), refreshed incrementally (refresh), in
the background for the app (background), queries (the app's lists, counts and charts as SQL on that
file), lists (a list too long for a link, saved beside the index), and metrics (success rates,
breakdowns, the failure taxonomy, run comparison), computed with pandas, and paired statistics of
two runs (statistics: McNemar's exact test, a paired bootstrap interval); judges keeps each judge's
scores apart.

May import: reading, scoring (verdicts read back from score files; never the engine's evaluation)
and diagnostics. Never imports review or presentation.
"""

from typing import TYPE_CHECKING

from webeval_core.exports import lazy_getattr

__all__ = [
    "OFFICIAL",
    "BackgroundRefresh",
    "IndexQueries",
    "IndexStore",
    "IndexView",
    "PairedStatistics",
    "RefreshReport",
    "RefreshStatus",
    "RootIndex",
    "Run",
    "TrajectoryFilter",
    "TrajectorySummary",
    "available_judges",
    "build_index",
    "discover_runs",
    "filter_frame",
    "fingerprint",
    "index_as_json",
    "iter_trajectory_dirs",
    "judge_label",
    "load_list",
    "paired_statistics",
    "refresh_index",
    "run_of",
    "save_list",
    "stored_frame",
    "trajectory_frame",
    "trajectory_key",
]

if TYPE_CHECKING:
    from webeval_core.runs.background import BackgroundRefresh, RefreshStatus
    from webeval_core.runs.discovery import Run, discover_runs, iter_trajectory_dirs, run_of, trajectory_key
    from webeval_core.runs.index import build_index, index_as_json
    from webeval_core.runs.index_db import IndexStore
    from webeval_core.runs.judges import OFFICIAL, available_judges, judge_label
    from webeval_core.runs.lists import load_list, save_list
    from webeval_core.runs.metrics import TrajectoryFilter, filter_frame, stored_frame, trajectory_frame
    from webeval_core.runs.queries import IndexQueries
    from webeval_core.runs.refresh import RefreshReport, fingerprint, refresh_index
    from webeval_core.runs.statistics import PairedStatistics, paired_statistics
    from webeval_core.runs.summary import RootIndex, TrajectorySummary
    from webeval_core.runs.view import IndexView
else:
    __getattr__ = lazy_getattr(__name__, __file__)
