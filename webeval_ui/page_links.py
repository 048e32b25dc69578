"""The app's pages (app.py's navigation builds on this registry) and the way to open one trajectory's page."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st

from webeval_core.presentation import choice_of
from webeval_ui.loaders import current_index
from webeval_ui.state import trajectory_link


@dataclass(frozen=True)
class AppPage:
    """One page of the app, as its navigation lists it."""

    script: str
    """Its script under pages/, relative to app.py."""
    title: str
    """Its name in the sidebar, which its heading holds (but the Trajectory page's: the task's)."""
    icon: str
    """Its sidebar icon."""
    url_path: str
    """Its address under the server's base URL."""


# THE app's pages, in the sidebar's order (the first is the default page, served at "/"): app.py's
# navigation, every link to a page and the tests that walk every page (blind review, consistency,
# the read-only browser) read this table. A new page is one entry here and its script.
PAGE_REGISTRY = {
    "overview": AppPage("pages/overview.py", "Overview", ":material/insights:", "home"),
    "trajectories": AppPage("pages/trajectories.py", "Trajectories", ":material/table_rows:", "trajectories"),
    "trajectory": AppPage("pages/trajectory.py", "Trajectory", ":material/movie:", "trajectory"),
    "compare": AppPage("pages/compare.py", "Compare runs", ":material/compare_arrows:", "compare"),
    "tasks": AppPage("pages/tasks.py", "Tasks", ":material/checklist:", "tasks"),
    "review": AppPage("pages/review.py", "Review", ":material/rate_review:", "review"),
    "agreement": AppPage("pages/agreement.py", "Agreement", ":material/handshake:", "agreement"),
    "disagreements": AppPage(
        "pages/disagreements.py", "Judges disagree", ":material/call_split:", "disagreements"
    ),
    "published": AppPage("pages/published.py", "Results", ":material/leaderboard:", "published"),
    "live": AppPage("pages/live.py", "Live", ":material/monitor_heart:", "live"),
    "query": AppPage("pages/query.py", "Query", ":material/database:", "query"),
}
PAGES = {name: page.script for name, page in PAGE_REGISTRY.items()}
"""Each page's script by name (what `st.switch_page` and `st.page_link` take)."""


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

    `listed`: the list it was chosen from, as query parameters (webeval_ui/list_walk.list_params), so the
    page can walk it.
    """
    params: dict[str, str | list[str]] = {**trajectory_query(run_key, task_id, path), **(listed or {})}
    st.switch_page(PAGES["trajectory"], query_params=params)
