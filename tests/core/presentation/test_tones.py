"""Tones: one rule for colouring scores, statuses and outcomes."""

from webeval_core.presentation import tones


def test_score_tone_reads_full_marks_good_zero_bad_and_between_partial() -> None:
    assert [tones.score_tone(s) for s in (1.0, 0.0, 0.5, None)] == ["good", "bad", "partial", None]
