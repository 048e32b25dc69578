"""Writing one trajectory folder: screenshots, web_surfer.log, final answer, times.json, network.har, scores.

`core.log` is written later by `generate`, once the official evaluator has given its verdict.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .har import HarBuilder, har_document
from .logs import traceback_text, web_surfer_log
from .painter import Frame
from .plan import ERRORS
from .trajectory import Trajectory


def token_usage(traj: Trajectory) -> dict[str, Any]:
    rng = random.Random(f"usage:{traj.rel}")
    calls = len(traj.steps)
    usage: dict[str, Any] = {
        "prompt_tokens": sum(rng.randint(3300, 9800) for _ in range(calls)),
        "completion_tokens": sum(rng.randint(40, 190) for _ in range(calls)),
    }
    if traj.task["task_id"] % 3 == 0:  # newer writers add these; readers must accept them
        usage["reasoning_tokens"] = 0 if traj.model.key == "fara" else rng.randint(200, 900)
        usage["num_calls"] = calls
    return {traj.model.component: usage}


def screenshot_frames(traj: Trajectory) -> list[tuple[str, Frame]]:
    if traj.model.generation == "solver":  # one per action, the page the action is taken on
        return [(f"screenshot_{i}.png", s.before) for i, s in enumerate(traj.steps, 1)]
    frames = [traj.start] + [s.after for s in traj.steps]  # before step 1, then after each step
    return [(f"screenshot{i}.png", f) for i, f in enumerate(frames)]


def write_json(path: Path, data: Any, *, indent: int | None = 2, newline: bool = True) -> None:
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    path.write_text(text + ("\n" if newline else ""), encoding="utf-8")


def write_trajectory(traj: Trajectory, out: Path, pngs: Mapping[Frame, bytes]) -> Path:
    folder = out / traj.rel
    folder.mkdir(parents=True, exist_ok=True)
    tid, key = traj.task["task_id"], traj.model.key
    crashed = traj.scenario_name == "crash_no_answer"

    shots = screenshot_frames(traj)
    for name, frame in shots:
        (folder / name).write_bytes(pngs[frame])

    generation = traj.model.generation
    if key == "fara" and traj.row.fara_log == "text":
        generation = "text"
    lines = web_surfer_log(traj, generation)
    error = ERRORS.get((key, tid))
    if key == "fara" and tid == 156:
        lines = []  # DEBUG lines filtered: an empty log is common in this generation
    if key == "som" and tid == 44:
        lines.insert(len(lines) // 2, "")  # a stray blank line
    log = "".join(line + "\n" for line in lines)
    if crashed and error and key == "fara":
        log += "\n".join(traceback_text(error)) + "\n"  # a traceback appended after the last JSON line
    if crashed and key == "som":
        log = (
            log[: log.rfind("\n", 0, len(log) - 1) + 1] + lines[-1][: len(lines[-1]) // 2]
        )  # killed mid-write
    (folder / "web_surfer.log").write_text(log, encoding="utf-8")

    if not crashed:
        answer = {
            "final_answer": traj.answer_text if traj.answer_text is not None else "<no_answer>",
            "env_state_json": "<no_answer>",
            "env_state_raw": "<no_answer>",
            "screenshots": [name for name, _ in shots],
            "is_aborted": traj.is_aborted,
            "is_rel_paths": True,
            "token_usage": token_usage(traj),
        }
        write_json(folder / f"{tid}_final_answer.json", answer, newline=False)
        write_json(
            folder / "times.json",
            {
                "start_time": traj.start_us / 1e6,
                "end_time": traj.end_us / 1e6,
                "duration": (traj.end_us - traj.start_us) / 1e6,
            },
            indent=None,
            newline=False,
        )
        if traj.scenario_name != "har_missing":
            write_json(folder / "network.har", har_document(traj, HarBuilder(traj).build()))
    for name, score in JUDGE_SCORES.get((key, tid), {}).items():
        (folder / "scores").mkdir(exist_ok=True)
        write_json(folder / "scores" / name, score, newline=False)
    return folder


# Verdicts of other judges (illustrative LLM-judge outputs, as Fara's pipelines write them) so the viewer
# has score files to show next to the official verdict; they are data, not something this script computes.
JUDGE_SCORES: dict[tuple[str, int], dict[str, dict[str, Any]]] = {
    ("fara", 108): {
        "gpt_eval.json": {
            "score": 1.0,
            "gpt_response_text": "Thoughts: The agent opened Reports > Orders, limited the period to "
            "January-May 2023, "
            "filtered on the Complete status and grouped by month. The monthly counts in its "
            'answer match the report rows shown in the last screenshot.\n\nStatus: "SUCCESS"',
        }
    },
    ("fara", 11): {
        "mmrubric_0.8-5-3.json": {
            "score": 0,
            "gpt_response_text": json.dumps(
                {
                    "is_success": 0,
                    "success_criterion": "outcome",
                    "final_answer": "[5]",
                    "outcome_success": False,
                    "outcome_reasoning": "The filtered review grid shows 6 records but the agent answered 5.",
                    "outcome_primary_intent": "Count reviews mentioning 'disappointed'",
                    "rubric_is_success": 0,
                    "rubric_items": [
                        {
                            "criterion": "Find the reviews",
                            "description": "Open Marketing > All Reviews",
                            "max_points": 2,
                            "earned_points": 2,
                            "justification": "Screenshot 2 shows the review grid.",
                        },
                        {
                            "criterion": "Filter by the term",
                            "description": "Filter reviews on 'disappointed'",
                            "max_points": 3,
                            "earned_points": 3,
                            "justification": "The keyword filter was applied.",
                        },
                        {
                            "criterion": "Report the count",
                            "description": "Answer with the number of matching reviews",
                            "max_points": 5,
                            "earned_points": 0,
                            "justification": "Answered 5; the grid says 6 records found.",
                        },
                    ],
                    "rubric_total_earned_points": 5,
                    "rubric_total_max_points": 10,
                    "first_point_of_failure": {"step": 4, "reason": "Miscounted the filtered rows"},
                    "is_ambiguous": False,
                    "is_invalid": False,
                },
                ensure_ascii=False,
            ),
        }
    },
    ("fara", 66): {
        "mmrubric_0.8-5-3.json": {
            "score": 0,
            "gpt_response_text": json.dumps(
                {"verifier_reasoning": 'The last action must be "terminate".', "verifier_success": False}
            ),
        }
    },
    ("som", 288): {
        "WebJudge_Online_Mind2Web_eval-3.json": {
            "score": 1.0,
            "gpt_response_text": "The agent filtered the orders to canceled ones, identified a customer with "
            "repeated "
            "cancellations and reported an email address from the customer grid. Key points "
            "satisfied.\nStatus: success",
        }
    },
}
