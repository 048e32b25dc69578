"""Runs: trajectory folders found under a root, grouped into runs, indexed and aggregated.

Owns discovery (which folders are trajectories, which run each belongs to), the index of one
summary per folder (summary: the models every other module builds on; index: all of a root's at
once) for fast lists of large roots: a SQLite file (store), refreshed incrementally (refresh), in
the background for the app (background), queries (the app's lists, counts and charts as SQL on that
file), lists (a list too long for a link, saved beside the index), and metrics (success rates,
breakdowns, the failure taxonomy, run comparison), computed with pandas, and paired statistics of
two runs (statistics: McNemar's exact test, a paired bootstrap interval), intervals of one rate
(intervals: Wilson, bootstrap); judges keeps each judge's scores apart; run_watch follows a run
while it runs (progress, pace, silent tasks).

May import: reading, scoring (verdicts read back from score files; never the engine's evaluation)
and diagnostics. Never imports review or presentation.
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "CHANGES",
    "DEFAULT_MAX_ROWS",
    "DEFAULT_TIMEOUT_S",
    "FAIL",
    "FAIL_TO_PASS",
    "FILTER_PARAMS",
    "INDEX_TABLES",
    "INTERVAL_NAMES",
    "NOT_COMPARABLE",
    "NOT_RUN",
    "OFFICIAL",
    "ONLY_A",
    "ONLY_B",
    "OUTCOME_GROUPS",
    "OUTSIDE_REVIEW",
    "PASS",
    "PASS_TO_FAIL",
    "RESULTS",
    "TEST_NAMES",
    "THROUGHPUT_WINDOW_S",
    "UNFINISHED",
    "VERDICT_OUTCOME_GROUPS",
    "BackgroundRefresh",
    "BarChoice",
    "Column",
    "Headline",
    "IndexQueries",
    "IndexStore",
    "IndexView",
    "ListedTrajectory",
    "LiveProgress",
    "PairedStatistics",
    "QueryError",
    "QueryResult",
    "QueryTimeoutError",
    "RefreshReport",
    "RefreshStatus",
    "RootIndex",
    "Run",
    "RunWatch",
    "ScoringLogError",
    "TrajectoryFilter",
    "TrajectoryPage",
    "TrajectoryRef",
    "TrajectorySummary",
    "Viewer",
    "WalkItem",
    "WatchedTask",
    "Withheld",
    "available_judges",
    "bootstrap_rate_interval",
    "build_index",
    "change_counts",
    "code_choice",
    "compare_runs",
    "default_judge",
    "discover_runs",
    "export_records",
    "exported_columns",
    "filter_frame",
    "filter_from_params",
    "fingerprint",
    "headline",
    "headlines",
    "index_as_json",
    "is_package_file",
    "iter_trajectory_dirs",
    "judge_label",
    "judge_passes",
    "judge_scores",
    "last_scoring",
    "list_columns",
    "listed_frame",
    "load_list",
    "natural_key",
    "order_judges",
    "page_frame",
    "paired_statistics",
    "record_flips",
    "recorded_scorings",
    "refresh_index",
    "revealed_items",
    "run_counts",
    "run_labels",
    "run_of",
    "run_query",
    "save_list",
    "score_recorded",
    "stored_frame",
    "summary_state",
    "tag_options",
    "task_matrix",
    "trajectory_frame",
    "trajectory_key",
    "trajectory_refs",
    "unpacked_package",
    "verdict_columns",
    "wilson_interval",
]

if TYPE_CHECKING:
    from webeval_core.runs.background import BackgroundRefresh, RefreshStatus
    from webeval_core.runs.discovery import (
        Run,
        discover_runs,
        iter_trajectory_dirs,
        natural_key,
        run_of,
        trajectory_key,
    )
    from webeval_core.runs.index import build_index, index_as_json, run_counts, summary_state
    from webeval_core.runs.index_db import IndexStore
    from webeval_core.runs.intervals import INTERVAL_NAMES, bootstrap_rate_interval, wilson_interval
    from webeval_core.runs.judges import (
        OFFICIAL,
        available_judges,
        default_judge,
        judge_label,
        judge_passes,
        judge_scores,
        order_judges,
    )
    from webeval_core.runs.listing.list_columns import (
        Column,
        export_records,
        exported_columns,
        list_columns,
        verdict_columns,
    )
    from webeval_core.runs.listing.queries import (
        BarChoice,
        IndexQueries,
        ListedTrajectory,
        TrajectoryPage,
        WalkItem,
    )
    from webeval_core.runs.listing.row_sql import code_choice
    from webeval_core.runs.lists import load_list, save_list
    from webeval_core.runs.metrics import (
        CHANGES,
        FAIL_TO_PASS,
        NOT_COMPARABLE,
        NOT_RUN,
        ONLY_A,
        ONLY_B,
        PASS_TO_FAIL,
        Headline,
        change_counts,
        compare_runs,
        filter_frame,
        headline,
        headlines,
        listed_frame,
        page_frame,
        run_labels,
        stored_frame,
        tag_options,
        task_matrix,
        trajectory_frame,
    )
    from webeval_core.runs.packages import is_package_file, unpacked_package
    from webeval_core.runs.refresh import RefreshReport, fingerprint, refresh_index
    from webeval_core.runs.run_watch import THROUGHPUT_WINDOW_S, LiveProgress, RunWatch, WatchedTask
    from webeval_core.runs.scoring_log import (
        ScoringLogError,
        last_scoring,
        record_flips,
        recorded_scorings,
        score_recorded,
    )
    from webeval_core.runs.sqlquery import (
        DEFAULT_MAX_ROWS,
        DEFAULT_TIMEOUT_S,
        INDEX_TABLES,
        QueryError,
        QueryResult,
        QueryTimeoutError,
        TrajectoryRef,
        revealed_items,
        run_query,
        trajectory_refs,
    )
    from webeval_core.runs.statistics import TEST_NAMES, PairedStatistics, paired_statistics
    from webeval_core.runs.summary import RootIndex, TrajectorySummary
    from webeval_core.runs.trajectory_filter import (
        FAIL,
        FILTER_PARAMS,
        OUTCOME_GROUPS,
        PASS,
        RESULTS,
        UNFINISHED,
        VERDICT_OUTCOME_GROUPS,
        TrajectoryFilter,
        filter_from_params,
    )
    from webeval_core.runs.view import IndexView
    from webeval_core.runs.viewing import OUTSIDE_REVIEW, Viewer, Withheld
else:
    __getattr__ = lazy_getattr(__name__, __file__)
