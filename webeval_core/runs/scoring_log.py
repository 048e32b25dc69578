"""The scorings of a root, kept beside its index: each one's flip report (`scoring.flips`), so the
app can show the last scoring's flips whatever ran it (`webeval score`, `--cluster`, the app's
Re-score tab). Kept in the user's cache like the index (never in the root, which is read-only to
us but for score files): a file per scoring, named by when it ended.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from webeval_core.runs.index_db import store_path
from webeval_core.scoring import ScoreOutcome, score_trajectories
from webeval_core.scoring.flips import FlipReport, SeenVerdict, flip_report, verdicts_before
from webeval_core.support.parallel import ProgressCallback
from webeval_core.support.user_cache import cache_folder

_KEPT = 50
"""Scorings kept per root: the oldest are removed once more are recorded."""


def scoring_log_dir(root: Path, cache_dir: Path | None = None) -> Path:
    """Where a root's scorings are kept (beside its index file in the cache)."""
    index = store_path(cache_folder(cache_dir).path, root)
    return index.with_name(index.stem.replace("index-", "scorings-"))


def score_recorded(
    root: Path, folders: Sequence[Path], *, force: bool = False, on_progress: ProgressCallback | None = None
) -> tuple[list[ScoreOutcome], FlipReport]:
    """Score folders under `root` (URL config looked for up to `root`), write their score files and
    record what changed: the app's Re-score tab, for one trajectory or many.
    """
    before = verdicts_before(folders)
    outcomes = score_trajectories(list(folders), config_root=root, force=force, on_progress=on_progress)
    try:
        return outcomes, record_flips(root, before, outcomes)
    except ScoringLogError:  # no cache folder at all: the verdicts are written, the flips not kept
        return outcomes, flip_report(before, outcomes)


def record_flips(
    root: Path,
    before: Mapping[Path, SeenVerdict],
    outcomes: Sequence[ScoreOutcome],
    against: str | None = None,
    cache_dir: Path | None = None,
) -> FlipReport:
    """The flip report of a scoring of folders under `root` (`before`: `verdicts_before` of them),
    recorded for the app: what `webeval score`, `--cluster` and the app's Re-score tab all call.

    Raises:
        ScoringLogError: when it cannot be kept (`record_scoring`).
    """
    report = flip_report(before, outcomes, against)
    record_scoring(root, report, cache_dir)
    return report


class ScoringLogError(Exception):
    """A scoring's report that could not be kept; the message names the folder and why. The
    verdicts are written all the same: only the app's view of this scoring's flips is lost.
    """


def record_scoring(root: Path, report: FlipReport, cache_dir: Path | None = None) -> Path:
    """Keep one scoring's report (written whole, then renamed into place); its file.

    Raises:
        ScoringLogError: when the cache folder cannot be written.
    """
    folder = scoring_log_dir(root, cache_dir)
    target = folder / f"{report.created:%Y%m%dT%H%M%S%f}Z.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".part")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(report.model_dump_json(indent=1))
        os.replace(temporary, target)
    except OSError as exc:
        raise ScoringLogError(
            f"this scoring's flips cannot be kept for the app in {folder}: {exc.strerror or exc}"
            " (the score files are written)"
        ) from exc
    for old in sorted(folder.glob("*Z.json"))[:-_KEPT]:
        old.unlink(missing_ok=True)
    return target


def recorded_scorings(root: Path, cache_dir: Path | None = None) -> list[FlipReport]:
    """A root's kept scorings, oldest first (a file that cannot be read is skipped)."""
    found = []
    for path in sorted(scoring_log_dir(root, cache_dir).glob("*Z.json")):
        try:
            found.append(FlipReport.model_validate_json(path.read_bytes()))
        except (OSError, ValueError):  # a file from another version, or cut short: not a scoring
            continue
    return found


def last_scoring(root: Path, cache_dir: Path | None = None) -> FlipReport | None:
    """The newest scoring of a root; None when none was recorded."""
    kept = recorded_scorings(root, cache_dir)
    return kept[-1] if kept else None
