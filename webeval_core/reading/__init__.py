"""Reading: the files of a trajectory folder (and the task dataset) into typed models.

Owns every parser of what agents and their harness write: `web_surfer.log` (actionlog, and a
bounded raw excerpt in logexcerpt), screenshots and their coordinates, `core.log`, `scores/*.json`
as files (scorefiles), the final answer, times and task data (trajectory), the network trace
(network: a HAR, or a Playwright trace read by playwrighttrace), the task catalog (tasks), the
agent's response text (response), a benchmark's task text (taskdata) and official submission
packages (submission); `glance` reads only what the index's summary needs, by the same rules.
Which layouts are trajectories, and which reader reads each, is the registry's (`formats`: one
module per format); `trajectory_model` holds what they read into.
Every input file is opened by `folderfiles` (regular files only, no link followed, never
blocking, size-aware). Problems become `Diagnostic`s naming the file and line; only
a folder with nothing usable raises `UnreadableError`.

May import: `webeval_core.support.diagnostics` (and the standard library and pydantic).
Never imports scoring, runs, review or presentation (checked by import-linter).
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "CODES",
    "FINISHED_OUTCOMES",
    "MODEL_SIZE",
    "RUNNING_WINDOW_S",
    "SCORES_DIR",
    "SITES",
    "SUMMARY_NAME",
    "TASK_TYPES",
    "ActionLog",
    "AgentResponse",
    "AutoEvalRecord",
    "CoreLogLine",
    "Ending",
    "Glance",
    "Har",
    "ImageSource",
    "LogExcerpt",
    "NetworkEvent",
    "NotReadableFileError",
    "PlaywrightTrace",
    "Point",
    "Scaling",
    "ScoreFile",
    "Step",
    "Submission",
    "Task",
    "TaskCatalog",
    "TaskProgress",
    "TaskState",
    "TaskText",
    "TimedStep",
    "Trajectory",
    "VerifierOutput",
    "VerifyReport",
    "VerifyReportRow",
    "autoeval_records",
    "category_of",
    "code_label",
    "code_name",
    "default_dataset_path",
    "describes_task",
    "ensure_local",
    "find_verify_reports",
    "format_named",
    "glance_trajectory",
    "image_complete",
    "infer_resource_type",
    "installed_catalog",
    "is_trajectory_folder",
    "layouts",
    "load_catalog",
    "load_trajectory",
    "not_a_trajectory",
    "parse_action_log",
    "parse_agent_response",
    "parse_core_log",
    "parse_step_numbers",
    "png_header_size",
    "read_file",
    "read_har",
    "read_image_bytes",
    "read_log_excerpt",
    "read_playwright_trace",
    "read_score_files",
    "read_submission",
    "read_verify_report",
    "set_image_source",
    "site_of",
    "sorted_codes",
    "state_of",
    "step_for_time",
    "task_progress",
    "task_text_of",
    "traces_in",
    "trajectory_json",
    "verifier_outputs",
]

if TYPE_CHECKING:
    from webeval_core.reading.actionlog import ActionLog, Step, parse_action_log
    from webeval_core.reading.coordinates import MODEL_SIZE, Point, Scaling
    from webeval_core.reading.corelog import CoreLogLine, parse_core_log
    from webeval_core.reading.folderfiles import NotReadableFileError, read_file
    from webeval_core.reading.formats import format_named, is_trajectory_folder, layouts, not_a_trajectory
    from webeval_core.reading.glance import Glance, glance_trajectory
    from webeval_core.reading.logexcerpt import LogExcerpt, read_log_excerpt
    from webeval_core.reading.markers import SCORES_DIR, traces_in
    from webeval_core.reading.mind2web_judges import AutoEvalRecord, autoeval_records
    from webeval_core.reading.network import (
        Har,
        NetworkEvent,
        TimedStep,
        infer_resource_type,
        read_har,
        step_for_time,
    )
    from webeval_core.reading.playwrighttrace import PlaywrightTrace, read_playwright_trace
    from webeval_core.reading.response import AgentResponse, parse_agent_response
    from webeval_core.reading.scorefiles import ScoreFile, read_score_files
    from webeval_core.reading.screenshots import (
        ImageSource,
        ensure_local,
        image_complete,
        png_header_size,
        read_image_bytes,
        set_image_source,
    )
    from webeval_core.reading.submission import SUMMARY_NAME, Submission, read_submission
    from webeval_core.reading.task_catalog import (
        SITES,
        TASK_TYPES,
        Task,
        TaskCatalog,
        default_dataset_path,
        installed_catalog,
        load_catalog,
    )
    from webeval_core.reading.task_state import (
        FINISHED_OUTCOMES,
        RUNNING_WINDOW_S,
        TaskProgress,
        TaskState,
        state_of,
        task_progress,
    )
    from webeval_core.reading.taskdata import TaskText, site_of, task_text_of
    from webeval_core.reading.taxonomy import (
        CODES,
        category_of,
        code_label,
        code_name,
        describes_task,
        sorted_codes,
    )
    from webeval_core.reading.trajectory_model import Ending, Trajectory
    from webeval_core.reading.trajectory_reader import load_trajectory, trajectory_json
    from webeval_core.reading.verifier import VerifierOutput, parse_step_numbers, verifier_outputs
    from webeval_core.reading.verifyreport import (
        VerifyReport,
        VerifyReportRow,
        find_verify_reports,
        read_verify_report,
    )
else:
    __getattr__ = lazy_getattr(__name__, __file__)
