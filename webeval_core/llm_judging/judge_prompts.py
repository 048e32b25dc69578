"""The judges' prompts: our own wording of the published methods, versioned.

A change of wording is a new prompt version, which is a new judge id (`judge_verdict.judge_id`):
verdicts of two wordings are never mixed in one file. Each template names what it is filled with.
"""

from __future__ import annotations

OUTCOME_VERSION = "outcome-1"
"""The outcome judge's prompts (WebVoyager's method)."""
WEBJUDGE_VERSION = "webjudge-1"
"""WebJudge's prompts (Online-Mind2Web's method)."""
RUBRIC_VERSION = "rubric-1"
"""The rubric verifier's prompts (the Universal Verifier's output shape)."""

OUTCOME_SYSTEM = """You check whether a web agent did what a user asked.
You are given the user's task, the agent's final answer and the last screenshots of the browser.
The screenshots are the evidence: an answer that the screenshots do not support is not a success,
and a task that needed an action on the site (a search, a filter, a form) is done only if the
screenshots show it done. Do not guess beyond what is shown.
Explain briefly, then end with one line: "Verdict: SUCCESS" or "Verdict: NOT SUCCESS"."""

OUTCOME_USER = """Task: {task}

Final answer of the agent: {answer}

The last {count} screenshot(s) follow, oldest first."""

KEY_POINTS_SYSTEM = """You read a task given to a web agent and list its key points: every
requirement an outcome must meet (values, filters, sorting, items to find or change).
Keep the task's own words; add nothing it does not ask.
Reply as:
Key points:
1. ...
2. ..."""

KEY_POINTS_USER = "Task: {task}"

IMAGE_SYSTEM = """You judge how much one screenshot of a web agent's run shows about whether
the task's key points were met. Describe what the screenshot shows that bears on them, then
score it from 1 (nothing relevant) to 5 (shows a key point met or clearly failed).
End with one line: "Score: N"."""

IMAGE_USER = """Task: {task}

Key points:
{key_points}

The screenshot follows."""

FINAL_SYSTEM = """You decide whether a web agent completed a task. You are given the task, its
key points, the agent's actions, its final answer and the screenshots judged relevant.
Every key point must be met, and shown met by the screenshots or the actions; an answer
without such evidence is a failure. A filter or sort the task asks for must have been applied.
Explain briefly, then end with one line: "Status: success" or "Status: failure"."""

FINAL_USER = """Task: {task}

Key points:
{key_points}

Actions of the agent:
{actions}

Final answer of the agent: {answer}

{count} relevant screenshot(s) follow, in the order they were taken."""

RUBRIC_SYSTEM = """You write a grading rubric for a task given to a web agent: the few criteria
an evaluator checks, each with the points it is worth (1 to 5 by importance).
Reply with a JSON object only:
{"rubric_items": [{"criterion": "...", "description": "...", "max_points": 2}]}"""

RUBRIC_USER = "Task: {task}"

VERIFY_SYSTEM = """You verify a web agent's run against its task and a rubric. You are given the
task, the rubric, the actions (numbered from 1), the final answer and the last screenshots.
Reply with a JSON object only, with these keys:
"rubric_items": the rubric's criteria, each with "criterion", "description", "max_points",
  "earned_points" and "justification";
"rubric_reasoning": a sentence on the rubric as a whole;
"outcome_success": true if the task was done as asked, else false;
"outcome_reasoning": why;
"outcome_primary_intent": what the user wanted, in one sentence;
"cp_type_used": the critical-point type that applies (one of NO_CRITICAL_POINT,
  NO_PERMISSION_INFO_PROVIDED_TASK_SPECIFIED, NO_PERMISSION_MISSING_INFO_TASK_SPECIFIED, ...);
"cp_violation": true if the agent crossed a critical point without permission;
"first_point_of_failure": {"reasoning": "...", "has_failure": true or false, "failure_points":
  [{"step_numbers": "5" or "5-7", "error_code": "2.3", "error_category": "...",
  "error_type": "...", "what_happened": "...", "agent_reasoning": "...", "evidence": "...",
  "impact": "..."}]}, codes from the error taxonomy (1 Selection, 2 Hallucination,
  3 Execution & Strategy, 4 Critical Point, 5 Side-Effect, 6 Tool Interaction);
"task_verification": {"is_ambiguous": bool, "ambiguity_codes": ["7.x"],
  "reasoning_is_ambiguous": "...", "is_invalid": bool, "invalid_task_codes": ["8.x"],
  "reasoning_is_invalid": "..."}."""

VERIFY_USER = """Task: {task}

Rubric:
{rubric}

Actions of the agent:
{actions}

Final answer of the agent: {answer}

The last {count} screenshot(s) follow, oldest first."""

NO_ANSWER_GIVEN = "(the agent gave no final answer)"
"""What a judge is told when the agent gave no answer."""

NOT_JSON = """Your reply could not be used: {problem}. Reply again with the JSON object only."""
"""Appended to a request whose JSON reply did not parse (asked once more, as Fara's verifier does)."""
