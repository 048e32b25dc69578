"""The summary index: one summary per folder, unreadable folders kept with a reason, cache reuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder, wav_folder, write_core_log, write_score
from webeval_core.runs import quicksummary as quick_module
from webeval_core.runs import summary as summary_module
from webeval_core.runs.index import TrajectorySummary, build_index, index_as_json


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    traj = root / "runs/sys/fara-7b/me/bench/0/traj"
    fara_folder(traj, "answered")
    fara_folder(traj, "over_budget", final_answer="<no_answer>")
    fara_folder(traj, "crashed", final_answer=None)
    bad = traj / "garbage"
    bad.mkdir()
    (bad / "garbage_final_answer.json").write_text("{not json")
    return root


def test_summaries_cover_every_folder(tmp_path: Path) -> None:
    root = _root(tmp_path)
    index = build_index(root, cache_dir=tmp_path / "cache")

    by_task = {s.task_id: s for s in index.summaries}
    assert set(by_task) == {"answered", "over_budget", "crashed", "garbage"}
    assert by_task["answered"].outcome == "answered"
    assert by_task["answered"].steps == 5
    assert by_task["answered"].final_answer == "The longest trail is Half Dome."
    assert by_task["over_budget"].outcome == "no_answer"
    assert by_task["crashed"].outcome == "aborted"
    assert len(index.runs) == 1


def test_core_log_error_type_and_score_files_are_summarised(tmp_path: Path) -> None:
    root = tmp_path / "root"
    folder = fara_folder(root / "run", "t1")
    write_core_log(
        folder,
        "2025-11-10 13:14:35,184 [INFO] webeval.core.t1 - [Execution t1] Start\n"
        "2025-11-10 13:15:35,184 [ERROR] webeval.core.t1 - Error running task: boom\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in <module>\n'
        "playwright._impl._errors.TimeoutError: Timeout 30000ms exceeded.\n",
    )
    write_score(folder, "gpt_eval", 1.0, "SUCCESS")

    (summary,) = build_index(root, cache_dir=tmp_path / "cache").summaries

    assert summary.core_error == "TimeoutError"
    assert summary.scores == {"gpt_eval": 1.0}


def test_cache_reloads_only_changed_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _root(tmp_path)
    cache = tmp_path / "cache"
    build_index(root, cache_dir=cache)

    loaded: list[str] = []
    real = summary_module.summarize_trajectory
    monkeypatch.setattr(
        summary_module,
        "summarize_trajectory",
        lambda run, path, key, listing=None: loaded.append(path.name) or real(run, path, key, listing),
    )
    real_quick = quick_module.quick_summary

    def quick(run: str, folder: str, key: str, listing: object = None) -> object:
        found = real_quick(run, folder, key, listing)
        if found is not None:  # else summarised in full, and counted there
            loaded.append(Path(folder).name)
        return found

    monkeypatch.setattr(quick_module, "quick_summary", quick)
    build_index(root, cache_dir=cache)
    assert loaded == []

    answered = next(root.rglob("answered"))
    write_score(answered, "gpt_eval", 0.0, "NOT SUCCESS")
    index = build_index(root, cache_dir=cache)
    assert loaded == ["answered"]
    assert next(s for s in index.summaries if s.task_id == "answered").scores == {"gpt_eval": 0.0}


def test_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    root = _root(tmp_path)
    cache = tmp_path / "cache"
    build_index(root, cache_dir=cache)
    for file in cache.iterdir():
        file.write_text("{broken")
    assert len(build_index(root, cache_dir=cache).summaries) == 4


def test_index_json_lists_unreadable_with_reason(tmp_path: Path) -> None:
    root = tmp_path / "root"
    wav_folder(root / "cli", "7")
    broken = root / "cli" / "8"
    broken.mkdir()
    (broken / "8_final_answer.json").write_text('{"final_answer": ')

    payload = index_as_json(build_index(root, cache_dir=tmp_path / "cache"))

    json.dumps(payload)  # serialisable as printed by `webeval ls --json`
    assert [t["task_id"] for t in payload["runs"][0]["trajectories"]] == ["7"]  # type: ignore[index]
    (unreadable,) = payload["unreadable"]  # type: ignore[misc]
    assert unreadable["path"] == str(broken)
    assert "8_final_answer.json" in unreadable["reason"]


def test_a_summary_made_without_a_root_is_keyed_by_its_path(tmp_path: Path) -> None:
    summary = TrajectorySummary(run_key="run", path=tmp_path / "7", task_id="7")
    assert summary.key == (tmp_path / "7").as_posix()
