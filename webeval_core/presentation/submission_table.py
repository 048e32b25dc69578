"""A submission package's problems as a table: what the packager left out or flagged, and why."""

from __future__ import annotations

import pandas as pd

from webeval_core.reading.submission import Submission

__all__ = ["submission_issue_table"]


def submission_issue_table(package: Submission) -> pd.DataFrame:
    """One row per kind of problem: what it means, whether the tasks were left out, which tasks."""
    return pd.DataFrame(
        [
            {
                "problem": issue.label,
                "left out": issue.blocks_packaging,
                "tasks": len(issue.task_ids),
                "task ids": ", ".join(map(str, issue.task_ids)),
            }
            for issue in package.issues
        ],
        columns=["problem", "left out", "tasks", "task ids"],
    )
