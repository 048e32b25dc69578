"""The plan: which scenario each model's trajectory of each task is built for.

The two models, the scenarios (with the verdict each must get), one PlanRow per task, and the
per-trajectory notes and environment errors that the scenario name does not say.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .sites import LOCAL_TZ


@dataclass(frozen=True)
class Model:
    key: str
    system: str  # system.hash folder
    name: str  # model_prefix folder
    generation: str  # web_surfer.log generation: "fara" (structured OtherEvent) or "solver"
    run_start: datetime  # local time of the first task
    component: str  # token_usage key
    max_rounds: int


MODELS = (
    Model(
        "fara",
        "WebSurfer-fara-100-max_n_images-3",
        "fara-7b",
        "fara",
        datetime(2025, 11, 14, 13, 5, 0, tzinfo=LOCAL_TZ),
        "FaraAgent",
        100,
    ),
    Model(
        "som",
        "WebSurfer-som-100",
        "gpt-4o-som",
        "solver",
        datetime(2025, 11, 12, 9, 30, 0, tzinfo=LOCAL_TZ),
        "WebSurfer",
        100,
    ),
)
USER, EXEC_HASH, RUN_ID = "demo", "WebArenaVerified_sample", "0"


@dataclass(frozen=True)
class Scenario:
    status: str | None  # official verdict the trajectory must get (None: aborted, not scored)
    steps: str  # which step list: steps | wrong | missing | left | loop | truncated
    answer: str | None  # right | wrong | wrong_type | wrong_status | None (no answer)
    style: str  # how the answer text is written: plain | fenced | prose | action_results | malformed
    note: str


SCENARIOS: dict[str, Scenario] = {
    "right_answer": Scenario(
        "success", "steps", "right", "plain", "Right values; task_type/retrieved_data naming."
    ),
    "fenced_json": Scenario(
        "success", "steps", "right", "fenced", "Right answer inside a ```json fence after prose."
    ),
    "json_in_prose": Scenario(
        "success",
        "steps",
        "right",
        "prose",
        "Right answer as JSON inside a sentence (no fence): must be extracted from the prose.",
    ),
    "action_results_naming": Scenario(
        "success",
        "steps",
        "right",
        "action_results",
        "Right answer in the published schema's action/results naming, which the "
        "official library does not read; verdict after mapping to task_type/"
        "retrieved_data.",
    ),
    "not_found_correct": Scenario(
        "success",
        "steps",
        "right",
        "plain",
        "The task's expected status is NOT_FOUND_ERROR and the agent reports it.",
    ),
    "mutate_request_present": Scenario(
        "success",
        "steps",
        "right",
        "plain",
        "The HAR holds the request the task's network evaluator expects.",
    ),
    "navigate_right": Scenario(
        "success", "steps", "right", "plain", "The last document navigation is the right page."
    ),
    "wrong_values": Scenario("failure", "wrong", "wrong", "plain", "Right format, wrong retrieved values."),
    "lenient_pass": Scenario(
        "success",
        "wrong",
        "wrong",
        "plain",
        "A wrong answer the official evaluator accepts: distances compare with a 2% tolerance "
        "and the network check only asks for some routed-car request.",
    ),
    "wrong_task_type": Scenario(
        "failure", "steps", "wrong_type", "plain", "The answer names the wrong task type."
    ),
    "wrong_status": Scenario(
        "failure", "steps", "wrong_status", "plain", "Reports NOT_FOUND_ERROR although the data exists."
    ),
    "data_for_not_found": Scenario(
        "error",
        "steps",
        "wrong_status",
        "plain",
        "Returns SUCCESS with data for a task whose expected status is NOT_FOUND_ERROR. "
        "The official evaluator gives 'error', not 'failure': the task's results_schema "
        "is {type: null} and it cannot normalize the returned array.",
    ),
    "malformed": Scenario("failure", "steps", "right", "malformed", "The final answer is not JSON."),
    "no_answer": Scenario(
        "failure",
        "loop",
        None,
        "plain",
        "Over budget: max_rounds actions without terminate; final_answer '<no_answer>', "
        "is_aborted false (counted as 0).",
    ),
    "mutate_request_missing": Scenario(
        "failure",
        "missing",
        "right",
        "plain",
        "The agent claims success but the mutating request never happened.",
    ),
    "mutate_request_wrong": Scenario(
        "failure",
        "wrong",
        "right",
        "plain",
        "The mutating request happened with wrong data or to a wrong URL.",
    ),
    "navigate_wrong": Scenario(
        "failure", "wrong", "right", "plain", "The last document navigation is a wrong page."
    ),
    "navigate_left": Scenario(
        "failure",
        "left",
        "right",
        "plain",
        "Opened the right page, then went back before answering: the evaluator checks only the last"
        " page navigation (a known upstream limitation).",
    ),
    "har_missing": Scenario(
        "error",
        "steps",
        "right",
        "plain",
        "Answered, but network.har was not recorded: a mutate task cannot be checked.",
    ),
    "aborted": Scenario(
        None,
        "truncated",
        None,
        "plain",
        "Aborted by an environment error (is_aborted true): excluded from scores.",
    ),
    "crash_no_answer": Scenario(
        None,
        "truncated",
        None,
        "plain",
        "The run crashed: no answer file (and no HAR); excluded from scores.",
    ),
}


@dataclass(frozen=True)
class PlanRow:
    task_id: int
    fara: str  # scenario of the fara-7b trajectory
    som: str  # scenario of the gpt-4o-som trajectory
    fara_log: str = "fara"  # "text": this fara-7b folder holds an older text-only log


# One row per task: the 44 tasks span all six sites and the three task types (see README.md).
# fmt: off
PLAN: tuple[PlanRow, ...] = (
    #      task  fara-7b                   gpt-4o-som
    # shopping
    PlanRow(188, "right_answer",           "malformed",              fara_log="text"),
    PlanRow(191, "not_found_correct",      "data_for_not_found"),
    PlanRow(233, "json_in_prose",          "wrong_status"),
    PlanRow(124, "wrong_values",           "aborted"),
    PlanRow(260, "navigate_right",         "navigate_right"),
    PlanRow(275, "navigate_wrong",         "navigate_right"),
    PlanRow(238, "navigate_right",         "navigate_left"),
    PlanRow(465, "mutate_request_present", "mutate_request_present"),
    PlanRow(436, "mutate_request_wrong",   "mutate_request_missing"),
    # shopping_admin
    PlanRow(108, "right_answer",           "action_results_naming"),
    PlanRow(11,  "wrong_values",           "right_answer"),
    PlanRow(288, "fenced_json",            "wrong_values"),
    PlanRow(157, "navigate_right",         "wrong_task_type"),
    PlanRow(374, "navigate_wrong",         "navigate_right"),
    PlanRow(470, "mutate_request_present", "mutate_request_wrong"),
    PlanRow(458, "mutate_request_wrong",   "mutate_request_present"),
    PlanRow(487, "mutate_request_present", "har_missing"),
    PlanRow(492, "mutate_request_missing", "mutate_request_present"),
    # reddit
    PlanRow(27,  "right_answer",           "wrong_values",           fara_log="text"),
    PlanRow(66,  "no_answer",              "fenced_json"),
    PlanRow(723, "not_found_correct",      "wrong_task_type"),
    PlanRow(399, "mutate_request_present", "mutate_request_present"),
    PlanRow(404, "mutate_request_wrong",   "mutate_request_present"),
    PlanRow(580, "mutate_request_present", "mutate_request_wrong"),
    PlanRow(600, "malformed",              "mutate_request_present"),
    # gitlab
    PlanRow(169, "right_answer",           "wrong_values"),
    PlanRow(259, "action_results_naming",  "right_answer"),
    PlanRow(168, "data_for_not_found",     "not_found_correct"),
    PlanRow(44,  "navigate_right",         "navigate_right",         fara_log="text"),
    PlanRow(156, "aborted",                "navigate_wrong"),
    PlanRow(339, "navigate_right",         "navigate_wrong"),
    PlanRow(418, "mutate_request_present", "wrong_task_type"),
    PlanRow(389, "mutate_request_present", "mutate_request_missing"),
    PlanRow(394, "mutate_request_present", "mutate_request_present"),
    # map
    PlanRow(70,  "right_answer",           "json_in_prose",          fara_log="text"),
    PlanRow(151, "fenced_json",            "right_answer"),
    PlanRow(363, "crash_no_answer",        "right_answer"),
    PlanRow(253, "not_found_correct",      "malformed"),
    PlanRow(370, "navigate_right",         "navigate_right"),
    PlanRow(379, "wrong_task_type",        "navigate_right"),
    # wikipedia (with map / gitlab)
    PlanRow(97,  "right_answer",           "lenient_pass"),
    PlanRow(424, "navigate_right",         "crash_no_answer"),
    PlanRow(425, "navigate_wrong",         "navigate_right"),
    PlanRow(556, "mutate_request_wrong",   "aborted"),
)
# fmt: on

# What exactly goes wrong in a trajectory, when the scenario name does not say it all.
NOTES: dict[tuple[str, int], str] = {
    ("som", 188): "A plain sentence with the total, no JSON.",
    ("som", 191): "Reports a pending order's total as SUCCESS.",
    ("som", 233): "Claims there is no complete order.",
    ("fara", 124): "Min 9.99 instead of 0.01.",
    ("som", 124): "OpenAI rate limit.",
    ("fara", 275): "Searched 'xbox controller'.",
    ("som", 238): "Opened the Astro A50 page, then went back to the sorted list before answering.",
    (
        "fara",
        436,
    ): "Used the order's Reorder link (POST sales/order/reorder), a real reorder, but not the product "
    "page's add-to-cart request the evaluator expects.",
    ("som", 436): "Opened the order and stopped.",
    ("fara", 11): "Counted 5 reviews instead of 6.",
    ("som", 288): "The customer with the second most cancellations.",
    ("som", 157): "Answers RETRIEVE with customer names.",
    ("fara", 374): "Opened the Luma theme (id 3) instead of Blank (id 1).",
    ("som", 470): "Canceled order 301 instead of 302.",
    ("fara", 458): "Saved price 22.00 instead of 27.00.",
    ("fara", 492): "Typed the comment but never clicked Submit Comment.",
    ("som", 27): "Count 1 instead of 0.",
    ("fara", 66): "100 actions browsing the forum, never terminates.",
    ("som", 723): "Answers MUTATE / NOT_FOUND_ERROR.",
    ("fara", 404): "Upvoted the second newest post.",
    ("som", 580): "The sidebar lost its markdown.",
    ("fara", 600): "The request is right but the answer is a JS-style object, not JSON.",
    ("som", 169): "Only one of the two tied projects.",
    ("fara", 168): "Answers SUCCESS with project 187.",
    ("fara", 156): "Playwright timeout, retried, failed again; web_surfer.log is empty.",
    ("som", 156): "Review requests instead of merge requests assigned to me.",
    (
        "som",
        339,
    ): "Searched 'bug' instead of filtering by the bug label: the page matches, the GraphQL referer "
    "does not.",
    ("som", 418): "Answers NAVIGATE.",
    ("som", 389): "Typed the comment, never posted it.",
    (
        "fara",
        363,
    ): "The model's output could not be parsed (KeyError); a traceback follows the last log line.",
    ("som", 253): "Says there is no phone number, in plain text.",
    ("fara", 379): "Answers RETRIEVE with hotel names.",
    (
        "som",
        97,
    ): "Drove to Harvard (2nd in the ranking) instead of MIT (3rd): 925 km against 914 km expected.",
    ("som", 424): "The worker was killed: the last log line is cut off.",
    ("fara", 425): "Opened the southbound roadway (a way), not the bridge relation.",
    ("fara", 556): "The README also lists the short film Doodlebug.",
    ("som", 556): "The browser closed mid-run.",
}


# Environment errors of aborted / crashed runs (core.log [ERROR] line, exception, traceback frames).
ERRORS: dict[tuple[str, int], tuple[str, str, tuple[str, ...]]] = {
    ("fara", 156): (
        "Timeout 30000ms exceeded.",
        "playwright._impl._errors.TimeoutError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/webeval/src/webeval/systems/websurfer.py", line 212, in get_answer',
            "    final_answer, actions, observations = await agent.run(task.question)",
            'File "/opt/fara/src/fara/fara_agent.py", line 387, in run',
            "    ) = await self.execute_action(function_call)",
            'File "/opt/fara/src/fara/browser/playwright_controller.py", line 143, in click_coords',
            "    await page.wait_for_load_state()",
        ),
    ),
    ("fara", 363): (
        "'action'",
        "KeyError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/fara/src/fara/fara_agent.py", line 379, in run',
            '    action = action_args["action"]',
        ),
    ),
    ("som", 124): (
        (
            "Error code: 429 - {'error': {'code': '429', 'message': 'Rate limit is exceeded. Try again in "
            "21 seconds.'}}"
        ),
        "openai.RateLimitError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/webeval/src/webeval/systems/websurfer_som.py", line 158, in get_answer',
            "    response = await self.client.create(messages)",
        ),
    ),
    ("som", 424): (
        "Worker process died unexpectedly (exit code -9)",
        "concurrent.futures.process.BrokenProcessPool",
        (
            'File "/opt/webeval/src/webeval/core.py", line 143, in run_eval_single_example',
            "    result = future.result(timeout=self.task_timeout)",
        ),
    ),
    ("som", 556): (
        "Target page, context or browser has been closed",
        "playwright._impl._errors.TargetClosedError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/webeval/src/webeval/systems/websurfer_som.py", line 201, in get_answer',
            "    screenshot = await page.screenshot()",
        ),
    ),
}
