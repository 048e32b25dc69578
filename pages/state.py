"""Every session-state key and URL query parameter of the app, named once.

Pages share one session state, so two pages using one key share its value: listing the keys in
one place shows which are shared on purpose (`run`, `task`: a link's target) and keeps the rest
apart. A widget bound to the URL (`bind="query-params"`) uses its key as the parameter's name, so
for those a key is also a parameter. Keys starting with `_` are the page's own (never in a URL).
"""

from __future__ import annotations

from enum import StrEnum, unique


@unique
class Key(StrEnum):
    """Session-state keys and query parameters; `@unique` refuses two members with one value."""

    # --- the app shell (app.py, pages/common.py, pages/shell.py) ---
    ROOT = "webeval_root"
    """The root folder chosen in the sidebar (a path string)."""
    APP_SHELL_CHECKED = "_app_shell_checked"
    """Set once per session when the legacy pages-folder mode was left (see pages/shell.py)."""
    ROOT_BOX = "_root_box"
    """Whether the sidebar's root-folder expander is open."""
    ROOT_TYPED = "_root_typed"
    """The sidebar's root-folder text box."""
    LAST_TABLE_PATHS = "last_trajectory_table_paths"
    """Folders of the trajectory table shown last: the Re-score tab offers to re-score that set."""

    # --- links between pages: the trajectory they open ---
    RUN = "run"
    """Run key of the trajectory shown (Trajectory page; bound)."""
    TASK = "task"
    """Task id of the trajectory (Trajectory page; bound) or of the task shown (Tasks page)."""

    # --- judges (Overview and Trajectories; bound, carried by the overview's links) ---
    JUDGE = "judge"
    """Whose verdicts the rates and results use: the official evaluator or a judge's score file."""
    DISAGREE = "disagree"
    """Whether the Trajectories page keeps only trajectories whose judges disagree."""

    # --- Overview ---
    SHOWN_RUNS = "shown_runs"
    """Runs the overview counts (bound). Not `runs`: that is the Trajectories filter."""
    VIEW = "view"
    """The open tab of charts (bound)."""
    RUNS_BOX = "runs_box"
    REPORT_RUN = "report_run"
    """The run whose report (HTML pages, zipped) the overview's download builds."""
    """Whether the table of runs is open."""
    CHART_SITE = "chart_site"
    """Success-by-site chart (its selected bars)."""
    CHART_TASK_TYPE = "chart_task_type"
    """Success-by-task-type chart."""
    CHART_TEMPLATE = "chart_template"
    """Success-by-intent-template chart."""
    CHART_OUTCOME = "chart_outcome"
    """Outcomes chart."""
    CHART_TAXONOMY = "chart_taxonomy"
    """Failure-taxonomy chart."""
    OVERVIEW_TABLE = "overview_table"
    """The overview's trajectory table (its selected row)."""

    # --- Trajectories (filters; bound, and the targets of the overview's link) ---
    SEARCH = "search"
    """Text searched in task id, intent and answer."""
    RUNS = "runs"
    """Runs kept."""
    SITES = "sites"
    """Sites kept."""
    TYPES = "types"
    """Task types kept."""
    TEMPLATES = "templates"
    """Intent templates kept."""
    OUTCOMES = "outcomes"
    """Outcome groups kept."""
    STATUSES = "statuses"
    """Verdict statuses kept."""
    TAGS = "tags"
    """Failure tags kept (any of them)."""
    TRAJECTORIES_TABLE = "trajectories_table"
    """The Trajectories page's table (its selected row)."""

    # --- Trajectory page ---
    TAB = "tab"
    """The open tab (bound)."""
    STEP = "step"
    """The step shown: written by the page, not bound (see trajectory_tabs/navigation.py)."""
    WARNINGS_BOX = "_warnings"
    """Whether the reading warnings are open."""
    PENDING_JUMP = "_pending_jump"
    """A step chosen in the network views, shown on the next run."""
    STEP_SLIDER = "_step_slider"
    """The replay's step slider."""
    PREVIOUS = "_prev"
    """The replay's previous-step button."""
    NEXT = "_next"
    """The replay's next-step button."""
    SHOW_AFTER = "_show_after"
    """Whether the replay also shows the page after the action."""
    STEP_REQUESTS = "_step_requests"
    """Whether the replay's requests-during-this-step box is open."""
    NETWORK_QUERY = "_net_q"
    """Text searched in the network requests."""
    HIDE_STATIC = "_net_static"
    """Whether static assets are hidden from the network requests."""
    NETWORK_TABLE = "_network_table"
    """The network requests table (its selected row)."""
    REQUEST_DETAIL = "request_detail"
    """The selected request's detail box (its key is also its CSS class, for browser tests)."""
    REQUEST_STEP = "_request_step"
    """The button that opens the replay at the selected request's step."""
    CORE_ERRORS = "_core_errors"
    """Whether the Evidence tab shows core.log's errors only."""
    RESCORED = "_rescored"
    """The last re-score of one trajectory: folder, verdict before, outcome."""
    BATCH_RESCORED = "_batch_rescored"
    """The outcomes of the last batch re-score."""
    WHAT_IF = "_whatif"
    """The last what-if verdict: folder and outcome."""
    RESCORE_ONE = "_rescore_one"
    """The re-score-this-trajectory button."""
    WHAT_IF_RUN = "_whatif_run"
    """The show-the-verdict button of the what-if."""
    RESCORE_SCOPE = "_rescore_scope"
    """Which trajectories a batch re-score covers."""
    RESCORE_FORCE = "_rescore_force"
    """Whether a batch re-score recomputes up-to-date score files."""
    RESCORE_MANY = "_rescore_many"
    """The batch re-score button."""
    ANNOTATION_FORM = "annotate"
    """The annotation form."""
    ANNOTATION_LABEL = "_annotation_label"
    """The reviewer's decision."""
    ANNOTATION_NOTE = "_annotation_note"
    """The reviewer's note."""
    ANNOTATOR = "_annotator"
    """The reviewer's name."""

    # --- Tasks ---
    SITE = "site"
    """Sites of the catalog filter (bound)."""
    TYPE = "type"
    """Task types of the catalog filter (bound)."""
    TEMPLATE = "template"
    """Intent template of the catalog filter (bound)."""
    QUERY = "q"
    """Text searched in the catalog (bound)."""
    ATTEMPTED = "attempted"
    """Whether only tasks attempted in the loaded runs are listed."""
    TASK_TABLE = "task_table"
    """The catalog table (its selected row)."""
    TASKS_LAST_ROWS = "_tasks_last_rows"
    """The catalog table's selection already followed."""

    # --- Compare ---
    RUN_A = "a"
    """Run A (bound)."""
    RUN_B = "b"
    """Run B (bound)."""
    FLIPS = "flips"
    """The flips table (its selected row)."""
    PAIR = "pair"
    """The task shown side by side (bound)."""
    PAIR_FLIP = "_pair_flip"
    """The flip that last chose the side-by-side task."""
    PAIR_STEP = "pair_step"
    """The step shown on both sides (bound)."""
    PAIR_PREVIOUS = "_pair_prev"
    """The side by side's previous-step button."""
    PAIR_NEXT = "_pair_next"
    """The side by side's next-step button."""
    CHANGE = "change"
    """Changes shown in the tasks x runs matrix (bound)."""
    MATRIX = "matrix"
    """The tasks x runs matrix."""


# Keys of repeated widgets: one per item, from a fixed prefix.


def table_page_key(table: str) -> str:
    """Key of the page number of a long trajectory table (a page's own, never in the URL)."""
    return f"_{table}_page"


def histogram_key(column: str) -> str:
    """Key of the overview's histogram of one measure column."""
    return f"hist_{column}"


def film_key(number: int) -> str:
    """Key of the filmstrip button of one step."""
    return f"_film_{number}"


def candidates_key(position: int) -> str:
    """Key of the candidate-requests table of one network check."""
    return f"_candidates_{position}"


def what_if_text_key(folder: str) -> str:
    """Key of the what-if text area of one trajectory folder (a new folder starts from its answer)."""
    return f"_whatif_text:{folder}"


# Session state that is not about a root: kept when another root is browsed.
KEPT_ACROSS_ROOTS = frozenset({Key.APP_SHELL_CHECKED})


def trajectory_link(run_key: str, task_id: str) -> dict[str, str]:
    """Query parameters of the Trajectory page showing one run's trajectory of a task."""
    return {Key.RUN.value: run_key, Key.TASK.value: task_id}
