"""Scoring the issue-13 corpus: every folder gets an outcome of its own, nothing is read from or
written outside a trajectory folder, a huge response is stored once, failed writes say why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder
from tests.harness.hostile import (
    BIG_RESPONSE_CHARS,
    NORMAL_ANSWER,
    HostileRoot,
    hostile_root_within,
    snapshot_tree,
)
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.scoring import official, score_trajectories, score_trajectory
from webeval_core.scoring.score_writer import score_file_path, stored_evaluation

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[HostileRoot]:
    with hostile_root_within(tmp_path, 120) as corpus:
        yield corpus


def test_every_folder_gets_its_own_outcome_and_nothing_outside_changes(hostile: HostileRoot) -> None:
    before = snapshot_tree(hostile.outside)
    outcomes = {o.path: o for o in score_trajectories(list(iter_trajectory_dirs(hostile.root)))}
    assert set(outcomes) == set(hostile.folders)
    assert [outcomes[f].status for f in hostile.normal] == ["failure"] * 3
    assert all(outcomes[f].score_file is not None for f in hostile.normal)
    assert not [o.reason for o in outcomes.values() if "unexpected" in (o.reason or "")]
    assert outcomes[hostile.cases["crashed"]].status == "excluded"
    assert "the task crashed (playwright" in (outcomes[hostile.cases["crashed"]].reason or "")
    for name in ("fifo_log", "fifo_har", "fifo_score", "fifo_screenshot", "nan_numbers", "time_overflow"):
        assert outcomes[hostile.cases[name]].status == "failure", name
    linked = outcomes[hostile.cases["linked_scores"]]
    assert linked.status == "error" and linked.reason is not None
    assert linked.reason.startswith("cannot write scores/webarena-verified-")
    assert linked.reason.endswith(": scores is a symlink; nothing is written through it")
    assert snapshot_tree(hostile.outside) == before


@pytest.mark.slow
def test_a_huge_response_is_stored_once_and_reads_back(hostile: HostileRoot) -> None:
    folder = hostile.cases["big_response"]
    outcome = score_trajectory(folder)
    assert outcome.score_file is not None and outcome.evaluation is not None
    size = outcome.score_file.stat().st_size
    assert BIG_RESPONSE_CHARS < size < BIG_RESPONSE_CHARS * 1.1
    assert stored_evaluation(outcome.score_file) == outcome.evaluation
    first = outcome.score_file.read_bytes()
    again = score_trajectory(folder, force=True)
    assert again.score_file is not None and again.score_file.read_bytes() == first
    assert score_trajectory(folder).reused
    assert outcome.reason is not None and len(outcome.reason) < 2000  # the evaluator quotes the answer


def test_a_fifo_where_the_score_file_goes_is_replaced_without_blocking(hostile: HostileRoot) -> None:
    folder = hostile.normal[0]
    engine = official.engine_for(load_catalog(), None)
    target = score_file_path(folder, engine.eval_hash)
    target.parent.mkdir()
    os.mkfifo(target)
    outcome = score_trajectory(folder)
    assert outcome.status == "failure" and outcome.score_file == target and target.is_file()


def test_a_stored_verdict_is_never_read_through_a_linked_scores_folder(
    hostile: HostileRoot, tmp_path: Path
) -> None:
    folder = hostile.cases["linked_scores"]
    twin = shutil.copytree(folder, tmp_path / "twin" / folder.name, symlinks=True)
    (twin / "scores").unlink()
    verdict = score_trajectory(twin).score_file  # what a reusable verdict of this very folder looks like
    assert verdict is not None and score_trajectory(twin).reused
    shutil.copy(verdict, hostile.outside / "scores" / verdict.name)
    outcome = score_trajectory(folder)
    assert not outcome.reused and outcome.status == "error"


@pytest.fixture
def read_only_scores() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="webeval-readonly-"))
    base.chmod(0o755)
    folder = fara_folder(base / "traj", "0", final_answer=NORMAL_ANSWER)
    (folder / "scores").mkdir(mode=0o555)
    (folder / "scores").chmod(0o555)
    yield folder
    subprocess.run(["rm", "-rf", str(base)], check=False)


def test_a_read_only_scores_folder_is_a_clear_error(read_only_scores: Path) -> None:
    """Class 11: run as an unprivileged user (root writes anywhere)."""
    if os.geteuid() == 0:
        tool = next((t for t in ("setpriv", "runuser") if shutil.which(t)), None)
        if tool is None:
            pytest.skip("neither setpriv nor runuser is available to drop root privileges")
        prefix = (
            ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            if tool == "setpriv"
            else ["runuser", "-u", "nobody", "--"]
        )
    else:
        prefix = []
    code = (
        "import json, sys; from webeval_core.scoring import score_trajectory;"
        "o = score_trajectory(sys.argv[1]); print(json.dumps([o.status, o.reason]))"
    )
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO), "HOME": "/nonexistent"}
    result = subprocess.run(
        [*prefix, sys.executable, "-c", code, str(read_only_scores)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    status, reason = json.loads(result.stdout.strip().splitlines()[-1])
    assert status == "error"
    assert reason.startswith("cannot write scores/webarena-verified-") and reason.endswith(
        ": permission denied"
    )
