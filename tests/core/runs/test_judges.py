"""Judges kept apart: each rate takes one judge's scores; disagreements are found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder, write_score
from webeval_core.runs.index import build_index
from webeval_core.runs.judges import (
    OFFICIAL,
    available_judges,
    default_judge,
    judge_label,
    judge_scores,
    judge_threshold,
    judges_disagree,
)
from webeval_core.runs.metrics import filter_frame, headline, trajectory_frame

RUBRIC = "mmrubric_0.8-5-3"


def two_judges_root(root: Path) -> Path:
    """Three WebTailBench trajectories judged by an LLM judge and (two of them) a rubric judge."""
    traj = root / "WebTailBench_hf" / "0" / "traj"
    for task, gpt, rubric in (("shop_1", 1, 0), ("shop_2", 1, 1), ("shop_3", 0, None)):
        folder = fara_folder(traj, task)
        write_score(folder, "gpt_eval", gpt, "SUCCESS" if gpt else "NOT SUCCESS")
        if rubric is not None:
            write_score(folder, RUBRIC, rubric, json.dumps({"is_success": rubric}))
    return root


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_judges_root(tmp_path_factory.mktemp("judges"))


def test_each_judge_has_its_own_rate_and_none_are_mixed(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))
    index = build_index(root)
    assert available_judges(index) == ("gpt_eval", RUBRIC)
    by_gpt, by_rubric = trajectory_frame(index, judge="gpt_eval"), trajectory_frame(index, judge=RUBRIC)
    assert (headline(by_gpt).passed, headline(by_gpt).counted) == (2, 3)
    assert (headline(by_rubric).passed, headline(by_rubric).counted) == (1, 2)  # shop_3 unscored by it
    assert set(by_rubric["judge"].dropna()) == {RUBRIC}
    # Without a choice, one judge for the whole root (`default_judge`: no official verdict here, so
    # the first by name), never a judge per trajectory.
    assert default_judge(available_judges(index)) == "gpt_eval"
    default = trajectory_frame(index).set_index("task_id")
    assert set(default["judge"]) == {"gpt_eval"}
    assert default.loc["shop_1", "result"] == "pass" and default.loc["shop_3", "result"] == "fail"
    assert filter_frame(by_gpt, judges_disagree=True)["task_id"].tolist() == ["shop_1"]


def test_the_official_verdict_is_one_judge_beside_the_others() -> None:
    assert judge_label(OFFICIAL) == "official WebArena-Verified evaluator"
    assert judge_label(RUBRIC) == f"rubric judge ({RUBRIC})"
    assert judge_label("WebJudge_Online_Mind2Web_eval-3") == "LLM judge (WebJudge_Online_Mind2Web_eval-3)"
    assert judge_label("harness-agentlab") == "the harness's own reward (agentlab)"
    assert judges_disagree({OFFICIAL: 1.0, "gpt_eval": 0.0})
    assert not judges_disagree({OFFICIAL: 1.0, "gpt_eval": 1.0, RUBRIC: None})


def test_official_score_files_are_the_official_judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.app.conftest import verdict_file

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = fara_folder(tmp_path / "runs" / "traj", "108")
    verdict_file(folder, "success")
    write_score(folder, "gpt_eval", 0, "NOT SUCCESS")
    (summary,) = build_index(tmp_path / "runs").summaries
    assert judge_scores(summary) == {OFFICIAL: 1.0, "gpt_eval": 0.0}


def test_judge_thresholds_come_from_the_name() -> None:
    assert judge_threshold("mmrubric_0.8-5-3") == 0.8
    assert judge_threshold("gpt_eval") == 1.0
    assert judge_threshold("WebJudge_Online_Mind2Web_eval-3") == 1.0
