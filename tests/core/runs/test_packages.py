"""A submission package tar opens as a root: unpacked once into the cache, the tar never written."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.core.reading.test_submission import make_package, run_output_with_problems
from webeval_core.cli import main
from webeval_core.runs.discovery import discover_runs
from webeval_core.runs.packages import unpacked_package


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("package")
    (base / "out").mkdir()  # the packager writes into an existing folder
    return make_package(run_output_with_problems(base / "run"), base / "out", tar=True)


def test_a_tar_is_unpacked_once_and_read_as_a_run(package: Path, tmp_path: Path) -> None:
    before = (package.stat().st_size, package.stat().st_mtime_ns, package.read_bytes())

    folder = unpacked_package(package, tmp_path / "cache")
    again = unpacked_package(package, tmp_path / "cache")

    assert folder == again and not folder.is_relative_to(package.parent)
    (run,) = discover_runs(folder)
    assert sorted(d.name for d in run.trajectory_dirs) == ["132", "135", "136"]
    assert (folder / "summary.json").is_file()
    assert (package.stat().st_size, package.stat().st_mtime_ns, package.read_bytes()) == before


def test_webeval_ls_opens_a_package_tar(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    out = io.StringIO()

    assert main(["ls", str(package), "--json"], out=out) == 0

    listing = json.loads(out.getvalue())
    listed = sorted(t["task_id"] for run in listing["runs"] for t in run["trajectories"])
    assert listed == ["132", "135", "136"]


def test_a_file_that_is_not_a_tar_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fake = tmp_path / "pkg.tar.gz"
    fake.write_text("not a tar")

    assert main(["ls", str(fake)], out=io.StringIO()) == 1
    assert f"{fake}: cannot be unpacked" in capsys.readouterr().err
