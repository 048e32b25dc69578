"""AppTest: rates name their judge, the user picks one (never an average), disagreements filter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.core.runs.test_judges import RUBRIC, two_judges_root
from webeval_core.runs.judges import judge_label
from webeval_ui.untrusted import inert

OpenPage = Callable[..., AppTest]


def _rate(at: AppTest) -> str:
    return next(str(m.value) for m in at.metric if m.label == "Success rate")


def test_overview_rates_are_one_judges(app: OpenPage, tmp_path: Path) -> None:
    at = app("pages/overview.py", two_judges_root(tmp_path / "runs"))
    picker = at.selectbox(key="judge")
    assert picker.options == [judge_label("gpt_eval"), judge_label(RUBRIC)]
    assert _rate(at) == "66.7%"  # 2 of 3 by the LLM judge
    assert f"Verdicts of the {inert(judge_label('gpt_eval'))}." in [c.value for c in at.caption]
    picker.select(RUBRIC).run()
    assert _rate(at) == "50.0%"  # 1 of 2: the rubric judge scored two
    linked = app("pages/overview.py", tmp_path / "runs", judge=judge_label(RUBRIC))  # the URL names the judge
    assert _rate(linked) == "50.0%"


def test_trajectories_filter_on_disagreeing_judges(app: OpenPage, tmp_path: Path) -> None:
    at = app("pages/trajectories.py", two_judges_root(tmp_path / "runs"))
    assert len(at.dataframe[0].value) == 3
    at.toggle(key="disagree").set_value(True).run()
    assert at.dataframe[0].value["task_id"].tolist() == ["shop_1"]
