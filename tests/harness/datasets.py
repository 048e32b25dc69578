"""Copies of the official dataset with tasks changed, as a team correcting a task would make them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from webeval_core.reading.task_catalog import TaskCatalog
from webeval_core.scoring import RESPONSE_EVALUATOR, task_problem

OTHER_STATUS = {"SUCCESS": "NOT_FOUND_ERROR"}
"""The expected status a changed task gets instead of its own (any other: SUCCESS)."""


def changed_dataset(catalog: TaskCatalog, task_ids: Iterable[int], folder: Path) -> Path:
    """A copy of the catalog's dataset file in `folder`, each task of `task_ids` expecting another
    status from the agent (so a correct answer of before now fails, and the reverse)."""
    wanted = set(task_ids)
    items = json.loads(catalog.path.read_bytes())
    for item in items:
        if item.get("task_id") not in wanted:
            continue
        (evaluator,) = [e for e in item["eval"] if e.get("evaluator") == RESPONSE_EVALUATOR]
        expected = evaluator["expected"]
        expected["status"] = OTHER_STATUS.get(expected.get("status"), "SUCCESS")
        problem = task_problem(item)
        assert problem is None, problem
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / catalog.path.name
    target.write_text(json.dumps(items), encoding="utf-8")
    return target


def response_tasks(catalog: TaskCatalog, task_ids: Iterable[str]) -> list[int]:
    """Those of `task_ids` whose task checks the agent's response (so a changed status flips it)."""
    found = []
    for task_id in task_ids:
        task = catalog.get(task_id) if task_id.isdigit() else None
        if task is not None and any(e.get("evaluator") == RESPONSE_EVALUATOR for e in task.evaluators):
            found.append(int(task_id))
    return found


def score_file_diff(root: Path, old_hash: str, new_hash: str) -> set[Path]:
    """The folders under `root` whose score files of the two eval hashes, read as JSON by hand,
    give different verdicts (status, and the score of a success or failure)."""

    def verdict(path: Path) -> tuple[str, float | None]:
        stored = json.loads(path.read_text(encoding="utf-8"))
        status = json.loads(stored["gpt_response_text"])["result"]["status"]
        return status, stored["score"] if status in ("success", "failure") else None

    changed = set()
    for old in root.rglob(f"scores/{old_hash}.json"):
        new = old.with_name(f"{new_hash}.json")
        if new.is_file() and verdict(old) != verdict(new):
            changed.add(old.parent.parent)
    return changed
