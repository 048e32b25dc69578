"""`webeval score PATH`: where it looks for a config, what it says when nothing is scored."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.core.scoring.helpers import MUTATE, VOTE
from tests.harness.builders import fara_folder, wav_folder
from tests.harness.har_builders import REDDIT, document, entry
from tests.harness.har_builders import wav_folder as har_folder
from webeval_core.cli import main


def test_score_never_reads_a_config_above_the_folder_it_is_given(tmp_path: Path) -> None:
    (tmp_path / "webarena-verified-config.json").write_text("{not json", encoding="utf-8")
    root = tmp_path / "root"
    wav_folder(root, "108")

    code, out = run_cli("score", str(root), "--json")

    (result,) = json.loads(out)["results"]
    assert code == 0
    assert "config" not in (result["reason"] or ""), result


def test_score_says_when_no_trajectory_has_an_official_evaluator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fara_folder(tmp_path / "WebTailBench_hf" / "traj", "alltrails_find_23")
    assert main(["score", str(tmp_path)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == "Nothing scored: 1 trajectory found, none with an official evaluator to run"


def test_a_guessed_site_url_is_said_on_stderr_once_with_the_trajectories_it_concerns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a config the evaluator guesses a site's URL from the HAR: the verdicts rest on that
    guess, so it is said whatever the output (the table or --json), not only in the score files."""
    for task in (404, 405):
        har_folder(tmp_path, task, MUTATE, [document(f"{REDDIT}/f/books"), entry(VOTE, method="POST")])
    for extra in ([], ["--json"]):
        assert main(["score", str(tmp_path), "--force", *extra]) == 0
        err = capsys.readouterr().err.splitlines()
        guessed = (
            "webeval score: 2 trajectories (404, 405): no URL mapping for __REDDIT__; the evaluator guessed"
            f" __REDDIT__ = {REDDIT} from the HAR (guesses can be wrong for multi-site tasks: pass a config)"
        )
        assert err == [guessed]


def test_a_live_run_is_scored_as_far_as_it_is_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A running task is skipped (said on stderr), never scored as aborted; once it has finished a
    later scoring scores it."""
    traj = tmp_path / "runs" / "WebSurfer-live" / "fara-7b" / "demo" / "WebArenaVerified" / "0" / "traj"
    fara_folder(
        traj, "11", final_answer='{"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": [6]}'
    )
    running = fara_folder(traj, "27", final_answer=None, times=False)
    code, out = run_cli("score", str(tmp_path / "runs"), "--json", "--jobs", "1")
    assert code == 0
    assert [r["task_id"] for r in json.loads(out)["results"]] == ["11"]
    assert "skipped 1 unfinished trajectory (running or stalled)" in capsys.readouterr().err
    (running / "times.json").write_text('{"start_time": 1, "end_time": 2, "duration": 1}')  # it ended
    code, out = run_cli("score", str(tmp_path / "runs"), "--json", "--jobs", "1")
    results = {r["task_id"]: r for r in json.loads(out)["results"]}
    assert code == 0 and set(results) == {"11", "27"}
    assert "skipped" not in capsys.readouterr().err


def test_a_cache_folder_that_cannot_be_written_is_said_and_the_verdicts_are_still_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cache under a regular file (chmod would not stop a test run as root), and the temporary
    folder too: `score` still evaluates and writes each score file, and says which folder it could
    not write, never with a traceback."""
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file" / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "a-file" / "tmp"))
    root = tmp_path / "root"
    wav_folder(root, "108")

    code = main(["score", str(root)])

    said = capsys.readouterr()
    assert code == 0
    assert said.out.startswith("Scored 1 trajectory with webarena-verified-"), said.out
    assert list((root / "108" / "scores").glob("webarena-verified-*.json"))
    cache = tmp_path / "a-file" / "cache" / "webeval"
    assert f"webeval score: this scoring's flips cannot be kept for the app in {cache}/scorings-" in said.err
    assert f"webeval score: The cache folder {cache} cannot be written (Not a directory)" in said.err
    assert "Traceback" not in said.err


def test_an_unwritable_cache_falls_back_to_a_private_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file" / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    root = tmp_path / "root"
    wav_folder(root, "108")

    assert main(["score", str(root)]) == 0
    assert main(["ls", str(root)]) == 0

    said = capsys.readouterr()
    fallback = tmp_path / "tmp" / f"webeval-cache-{os.getuid()}"
    assert f"caches are kept in {fallback} for now." in said.err
    assert "flips cannot be kept" not in said.err  # the scoring's report is kept there
    assert list(fallback.glob("scorings-*/*Z.json")) and list(fallback.glob("index-*.sqlite"))
    assert "Traceback" not in said.err
