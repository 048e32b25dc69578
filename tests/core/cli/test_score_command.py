"""`webeval score PATH`: where it looks for a config, what it says when nothing is scored."""

from __future__ import annotations

import json
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
