"""How sure is one success rate? Its 95% interval two ways, as a results table gives them.

- Wilson's score interval: the usual interval of a binomial proportion, good at small n and near 0
  or 1 (where the normal approximation leaves [0, 1]). With partial scores (rubric judges) the rate
  is a mean of values in [0, 1] and the interval treats it as a proportion of n.
- A percentile bootstrap of the mean over trajectories, with the Compare page's resamples and seed
  (`statistics.BOOTSTRAP_RESAMPLES`, `BOOTSTRAP_SEED`), so the same rows always give the same figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt
from statistics import NormalDist

import numpy as np

from webeval_core.runs.statistics import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE

Z = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / 2)
"""The normal quantile of a two-sided 95% interval (1.95996…)."""
INTERVAL_NAMES = (
    f"Wilson score {CONFIDENCE:.0%} interval",
    f"bootstrap {CONFIDENCE:.0%} interval ({BOOTSTRAP_RESAMPLES:,} resamples, seed {BOOTSTRAP_SEED})",
)
"""The two intervals, as tables name them."""


def wilson_interval(total: float, n: int) -> tuple[float, float] | None:
    """Wilson's 95% score interval of the rate `total / n`; None when n is 0."""
    if n <= 0:
        return None
    rate = total / n
    centre = rate + Z * Z / (2 * n)
    spread = Z * sqrt(rate * (1 - rate) / n + Z * Z / (4 * n * n))
    scale = 1 + Z * Z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def bootstrap_rate_interval(
    values: Sequence[float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> tuple[float, float] | None:
    """Percentile 95% interval of the mean of `values` over resamples of them; None when empty."""
    if not values:
        return None
    array = np.asarray(values, dtype=float)
    picks = np.random.default_rng(seed).integers(0, len(array), size=(resamples, len(array)))
    means = array[picks].mean(axis=1)
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)
