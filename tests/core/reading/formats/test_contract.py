"""What every registered format promises the registry (its docstring's contract), held for each
format in the table: a new format that breaks one fails here, before a walk or a page does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from webeval_core.reading.formats import TrajectoryFormat, format_named, formats, layouts

REPO = Path(__file__).resolve().parents[4]
FORMATS = formats()


def test_names_are_unique_and_each_is_found_by_its_name() -> None:
    names = [f.name for f in FORMATS]
    assert len(set(names)) == len(names)
    assert all(format_named(name) is f for name, f in zip(names, FORMATS, strict=True))


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_it_says_what_its_folders_hold(fmt: TrajectoryFormat) -> None:
    assert fmt.name and fmt.name == fmt.name.strip().lower() and " " not in fmt.name
    assert fmt.title and fmt.holds and fmt.holds in layouts()
    assert isinstance(fmt.watched, frozenset) and isinstance(fmt.watched_suffixes, tuple)


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_each_marker_alone_makes_a_folder_one_of_its_trajectories(
    fmt: TrajectoryFormat, tmp_path: Path
) -> None:
    # The refresh takes a folder holding a marker for a trajectory without listing it.
    for marker in fmt.markers:
        folder = tmp_path / marker.replace(".", "_")
        folder.mkdir()
        assert fmt.detect(str(folder), {marker}), marker


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_it_claims_no_empty_folder_and_places_no_run_of_another_shape(
    fmt: TrajectoryFormat, tmp_path: Path
) -> None:
    (tmp_path / "runs" / "some_task").mkdir(parents=True)
    assert not fmt.detect(str(tmp_path / "runs" / "some_task"), set())
    assert not fmt.detect(str(tmp_path / "runs" / "some_task"), set(), asked=True)
    assert fmt.run_folder(tmp_path, tmp_path / "runs" / "some_task") is None


def test_the_table_loads_no_model_library() -> None:
    # The index's walk asks every format to detect: importing the table must not cost pydantic.
    probe = (
        "import sys; from webeval_core.reading.formats import formats, marker_names;"
        " formats(); marker_names();"
        " print(sorted(m for m in ('pydantic', 'webeval_core.reading.trajectory_model') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
