"""Tones: one rule for colouring scores, statuses and outcomes, and for the verdicts a trajectory's
header shows (verdict_badges: the app, the HTML page, `show`)."""

from __future__ import annotations

from pathlib import Path

from tests.harness.builders import wav_folder
from webeval_core.presentation import tones
from webeval_core.presentation.tones import NOT_SCORED, VerdictBadge, verdict_badges
from webeval_core.reading import load_trajectory


def test_score_tone_reads_full_marks_good_zero_bad_and_between_partial() -> None:
    assert [tones.score_tone(s) for s in (1.0, 0.0, 0.5, None)] == ["good", "bad", "partial", None]


def test_the_official_clis_verdict_is_a_verdict(tmp_path: Path) -> None:
    trajectory = load_trajectory(wav_folder(tmp_path, "108", eval_result=True))
    assert verdict_badges(trajectory.scores, trajectory.eval_result) == (
        VerdictBadge("eval_result.json: success", "good"),
    )


def test_not_scored_only_when_nothing_judged_it(tmp_path: Path) -> None:
    trajectory = load_trajectory(wav_folder(tmp_path, "107"))
    assert verdict_badges(trajectory.scores, trajectory.eval_result) == (VerdictBadge(NOT_SCORED, None),)


def test_one_colour_per_tone_for_badges_cells_and_the_html_pages() -> None:
    from webeval_core.presentation.html import STYLE

    assert tones.cell_style("good") == f"background-color: {tones.TONE_BACKGROUNDS['good']}"
    assert tones.cell_style(None) == ""
    for tone, background in tones.TONE_BACKGROUNDS.items():
        assert f".{tone} {{ background: {background};" in STYLE
    assert set(tones.TONE_COLOURS) == {*tones.TONE_BACKGROUNDS, None}
