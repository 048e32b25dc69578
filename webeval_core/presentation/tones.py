"""How a result reads at a glance (good, partial, bad): one colouring rule for the app and the HTML page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
    from webeval_core.reading import ScoreFile

Tone = Literal["good", "partial", "bad"]
OUTCOME_TONES: dict[str, Tone] = {
    "answered": "good",
    "no_answer": "partial",
    "aborted": "bad",
    "unfinished": "partial",
}
STATUS_TONES: dict[str, Tone] = {"success": "good", "failure": "bad", "error": "partial"}
CHECK_TONES: dict[bool | None, Tone] = {True: "good", False: "bad", None: "partial"}
"""A network check: passed, failed, could not be checked."""

# THE colours of the tones: every badge, table cell and exported page colours a tone by these.
TONE_COLOURS: dict[Tone | None, str] = {"good": "green", "partial": "orange", "bad": "red", None: "gray"}
"""A badge's colour (a name Streamlit's badges take); a verdict that tells neither is gray."""
TONE_BACKGROUNDS: dict[Tone, str] = {"good": "#d8f3dc", "partial": "#ffe8c2", "bad": "#ffd6d6"}
"""A cell's background: the app's tables and the HTML pages' `.good`, `.partial`, `.bad`."""
TONE_INKS: dict[Tone, str] = {"good": "#1b5e20", "partial": "#7a4a00", "bad": "#8b0000"}
"""The text on that background in the HTML pages."""


def cell_style(tone: Tone | None) -> str:
    """A table cell's CSS for a tone (none: no style)."""
    return f"background-color: {TONE_BACKGROUNDS[tone]}" if tone else ""


def score_tone(score: float | None) -> Tone | None:
    """Full marks read good, zero bad, anything between partial; no score has no tone."""
    if score is None:
        return None
    return "good" if score >= 1 else "bad" if score <= 0 else "partial"


NOT_SCORED = "not scored"
"""What a trajectory no judge has scored says where its verdicts would be."""


class VerdictBadge(NamedTuple):
    """One judge's verdict as a trajectory's header shows it."""

    text: str
    """The judge and its verdict, e.g. "gpt_eval: 1" or "eval_result.json: failure"."""
    tone: Tone | None
    """How it reads at a glance; None when it tells neither."""


def verdict_badges(
    scores: Mapping[str, ScoreFile], eval_result: Mapping[str, Any] | None
) -> tuple[VerdictBadge, ...]:
    """The verdicts a trajectory's header shows (the app, the HTML page, `show`): each score file's
    score, the official CLI's eval_result.json when no score file holds the official verdict, and
    "not scored" only when there is neither.
    """
    from webeval_core.runs.judges import OFFICIAL, judge_label
    from webeval_core.scoring import ENGINE_NAME, read_verdict

    verdict = read_verdict(scores, eval_result)

    def named(stem: str) -> str:  # the official evaluator's files are named by engine and config hash
        official = stem.startswith(f"{ENGINE_NAME}-") or (verdict is not None and stem == verdict.source)
        return f"{judge_label(OFFICIAL)} ({stem})" if official else judge_label(stem)

    badges = [
        VerdictBadge(
            f"{named(name)}: {'no score' if sf.score is None else f'{sf.score:g}'}", score_tone(sf.score)
        )
        for name, sf in sorted(scores.items())
    ]
    if verdict is not None and verdict.source not in scores:
        shown = verdict.status or "no status"
        badges.append(VerdictBadge(f"{verdict.source}: {shown}", STATUS_TONES.get(verdict.status or "")))
    return tuple(badges) or (VerdictBadge(NOT_SCORED, None),)
