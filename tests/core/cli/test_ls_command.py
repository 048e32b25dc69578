"""`webeval ls ROOT`: runs, their trajectories as aligned columns, the unreadable folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder, wav_folder


def test_ls_lists_runs_and_unreadable(tmp_path: Path) -> None:
    fara_folder(tmp_path / "runs/sys/fara-7b/me/bench/0/traj", "t1")
    wav_folder(tmp_path / "cli", "7")
    broken = tmp_path / "cli" / "8"
    broken.mkdir()
    (broken / "8_final_answer.json").write_text("not json")

    code, text = run_cli("ls", str(tmp_path))
    assert code == 0
    assert "runs/sys/fara-7b/me/bench/0" in text
    assert "model=fara-7b" in text
    assert "Unreadable folders (1)" in text

    code, text = run_cli("ls", str(tmp_path), "--json")
    payload = json.loads(text)
    assert sorted(r["key"] for r in payload["runs"]) == ["cli", "runs/sys/fara-7b/me/bench/0"]
    assert payload["unreadable"][0]["path"] == str(broken)


def test_missing_root_is_a_plain_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run_cli("ls", str(tmp_path / "nope"))
    assert code == 1
    assert f"webeval ls: {tmp_path / 'nope'}: the folder does not exist" in capsys.readouterr().err


def test_ls_sizes_columns_to_long_task_ids_and_counts_in_words(tmp_path: Path) -> None:
    long_id = "shopping_admin_find_the_best_selling_product_of_2022"
    fara_folder(tmp_path / "one" / "traj", long_id)
    fara_folder(tmp_path / "two" / "traj", "a")
    fara_folder(tmp_path / "two" / "traj", "b")

    code, text = run_cli("ls", str(tmp_path))

    assert code == 0
    assert "(1 trajectory; Fara webeval folder)" in text
    assert "(2 trajectories; Fara webeval folder)" in text
    lines = text.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("task"))
    row = next(line for line in lines if long_id in line)
    # Every column starts where its header does, however long the task id before it.
    assert row.index("answered") == header.index("outcome")
    assert row.index(long_id) + len(long_id) < header.index("outcome")


def test_a_folder_of_network_traces_alone_is_told_what_a_trajectory_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36, item 8: a HAR is a trace, not a trajectory; the layouts that are, said on stderr."""
    (tmp_path / "network.har").write_text('{"log": {"entries": []}}', encoding="utf-8")
    code, text = run_cli("ls", str(tmp_path))
    err = capsys.readouterr().err
    assert code == 1 and text == ""
    assert "1 network trace" in err and "agent_response.json" in err and "web_surfer.log" in err
    code, _ = run_cli("show", str(tmp_path / "network.har"))
    err = capsys.readouterr().err
    assert code == 1 and "network trace (HAR), not a trajectory" in err and "beside the agent's" in err


def test_ls_names_the_verify_reports_error_rows(tmp_path: Path) -> None:
    """A run's verify_report.jsonl says which trajectories the verifier could not judge, and why:
    `ls` shows its rows and each error row (the only place that reason is written)."""
    from tests.harness.verifier_files import RUN, verifier_root

    root = verifier_root(tmp_path)
    code, text = run_cli("ls", str(root))
    assert code == 0
    lines = text.splitlines()
    assert f"  {RUN}/verify_report.jsonl: 2 rows, 1 error" in lines
    assert "    line 2 (alltrails_find_26): error: TimeoutError: the judge did not answer" in lines


def test_ls_names_the_format_of_each_run_of_a_mixed_root(tmp_path: Path) -> None:
    import json as _json

    from tests.harness.agentlab_writer import VERIFIED_TASK, verified_steps, write_episode
    from tests.harness.cube_writer import CubeStep
    from tests.harness.cube_writer import write_episode as write_cube_episode

    fara_folder(tmp_path / "runs/sys/fara-7b/me/bench/0/traj", "108")
    wav_folder(tmp_path / "cli", "7")
    write_episode(tmp_path / "study", VERIFIED_TASK.format(template=279, task=0), verified_steps())
    write_cube_episode(tmp_path / "cube-exp", "webarena_verified.0", [CubeStep("click", {"bid": "a1"})])
    (tmp_path / "atif" / "t1").mkdir(parents=True)
    (tmp_path / "atif" / "t1" / "trajectory.json").write_text(
        _json.dumps(
            {
                "schema_version": "ATIF-v1.6",
                "session_id": "s",
                "agent": {"name": "a", "version": "1"},
                "steps": [],
            }
        )
    )
    (tmp_path / "m2w" / "abc" / "trajectory").mkdir(parents=True)
    (tmp_path / "m2w" / "abc" / "result.json").write_text(_json.dumps({"task": "t", "action_history": []}))

    code, text = run_cli("ls", str(tmp_path))
    assert code == 0
    for line in (
        "runs/sys/fara-7b/me/bench/0  (1 trajectory; Fara webeval folder)",
        "cli  (1 trajectory; WebArena-Verified agent log)",
        "study  (1 trajectory; AgentLab / BrowserGym episode)",
        "cube-exp  (1 trajectory; cube-harness episode)",
        "atif  (1 trajectory; Harbor ATIF trajectory)",
        "m2w  (1 trajectory; Online-Mind2Web result)",
    ):
        assert line in text, text
    assert "Unreadable" not in text
