"""Counts of a batch's outcomes: overall, per site and per task type, as the official summary groups them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, computed_field

from webeval_core.scoring.scorer import ScoreOutcome


class Tally(BaseModel):
    """Counts of one group; `scored` are successes plus failures (errors and excluded have no score)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scored: int = 0
    """Successes plus failures."""
    success: int = 0
    """Outcomes with status success."""
    failure: int = 0
    """Outcomes with status failure (no answer included)."""
    error: int = 0
    """Outcomes that could not be scored."""
    excluded: int = 0
    """Aborted runs and tasks without an official evaluator, left out of the rate."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success_rate(self) -> float | None:
        """Successes over scored; None when nothing was scored."""
        return self.success / self.scored if self.scored else None


class ScoreSummary(BaseModel):
    """Overall, per site (sites joined like the official summary) and per task type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    overall: Tally
    """Every outcome."""
    per_site: dict[str, Tally]
    """Keyed by the task's sites, sorted and joined by "-" (e.g. "gitlab-wikipedia")."""
    per_task_type: dict[str, Tally]
    """Keyed by retrieve / navigate / mutate."""


def summarize_scores(outcomes: Iterable[ScoreOutcome]) -> ScoreSummary:
    """Tally a batch's outcomes overall, per site and per task type."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for outcome in outcomes:
        keys = [
            ("overall", ""),
            ("site", "-".join(sorted(outcome.sites)) or "unknown"),
            ("type", outcome.task_type or "unknown"),
        ]
        for key in keys:
            counter = counts.setdefault(key, Counter())
            counter[outcome.status] += 1
            if outcome.status in ("success", "failure"):
                counter["scored"] += 1

    def tally(key: tuple[str, str]) -> Tally:
        return Tally(**counts.get(key, Counter()))

    return ScoreSummary(
        overall=tally(("overall", "")),
        per_site={name: tally((kind, name)) for kind, name in sorted(counts) if kind == "site"},
        per_task_type={name: tally((kind, name)) for kind, name in sorted(counts) if kind == "type"},
    )
