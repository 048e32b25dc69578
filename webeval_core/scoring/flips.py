"""What a scoring changed: each trajectory's verdict before it (the verdict in force, or the score
file of a named eval hash) against the verdict it wrote, and the evaluator behind each side.

A re-score after a new library version, a corrected dataset or another URL config writes a new
score file beside the old; this report names exactly the trajectories whose verdict changed, from
what to what, with the library version, dataset checksum and evaluator checksum of both sides (an
eval hash covers those and the config), so nobody diffs score files by hand.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from webeval_core.reading.markers import EVAL_RESULT_NAME, SCORES_DIR
from webeval_core.reading.scorefiles import read_score_files
from webeval_core.scoring.evaluation import EngineInfo, stored_engine
from webeval_core.scoring.results import ENGINE_NAME
from webeval_core.scoring.scorer import ScoreOutcome
from webeval_core.scoring.verdicts import read_verdict


class SeenVerdict(BaseModel):
    """One side of a comparison: a verdict and where it was read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str | None
    """Score file stem (its eval hash) or eval_result.json; None when there was no verdict."""
    status: str | None
    """success | failure | error | excluded; None when there was no verdict."""
    score: float | None
    """Its score; None when it has none."""

    @property
    def verdict(self) -> tuple[str | None, float | None]:
        """What a flip compares: the status, and the score of a success or failure (an error's or an
        exclusion's score means nothing, and the writers disagree on 0 or none).
        """
        return self.status, self.score if self.status in ("success", "failure") else None

    def describe(self) -> str:
        """The verdict in words: its status and score, or "not scored"."""
        if self.status is None:
            return "not scored"
        return self.status + (f" ({self.score:g})" if self.score is not None else "")


NO_VERDICT = SeenVerdict(source=None, status=None, score=None)
"""A trajectory that had no verdict on that side."""


class VerdictFlip(BaseModel):
    """One trajectory whose verdict changed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    folder: Path
    """The trajectory folder."""
    task_id: str
    """Its task id."""
    before: SeenVerdict
    """The verdict before the scoring."""
    after: SeenVerdict
    """The verdict the scoring wrote."""


class FlipReport(BaseModel):
    """What one scoring changed, against what, under which evaluators."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    created: datetime = Field(default_factory=lambda: datetime.now(UTC))
    """When the scoring ended (UTC)."""
    against: str | None
    """The eval hash compared against; None: the verdict in force before the scoring."""
    scored: int
    """Trajectories scored."""
    compared: int
    """Of those, how many had a verdict before (the others are newly scored)."""
    flips: tuple[VerdictFlip, ...]
    """The trajectories whose status or score changed, in folder order."""
    before: dict[str, EngineInfo]
    """The evaluator behind each eval hash of the before side."""
    after: dict[str, EngineInfo]
    """The evaluator behind each eval hash the scoring wrote."""

    def summary(self) -> str:
        """One line: how many flipped, which ways, against what."""
        side = f"the {self.against} score files" if self.against else "the verdicts in force before"
        if not self.flips:
            said = f"No verdict changed against {side} ({self.compared} compared"
        else:
            ways = Counter(f"{f.before.status or 'not scored'} -> {f.after.status}" for f in self.flips)
            detail = ", ".join(f"{n} {way}" for way, n in ways.most_common())
            said = f"{len(self.flips)} verdict(s) changed against {side} ({detail}; {self.compared} compared"
        new = self.scored - self.compared
        return said + (f", {new} without a verdict before)" if new else ")")


def verdicts_before(folders: Iterable[Path], against: str | None = None) -> dict[Path, SeenVerdict]:
    """Each folder's verdict before a scoring: the one in force (the newest of our score files, else
    the official CLI's eval_result.json), or the score file of eval hash `against`.
    """
    return {Path(folder): _before(Path(folder), against) for folder in folders}


def _before(folder: Path, against: str | None) -> SeenVerdict:
    # Only the score files and eval_result.json are read: a scoring of 812 folders pays for this.
    scores, _ = read_score_files(folder, responses="engine")
    if against is not None:
        verdict = read_verdict({against: scores[against]}, None) if against in scores else None
    else:
        verdict = read_verdict(scores, _eval_result(folder))
    if verdict is None:
        return NO_VERDICT
    return SeenVerdict(source=verdict.source, status=verdict.status, score=verdict.score)


def _eval_result(folder: Path) -> dict[str, Any] | None:
    try:
        found = json.loads((folder / EVAL_RESULT_NAME).read_bytes())
    except (OSError, ValueError):  # none, or unreadable: the verdict in force is the score files'
        return None
    return found if isinstance(found, dict) else None


def flip_report(
    before: Mapping[Path, SeenVerdict], outcomes: Sequence[ScoreOutcome], against: str | None = None
) -> FlipReport:
    """The scoring's flips: every outcome against its folder's verdict before."""
    flips = []
    compared = 0
    for outcome in outcomes:
        seen = before.get(Path(outcome.path), NO_VERDICT)
        after = SeenVerdict(source=outcome.eval_hash, status=outcome.status, score=outcome.score)
        if seen.status is None:
            continue
        compared += 1
        if seen.verdict != after.verdict:
            flips.append(VerdictFlip(folder=outcome.path, task_id=outcome.task_id, before=seen, after=after))
    return FlipReport(
        against=against,
        scored=len(outcomes),
        compared=compared,
        flips=tuple(flips),
        before=_engines((f, v.source) for f, v in before.items()),
        after=_engines((o.path, o.eval_hash) for o in outcomes),
    )


def _engines(sources: Iterable[tuple[Path, str | None]]) -> dict[str, EngineInfo]:
    """The evaluator of each eval hash, read from one of its score files."""
    found: dict[str, EngineInfo] = {}
    tried: set[str] = set()
    for folder, source in sources:
        if source is None or source in tried or not source.startswith(ENGINE_NAME):
            continue
        tried.add(source)
        engine = stored_engine(Path(folder) / SCORES_DIR / f"{source}.json")
        if engine is not None:
            found[source] = engine
    return found
