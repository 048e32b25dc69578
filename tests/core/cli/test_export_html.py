"""`webeval export ROOT --run KEY --format html -o FOLDER`: a run report folder, written safely."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.conftest import Sample
from webeval_core.cli import main
from webeval_core.runs.index import build_index


def _export(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["export", *argv], out=out), out.getvalue()


def test_writes_the_report_and_a_page_per_trajectory(scored_sample: Sample, tmp_path: Path) -> None:
    index = build_index(scored_sample.root, cache_dir=tmp_path / "c")
    run = next(r for r in index.runs if r.model == "fara-7b")
    target = tmp_path / "report"

    code, said = _export(str(scored_sample.root), "--run", run.key, "--format", "html", "-o", str(target))

    assert code == 0
    pages = sorted((target / "trajectories").iterdir())
    assert len(pages) == len(run.trajectory_dirs)
    assert f"{len(pages)} trajectory pages" in said
    report = (target / "index.html").read_text(encoding="utf-8")
    for page in pages:
        assert f'href="trajectories/{page.name}"' in report


def test_without_a_run_it_names_the_runs_it_could_report(
    scored_sample: Sample, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _export(str(scored_sample.root), "--format", "html", "-o", str(tmp_path / "r"))

    assert code == 1
    error = capsys.readouterr().err
    assert "--run KEY" in error and "fara-7b" in error
    assert not (tmp_path / "r").exists()


def test_never_writes_into_a_folder_that_holds_files_without_force(
    scored_sample: Sample, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = build_index(scored_sample.root, cache_dir=tmp_path / "c")
    run = next(r for r in index.runs if r.model == "fara-7b")
    target = tmp_path / "busy"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    argv = (str(scored_sample.root), "--run", run.key, "--format", "html", "-o", str(target))

    assert _export(*argv)[0] == 1
    assert "--force" in capsys.readouterr().err
    assert sorted(p.name for p in target.iterdir()) == ["notes.txt"]
    assert _export(*argv, "--force")[0] == 0
    assert (target / "notes.txt").read_text() == "mine"
    assert (target / "index.html").is_file()
