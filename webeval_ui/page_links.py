"""The page scripts by name (app.py's navigation) and the way to open one trajectory's page."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from webeval_core.presentation import choice_of
from webeval_ui.loaders import current_index
from webeval_ui.state import trajectory_link

PAGES = {
    "overview": "pages/overview.py",
    "trajectories": "pages/trajectories.py",
    "trajectory": "pages/trajectory.py",
    "compare": "pages/compare.py",
    "tasks": "pages/tasks.py",
    "review": "pages/review.py",
    "agreement": "pages/agreement.py",
    "disagreements": "pages/disagreements.py",
    "published": "pages/published.py",
    "query": "pages/query.py",
    "live": "pages/live.py",
}


def trajectory_query(run_key: str, task_id: str, path: str | None = None) -> dict[str, str]:
    """The Trajectory page's query parameters for one run's trajectory of a task.

    `path` names the folder, for a task held by several folders of the run (else the first).
    """
    members = current_index().summaries_of(run_key)
    chosen = [s for s in members if s.task_id == task_id and (path is None or str(s.path) == path)]
    if not chosen:
        return trajectory_link(run_key, task_id)
    return trajectory_link(run_key, choice_of(chosen[0], members))


def open_trajectory(
    run_key: str, task_id: str, path: str | None = None, listed: Mapping[str, list[str]] | None = None
) -> None:
    """Switch to the Trajectory page showing one run's trajectory of a task (its folder: `path`).

    `listed`: the list it was chosen from, as query parameters (pages/walk.list_params), so the
    page can walk it.
    """
    params: dict[str, str | list[str]] = {**trajectory_query(run_key, task_id, path), **(listed or {})}
    st.switch_page(PAGES["trajectory"], query_params=params)
