"""Picker names: unique within a run even when two folders hold the same task id."""

from __future__ import annotations

from pathlib import Path

from webeval_core.presentation.picks import choice_of, trajectory_choices
from webeval_core.runs.index import TrajectorySummary


def _summary(root: Path, folder: str, task_id: str) -> TrajectorySummary:
    return TrajectorySummary(run_key="run", path=root / "run" / folder, key=f"run/{folder}", task_id=task_id)


def test_unique_ids_are_named_by_id_and_repeated_ones_by_folder_too(tmp_path: Path) -> None:
    members = [
        _summary(tmp_path, "108", "108"),
        _summary(tmp_path, "108-retry", "108"),
        _summary(tmp_path, "7", "7"),
    ]

    choices = trajectory_choices(members)

    assert list(choices) == ["108 (run/108)", "108 (run/108-retry)", "7"]
    assert [s.path for s in choices.values()] == [s.path for s in members]
    assert choice_of(members[1], members) == "108 (run/108-retry)"
    assert choice_of(members[2], members) == "7"
