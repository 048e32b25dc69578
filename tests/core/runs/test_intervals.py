"""A rate's 95% intervals against values computed by hand and the normal approximation."""

from __future__ import annotations

from math import sqrt

import pytest

from webeval_core.runs.intervals import Z, bootstrap_rate_interval, wilson_interval


@pytest.mark.parametrize(
    ("total", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),  # nothing passed: the interval still reaches 28%
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (5, 20, 0.1119, 0.4687),
    ],
)
def test_wilson_matches_the_textbook_figures(total: float, n: int, low: float, high: float) -> None:
    assert wilson_interval(total, n) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


def test_nothing_counted_has_no_interval() -> None:
    assert wilson_interval(0, 0) is None
    assert bootstrap_rate_interval([]) is None


def test_the_bootstrap_is_fixed_and_near_the_normal_interval_on_a_large_run() -> None:
    values = [1.0] * 320 + [0.0] * 492  # 812 tasks, 39.4%
    first = bootstrap_rate_interval(values)
    assert first == bootstrap_rate_interval(values)  # a fixed seed: the figures never move
    assert first is not None
    rate = 320 / 812
    half = Z * sqrt(rate * (1 - rate) / 812)
    assert first == (pytest.approx(rate - half, abs=0.004), pytest.approx(rate + half, abs=0.004))
