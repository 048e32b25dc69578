"""The sidebar's root picker (app.py, pages/common.py): it names the browsed root, switches to a
folder typed in it, reports a path that is not a folder while keeping the old root, and "Reload
from disk" shows folders added since the root was read."""

from __future__ import annotations

import shutil
from pathlib import Path

from streamlit.testing.v1 import AppTest

from pages.common import inert
from tests.app.conftest import Sample
from webeval_core.runs.discovery import discover_runs, iter_trajectory_dirs

_BOX = "_root_box"


def _trajectories_shown(at: AppTest) -> int:
    """The overview's headline trajectory count (one run in these roots)."""
    return sum(int(m.value) for m in at.metric if m.label == "Trajectories")


def _small_root(sample: Sample, target: Path, count: int) -> Path:
    """`count` trajectory folders of the sample, filed as one run under `target`."""
    for folder in list(iter_trajectory_dirs(sample.root))[:count]:
        shutil.copytree(folder, target / "traj" / folder.name)
    return target


def _open_box(at: AppTest) -> AppTest:
    at.session_state[_BOX] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_sidebar_names_the_root_and_draws_the_text_box_only_when_opened(app, sample: Sample) -> None:
    at = app()
    assert at.sidebar.expander[0].label == f"Root folder: {inert(sample.root.name)}"
    assert not at.sidebar.text_input
    _open_box(at)
    assert at.text_input(key="_root_typed").value == str(sample.root)


def test_a_folder_typed_in_the_sidebar_is_browsed(app, sample: Sample, tmp_path: Path) -> None:
    other = _small_root(sample, tmp_path / "other", 2)
    at = _open_box(app())
    assert _trajectories_shown(at) == len(list(iter_trajectory_dirs(sample.root)))
    at.text_input(key="_root_typed").input(str(other)).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _trajectories_shown(at) == 2


def test_a_path_that_is_not_a_folder_is_reported_and_the_root_kept(
    app, sample: Sample, tmp_path: Path
) -> None:
    at = _open_box(app())
    before = _trajectories_shown(at)
    missing = tmp_path / "no such folder"
    at.text_input(key="_root_typed").input(str(missing)).run()
    assert [e.value for e in at.sidebar.error] == [f"Not a folder: {inert(str(missing))}"]
    assert _trajectories_shown(at) == before
    assert at.sidebar.expander[0].label == f"Root folder: {inert(sample.root.name)}"


def test_reload_from_disk_shows_folders_added_since_the_root_was_read(
    app, sample: Sample, tmp_path: Path
) -> None:
    root = _small_root(sample, tmp_path / "growing", 1)
    at = app(root=root)
    assert _trajectories_shown(at) == 1
    newcomer = next(f for f in iter_trajectory_dirs(sample.root) if not (root / "traj" / f.name).exists())
    shutil.copytree(newcomer, root / "traj" / newcomer.name)
    at.run()
    assert _trajectories_shown(at) == 1  # still the root as first read: reads are cached
    next(b for b in at.sidebar.button if b.label == "Reload from disk").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _trajectories_shown(at) == 2


def test_a_new_root_forgets_what_was_chosen_in_the_old_one(app, sample: Sample, tmp_path: Path) -> None:
    # Run keys, task ids and filters of the old root, in the URL and in widget state, name nothing
    # in the new root; kept, they would leave its pages empty.
    other = _small_root(sample, tmp_path / "other", 1)
    run = next(r for r in discover_runs(sample.root) if r.trajectory_dirs)
    at = _open_box(app(run=run.key, task=run.trajectory_dirs[0].name, view="Distributions"))
    assert at.session_state["shown_runs"]
    at.text_input(key="_root_typed").input(str(other)).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not {"run", "task", "view"} & set(at.query_params)
    (only_run,) = discover_runs(other)
    assert at.session_state["shown_runs"] == [only_run.key]
    assert at.sidebar.expander[0].label == "Root folder: other"
