"""Paired statistics of two runs, checked against values computed by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from webeval_core.runs.metrics import BOTH_FAIL, BOTH_PASS, FAIL_TO_PASS, NOT_COMPARABLE, ONLY_A, PASS_TO_FAIL
from webeval_core.runs.statistics import bootstrap_interval, mcnemar_exact, paired_statistics


@pytest.mark.parametrize(
    ("down", "up", "expected"),
    [
        (0, 0, 1.0),  # no flips: no evidence either way
        (1, 5, 2 * (1 + 6) / 64),  # n = 6: P(X <= 1) = (C(6,0) + C(6,1)) / 2^6, doubled
        (0, 6, 2 / 64),
        (6, 0, 2 / 64),  # two-sided: symmetric
        (3, 3, 1.0),  # 2 * 42/64 > 1, capped
        (2, 8, 2 * (1 + 10 + 45) / 1024),
    ],
)
def test_mcnemar_exact_matches_the_binomial_by_hand(down: int, up: int, expected: float) -> None:
    assert mcnemar_exact(down, up) == pytest.approx(expected)


def test_bootstrap_interval_by_hand() -> None:
    # Every task the same on both sides: every resample's difference is 0.
    assert bootstrap_interval([True, False, True], [True, False, True]) == (0.0, 0.0)
    # B passes all that A fails: every resample's difference is 1.
    assert bootstrap_interval([False] * 4, [True] * 4) == (1.0, 1.0)
    # Two tasks, one pass -> fail: a resample's difference is -1, -0.5 or 0, with chances 1/4,
    # 1/2, 1/4, so the 2.5th and 97.5th percentiles of 2,000 resamples are -1 and 0.
    assert bootstrap_interval([True, False], [False, False]) == (-1.0, 0.0)
    # A fixed seed: the same interval every time; another seed, (almost surely) another one.
    mixed_a, mixed_b = [True, False, True, True, False] * 8, [True, True, False, True, True] * 8
    assert bootstrap_interval(mixed_a, mixed_b) == bootstrap_interval(mixed_a, mixed_b)
    low, high = bootstrap_interval(mixed_a, mixed_b)
    assert low < 0.2 < high  # the observed difference, (32 - 24) / 40, lies inside
    with pytest.raises(ValueError, match="same, non-zero number"):
        bootstrap_interval([True], [])


def test_paired_statistics_overall_per_site_and_type() -> None:
    rows = [
        ("1", "gitlab", "retrieve", PASS_TO_FAIL),
        ("2", "gitlab", "retrieve", FAIL_TO_PASS),
        ("3", "gitlab", "mutate", FAIL_TO_PASS),
        ("4", "reddit", "mutate", BOTH_PASS),
        ("5", "reddit", "mutate", BOTH_FAIL),
        ("6", "reddit", "navigate", NOT_COMPARABLE),  # not paired: left out of every group
        ("7", "map", "navigate", ONLY_A),
    ]
    comparison = pd.DataFrame(rows, columns=["task_id", "site", "task_type", "change"])
    stats = {s.group: s for s in paired_statistics(comparison)}
    assert list(stats) == ["all", "site: gitlab", "site: reddit", "type: mutate", "type: retrieve"]
    overall = stats["all"]
    assert (overall.tasks, overall.pass_to_fail, overall.fail_to_pass) == (5, 1, 2)
    assert (overall.success_a, overall.success_b) == (2 / 5, 3 / 5)
    assert overall.difference == pytest.approx(1 / 5)
    assert overall.p_value == pytest.approx(1.0)  # n = 3: 2 * (1 + 3) / 8 = 1
    assert overall.ci_low <= overall.difference <= overall.ci_high
    gitlab = stats["site: gitlab"]
    assert (gitlab.tasks, gitlab.success_a, gitlab.success_b) == (3, 1 / 3, 2 / 3)
    assert (
        stats["site: reddit"].p_value == 1.0
        and stats["site: reddit"].ci_low == stats["site: reddit"].ci_high == 0.0
    )
    assert stats["type: retrieve"].tasks == 2
