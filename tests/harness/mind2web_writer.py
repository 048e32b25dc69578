"""Online-Mind2Web task folders written as its runners write them: the screenshots into
`<results>/<task_id>/trajectory/` as the agent acts, then `result.json` (the second generation,
`schema_version: "online-mind2web-v2"`) once the task is done."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image


def start_task(results: Path, task_id: str, screenshots: int, *, name: str = "{n}.png") -> Path:
    """A task being run: its `trajectory/` with the screenshots of its first steps (`name`: how the
    runner names the n-th), no result.json yet."""
    folder = results / task_id
    (folder / "trajectory").mkdir(parents=True, exist_ok=True)
    for number in range(screenshots):
        Image.new("RGB", (40, 30), "white").save(folder / "trajectory" / name.format(n=number))
    return folder


def write_result(
    results: Path,
    task_id: str,
    actions: list[str],
    answer: str | None = "Done.",
    *,
    task: str = "Find a pet-friendly hotel in Lisbon for two adults.",
    thoughts: Sequence[str | None] | None = None,
    screenshots: Sequence[bytes] | None = None,
    **extra: Any,
) -> Path:
    """A finished task: one screenshot per action (`screenshots`' PNG bytes, else a white frame),
    then result.json with its history, answer and `extra` fields (a runner's own: `website`)."""
    folder = results / task_id
    (folder / "trajectory").mkdir(parents=True, exist_ok=True)  # a runner's, made as the task starts
    history = []
    for number, action in enumerate(actions):
        shot = folder / "trajectory" / f"{number}.png"
        if screenshots is not None:
            shot.write_bytes(screenshots[number])
        else:
            Image.new("RGB", (40, 30), "white").save(shot)
        thought = thoughts[number] if thoughts is not None else f"I {action.lower()}."
        history.append({"action": action, "thought": thought, "screenshot": shot.name})
    content = {
        "schema_version": "online-mind2web-v2",
        "task_id": task_id,
        "task": task,
        **extra,
        "action_history": history,
        "agent_final_answer": answer,
    }
    (folder / "result.json").write_text(json.dumps(content, indent=2, ensure_ascii=False), encoding="utf-8")
    return folder


WEBJUDGE = "WebJudge_Online_Mind2Web_eval"
"""The evaluation script's WebJudge mode (`--mode`)."""


@dataclass(frozen=True)
class Judged:
    """What WebJudge said of one task: its key points, each screenshot's reply, the final reply."""

    task_id: str
    """The task folder judged."""
    success: bool
    """The final reply's status."""
    key_points: str = "1. Find the answer the task asks for."
    """The key points it identified."""
    image_scores: tuple[int, ...] = ()
    """Each screenshot's score, in order (a reply is written for each)."""
    thoughts: str = "The agent reached the page that holds the answer."
    """The final reply's reasoning."""


def autoeval_name(mode: str = WEBJUDGE, model: str = "o4-mini", threshold: int = 3) -> str:
    """The output file's name, as the script names it from its arguments."""
    return f"{mode}_{model}_score_threshold_{threshold}_auto_eval_results.json"


def write_autoeval(
    results: Path, output: Path, judged: Sequence[Judged], *, mode: str = WEBJUDGE, model: str = "o4-mini"
) -> Path:
    """`output/<mode>_<model>_score_threshold_3_auto_eval_results.json` as Online-Mind2Web's
    `src/run.py` appends it: per task a line holding result.json's fields, then the judge's
    (image_judge_record and key_points in WebJudge modes; task_id, input_text, system_msg,
    evaluation_details, predicted_label), each line `json.dumps` of that object."""
    output.mkdir(parents=True, exist_ok=True)
    path = output / autoeval_name(mode, model)
    lines = []
    for item in judged:
        result = json.loads((results / item.task_id / "result.json").read_text(encoding="utf-8"))
        status = "success" if item.success else "failure"
        response = f'Thoughts: {item.thoughts}\nStatus: "{status}"'
        if mode.startswith("WebJudge"):
            result["image_judge_record"] = [
                {
                    "Response": f"**Reasoning**: Screenshot {n} shows part of the task.\n\nScore: {score}",
                    "Score": score,
                }
                for n, score in enumerate(item.image_scores, start=1)
            ]
            result["key_points"] = item.key_points
        result |= {
            "task_id": item.task_id,
            "input_text": f"User Task: {result.get('task')}\n\nKey Points: {item.key_points}",
            "system_msg": "You are an expert in evaluating the performance of a web navigation agent.",
            "evaluation_details": {"response": response, "predicted_label": int(item.success)},
            "predicted_label": int(item.success),
        }
        lines.append(json.dumps(result) + "\n")
    with path.open("a", encoding="utf-8") as out:  # the script appends, task by task
        out.writelines(lines)
    return path
