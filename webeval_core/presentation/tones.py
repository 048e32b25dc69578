"""How a result reads at a glance (good, partial, bad): one colouring rule for the app and the HTML page."""

from __future__ import annotations

from typing import Literal

Tone = Literal["good", "partial", "bad"]
OUTCOME_TONES: dict[str, Tone] = {"answered": "good", "no_answer": "partial", "aborted": "bad"}
STATUS_TONES: dict[str, Tone] = {"success": "good", "failure": "bad", "error": "partial"}


def score_tone(score: float | None) -> Tone | None:
    """Full marks read good, zero bad, anything between partial; no score has no tone."""
    if score is None:
        return None
    return "good" if score >= 1 else "bad" if score <= 0 else "partial"
