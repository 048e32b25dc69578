"""Two runs' paired statistics as a table: rates and differences in percentage points, with n."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from webeval_core.runs.statistics import PairedStatistics

__all__ = ["statistics_table"]


def statistics_table(statistics: Sequence[PairedStatistics]) -> pd.DataFrame:
    """One row per group of tasks: n, both rates, B - A with its interval, flips, McNemar's p."""
    return pd.DataFrame(
        [
            {
                "tasks": s.group,
                "n": s.tasks,
                "A": f"{s.success_a:.1%}",
                "B": f"{s.success_b:.1%}",
                "B - A": f"{s.difference * 100:+.1f} pts",
                "95% interval": f"[{s.ci_low * 100:+.1f}, {s.ci_high * 100:+.1f}] pts",
                "pass → fail": s.pass_to_fail,
                "fail → pass": s.fail_to_pass,
                "McNemar p": round(s.p_value, 4),
            }
            for s in statistics
        ]
    )
