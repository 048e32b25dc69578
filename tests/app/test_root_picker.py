"""The sidebar's root picker (app.py, webeval_ui/roots.py): it names the browsed root, switches to a
folder typed in it, reports a path that is not a folder while keeping the old root, and "Reload
from disk" shows folders added since the root was read."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import Sample
from webeval_core.runs.discovery import discover_runs, iter_trajectory_dirs
from webeval_ui.untrusted import inert

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


def _allow(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """As `webeval app --allow-root FOLDER` does."""
    monkeypatch.setenv("WEBEVAL_ALLOWED_ROOTS", os.pathsep.join(map(str, folders)))


def test_a_folder_typed_in_the_sidebar_is_browsed(
    app, sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = _small_root(sample, tmp_path / "other", 2)
    _allow(monkeypatch, tmp_path)
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


def test_a_new_root_forgets_what_was_chosen_in_the_old_one(
    app, sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Run keys, task ids and filters of the old root, in the URL and in widget state, name nothing
    # in the new root; kept, they would leave its pages empty.
    other = _small_root(sample, tmp_path / "other", 1)
    _allow(monkeypatch, other)
    run = next(r for r in discover_runs(sample.root) if r.trajectory_dirs)
    at = _open_box(app(run=run.key, task=run.trajectory_dirs[0].name, view="Distributions"))
    assert at.session_state["shown_runs"]
    at.text_input(key="_root_typed").input(str(other)).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not {"run", "task", "view"} & set(at.query_params)
    (only_run,) = discover_runs(other)
    assert at.session_state["shown_runs"] == [only_run.key]
    assert at.sidebar.expander[0].label == "Root folder: other"
    assert at.query_params["root"] in (str(other), [str(other)])  # the new root is in the URL


def test_the_url_names_the_root(app, sample: Sample) -> None:
    at = app("pages/trajectories.py")
    assert at.query_params["root"] in (str(sample.root), [str(sample.root)])


def test_a_link_opens_the_root_it_names_under_the_servers_root(app, sample: Sample) -> None:
    # A folder under the root the server was started on: one run of the sample.
    run = next(r for r in discover_runs(sample.root) if r.trajectory_dirs)
    folder = run.trajectory_dirs[0].parent
    at = app(root=sample.root, url={"root": str(folder)})
    assert at.sidebar.expander[0].label == f"Root folder: {inert(folder.name)}"
    assert _trajectories_shown(at) == len(run.trajectory_dirs)
    assert not at.error


def test_a_link_to_a_root_the_server_may_not_open_is_refused_with_the_reason(
    app, sample: Sample, tmp_path: Path
) -> None:
    outside = _small_root(sample, tmp_path / "elsewhere", 1)
    at = app(root=sample.root, url={"root": str(outside)})
    (error,) = at.error
    assert "was not opened" in error.value and "allow" in error.value and inert(str(outside)) in error.value
    assert at.sidebar.expander[0].label == f"Root folder: {inert(sample.root.name)}"  # the old root kept
    assert at.query_params["root"] in (str(sample.root), [str(sample.root)])


def test_allow_root_lets_a_link_open_another_folder(
    app, sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = _small_root(sample, tmp_path / "elsewhere", 1)
    _allow(monkeypatch, tmp_path)
    at = app(root=sample.root, url={"root": str(outside)})
    assert not at.error
    assert _trajectories_shown(at) == 1


def test_a_folder_typed_outside_the_allowed_roots_is_refused(app, sample: Sample, tmp_path: Path) -> None:
    outside = _small_root(sample, tmp_path / "elsewhere", 1)
    at = _open_box(app())
    at.text_input(key="_root_typed").input(str(outside)).run()
    (error,) = at.sidebar.error
    assert "not a folder this server may open" in error.value
    assert at.sidebar.expander[0].label == f"Root folder: {inert(sample.root.name)}"


def test_an_empty_root_says_how_to_open_another_and_that_way_works(
    app, sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its folders hold no trajectory either, so "choose another in the sidebar" cannot work: the
    page offers the other roots the server may open (a button each), else how to start it on one."""
    empty = tmp_path / "empty"
    empty.mkdir()
    at = app(root=empty)
    assert "No trajectory folders found under" in at.info[0].value
    said = " ".join(m.value for m in at.markdown)
    assert "`webeval app FOLDER`" in said and "`--allow-root FOLDER`" in said
    assert not at.main.button  # no other root to open: nothing to press

    _allow(monkeypatch, sample.root)
    at = app(root=empty)
    (button,) = [b for b in at.main.button if b.label == inert(str(sample.root))]
    button.click().run()
    assert not at.exception
    assert _trajectories_shown(at) == len(list(iter_trajectory_dirs(sample.root)))
