"""The Published tab and the Overview's two figures: an adjudicator edits a verdict and excludes a
task on the record; a viewer is offered neither; every view says both figures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from webeval_core.review import open_store, read_edits, read_exclusions
from webeval_core.runs import discover_runs
from webeval_ui.page_links import PAGES
from webeval_ui.state import Key

OpenPage = Callable[..., AppTest]


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    location = str(tmp_path / "store.sqlite")
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", location)
    return location


def _wav_run(sample: Sample) -> str:
    return next(
        r.key
        for r in discover_runs(sample.root)
        if r.run_id is not None and "fara" in r.key and "Arena" in r.key
    )


def _texts(at: AppTest) -> str:
    parts = [*at.main.markdown, *at.main.caption, *at.main.warning, *at.main.info, *at.main.metric]
    parts += [*at.main.subheader]
    return "\n".join(str(p.value) for p in parts).replace("\\", "")  # markdown escapes


def test_an_adjudicator_edits_a_verdict_and_both_figures_show_it(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    run = _wav_run(sample)
    at = app(PAGES["trajectory"], run=run, task="11", tab="Published", reviewer="ann")
    assert "Published verdict:** fail" in _texts(at)
    at.text_input(key=Key.EDIT_REASON).input("the right total, in words")
    at.radio(key=Key.EDIT_STATUS).set_value("success")
    next(b for b in at.button if b.label == "Set").click().run()
    assert not at.exception
    assert "Published verdict:** pass by ann (edit)" in _texts(at)
    (edit,) = read_edits(open_store(store_file))
    assert (edit.run, edit.task_id, edit.status, edit.author) == (run, "11", "success", "ann")
    assert edit.replaced.status == "failure" and edit.reason == "the right total, in words"

    # A reason is required: nothing is written without one.
    at.text_input(key=Key.EXCLUDE_REASON).input("")
    next(b for b in at.button if b.label == "Exclude").click().run()
    assert any("Say why" in e.value for e in at.error)
    assert read_exclusions(open_store(store_file)) == []

    overview = app(PAGES["overview"], reviewer="ann")
    said = _texts(overview)
    assert "as published" in said and "as scored" in said and "1 edit" in said


def test_a_viewer_sees_the_published_verdict_and_no_controls(
    app: OpenPage, sample: Sample, store_file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text('[roles]\n"rev" = "reviewer"\n', encoding="utf-8")
    monkeypatch.setenv("WEBEVAL_ROLES", str(roles))
    at = app(PAGES["trajectory"], run=_wav_run(sample), task="11", tab="Published", reviewer="rev")
    text = _texts(at)
    assert "Published verdict:" in text and "needs the adjudicator role" in text
    assert not [b for b in at.button if b.label in ("Set", "Exclude")]


def test_the_results_page_lists_both_figures_and_what_a_line_counts(
    app: OpenPage, sample: Sample, store_file: str
) -> None:
    at = app(PAGES["published"], reviewer="ann")
    assert not at.exception
    (table, *_) = [df.value for df in at.main.dataframe]
    assert {"published", "scored", "eval hashes", "library", "dataset"} <= set(table.columns)
    assert table.iloc[-1]["run"] == "all"
    assert {b.label for b in at.main.get("download_button")} >= {"Download md", "Download csv"}
    text = _texts(at)
    assert "Proposals to exclude" in text and "Last scoring" in text
