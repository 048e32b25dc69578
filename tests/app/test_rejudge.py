"""The Re-judge tab on the sample's WebTailBench run, through the scripted endpoint: one
trajectory re-judged (before and after side by side, the new judge in the Judges tab), an edited
answer judged without a write, a run re-judged after its estimate, and nothing offered to a
read-only server or without profiles."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.core.llm_judging.conftest import PASSING, TAIL
from tests.harness.scripted_llm import KEY, KEY_ENV, ScriptedEndpoint, ScriptedModel, profiles_file
from webeval_core.llm_judging import PROFILES_ENV
from webeval_core.policy.access import READ_ONLY_ENV
from webeval_ui.state import Key, rejudge_text_key
from webeval_ui.trajectory_tabs.rejudge_tab import NO_PROFILES
from webeval_ui.untrusted import inert

PAGE = "pages/trajectory.py"
RUN = "WebTailBench/0"
OpenPage = Callable[..., AppTest]


@pytest.fixture
def endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedEndpoint]:
    monkeypatch.setenv(KEY_ENV, KEY)
    with ScriptedEndpoint(ScriptedModel(verdicts={"hiking trail": True})) as served:
        monkeypatch.setenv(PROFILES_ENV, str(profiles_file(tmp_path / "judges.toml", served.base_url)))
        yield served


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(TAIL, tmp_path / "root" / "WebTailBench" / "0" / "traj")
    return tmp_path / "root"


def _written(root: Path) -> list[Path]:
    return sorted(root.rglob("scores/webjudge_*.json"))


def _open(app: OpenPage, root: Path) -> AppTest:
    at = app(PAGE, root, run=RUN, task=PASSING, tab="Re-judge")
    at.selectbox(key=Key.REJUDGE_METHOD).set_value("webjudge").run()
    return at


def test_one_trajectory_re_judged_before_and_after(
    app: OpenPage, endpoint: ScriptedEndpoint, root: Path
) -> None:
    at = _open(app, root)
    assert "no judge" not in " ".join(i.value for i in at.info)
    at.button(key=Key.REJUDGE_ONE).click().run()
    assert not at.exception
    (written,) = _written(root)
    assert written.parent.parent.name == PASSING
    before = at.dataframe[0].value
    assert before["judge"].tolist() == ["mmrubric_0.8-5-3"]
    assert f"**{inert(written.stem)}**: {inert('success (1)')}" in [m.value for m in at.markdown]
    judges = app(PAGE, root, run=RUN, task=PASSING, tab="Judges")
    # Beside the Universal Verifier's file: the new judge's verdict and its reply.
    assert "Status: success" in [line for t in judges.text for line in t.value.splitlines()]


def test_what_if_judges_an_edited_answer_and_writes_nothing(
    app: OpenPage, endpoint: ScriptedEndpoint, root: Path
) -> None:
    at = _open(app, root)
    folder = (root / RUN / "traj" / PASSING).resolve()
    at.text_area(key=rejudge_text_key(str(folder))).set_value("No trail found.")
    at.button(key=Key.REJUDGE_WHAT_IF_RUN).click().run()
    assert not at.exception
    assert any("No trail found." in r.text for r in endpoint.requests)
    assert _written(root) == []
    assert any(m.value.startswith(f"**{inert('webjudge_')}") for m in at.markdown)


def test_a_run_re_judged_after_its_estimate(app: OpenPage, endpoint: ScriptedEndpoint, root: Path) -> None:
    at = _open(app, root)
    at.radio(key=Key.REJUDGE_SCOPE).set_value("this run (4)").run()
    at.button(key=Key.REJUDGE_ESTIMATE).click().run()
    (estimate,) = [i.value for i in at.info]
    assert estimate.startswith(inert("4 to judge (0 judged before, 0 unreadable):"))
    assert endpoint.requests == []
    at.button(key=Key.REJUDGE_MANY).click().run()
    assert not at.exception
    assert len(_written(root)) == 4
    rows = at.dataframe[-1].value
    assert sorted(rows["task"]) == sorted(p.name for p in TAIL.iterdir())
    assert any(c.value.startswith(inert("4 judged (1 success, 3 failure)")) for c in at.caption)


def test_nothing_is_offered_to_a_read_only_server(
    app: OpenPage, endpoint: ScriptedEndpoint, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(READ_ONLY_ENV, "1")
    at = app(PAGE, root, run=RUN, task=PASSING, tab="Re-judge")
    assert any("re-judging writes score files" in c.value for c in at.caption)
    assert not [b for b in at.button if b.key and b.key.startswith("_rejudge")]


def test_without_profiles_it_says_where_they_come_from(
    app: OpenPage, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PROFILES_ENV, str(tmp_path / "none.toml"))
    at = app(PAGE, root, run=RUN, task=PASSING, tab="Re-judge")
    assert [i.value for i in at.info] == [NO_PROFILES]
