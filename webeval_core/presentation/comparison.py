"""Two runs compared as tables: paired statistics (rates and differences in percentage points, with
n), and their error-taxonomy counts side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from webeval_core.reading.taxonomy import category_label, code_label, sorted_codes
from webeval_core.runs.queries import CodeCountRow
from webeval_core.runs.statistics import PairedStatistics

__all__ = ["code_counts_table", "statistics_table"]


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


def code_counts_table(
    rows: Sequence[CodeCountRow], run_a: str, run_b: str, *, by_category: bool
) -> pd.DataFrame:
    """Trajectories per verifier and error category (or code) in run A and run B, and B - A.

    A row per (verifier, category) either run has, in the taxonomy's order; a run without it counts 0.
    """
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for row in rows:
        counts.setdefault((row.judge, row.code), {})[row.run] = row.trajectories
    order = {code: i for i, code in enumerate(sorted_codes([code for _, code in counts]))}
    named = category_label if by_category else code_label
    table = []
    for judge, code in sorted(counts, key=lambda k: (k[0], order[k[1]])):
        a, b = counts[judge, code].get(run_a, 0), counts[judge, code].get(run_b, 0)
        table.append(
            {
                "verifier": judge,
                "category" if by_category else "code": named(code),
                "A": a,
                "B": b,
                "B - A": b - a,
            }
        )
    return pd.DataFrame(table, columns=["verifier", "category" if by_category else "code", "A", "B", "B - A"])
