"""What earlier versions left is carried over on first use: run keys of a root that is a run."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.harness.builders import wav_folder
from webeval_core.review.annotation_db import open_store
from webeval_core.review.annotations import Annotation, Outcome, Stage
from webeval_core.review.store_opener import open_annotations
from webeval_core.runs.index import build_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW


def _note(run: str, task: str) -> Annotation:
    return Annotation(
        run=run,
        task_id=task,
        reviewer="ann",
        stage=Stage.BLIND,
        outcome=Outcome.SUCCESS,
        created=datetime(2026, 11, 1, tzinfo=UTC),
    )


def test_annotations_keyed_the_old_way_move_to_the_run_key_once(tmp_path: Path) -> None:
    run = tmp_path / "official-run"
    wav_folder(run, "7")
    wav_folder(run, "8")
    location = str(tmp_path / "store.sqlite")
    # Earlier versions keyed this run "." (from the cache) or by its name; task 9 is another root's.
    open_store(location).add_many([_note(".", "7"), _note(".", "9"), _note("official-run", "8")])
    store, problems = open_annotations(location, run)
    assert problems == []
    keys = {(a.run, a.task_id) for a in store.annotations(OUTSIDE_REVIEW)}
    assert keys == {("official-run", "7"), ("official-run", "8"), (".", "9")}
    assert {(s.run_key, s.task_id) for s in build_index(run).summaries} == {
        ("official-run", "7"),
        ("official-run", "8"),
    }
    again, _ = open_annotations(location, run)  # a second opening changes nothing
    assert len(again.annotations(OUTSIDE_REVIEW)) == 3


def test_a_trajectory_root_keyed_by_its_parents_path_is_carried_over(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path / "runs", "7")
    location = str(tmp_path / "store.sqlite")
    open_store(location).add(_note(str(folder.parent), "7"))
    store, _ = open_annotations(location, folder)
    assert [(a.run, a.task_id) for a in store.annotations(OUTSIDE_REVIEW)] == [("7", "7")]
    assert [s.run_key for s in build_index(folder).summaries] == ["7"]
