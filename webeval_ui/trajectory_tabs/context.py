"""What every tab of the trajectory page is given: one frozen object, built once by the page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from webeval_core.reading import Task, Trajectory
from webeval_core.scoring import ScoreOutcome
from webeval_ui.trajectory_tabs.verdict_tab import live_outcome


@dataclass(frozen=True)
class TabContext:
    """The trajectory shown, where it lies, and what the catalog says about its task."""

    trajectory: Trajectory
    """The trajectory, as read (and cached) for `fingerprint`."""
    task: Task | None
    """Its task in the WebArena-Verified catalog; None when the catalog does not know it."""
    run_key: str
    """Key of the run holding it."""
    folder: Path
    """Its folder, resolved and inside `root`."""
    fingerprint: str
    """The folder's state on disk (runs.refresh.fingerprint): cached views of it are keyed by it."""
    root: Path
    """The root folder the app browses."""
    key: str = ""
    """Its summary key under the root (unique, unlike the task id in a run)."""
    blind: bool = False
    """Blind review: every verdict, score and failure tag stays hidden (pages/review_common.is_blind)."""

    @property
    def folder_text(self) -> str:
        """The folder as the string the caches take."""
        return str(self.folder)

    def live_outcome(self) -> ScoreOutcome:
        """The verdict the official evaluator gives now (nothing written), cached per folder state."""
        return live_outcome(self.folder_text, self.fingerprint, str(self.root))
