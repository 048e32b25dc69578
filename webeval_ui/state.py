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

    # --- the app shell (app.py, webeval_ui/roots.py, webeval_ui/app_shell.py) ---
    ROOT = "webeval_root"
    """The root folder chosen in the sidebar (a path string)."""
    APP_SHELL_CHECKED = "_app_shell_checked"
    """Set once per session when the legacy pages-folder mode was left (see webeval_ui/app_shell.py)."""
    ROOT_IN_URL = "root"
    """The browsed root in the URL (written by root_picker.root_picker): a link opens the root it names."""
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
    KEYS = "keys"
    """The trajectories of a list named one by one (a judges-disagree cell, a query's rows), by key:
    carried only as the Trajectory page's list (`listed_key`), never a Trajectories filter."""
    SAVED = "saved"
    """The name of such a list too long for a link, saved beside the index (`runs.lists`): carried
    instead of its keys, only as the Trajectory page's list (`listed_key`)."""

    # --- Overview ---
    SHOWN_RUNS = "shown_runs"
    """Runs the overview counts (bound). Not `runs`: that is the Trajectories filter."""
    VIEW = "view"
    """The open tab of charts (bound)."""
    RUNS_BOX = "runs_box"
    """Whether the table of runs is open."""
    RUNS_PAGE = "runs_page"
    """The page of the table of runs (a root of many runs)."""
    REPORT_RUN = "report_run"
    """The run whose report (HTML pages, zipped) the overview's download builds."""
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
    CHART_FAILURE_CATEGORY = "chart_failure_category"
    """Fara's error taxonomy by verifier, category level."""
    CHART_FAILURE_CODE = "chart_failure_code"
    """Fara's error taxonomy by verifier, code level."""
    OVERVIEW_TABLE = "overview_table"
    """The overview's trajectory table (its selected row)."""

    # --- Trajectories (filters; bound, and the targets of the overview's link) ---
    SEARCH = "search"
    """Text searched in task id, intent and answer."""
    RUNS = "runs"
    """Runs kept."""
    TASK_IDS = "tasks"
    """A list's tasks: every attempt at them (the Tasks page's attempts; a link may name them)."""
    SITES = "sites"
    """Sites kept."""
    TYPES = "types"
    """Task types kept."""
    TEMPLATES = "templates"
    """Intent templates kept."""
    OUTCOMES = "outcomes"
    """Outcome groups kept."""
    RESULTS = "results"
    """Results kept (pass, fail, no answer...: as counted in success rates; the Outcomes chart's bars)."""
    STATUSES = "statuses"
    """Verdict statuses kept."""
    TAGS = "tags"
    """Failure tags kept (any of them)."""
    FAILURE_CODES = "codes"
    """Error-taxonomy codes kept, as "<judge>: <code named>" (any of them; a category keeps its codes)."""
    TRAJECTORIES_TABLE = "trajectories_table"
    """The Trajectories page's table (its selected row)."""

    # --- the Query page (pages/query.py) ---
    SQL = "sql"
    """The Query page's SELECT statement (in the URL: a query can be linked)."""
    SQL_TABLE = "_sql_table"
    """The Query page's result table (its selected row)."""

    # --- walking a list (webeval_ui/list_walk.py): the Trajectory page's list, carried in its URL ---
    LIST = "list"
    """Marks a Trajectory page URL that names the list it was opened from (its filters beside it)."""
    WALK_BAR = "walk_bar"
    """The Trajectory page's previous / next bar (its key is also its CSS class, for browser tests)."""
    LIST_PREVIOUS = "_list_prev"
    """The previous-in-list button."""
    LIST_NEXT = "_list_next"
    """The next-in-list button."""
    LIST_NEXT_FAILURE = "_list_next_failure"
    """The next-failure-in-list button."""

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
    ZOOM = "_zoom"
    """The replay's zoom on the action (fit, 2x, 3x)."""
    SHOW_AFTER = "_show_after"
    """Whether the replay also shows the page after the action."""
    STEP_REQUESTS = "_step_requests"
    """Whether the replay's requests-during-this-step box is open."""
    HARNESS_BOX = "_harness_box"
    """Whether the header's box of another harness's record (error, log, statistics) is open."""
    HARNESS_MESSAGES = "_harness_messages"
    """Whether the replay's box of the step's model messages is open."""
    HARNESS_PAGE = "_harness_page"
    """Whether the replay's box of the step's page text (accessibility tree) is open."""
    HARNESS_SUBAGENTS = "_harness_subagents"
    """Whether the header's box of the subagents the agent delegated to is open."""
    HARNESS_DELEGATED = "_harness_delegated"
    """Whether the replay's box of the subagents the step delegated to is open."""
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
    REJUDGE_METHOD = "_rejudge_method"
    """The Re-judge tab's judging method."""
    REJUDGE_PROFILE = "_rejudge_profile"
    """The Re-judge tab's endpoint profile."""
    REJUDGE_ONE = "_rejudge_one"
    """The re-judge-this-trajectory button."""
    REJUDGED = "_rejudged"
    """The last re-judge of one trajectory: folder, verdicts before, outcome."""
    REJUDGE_WHAT_IF_RUN = "_rejudge_whatif_run"
    """The judge-this-answer button of the Re-judge tab's what-if."""
    REJUDGE_WHAT_IF = "_rejudge_whatif"
    """The last what-if judgement: folder and outcome."""
    REJUDGE_SCOPE = "_rejudge_scope"
    """Which trajectories a batch re-judge covers."""
    REJUDGE_ESTIMATE = "_rejudge_estimate"
    """The estimate-first button of a batch re-judge."""
    REJUDGE_ESTIMATED = "_rejudge_estimated"
    """The last estimate: judge id, scope, the estimate."""
    REJUDGE_MANY = "_rejudge_many"
    """The batch re-judge button."""
    GATE_MADE = "_gate_made"
    """This script run's gate, and what it was made for (`review_mode.gate`)."""
    REJUDGE_CANCEL = "_rejudge_cancel"
    """The cancel button shown while a batch re-judge runs (its click stops the run)."""
    BATCH_REJUDGED = "_batch_rejudged"
    """The last batch re-judge, under way or over (rejudge_tab._Batch): its outcomes, and in words."""

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
    ALL_RUNS_BOX = "_all_runs_box"
    """Whether Compare's matrix of every run is open (read only then)."""
    PAIR_STEP = "pair_step"
    """The step shown on both sides (bound)."""
    PAIR_PICKED = "_pair_picked"
    """A task was just picked for the side-by-side view (the page then gives the keys back)."""
    PAIR_PREVIOUS = "_pair_prev"
    """The side by side's previous-step button."""
    PAIR_NEXT = "_pair_next"
    """The side by side's next-step button."""
    TAXONOMY_LEVEL = "taxonomy_level"
    """Whether the error-taxonomy comparison counts categories or codes (bound)."""
    CHANGE = "change"
    """Changes shown in the tasks x runs matrix (bound)."""
    MATRIX = "matrix"
    """The tasks x runs matrix."""

    # --- Review (pages/review.py, pages/agreement.py, the Annotate tab) ---
    REVIEWER = "reviewer"
    """The reviewer's name in the URL (a query parameter written by webeval_ui/review_queue.py)."""
    REVIEWER_KEPT = "_reviewer_kept"
    """The reviewer's name for the session: puts it back in the URL when a page switch drops it."""
    REVIEWER_BOX = "_reviewer_box"
    """Whether the sidebar's reviewer expander is open."""
    REVIEWER_TYPED = "_reviewer_typed"
    """The sidebar's reviewer text box."""
    SIGN_OUT = "_sign_out"
    """The sidebar's "Sign out" button (sign-in on)."""
    QUEUE = "queue"
    """The review queue worked, in the URL of every page while it is worked (webeval_ui/review_mode.py)."""
    QUEUE_PICK = "_queue_pick"
    """The Review page's queue picker."""
    REVIEW_MODE = "_review_mode"
    """The queue the session works (review_mode.WorkedQueue): kept whatever the store answers."""
    LEAVE_REVIEW = "_leave_review"
    """The sidebar's leave-review-mode button."""
    RELEASE = "_release"
    """The trajectory page's "Show its verdicts" for one held by another blind queue (review_mode)."""
    REVIEW_OUTCOME = "_review_outcome"
    """The annotation's outcome label."""
    REVIEW_PROCESS = "_review_process"
    """The annotation's process label."""
    REVIEW_TASK = "_review_task"
    """The annotation's task label."""
    REVIEW_ENVIRONMENT = "_review_environment"
    """The annotation's environment-problem answer."""
    REVIEW_JUSTIFICATION = "_review_justification"
    """The annotation's justification."""
    REVIEW_STEPS = "_review_steps"
    """The annotation's first failing step(s), as typed ("4" or "4, 5")."""
    REVIEW_ERROR_CODES = "_review_error_codes"
    """The annotation's error codes of the taxonomy (categories 1-6)."""
    REVIEW_TASK_CODES = "_review_task_codes"
    """The annotation's task codes of the taxonomy (7.x, 8.x)."""
    REVIEW_SAVE = "_review_save"
    """The save-and-next button."""
    REVIEW_SAVED = "_review_saved"
    """What the last save did (shown once), or the store's error (the form is kept)."""
    REVIEW_FORM_ITEM = "_review_form_item"
    """The trajectory (run, task id) the Annotate form was last drawn for."""
    REVIEW_DRAFT = "_review_draft"
    """The Annotate form's text boxes and code pickers by widget key, kept while another tab is open."""
    REVIEW_NEXT = "_review_next"
    """Set when a save finished the queue (said once)."""
    QUEUE_NAME = "_queue_name"
    """The new queue's name."""
    QUEUE_STAGE = "_queue_stage"
    """The new queue's mode (blind or informed)."""
    QUEUE_JUDGES = "_queue_judges"
    """The new queue's judges."""
    QUEUE_FAILURES_FIRST = "_queue_failures_first"
    """Whether the new queue lists failures first."""
    LIVE_RUN = "live_run"
    """The Live page: the run watched (its key, in the URL)."""
    LIVE_EXPECTED = "_live_expected"
    """The Live page: how many tasks the run will hold (0: the folders seen)."""
    LIVE_WINDOW = "_live_window"
    """The Live page: minutes a task may stay silent and still be running."""
    LIVE_SEEN_OVER = "_live_seen_over"
    """The Live page: how many tasks were over at the last look (a change asks for the index)."""
    FOLLOW = "_follow"
    """The Replay tab: whether it follows a running trajectory's newest step."""
    FOLLOWED = "_followed"
    """The Replay tab: (folder, step) follow mode last showed; the URL's step elsewhere is a step back."""
    RESULTS_BY = "results_by"
    """The Results page: a line per run or per site."""
    RESULTS_TABLE = "_results_table"
    """The Results page's table (a line selected lists what it counts)."""
    RESULTS_DOWNLOAD = "_results_download"
    """The Results page's download buttons (a suffix per format)."""
    RESULTS_COUNTED = "_results_counted"
    """The trajectories one line counts."""
    RESULTS_EDITS = "_results_edits"
    """The verdict edits in force."""
    RESULTS_PROPOSALS = "_results_proposals"
    """The open proposals to exclude."""
    RESULTS_FLIPS = "_results_flips"
    """The last scoring's flips."""
    PROPOSAL_FORM = "_proposal_form"
    """Accept or dismiss the chosen proposal."""
    PROPOSAL_REASON = "_proposal_reason"
    """Why (recorded with the decision)."""
    EDIT_FORM = "_edit_form"
    """The Published tab's verdict edit form."""
    EDIT_STATUS = "_edit_status"
    """The verdict an edit publishes."""
    EDIT_REASON = "_edit_reason"
    """Why (recorded with the edit)."""
    EXCLUDE_FORM = "_exclude_form"
    """The Published tab's exclusion form."""
    EXCLUDE_SCOPE = "_exclude_scope"
    """This trajectory, or its task in every run."""
    EXCLUDE_REASON = "_exclude_reason"
    """Why (recorded with the exclusion)."""
    QUEUE_FORM = "_queue_form"
    """The new-queue form (its fields reach the create button together)."""
    QUEUE_CREATE = "_queue_create"
    """The create-queue button (the form's submit)."""
    QUEUE_PROBLEM = "_queue_problem"
    """Why the last queue could not be created (said once, under the form)."""
    QUEUE_OPEN = "_queue_open"
    """The open-next-item button."""
    QUEUE_REVIEWERS = "_queue_reviewers"
    """The new queue's reviewers (whose queue it is; none: anyone's)."""
    QUEUE_PROGRESS = "_queue_progress"
    """The chosen queue's table of each reviewer's progress."""
    ADJUDICATOR = "adjudicator"
    """The reviewer whose outcome settles ties on the Agreement page (bound)."""
    AGREEMENT_STAGE = "stage"
    """The stage the Agreement page shows (bound)."""
    CONFUSION_JUDGE = "confusion_judge"
    """The judge of the Agreement page's confusion table (bound)."""
    CONFUSION_TABLE = "_confusion"
    """The confusion table (its selected cell)."""
    DISAGREE_TABLE = "_judges_disagree"
    """The Judges disagree page's table of judge pairs (its selected cell)."""
    MINE = "mine"
    """Trajectories filter: annotated by me or not (bound)."""
    HUMAN_OUTCOMES = "human"
    """Trajectories filter: the reviewers' majority outcome (bound)."""
    HUMAN_DISAGREES = "human_disagrees"
    """Trajectories filter: only where the reviewers' majority and the evaluator disagree (bound)."""
    CORRECTION_BOX = "_correction_box"
    """Whether the Tasks page's propose-a-correction box is open."""
    CORRECTION_KIND = "_correction_kind"
    """The proposal's kind (corrected, ambiguous, infeasible); one per task (`correction_field_key`)."""
    CORRECTION_EXPECTED = "_correction_expected"
    """The proposed expected response (JSON text); one per task."""
    CORRECTION_REASON = "_correction_reason"
    """The proposal's reason; one per task."""
    CORRECTION_SAVE = "_correction_save"
    """The save-the-proposal button."""


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


