"""The CLI on the scored sample runs in Azure Blob Storage (Azurite): the same answers as on the
local copy, nothing written to the store without --write-remote, and a store that stops answering."""

from __future__ import annotations

import io
import json
import shutil
import time
from pathlib import Path

import pytest

from tests.harness.azurite import CONTAINER, RemoteSample, azurite_sample, blob_listing, upload_tree
from webeval_core.cli import main
from webeval_core.reading.screenshots import read_image_bytes, set_image_source
from webeval_core.remote import RemoteReadError, open_root
from webeval_core.runs.discovery import iter_trajectory_dirs

__all__ = ["azurite_sample"]  # the session fixture, used here by name


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.fixture(autouse=True)
def _private_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("WEBEVAL_REMOTE_CACHE", str(tmp_path / "remote"))
    yield
    set_image_source(None)


def _same_paths(text: str, root: Path) -> str:
    return text.replace(str(root.resolve()), "ROOT").replace(str(root), "ROOT")


def test_ls_json_is_the_same_as_on_the_local_copy(azurite_sample: RemoteSample) -> None:
    code, remote = run_cli("ls", azurite_sample.url, "--json")
    assert code == 0
    mirror = open_root(azurite_sample.url).path
    _, local = run_cli("ls", str(azurite_sample.local), "--json", "--no-cache")
    assert json.loads(_same_paths(remote, mirror)) == json.loads(_same_paths(local, azurite_sample.local))
    every = len(list(iter_trajectory_dirs(azurite_sample.local)))  # the sample's, every format's
    assert sum(len(run["trajectories"]) for run in json.loads(remote)["runs"]) == every > 0


def test_show_json_of_every_trajectory_is_the_same(azurite_sample: RemoteSample) -> None:
    folders = list(iter_trajectory_dirs(azurite_sample.local))
    for folder in folders[::9]:  # every ninth: one mirror per URL, each a listing of its own
        rel = folder.relative_to(azurite_sample.local).as_posix()
        code, remote = run_cli("show", f"{azurite_sample.url}/{rel}", "--json")
        assert code == 0, rel
        _, local = run_cli("show", str(folder), "--json")
        mirror = open_root(f"{azurite_sample.url}/{rel}").path
        assert json.loads(_same_paths(remote, mirror)) == json.loads(_same_paths(local, folder)), rel


def test_index_and_export_read_the_store_without_writing_to_it(azurite_sample: RemoteSample) -> None:
    before = blob_listing(azurite_sample.azurite.connection_string, "sample_runs")
    code, text = run_cli("index", azurite_sample.url)
    assert code == 0
    assert f"Indexed {len(list(iter_trajectory_dirs(azurite_sample.local)))} trajectories" in text
    code, csv_text = run_cli("export", azurite_sample.url, "--format", "csv")
    assert code == 0
    _, local_csv = run_cli("export", str(azurite_sample.local), "--format", "csv")
    mirror = open_root(azurite_sample.url).path
    assert _same_paths(csv_text, mirror) == _same_paths(local_csv, azurite_sample.local)
    code, _ = run_cli("score", azurite_sample.url, "--jobs", "1")
    assert code == 0
    assert blob_listing(azurite_sample.azurite.connection_string, "sample_runs") == before


def test_score_writes_to_the_store_only_with_write_remote(
    azurite_sample: RemoteSample, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unscored = tmp_path / "unscored"
    run = next(p for p in iter_trajectory_dirs(azurite_sample.local) if p.parent.name == "traj").parent.parent
    shutil.copytree(run, unscored / run.name)
    for config in azurite_sample.local.rglob("webarena-verified-config.json"):
        shutil.copy(config, unscored / config.name)
        break
    for scores in unscored.rglob("scores"):
        shutil.rmtree(scores)
    connection = azurite_sample.azurite.connection_string
    upload_tree(connection, unscored, "unscored")
    url = f"az://{CONTAINER}/unscored"
    before = blob_listing(connection, "unscored")

    code, _ = run_cli("score", url, "--jobs", "1")
    assert code == 0
    assert "pass --write-remote" in capsys.readouterr().err
    assert blob_listing(connection, "unscored") == before
    mirror = open_root(url).path
    written = sorted(p.relative_to(mirror).as_posix() for p in mirror.rglob("scores/*.json"))
    assert written  # in the local mirror, where the app reads them

    code, _ = run_cli("score", url, "--jobs", "1", "--write-remote")
    assert code == 0
    after = blob_listing(connection, "unscored")
    uploaded = sorted(name.removeprefix(f"{CONTAINER}/unscored/") for name in set(after) - set(before))
    assert uploaded == written
    # Written back, the files are the store's now: the next sync keeps the local copy as is.
    assert open_root(url).fetched == 0


def test_a_store_that_stops_answering_is_named_and_the_copy_stays_usable(
    azurite_sample: RemoteSample, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened = open_root(azurite_sample.url)
    frame = next(opened.path.rglob("web_surfer.log")).parent / "screenshot1.png"
    assert not frame.exists()
    monkeypatch.setenv("WEBEVAL_REMOTE_TIMEOUT", "1")  # the listing waits ten times a read
    azurite_sample.azurite.pause()
    try:
        started = time.monotonic()
        code, text = run_cli("ls", azurite_sample.url)
        err = capsys.readouterr().err
        assert code == 0
        assert f"{azurite_sample.url}: cannot be listed" in err
        assert "showing the copy synced at" in err
        assert "AccountKey" not in err
        assert "trajectories; " in text  # the runs of the copy synced before (count; format)
        with pytest.raises(RemoteReadError, match=r"screenshot1\.png: could not be fetched"):
            read_image_bytes(frame)
        assert time.monotonic() - started < 60
    finally:
        azurite_sample.azurite.resume()
    # Thawed, the store first answers the calls that hung while it was frozen: under load that
    # takes longer than the one second above, so the next read is given the usual patience.
    monkeypatch.delenv("WEBEVAL_REMOTE_TIMEOUT")
    assert read_image_bytes(frame).startswith(b"\x89PNG")


def test_an_unreachable_store_never_mirrored_is_a_clear_error(
    azurite_sample: RemoteSample, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run_cli("ls", f"az://{CONTAINER}/no-such-root")
    assert code == 1
    err = capsys.readouterr().err
    assert f"az://{CONTAINER}/no-such-root: cannot be listed" in err
    assert azurite_sample.azurite.connection_string not in err
