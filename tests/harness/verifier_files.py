"""Universal Verifier score files written BY HAND from shared/reference/fara-verifier-output.md.

Literal JSON texts, not produced by any generator of ours: the done-when check of issue 22 is that
every field the reference lists, and every code, shows up named. `HAND_WRITTEN_RESPONSE` is the
decoded `gpt_response_text` of a mid-2026 file; `OLDER_RESPONSE` is an earlier generation (no
error taxonomy, no critical point, its first point of failure nested as free text).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

JUDGE = "mmrubric_0.8-5-3"
RUN = "WebTailBench_hf"
"""The run (its folder under the root) of `verifier_root`."""
TASK = "alltrails_find_23"
"""The trajectory judged by the hand-written file."""
SECOND = "alltrails_find_24"
"""A second failed trajectory (one 2.1 failure point at step 4)."""
PASSED = "alltrails_find_25"
"""A passed trajectory (no failure)."""

HAND_WRITTEN_RESPONSE = r"""
{
  "rubric_items": [
    {"criterion": "Open the park page", "description": "The agent opens Yosemite on AllTrails",
     "max_points": 2, "earned_points": 2, "justification": "Step 3 typed Yosemite and opened it."},
    {"criterion": "Report the longest trail",
     "description": "The answer names the longest trail and its length",
     "max_points": 3, "earned_points": 0.5, "justification": "The length was invented."}
  ],
  "rubric_reasoning": "The agent reached the right page but never read the trail's length.",
  "rubric_is_success": 0,
  "rubric_total_max_points": 5,
  "rubric_total_earned_points": 2.5,
  "outcome_success": false,
  "outcome_reasoning": "The answer gives 14.2 miles; the page shown says 16.3 miles.",
  "outcome_primary_intent": "Name the longest trail in Yosemite with its length.",
  "success_criterion": "both",
  "cp_type_used": "NO_PERMISSION_INFO_PROVIDED_TASK_SPECIFIED",
  "cp_violation": true,
  "first_point_of_failure": {
    "reasoning": "The agent stopped reading before the length appeared and made one up.",
    "has_failure": true,
    "failure_points": [
      {"step_numbers": "2", "error_code": "6.4", "error_category": "Tool Interaction",
       "error_type": "Fine-grained grounding error", "what_happened": "Clicked beside the search box.",
       "agent_reasoning": "It thought the box was a little to the right.",
       "evidence": "Screenshot 1 shows the click 40 px off the box.", "impact": "One wasted step."},
      {"step_numbers": "3-4", "error_code": "3.2.1", "error_category": "Execution & Strategy",
       "error_type": "API-sniffing", "what_happened": "Read the trail list from a JSON endpoint.",
       "agent_reasoning": "It wanted the list faster.", "evidence": "The URL at step 4 is /api/trails.",
       "impact": "Bypassed the site's interface."},
      {"step_numbers": "2,5", "error_code": "2.3", "error_category": "Hallucination",
       "error_type": "Output fabrication", "what_happened": "Answered 14.2 miles without seeing it.",
       "agent_reasoning": "It assumed the first trail was the longest.",
       "evidence": "No screenshot shows 14.2.", "impact": "The answer is wrong."}
    ]
  },
  "task_verification": {
    "reasoning_is_ambiguous": "Longest could mean length or duration.",
    "is_ambiguous": true,
    "ambiguity_codes": ["7.1"],
    "reasoning_is_invalid": "The task can be done on the site.",
    "is_invalid": false,
    "invalid_task_codes": []
  },
  "task_verification_with_trajectory": {
    "reasoning_is_ambiguous": "The site sorts by length, so the reading is clear enough.",
    "is_ambiguous": true,
    "ambiguity_codes": ["7.2"],
    "reasoning_is_invalid": "The park page was blocked in one region.",
    "is_invalid": true,
    "invalid_task_codes": ["8.1"]
  }
}
"""
"""The decoded `gpt_response_text` of a Universal Verifier score file, written by hand."""

HAND_WRITTEN_CODES = ("6.4", "3.2.1", "2.3", "7.1", "7.2", "8.1")
"""Every taxonomy code the hand-written file gives."""

OLDER_RESPONSE = r"""
{
  "is_success": 0,
  "outcome_success": false,
  "outcome_reasoning": "The grid shows 6 records but the agent answered 5.",
  "rubric_items": [
    {"criterion": "Count", "description": "Answer", "max_points": 5, "earned_points": 0.5,
     "justification": "5 != 6"}
  ],
  "rubric_outcome_verification": {"details": {"first_point_of_failure": {"step": 4, "reason": "miscount"}}}
}
"""
"""An earlier generation: no success criterion, critical point or taxonomy; the failure nested."""

SECOND_RESPONSE = r"""
{"success_criterion": "outcome", "outcome_success": false, "outcome_reasoning": "Wrong trail named.",
 "cp_type_used": "NO_CRITICAL_POINT", "cp_violation": false,
 "first_point_of_failure": {"reasoning": "The answer contradicts the page.", "has_failure": true,
   "failure_points": [{"step_numbers": "4", "error_code": "2.1", "error_category": "Hallucination",
     "error_type": "Output contradiction",
     "what_happened": "Named Mist Trail though the page lists Half Dome.",
     "agent_reasoning": "", "evidence": "Step 4's screenshot.", "impact": "Wrong answer."}]}}