def failure_table_key(judge: str) -> str:
    """Key of the Judges tab's failure-points table of one judge (its selected row opens the replay)."""
    return f"_failures:{judge}"


def flag_key(step: int) -> str:
    """Key of the replay's button jumping to one step a judge flagged."""
    return f"_flagged_{step}"


def download_key(what: str) -> str:
    """Key of one of the Results page's download buttons (a format's)."""
    return f"{Key.RESULTS_DOWNLOAD.value}-{what}"


def candidates_key(position: int) -> str:
    """Key of the candidate-requests table of one network check."""
    return f"_candidates_{position}"


def what_if_text_key(folder: str) -> str:
    """Key of the what-if text area of one trajectory folder (a new folder starts from its answer)."""
    return f"_whatif_text:{folder}"


def rejudge_text_key(folder: str) -> str:
    """Key of the Re-judge what-if's answer box of one trajectory folder."""
    return f"_rejudge_text:{folder}"


def listed_key(filter_key: Key) -> str:
    """Query parameter of the Trajectory page holding one Trajectories filter of the list it came from.

    Not the filter's own name: a page switch cannot set a parameter bound to a widget of the page
    it leaves, and the Trajectories page binds those.
    """
    return f"list_{filter_key.value}"


# Session state that is not about a root: kept when another root is browsed.
KEPT_ACROSS_ROOTS = frozenset({Key.APP_SHELL_CHECKED, Key.REVIEWER_KEPT})


def trajectory_link(run_key: str, task_id: str) -> dict[str, str]:
    """Query parameters of the Trajectory page showing one run's trajectory of a task."""
    return {Key.RUN.value: run_key, Key.TASK.value: task_id}


def review_field_key(field: Key, run_key: str, task_id: str) -> str:
    """Key of one field of the Annotate form for one trajectory: a form never outlives its item."""
    return f"{field.value}:{run_key}\x1f{task_id}"


def correction_field_key(field: Key, task_id: int) -> str:
    """Key of one field of the Tasks page's proposal form for one task: a proposal never carries
    what was typed for another task.
    """
    return f"{field.value}:{task_id}"


def label_key(group: str, value: str) -> str:
    """Key of the button choosing one label value of an annotation field (`review_field_key`)."""
    return f"{group}:{value}"


def queue_filter_key(criterion: str) -> str:
    """Key of one filter of the Review page's new-queue form (apart from the Trajectories filters)."""
    return f"_queue_{criterion}"
