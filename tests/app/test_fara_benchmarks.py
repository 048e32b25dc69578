"""AppTest of Fara benchmarks other than WebArena-Verified: the task text and where it came from,
reasoning kept in a solver's arguments, and a rubric judge's verdict made readable."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.core.presentation.test_rubric import RESPONSE
from tests.harness.builders import Act, fara_folder, write_score
from webeval_ui.trajectory_tabs.verdict_tab import inert

PAGE = "pages/trajectory.py"
OpenPage = Callable[..., AppTest]
TASK = "Find the longest trail in Yosemite and report its length."


def _webtailbench(tmp_path: Path) -> Path:
    root = tmp_path / "runs"
    acts = [
        Act("click", {"target_id": 3, "reasoning": "The search box is at the top."}),
        Act("stop_execution", {"answer": "Half Dome"}),
    ]
    folder = fara_folder(
        root / "WebTailBench_hf" / "traj", "alltrails_find_23", generation="solver", actions=acts
    )
    (folder / "task_data.json").write_text(json.dumps({"task_proposal": TASK, "task_summary": "trails"}))
    write_score(folder, "mmrubric_0.8-5-3", 0, json.dumps(RESPONSE))
    return root


def test_header_shows_the_task_and_its_source(app: OpenPage, tmp_path: Path) -> None:
    at = app(PAGE, _webtailbench(tmp_path), run="WebTailBench_hf", task="alltrails_find_23")
    assert TASK in [t.value for t in at.text]
    assert any("task from " + inert("task_data.json: task_proposal") in c.value for c in at.caption)
    assert "The search box is at the top." in [t.value for t in at.text]  # the replay's thought
    assert any("reasoning kept in the action's arguments" in c.value for c in at.caption)


def test_expected_tab_shows_the_judge_instead_of_an_evaluator(app: OpenPage, tmp_path: Path) -> None:
    at = app(
        PAGE,
        _webtailbench(tmp_path),
        run="WebTailBench_hf",
        task="alltrails_find_23",
        tab="Expected vs actual",
    )
    assert any(i.value.startswith("No official evaluator for this benchmark") for i in at.info)
    texts = [t.value for t in at.text]
    assert '{"step": 4, "reason": "miscount"}' in texts  # an older generation's failure, as written
    verdicts = at.table[0].value
    assert verdicts["reasoning"].tolist() == [inert(RESPONSE["outcome_reasoning"]), ""]
    assert verdicts["points"].tolist() == ["", inert("2.5 / 7")]
    assert any(inert("decided by the outcome verdict") in c.value for c in at.caption)
    rubric = at.table[1].value
    assert rubric["points"].tolist() == [inert("2 / 2"), inert("0.5 / 5")]  # cells shown inert
    assert rubric["justification"].tolist() == ["ok", inert("5 != 6")]
    assert not at.exception


def test_rescoring_is_not_offered_without_an_official_evaluator(app: OpenPage, tmp_path: Path) -> None:
    from webeval_ui.trajectory_tabs.rescore_tab import NO_EVALUATOR

    at = app(PAGE, _webtailbench(tmp_path), run="WebTailBench_hf", task="alltrails_find_23", tab="Re-score")
    assert [i.value for i in at.info] == [NO_EVALUATOR]
    assert [b.label for b in at.button] == ["Reload from disk"]  # the sidebar's only


def test_evidence_shows_the_rubric_wrapped_too(app: OpenPage, tmp_path: Path) -> None:
    at = app(PAGE, _webtailbench(tmp_path), run="WebTailBench_hf", task="alltrails_find_23", tab="Evidence")
    assert at.table[0].value["criterion"].tolist() == ["Find", "Count"]
    assert RESPONSE["outcome_reasoning"] in [t.value for t in at.text]


def test_annotate_names_the_verdict_of_the_overviews_judge(
    app: OpenPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No official verdict here: the overview's rates use the rubric judge, and so does the form."""
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", str(tmp_path / "annotations.sqlite"))
    root = _webtailbench(tmp_path)
    at = app(PAGE, root, run="WebTailBench_hf", task="alltrails_find_23", tab="Annotate", reviewer="ann")
    captions = [c.value for c in at.caption if c.value.startswith("Informed:")]
    assert captions == [
        "Informed: the official verdict in force is none; the overview's judge, the "
        + inert("rubric judge (mmrubric_0.8-5-3)")
        + ", gave 0 (fail)."
    ]
