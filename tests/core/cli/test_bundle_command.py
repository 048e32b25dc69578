"""`webeval bundle`: written to a store (Azurite) it reads back byte for byte as the local site;
what it refuses is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Sample, private_copy
from tests.core.cli.helpers import run_cli
from tests.core.presentation.test_bundle import read_data
from tests.harness.azurite import CONTAINER, RemoteSample, azurite_sample

__all__ = ["azurite_sample"]  # the fixture, imported for the tests below


def test_a_bundle_written_to_a_store_reads_back_as_the_local_one(
    azurite_sample: RemoteSample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import adlfs

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    local = tmp_path / "site"
    assert run_cli("bundle", str(azurite_sample.local), "-o", str(local))[0] == 0
    code, said = run_cli("bundle", str(azurite_sample.local), "-o", f"az://{CONTAINER}/site")
    assert code == 0 and f"az://{CONTAINER}/site" in said
    fs = adlfs.AzureBlobFileSystem(connection_string=azurite_sample.azurite.connection_string)
    remote = {name.split("/site/", 1)[1]: fs.cat_file(name) for name in fs.find(f"{CONTAINER}/site")}
    files = {p.relative_to(local).as_posix(): p.read_bytes() for p in local.rglob("*") if p.is_file()}
    assert remote.keys() == files.keys() and len(files) > 100
    assert all(remote[name] == data for name, data in files.items())


def test_what_a_bundle_refuses_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = Path(__file__).resolve().parents[3] / "sample_runs"
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine")
    assert run_cli("bundle", str(root), "-o", str(taken), "--run", "webarena-verified-cli")[0] == 1
    assert "is not empty; pass --force" in capsys.readouterr().err
    assert (taken / "notes.txt").read_text() == "mine"
    assert run_cli("bundle", str(root), "-o", str(tmp_path / "x"), "--run", "nope")[0] == 1
    assert "no run nope" in capsys.readouterr().err


@pytest.mark.slow
def test_a_bundle_shows_published_verdicts_and_names_no_one_unless_asked(
    scored_sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    root = private_copy(scored_sample.root, tmp_path / "runs")
    run = "runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebArenaVerified_sample/0"
    edit = ("--run", run, "--task", "11", "--verdict", "success", "--reason", "the total, in words")
    assert run_cli("verdicts", "set", str(root), *edit, "--as", "Ann Lee")[0] == 0
    pages: dict[bool, dict[str, object]] = {}
    for named in (False, True):
        site = tmp_path / f"site-{named}"
        extra = ("--with-reviewers",) if named else ()
        assert (
            run_cli("bundle", str(root), "-o", str(site), "--run", run, "--with-annotations", *extra)[0] == 0
        )
        page = next(p for p in (site / "data" / "t").glob("*.js") if '"task_id":"11"' in p.read_text())
        data = read_data(page)
        assert isinstance(data, dict)
        pages[named] = data["row"]["annotations"]
        assert ("Ann Lee" in page.read_text()) is named
    assert pages[False]["published"] == "pass (edit)" and pages[False]["why"] == "the total, in words"
    assert pages[True]["published"] == "pass by Ann Lee (edit)"
