"""AppTest on hostile folders: names and answers stay inert text, odd times and repeated task ids
leave every trajectory reachable, and a broken trajectory does not take its page down.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.harness.builders import FARA_ACTIONS, fara_folder, write_final_answer
from webeval_core.runs.index import build_index

PAGE = "pages/trajectory.py"
OpenPage = Callable[..., AppTest]  # conftest's `app` factory
# A file name that, used as Markdown, is an image fetched from example.invalid; and a live link.
IMAGE_NAME = "![p](https:example.invalid)"
LINK_ANSWER = "[text](https://example.invalid) <img src=https://example.invalid/i.png> www.example.invalid"


def _traj(root: Path) -> Path:
    return root / "runs" / "WebSurfer-hostile" / "model" / "user" / "WebArenaVerified" / "0" / "traj"


@pytest.fixture
def hostile_root(tmp_path: Path) -> Path:
    root = tmp_path / "hostile"
    folder = fara_folder(_traj(root), "image-name", final_answer=None)
    write_final_answer(folder, IMAGE_NAME, LINK_ANSWER)
    # start_time in year 128,000 and a NaN end: not a time anyone can show.
    (folder / "times.json").write_text(
        json.dumps({"start_time": 4e12, "end_time": float("nan"), "duration": 5})
    )
    # Two folders of one run holding task 108: both must be reachable.
    fara_folder(_traj(root), "108")
    retry = fara_folder(_traj(root), "108-retry", actions=FARA_ACTIONS[:2], final_answer=None)
    write_final_answer(retry, "108", "retried answer")
    return root


def _run_key(root: Path) -> str:
    (run,) = build_index(root).runs
    return run.key


def _markdown_bodies(at: AppTest) -> Iterator[str]:
    """Every text Streamlit renders as Markdown on the page (bodies and labels)."""
    for kind in (
        "markdown",
        "caption",
        "title",
        "header",
        "subheader",
        "error",
        "warning",
        "info",
        "success",
    ):
        yield from (str(element.value) for element in getattr(at, kind))
    yield from (str(e.label) for e in at.expander)
    yield from (str(t.label) for t in at.tabs)


def _assert_inert(at: AppTest) -> None:
    bodies = list(_markdown_bodies(at))
    assert bodies
    for body in bodies:
        assert "](" not in body, body  # an escaped link reads "\]\(", never "]("
        assert "<img" not in body and "www.example" not in body, body


@pytest.mark.parametrize(
    "tab", ["Replay", "Expected vs actual", "Network", "Evidence", "Re-score", "Annotate"]
)
def test_a_hostile_name_and_answer_stay_text_on_every_tab(
    app: OpenPage, hostile_root: Path, tab: str
) -> None:
    at = app(PAGE, root=hostile_root, run=_run_key(hostile_root), task=IMAGE_NAME, tab=tab)

    _assert_inert(at)
    assert any("\\!\\[p\\]\\(https\\:example\\.invalid\\)" in t.value for t in at.title)


def test_the_evidence_tab_escapes_the_answer_file_and_shows_unknown_times(
    app: OpenPage, hostile_root: Path
) -> None:
    at = app(PAGE, root=hostile_root, run=_run_key(hostile_root), task=IMAGE_NAME, tab="Evidence")

    assert f"{IMAGE_NAME}_final_answer.json" not in [e.label for e in at.expander]
    assert any(e.label.startswith("\\!\\[p\\]\\(https") for e in at.expander)
    assert "start unknown · end unknown" in [c.value for c in at.caption]


def test_two_folders_with_one_task_id_can_both_be_opened(app: OpenPage, hostile_root: Path) -> None:
    at = app(PAGE, root=hostile_root, run=_run_key(hostile_root))
    options = at.selectbox(key="task").options
    assert "108 (runs/WebSurfer-hostile/model/user/WebArenaVerified/0/traj/108)" in options
    retry = "108 (runs/WebSurfer-hostile/model/user/WebArenaVerified/0/traj/108-retry)"
    assert retry in options

    at.selectbox(key="task").select(retry).run()

    assert not at.exception
    assert any("2 steps" in c.value for c in at.caption)


def test_a_broken_tab_shows_an_error_box_and_the_page_goes_on(
    app: OpenPage, hostile_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No input is known to break a tab any more: a fault stands in for the next unknown one.
    from webeval_ui.trajectory_tabs import evidence_tab as evidence

    def broken(*_: object) -> str:
        raise ValueError("boom from a hostile folder")

    monkeypatch.setattr(evidence, "utc_moment", broken)
    at = app(PAGE, root=hostile_root, run=_run_key(hostile_root), task=IMAGE_NAME, tab="Evidence")

    assert not at.exception
    assert any("Evidence tab cannot be shown" in e.value and "boom" in e.value for e in at.error)
    assert at.title  # the header above the tabs is still drawn
