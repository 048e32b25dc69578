"""A run that is a submission package (`create-submission-pkg` output) says what was left out."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import streamlit as st

from webeval_core.presentation import submission_issue_table
from webeval_core.reading import SUMMARY_NAME, Submission, read_submission
from webeval_core.runs import Run
from webeval_core.support import UnreadableError
from webeval_ui.untrusted import inert
from webeval_ui.widgets import grid


@st.cache_data(show_spinner=False, max_entries=16)
def _package(folder: str, mtime_ns: int) -> Submission | str:
    """The package's summary (cached while summary.json is unchanged), or why it cannot be read."""
    del mtime_ns  # part of the cache key only
    try:
        return read_submission(Path(folder))
    except UnreadableError as exc:
        return exc.reason


def package_issues(runs: Iterable[Run]) -> None:
    """For each run folder holding the packager's summary.json: its problems, listed."""
    for run in runs:
        summary = run.path / SUMMARY_NAME
        if not summary.is_file():
            continue
        package = _package(str(run.path), summary.stat().st_mtime_ns)
        if isinstance(package, str):
            st.warning(f"Run {inert(run.key)} has a {SUMMARY_NAME} that cannot be used: {inert(package)}")
            continue
        label = (
            f"Submission package {inert(run.key)}: {len(package.packaged)} task(s) packaged, "
            f"{len(package.rejected)} left out by the packager"
        )
        with st.expander(label, expanded=bool(package.rejected)):
            grid(submission_issue_table(package), hide_index=True, width="stretch")
            st.caption(f"{len(package.missing_from_output)} dataset task(s) were not in the run's output.")
