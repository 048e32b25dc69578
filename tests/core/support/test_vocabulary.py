"""The words every layer writes alike: a rate, an interval of rates, an agreement figure."""

from __future__ import annotations

import math

from webeval_core.support.vocabulary import UNDEFINED, UNKNOWN, agreement_figure, percent, percent_range


def test_a_rate_has_one_decimal_and_nothing_counted_is_unknown() -> None:
    assert [percent(r) for r in (0.5714, 1.0, 0.0, None, math.nan)] == [
        "57.1%",
        "100.0%",
        "0.0%",
        UNKNOWN,
        UNKNOWN,
    ]


def test_an_interval_is_two_rates() -> None:
    assert percent_range(0.41, 0.623) == "41.0% – 62.3%"


def test_an_agreement_figure_with_nothing_behind_it_is_undefined_not_zero() -> None:
    assert [agreement_figure(v) for v in (0.8, 0.0, None, math.nan)] == [
        "0.800",
        "0.000",
        UNDEFINED,
        UNDEFINED,
    ]


def test_no_view_writes_a_rate_its_own_way() -> None:
    """Every rate of the core, the app and the CLI goes through `percent` (one decimal, one missing word)."""
    from pathlib import Path

    repo = Path(__file__).resolve().parents[3]
    sources = [p for folder in ("webeval_core", "webeval_ui", "pages") for p in (repo / folder).rglob("*.py")]
    own = [str(p.relative_to(repo)) for p in sources if ":.1%}" in p.read_text(encoding="utf-8")]
    assert own == ["webeval_core/support/vocabulary.py"]
