"""The live view's lines: the rate names its judge once, whatever the judge's label starts with."""

from __future__ import annotations

from webeval_core.presentation.live_words import rate_line
from webeval_core.runs.judges import OFFICIAL


def test_the_rate_names_its_judge_with_one_article() -> None:
    assert rate_line(None, OFFICIAL).endswith(" · verdicts of the official WebArena-Verified evaluator")
    said = rate_line(None, "harness-cube-harness")
    assert said.endswith(" · verdicts of the harness's own reward (cube-harness)") and "the the" not in said
    assert "verdicts" not in rate_line(None)
