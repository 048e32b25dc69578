"""Is run B really better than run A? Paired statistics on the tasks both runs were scored on.

Two tests, each named with the number of tasks it used:
- McNemar's exact test on the flips: under "no difference" a flip is as likely to go either way,
  so the pass -> fail count among the n flips is Binomial(n, 1/2); the p-value is two-sided.
- A paired bootstrap interval of the success-rate difference (B - A): tasks are resampled with
  replacement, both runs' results kept together, with a fixed seed so the figures never move.

Overall, then per site and per task type. Only tasks whose result enters both success rates are
paired (see `metrics.compare_runs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict

from webeval_core.runs.metrics import BOTH_FAIL, BOTH_PASS, FAIL_TO_PASS, PASS_TO_FAIL

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "BOOTSTRAP_SEED",
    "TEST_NAMES",
    "PairedStatistics",
    "bootstrap_interval",
    "mcnemar_exact",
    "paired_statistics",
]

BOOTSTRAP_RESAMPLES = 2000
"""Resamples of the paired bootstrap: enough for a stable 95% interval, fast on 812 tasks."""
BOOTSTRAP_SEED = 0
"""The bootstrap's fixed seed: the same runs always give the same interval."""
CONFIDENCE = 0.95
_PAIRED = (BOTH_PASS, BOTH_FAIL, PASS_TO_FAIL, FAIL_TO_PASS)
TEST_NAMES = (
    "McNemar's exact test (two-sided binomial on the flips)",
    (
        f"paired bootstrap {CONFIDENCE:.0%} interval of B - A "
        f"({BOOTSTRAP_RESAMPLES:,} resamples, seed {BOOTSTRAP_SEED})"
    ),
)
"""The tests used, as views name them."""


class PairedStatistics(BaseModel):
    """Two runs compared on one group of shared tasks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    group: str
    """Which tasks: "all", "site: <site>" or "type: <task type>"."""
    tasks: int
    """How many tasks were paired (scored in both runs): the n of both tests."""
    success_a: float
    """Run A's success rate on these tasks."""
    success_b: float
    """Run B's success rate on these tasks."""
    pass_to_fail: int
    """Tasks A passed and B failed."""
    fail_to_pass: int
    """Tasks A failed and B passed."""
    p_value: float
    """McNemar's exact two-sided p-value (1.0 without flips)."""
    ci_low: float
    """Lower end of the bootstrap interval of the success-rate difference B - A."""
    ci_high: float
    """Upper end of the bootstrap interval of the success-rate difference B - A."""

    @property
    def difference(self) -> float:
        """B's success rate minus A's, on these tasks."""
        return self.success_b - self.success_a


def mcnemar_exact(pass_to_fail: int, fail_to_pass: int) -> float:
    """Two-sided exact McNemar p-value: P(a split at least this uneven) under Binomial(n, 1/2)."""
    n = pass_to_fail + fail_to_pass
    if n == 0:
        return 1.0
    tail: float = sum(comb(n, k) for k in range(min(pass_to_fail, fail_to_pass) + 1)) / 2**n
    return min(1.0, 2 * tail)


def bootstrap_interval(
    passed_a: Sequence[bool],
    passed_b: Sequence[bool],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float]:
    """Percentile interval of mean(B) - mean(A) over task resamples (pairs kept together)."""
    a, b = np.asarray(passed_a, dtype=float), np.asarray(passed_b, dtype=float)
    if len(a) != len(b) or len(a) == 0:
        raise ValueError("the two runs need the same, non-zero number of paired tasks")
    picks = np.random.default_rng(seed).integers(0, len(a), size=(resamples, len(a)))
    differences = (b - a)[picks].mean(axis=1)
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(differences, [tail, 100 - tail])
    return float(low), float(high)


def paired_statistics(comparison: pd.DataFrame) -> tuple[PairedStatistics, ...]:
    """Both tests on all paired tasks, then per site and per task type (groups without pairs left out).

    `comparison` is `metrics.compare_runs`'s table (task_id, site, task_type, change...).
    """
    paired = comparison[comparison["change"].isin(_PAIRED)]
    groups: list[tuple[str, pd.DataFrame]] = [("all", paired)]
    for column, label in (("site", "site"), ("task_type", "type")):
        values = paired[column].dropna().astype(str)
        groups += [
            (f"{label}: {value}", paired.loc[values.index[values == value]]) for value in sorted(set(values))
        ]
    return tuple(_statistics(name, rows) for name, rows in groups if not rows.empty)


def _statistics(group: str, rows: pd.DataFrame) -> PairedStatistics:
    change = rows["change"]
    passed_a = change.isin((BOTH_PASS, PASS_TO_FAIL)).tolist()
    passed_b = change.isin((BOTH_PASS, FAIL_TO_PASS)).tolist()
    down, up = int((change == PASS_TO_FAIL).sum()), int((change == FAIL_TO_PASS).sum())
    low, high = bootstrap_interval(passed_a, passed_b)
    return PairedStatistics(
        group=group,
        tasks=len(rows),
        success_a=sum(passed_a) / len(rows),
        success_b=sum(passed_b) / len(rows),
        pass_to_fail=down,
        fail_to_pass=up,
        p_value=mcnemar_exact(down, up),
        ci_low=low,
        ci_high=high,
    )
