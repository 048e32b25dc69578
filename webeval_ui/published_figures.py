"""The published figures the pages draw beside the scored ones (edits and exclusions of the review
store applied, webeval_core/review/publication.py), read for what the page shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from webeval_core.review import (
    GroupBy,
    PublishedTrajectory,
    ResultLine,
    published_one,
    published_runs,
    result_line,
    results,
)
from webeval_ui.review_mode import figure_queries, gated_queries
from webeval_ui.review_store import review_store_quiet


def published_lines(runs: Sequence[str], judge: str | None) -> dict[str, ResultLine]:
    """Each shown run's line by run key, and "all" for the runs pooled."""
    trajectories = published_runs(figure_queries(), judge, review_store_quiet(), runs)
    lines = {line.group: line for line in results(trajectories, GroupBy.RUN)}
    lines["all"] = result_line("all", trajectories)
    return lines


def published_trajectory(run_key: str, key: str) -> PublishedTrajectory | None:
    """One trajectory's published verdict (its summary `key`); None when the index lacks it."""
    return published_one(gated_queries(), review_store_quiet(), run_key, key)
