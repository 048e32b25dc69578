"""Presentation: what views show, computed without a UI toolkit.

Owns tables for views (tables), the tone of a result (tones), the frames a trajectory is replayed as
(frames), screenshots with the action drawn on them (overlay, Pillow), chart specs (charts, Plotly),
the task catalog as a filterable table (catalog_table), the network inspector's views
(network_detail), two runs' statistics (comparison), the standalone HTML page of a trajectory
(report) and of a run (runreport), the names pickers give trajectories (picks), and one
trajectory's place in a list it is walked through (walk).
The app's pages and the CLI draw these.

May import: every lower layer's public names (reading, scoring, runs, review) and diagnostics; never
streamlit, and never the scoring layer's seam to the official library.
"""

from typing import TYPE_CHECKING

from webeval_core.exports import lazy_getattr

__all__ = [
    "OUTCOME_TONES",
    "STATUS_TONES",
    "Breakdown",
    "Frame",
    "OverviewFigures",
    "TaskFilter",
    "Tone",
    "Walk",
    "choice_of",
    "evaluator_limits",
    "filter_tasks",
    "frame_image",
    "frames_of",
    "overview_figures",
    "render_overlay",
    "request_list",
    "request_summary",
    "score_tone",
    "search_requests",
    "standalone_page",
    "statistics_table",
    "step_marks",
    "task_table",
    "thumbnails",
    "trajectory_choices",
    "trajectory_html",
    "walk_of",
]

if TYPE_CHECKING:
    from webeval_core.presentation.catalog_table import TaskFilter, filter_tasks, task_table
    from webeval_core.presentation.charts import Breakdown, OverviewFigures, overview_figures
    from webeval_core.presentation.comparison import statistics_table
    from webeval_core.presentation.frames import Frame, frames_of, step_marks
    from webeval_core.presentation.network_detail import (
        evaluator_limits,
        request_list,
        request_summary,
        search_requests,
    )
    from webeval_core.presentation.overlay import frame_image, render_overlay, thumbnails
    from webeval_core.presentation.picks import choice_of, trajectory_choices
    from webeval_core.presentation.report import standalone_page, trajectory_html
    from webeval_core.presentation.tones import OUTCOME_TONES, STATUS_TONES, Tone, score_tone
    from webeval_core.presentation.walk import Walk, walk_of
else:
    __getattr__ = lazy_getattr(__name__, __file__)
