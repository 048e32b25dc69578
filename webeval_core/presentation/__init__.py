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

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "DETAILED_RUNS",
    "FAILURE_COLUMNS",
    "HELPER_COLUMNS",
    "MATCH",
    "MEASURES",
    "MISMATCH",
    "NOT_SCORED",
    "OUTCOME_TONES",
    "POOLED",
    "STATUS_TONES",
    "TEMPLATES_SHOWN",
    "UNKNOWN",
    "BarClick",
    "Breakdown",
    "BundleOptions",
    "FigureSpec",
    "Frame",
    "JudgeVerdict",
    "OverviewFigures",
    "Redactor",
    "ReportDifference",
    "StepFlag",
    "TableFormat",
    "TaskFilter",
    "Tone",
    "VerdictBadge",
    "Walk",
    "annotation_table",
    "arguments_table",
    "assertion_table",
    "bar_choices",
    "bar_figure",
    "before_after",
    "bundle_zip",
    "candidate_field_table",
    "candidate_table",
    "check_notes",
    "choice_of",
    "clicked_bars",
    "code_counts_table",
    "compared_candidates",
    "core_log_table",
    "critical_point_text",
    "download_name",
    "editable_response",
    "element_tables",
    "evaluator_limits",
    "expected_checks_table",
    "failure_points_table",
    "filter_tasks",
    "flagged_steps",
    "frame_image",
    "frames_of",
    "histograms",
    "judge_verdict",
    "live_lines",
    "moment",
    "network_results",
    "official_caption",
    "official_evaluation",
    "outcome_table",
    "overview_figures",
    "pace_line",
    "pairs_table",
    "plural",
    "points_change",
    "prefetch_frame",
    "prefetch_thumbnail",
    "progress_line",
    "rate_line",
    "redacted_page",
    "render_overlay",
    "render_results",
    "report_differences",
    "report_file_stem",
    "report_rows_table",
    "report_zip",
    "request_list",
    "request_summary",
    "response_field_table",
    "restarted",
    "results_frame",
    "rubric_items_table",
    "rubric_table_in",
    "score_text",
    "score_tone",
    "search_requests",
    "server_redactor",
    "silence",
    "standalone_page",
    "statistics_table",
    "step_marks",
    "step_point",
    "stored_result",
    "submission_issue_table",
    "task_table",
    "task_verification_table",
    "thumbnails",
    "token_usage_table",
    "trajectory_choices",
    "trajectory_html",
    "utc_moment",
    "verdict_badges",
    "verdict_field_table",
    "verdicts_table",
    "walk_of",
    "watched_line",
    "with_attempts",
    "zoom_view",
]

if TYPE_CHECKING:
    from webeval_core.presentation.bundle import BundleOptions, bundle_zip
    from webeval_core.presentation.catalog_table import (
        HELPER_COLUMNS,
        TaskFilter,
        filter_tasks,
        task_table,
        with_attempts,
    )
    from webeval_core.presentation.charts import (
        DETAILED_RUNS,
        MEASURES,
        POOLED,
        TEMPLATES_SHOWN,
        BarClick,
        Breakdown,
        FigureSpec,
        OverviewFigures,
        bar_choices,
        bar_figure,
        clicked_bars,
        histograms,
        overview_figures,
    )
    from webeval_core.presentation.comparison import code_counts_table, statistics_table
    from webeval_core.presentation.frames import Frame, frames_of, step_marks, step_point
    from webeval_core.presentation.live_words import (
        live_lines,
        pace_line,
        progress_line,
        rate_line,
        restarted,
        silence,
        watched_line,
    )
    from webeval_core.presentation.network_detail import (
        evaluator_limits,
        expected_checks_table,
        pairs_table,
        request_list,
        request_summary,
        search_requests,
    )
    from webeval_core.presentation.overlay import (
        frame_image,
        prefetch_frame,
        prefetch_thumbnail,
        render_overlay,
        thumbnails,
        zoom_view,
    )
    from webeval_core.presentation.picks import choice_of, trajectory_choices
    from webeval_core.presentation.redaction import Redactor, redacted_page, server_redactor
    from webeval_core.presentation.report import standalone_page, trajectory_html
    from webeval_core.presentation.reporthtml import official_evaluation
    from webeval_core.presentation.results_table import TableFormat, render_results, results_frame
    from webeval_core.presentation.rubric import JudgeVerdict, judge_verdict, rubric_table_in
    from webeval_core.presentation.runreport import report_file_stem, report_zip
    from webeval_core.presentation.submission_table import submission_issue_table
    from webeval_core.presentation.tables import (
        MATCH,
        MISMATCH,
        annotation_table,
        arguments_table,
        assertion_table,
        before_after,
        candidate_field_table,
        candidate_table,
        check_notes,
        compared_candidates,
        core_log_table,
        editable_response,
        element_tables,
        network_results,
        official_caption,
        outcome_table,
        response_field_table,
        stored_result,
        token_usage_table,
        utc_moment,
        verdict_field_table,
    )
    from webeval_core.presentation.tones import (
        NOT_SCORED,
        OUTCOME_TONES,
        STATUS_TONES,
        Tone,
        VerdictBadge,
        score_tone,
        verdict_badges,
    )
    from webeval_core.presentation.verifier_tables import (
        FAILURE_COLUMNS,
        ReportDifference,
        StepFlag,
        critical_point_text,
        failure_points_table,
        flagged_steps,
        report_differences,
        report_rows_table,
        rubric_items_table,
        score_text,
        task_verification_table,
        verdicts_table,
    )
    from webeval_core.presentation.walk import Walk, walk_of
    from webeval_core.presentation.wording import UNKNOWN, download_name, moment, plural, points_change
else:
    __getattr__ = lazy_getattr(__name__, __file__)
