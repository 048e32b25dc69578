"""Which roots the app may open: the one it was started on, folders under it, and --allow-root's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from webeval_core.cli import main
from webeval_core.serving.server import (
    ALLOWED_ROOTS_ENV,
    ROOT_ENV,
    allowed_roots,
    root_environment,
    root_refusal,
)


def test_the_started_root_and_the_allowed_folders_are_open_with_what_lies_under_them(tmp_path: Path) -> None:
    root, extra, outside = tmp_path / "root", tmp_path / "extra", tmp_path / "outside"
    for folder in (root / "run" / "traj", extra / "deep", outside):
        folder.mkdir(parents=True)
    allowed = allowed_roots(root_environment(str(root), [extra]), default=tmp_path / "unused")
    assert allowed == (root.resolve(), extra.resolve())
    assert root_refusal(root, allowed) is None
    assert root_refusal(root / "run" / "traj", allowed) is None
    assert root_refusal(extra / "deep", allowed) is None
    why = root_refusal(outside, allowed)
    assert why is not None and str(outside) in why and f"--allow-root {outside}" in why


def test_a_way_out_through_dots_or_a_link_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "escape").symlink_to(tmp_path)
    allowed = allowed_roots({ROOT_ENV: str(root)}, default=tmp_path)
    assert root_refusal(root / ".." / "root" / "..", allowed) is not None
    assert root_refusal(root / "escape", allowed) is not None


def test_an_allowed_path_that_is_no_folder_is_said_so(tmp_path: Path) -> None:
    allowed = allowed_roots({ROOT_ENV: str(tmp_path)}, default=tmp_path)
    assert root_refusal(tmp_path / "missing", allowed) == f"{tmp_path / 'missing'} is not a folder."


def test_without_webeval_app_the_default_root_is_the_one_allowed(tmp_path: Path) -> None:
    assert allowed_roots({}, default=tmp_path) == (tmp_path.resolve(),)
    env = {ALLOWED_ROOTS_ENV: os.pathsep.join([str(tmp_path / "a"), "", str(tmp_path / "a")])}
    assert allowed_roots(env, default=tmp_path) == (tmp_path.resolve(), (tmp_path / "a").resolve())


def test_app_refuses_an_allow_root_that_is_not_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing"
    assert main(["app", str(tmp_path), "--allow-root", str(missing)]) == 1
    assert f"{missing}: the folder does not exist (--allow-root)" in capsys.readouterr().err
