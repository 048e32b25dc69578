"""The run report: headline with its judge, breakdowns, taxonomy and links to every trajectory page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import Sample
from tests.harness.builders import FARA_ACTIONS, fara_folder, write_score
from webeval_core.presentation.run_html import (
    OFFICIAL_JUDGE,
    judge_of,
    page_name,
    report_pages,
    run_members,
    run_report_html,
)
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.index import RootIndex, TrajectorySummary, build_index

EXTERNAL = re.compile(r"""(?:src|href|action|srcset|poster)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)
SCRIPT = "<script>alert(1)</script>"


def _fara_run(index: RootIndex) -> str:
    return next(run.key for run in index.runs if run.model == "fara-7b")


def _summary(task_id: str, scores: dict[str, float | None] | None = None) -> TrajectorySummary:
    return TrajectorySummary(run_key="r", path=Path("/x") / task_id, task_id=task_id, scores=scores or {})


def test_the_headline_is_the_official_verdicts_and_names_the_judge(
    scored_sample: Sample, tmp_path: Path
) -> None:
    index = build_index(scored_sample.root, cache_dir=tmp_path)
    run = _fara_run(index)
    members = run_members(index, run)
    verdicts = [s.verdict for s in members if s.verdict is not None and s.outcome == "answered"]
    counted = [v for v in verdicts if v.status != "error"]
    passed = sum(1 for v in counted if (v.score or 0) >= 1.0)
    counted_total = len(counted) + sum(1 for s in members if s.outcome == "no_answer")

    page = run_report_html(index, run, load_catalog())

    assert f"Judge: {OFFICIAL_JUDGE}." in page
    assert f"{passed / counted_total:.1%}" in page
    assert f"success ({passed} of {counted_total} counted)" in page
    assert "Success by site" in page and "Success by task type" in page and "Failure taxonomy" in page


@pytest.mark.slow
def test_every_trajectory_is_linked_to_its_own_page_and_nothing_is_loaded(
    scored_sample: Sample, tmp_path: Path
) -> None:
    index = build_index(scored_sample.root, cache_dir=tmp_path)
    run = _fara_run(index)
    pages = list(report_pages(index, run, load_catalog()))
    report, trajectories = pages[0], pages[1:]

    assert report.path == "index.html"
    assert len(trajectories) == len(run_members(index, run))
    assert len({p.path for p in trajectories}) == len(trajectories)
    for trajectory_page in trajectories:
        assert f'href="{trajectory_page.path}"' in report.html
        assert 'href="../index.html"' in trajectory_page.html
    for each in pages:
        assert not EXTERNAL.search(each.html), each.path
        assert "<script" not in each.html


def test_agent_text_and_task_ids_are_shown_as_text(tmp_path: Path) -> None:
    root = tmp_path / "root" / "sys" / "model" / "user" / "bench" / "0" / "traj"
    fara_folder(root, "11", actions=FARA_ACTIONS[:2], final_answer=SCRIPT)
    index = build_index(tmp_path / "root", cache_dir=tmp_path / "cache")

    page = run_report_html(index, index.runs[0].key, load_catalog())

    assert SCRIPT not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_judge_is_a_score_file_when_there_is_no_official_verdict() -> None:
    assert judge_of([_summary("1", {"mmrubric": 1.0}), _summary("2", {"mmrubric": 0.0})]) == (
        "the score file mmrubric.json"
    )
    assert judge_of([_summary("1", {"a": 1.0}), _summary("2", {"b": 0.0})]).startswith("no single judge")
    assert judge_of([_summary("1")]) == "no judge (nothing scored)"


def test_page_names_keep_duplicate_task_ids_apart_and_stay_in_the_folder() -> None:
    first, second = page_name(1, _summary("108")), page_name(2, _summary("108"))
    assert first != second
    hostile = page_name(3, _summary("../../etc/passwd"))
    assert hostile.count("/") == 1 and hostile.startswith("trajectories/")


def test_a_run_with_only_a_judge_file_says_so(tmp_path: Path) -> None:
    root = tmp_path / "root" / "sys" / "model" / "user" / "WebTailBench" / "0" / "traj"
    for task, score in (("t1", 1.0), ("t2", 0.0)):
        folder = fara_folder(root, task, actions=FARA_ACTIONS[:2], final_answer="done")
        write_score(folder, "gpt_judge", score, "verdict")
    index = build_index(tmp_path / "root", cache_dir=tmp_path / "cache")

    page = run_report_html(index, index.runs[0].key, None)

    assert "Judge: the score file gpt_judge.json." in page
    assert "50.0%" in page
