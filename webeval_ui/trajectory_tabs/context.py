"""What every tab of the trajectory page is given: one frozen object, built once by the page.

A tab reads the trajectory only as the session's viewer may see it (`seen`, from
`review_mode.seen_trajectory`): the raw loader result never reaches a tab, so a tab that draws a
score, a judge's output or the harness's reward draws nothing while they are withheld. What a tab
computes from verdicts beyond the files (the evaluator's live verdict, the run's verify reports)
is asked of the context too, and answers nothing then.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import streamlit as st

from webeval_core.reading import (
    AutoEvalRecord,
    Task,
    Trajectory,
    VerifyReport,
    VerifyReportRow,
    autoeval_records,
    find_verify_reports,
)
from webeval_core.review import SeenTrajectory
from webeval_core.scoring import ScoreOutcome, score_trajectory
from webeval_core.support import Diagnostic
from webeval_ui.loaders import load_trajectory_cached
from webeval_ui.review_mode import gate


@st.cache_data(show_spinner="Scoring with the official evaluator…", max_entries=32)
def _live_outcome(folder: str, fp: str, root: str, _trajectory: Trajectory) -> ScoreOutcome:
    """The verdict the official evaluator gives now (nothing written); cached per folder state.

    The evaluator reads the answer and the network trace, never the score files, so the verdict is
    the same whether `_trajectory` came with its verdicts or without.
    """
    return score_trajectory(_trajectory, config_root=Path(root), write=False)


class ReportErrors(NamedTuple):
    """A run report's error rows as this viewer may see them."""

    rows: tuple[VerifyReportRow, ...]
    """The rows shown."""
    only_this: bool
    """Only this trajectory's: a reviewer who records what they are shown sees another's rows on
    its own page (its shown verdicts recorded there, or held by a blind queue)."""


@dataclass(frozen=True)
class TabContext:
    """The trajectory shown as its viewer may see it, where it lies, and what the catalog says of its task."""

    seen: SeenTrajectory
    """The trajectory as read (and cached) for `fingerprint`, as the session's viewer may see it."""
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

    @property
    def trajectory(self) -> Trajectory:
        """The trajectory as this viewer may see it: without its verdicts when they are withheld."""
        return self.seen.trajectory

    @property
    def blind(self) -> bool:
        """Its verdicts stay hidden: pending in a blind pass of the reviewer's, or their being shown
        cannot be recorded (the verdict tabs say so instead of drawing).
        """
        return self.seen.withheld is not None

    @property
    def folder_text(self) -> str:
        """The folder as the string the caches take."""
        return str(self.folder)

    def live_outcome(self) -> ScoreOutcome | None:
        """The verdict the official evaluator gives now (nothing written), cached per folder state;
        None when its task is not in the catalog or this viewer may not see its verdicts.
        """
        if self.task is None or not self.seen.disclosed:
            return None
        return _live_outcome(self.folder_text, self.fingerprint, str(self.root), self.trajectory)

    def verify_reports(self) -> list[Path]:
        """The run's verify_report.jsonl files above the folder; none while its verdicts are not
        disclosed (a report's rows are a verifier's verdicts).
        """
        if not self.seen.disclosed:
            return []
        return list(find_verify_reports(self.folder, self.root))

    def report_errors(self, report: VerifyReport) -> ReportErrors:
        """The error rows of a report `verify_reports` gave: every one for whoever records nothing
        shown; else this trajectory's alone (an error row may hold a rubric's or an outcome's
        verdict of another trajectory, which this page neither records nor may show).
        """
        errors = tuple(row for row in report.rows if row.is_error)
        if not gate().records:
            return ReportErrors(errors, only_this=False)
        mine = tuple(row for row in errors if row.is_of(self.folder, self.trajectory.task_id))
        return ReportErrors(mine, only_this=True)

    def judge_records(self) -> tuple[list[AutoEvalRecord], list[Diagnostic]]:
        """Online-Mind2Web's own judges' output in the folder (and what was malformed in it); none
        while its verdicts are not disclosed (each record is a judge's verdict).
        """
        if not self.seen.disclosed:
            return [], []
        return autoeval_records(self.folder)

    def at(self, fingerprint: str) -> TabContext:
        """This context for the folder read again at `fingerprint` (a running task's replay), under
        the same decision of what its viewer may see (`SeenTrajectory.again`).
        """
        fresh = load_trajectory_cached(self.folder_text, fingerprint)
        return dataclasses.replace(self, seen=self.seen.again(fresh), fingerprint=fingerprint)
