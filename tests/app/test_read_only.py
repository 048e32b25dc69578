"""A read-only server in the app (WEBEVAL_READ_ONLY=1): every route that writes is absent and says
why, the "what if" box still scores in memory, and nothing is written (root, store, `shown`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from tests.harness.builders import snapshot
from webeval_core.policy.access import READ_ONLY_ENV, ROLES_ENV, AccessPolicy
from webeval_core.review import (
    OFFICIAL,
    Annotation,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    save_queue,
)
from webeval_core.runs.index import build_index
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_ui.state import Key, correction_field_key, label_key, review_field_key
from webeval_ui.untrusted import inert

TRAJECTORY = "pages/trajectory.py"
OpenPage = Callable[..., AppTest]
READ_ONLY = "This server is read-only"


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The annotation store's file (not made: a read-only server must not create it), read-only env."""
    location = tmp_path / "annotations.sqlite"
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", str(location))
    monkeypatch.setenv(READ_ONLY_ENV, "1")
    return location


def _item(sample: Sample) -> tuple[str, str]:
    judged = judge_verdicts(build_index(sample.root))
    return min(item for item, verdicts in judged.items() if OFFICIAL in verdicts)


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]
    return "\n".join(str(p) for p in parts)


def _buttons(at: AppTest) -> set[str]:
    return {str(b.key) for b in at.button}


def test_the_rescore_tab_offers_no_rescore_and_the_what_if_box_still_scores(
    app: OpenPage, sample: Sample, store_file: Path
) -> None:
    run, task = _item(sample)
    before = snapshot(sample.root)
    at = app(TRAJECTORY, run=run, task=task, tab="Re-score")
    assert {Key.RESCORE_ONE, Key.RESCORE_MANY}.isdisjoint(_buttons(at))
    assert f"{READ_ONLY}: re-scoring would write score files" in _texts(at)
    area = next(a for a in at.text_area if a.key and a.key.startswith("_whatif_text"))
    area.input("this is not JSON").run()
    at.button(key=Key.WHAT_IF_RUN).click().run()
    assert not at.exception
    assert ":red-badge[failure]" in "\n".join(m.value for m in at.markdown)
    assert snapshot(sample.root) == before
    assert not store_file.exists()


def test_the_annotate_tab_saves_nothing_and_records_nothing_shown(
    app: OpenPage, sample: Sample, store_file: Path
) -> None:
    run, task = _item(sample)
    earlier = open_store(str(store_file), AccessPolicy())  # made while the server was writable
    earlier.add(
        Annotation(
            run=run,
            task_id=task,
            reviewer="ann",
            stage=Stage.INFORMED,
            outcome="failure",
            created=datetime(2026, 1, 1, tzinfo=UTC),
        )
    )
    earlier.close()
    stored = store_file.read_bytes()
    # A crafted link naming another reviewer: their labels would be "shown" to bob on a writable server.
    at = app(TRAJECTORY, run=run, task=task, tab="Annotate", reviewer="bob")
    assert Key.REVIEW_SAVE not in _buttons(at)
    assert f"{READ_ONLY}: annotations are not saved here" in _texts(at)
    history = next(df.value for df in at.dataframe if "reviewer" in df.value.columns)
    assert history["reviewer"].tolist() == ["ann"]
    assert open_store(str(store_file), AccessPolicy(read_only=True)).shown(run, task, "bob") == set()
    assert store_file.read_bytes() == stored


def test_the_review_page_lists_queues_but_offers_no_new_one(
    app: OpenPage, sample: Sample, store_file: Path
) -> None:
    writable = open_store(str(store_file), AccessPolicy())
    save_queue(writable, ReviewQueue(name="all", stage=Stage.INFORMED, criteria=TrajectoryFilter()))
    writable.close()
    stored = store_file.read_bytes()
    at = app("pages/review.py", reviewer="bob")
    assert Key.QUEUE_CREATE not in _buttons(at)
    assert not [t for t in at.text_input if t.key == Key.QUEUE_NAME]
    assert f"{READ_ONLY}: new queues are not saved here" in _texts(at)
    assert any("all" in df.value["queue"].tolist() for df in at.dataframe if "queue" in df.value.columns)
    assert store_file.read_bytes() == stored


def test_a_task_correction_is_tried_but_not_saved(app: OpenPage, sample: Sample, store_file: Path) -> None:
    before = snapshot(sample.root)
    at = app("pages/tasks.py", task="108", reviewer="ann")
    at.session_state[Key.CORRECTION_BOX] = True
    at.run()
    expected = (
        '{"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": [{"month": "May", "count": 0}]}'
    )
    at.text_area(key=correction_field_key(Key.CORRECTION_EXPECTED, 108)).input(expected)
    at.text_input(key=correction_field_key(Key.CORRECTION_REASON, 108)).input("the May count is wrong").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(m.label == "Verdicts that would flip" for m in at.metric)
    assert Key.CORRECTION_SAVE not in _buttons(at)
    assert f"{READ_ONLY}: proposals are tried here but not saved" in _texts(at)
    assert snapshot(sample.root) == before
    assert not store_file.exists()


@pytest.fixture
def roles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable server with a roles file: ann reviews, judge adjudicates, anyone else views."""
    path = tmp_path / "roles.toml"
    path.write_text('[roles]\n"ann" = "reviewer"\n"judge" = "adjudicator"\n', encoding="utf-8")
    monkeypatch.setenv(ROLES_ENV, str(path))
    monkeypatch.setenv(READ_ONLY_ENV, "0")
    location = tmp_path / "annotations.sqlite"
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", str(location))
    return location


def test_a_viewer_cannot_annotate_and_a_reviewer_can(app: OpenPage, sample: Sample, roles: Path) -> None:
    run, task = _item(sample)
    at = app(TRAJECTORY, run=run, task=task, tab="Annotate", reviewer="bob")
    assert Key.REVIEW_SAVE not in _buttons(at)
    assert inert("bob is a viewer here: an annotation needs the reviewer role.") in _texts(at)
    at = app(TRAJECTORY, run=run, task=task, tab="Annotate", reviewer="ann")
    at.button(key=label_key(review_field_key(Key.REVIEW_OUTCOME, run, task), "failure")).click().run()
    at.button(key=Key.REVIEW_SAVE).click().run()
    assert not at.exception
    assert [a.reviewer for a in open_store(str(roles)).annotations(OUTSIDE_REVIEW)] == ["ann"]


def test_a_reviewer_may_not_propose_a_correction_nor_rescore(
    app: OpenPage, sample: Sample, roles: Path
) -> None:
    at = app("pages/tasks.py", task="108", reviewer="ann")
    at.session_state[Key.CORRECTION_BOX] = True
    at.run()
    at.text_input(key=correction_field_key(Key.CORRECTION_REASON, 108)).input("unclear").run()
    assert Key.CORRECTION_SAVE not in _buttons(at)
    assert inert("ann is a reviewer here: a task correction needs the adjudicator role.") in _texts(at)
    at = app("pages/tasks.py", task="108", reviewer="judge")
    at.session_state[Key.CORRECTION_BOX] = True
    at.run()
    at.text_input(key=correction_field_key(Key.CORRECTION_REASON, 108)).input("unclear").run()
    assert Key.CORRECTION_SAVE in _buttons(at)
    run, task = _item(sample)
    at = app(TRAJECTORY, run=run, task=task, tab="Re-score", reviewer="judge")
    assert {Key.RESCORE_ONE, Key.RESCORE_MANY}.isdisjoint(_buttons(at))
    assert inert("judge is an adjudicator here: a score file needs the operator role.") in _texts(at)