"""
"""A second Universal Verifier file, by hand: one failure point."""


EXAMPLE_SHAPED_REASONING = "The agent opened the trail page and reported its length as the page shows it."
"""The justification of `EXAMPLE_SHAPED_RESPONSE`, found only in its rubric agent's outcome check."""

EXAMPLE_SHAPED_RESPONSE = json.dumps(
    {
        "success_criterion": "outcome",
        "outcome_success": True,
        "outcome_reasoning": "",
        "outcome_primary_intent": "Report the length of a trail.",
        "rubric_is_success": 1,
        "rubric_total_max_points": 2,
        "rubric_total_earned_points": 2,
        "rubric_items": [
            {"criterion": "Length", "description": "States the length", "max_points": 2,
             "earned_points": 2, "justification": "Stated."}
        ],
        "rubric_outcome_verification": {"outcome_success": True, "reasoning": EXAMPLE_SHAPED_REASONING},
    }
)  # fmt: skip
"""The shape of Fara's own example trajectory's verifier file (issue 49): the top level's
`outcome_reasoning` left empty, the judge's justification only in `rubric_outcome_verification`.
Written by hand; none of that file's text."""


def strings_of(value: Any) -> list[str]:
    """Every non-empty string value of a decoded JSON document (the texts a view must show)."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_of(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_of(v)]
    return []


def verifier_root(tmp_path: Path, response: str = HAND_WRITTEN_RESPONSE) -> Path:
    """A Fara run of three trajectories of 5 steps: `TASK` judged by `response` (the hand-written
    file), `SECOND` failing once (2.1), `PASSED`; and its run report (an ok row that disagrees with
    `TASK`'s score file on the first failing step, and an error row).
    """
    from tests.harness.builders import fara_folder

    root = tmp_path / "runs"
    traj = root / RUN / "traj"
    folder = fara_folder(traj, TASK)
    (folder / "task_data.json").write_text(json.dumps({"task_proposal": "Find the longest trail."}))
    write_hand_written(folder, response)
    write_hand_written(fara_folder(traj, SECOND), SECOND_RESPONSE)
    write_hand_written(
        fara_folder(traj, PASSED), '{"success_criterion": "outcome", "outcome_success": true}', 1
    )
    rows = [
        {"status": "ok", "task_id": TASK, "score_path": f"{folder}/scores/{JUDGE}.json",
         "outcome_success": False, "rubric_is_success": 0, "has_failure": True, "first_failure_step": 3,
         "n_actions": 5},
        {"status": "error", "task_id": "alltrails_find_26",
         "error": "TimeoutError: the judge did not answer"},
    ]  # fmt: skip
    (root / RUN / "verify_report.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def write_hand_written(folder: Path, response: str = HAND_WRITTEN_RESPONSE, score: int = 0) -> Path:
    """The score file as the verifier lays it out (`{"score", "gpt_response_text"}`) in `folder`."""
    scores = folder / "scores"
    scores.mkdir(exist_ok=True)
    path = scores / f"{JUDGE}.json"
    path.write_text(json.dumps({"score": score, "gpt_response_text": response}))
    return path


def odd_verifier_root(
    tmp_path: Path, responses: dict[str, Any], judges: tuple[tuple[str, float, str], ...] = ()
) -> Path:
    """`verifier_root`, plus a run "odd" of one trajectory per response, each judged by it ("judge"),
    by `OLDER_RESPONSE` ("older"), by `judges` (name, score, response) and by the hand-written file
    ("hand").
    """
    from tests.harness.builders import fara_folder, write_score

    root = verifier_root(tmp_path)
    run = root / "odd" / "traj"
    for name, response in responses.items():
        folder = fara_folder(run, name)
        write_score(folder, "judge", 0, json.dumps(response))
        write_score(folder, "older", 1, OLDER_RESPONSE)
        for judge, score, text in judges:
            write_score(folder, judge, score, text)
        write_score(folder, "hand", 0, HAND_WRITTEN_RESPONSE)
    return root
