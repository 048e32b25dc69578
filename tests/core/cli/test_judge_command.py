"""`webeval judge`: the sample's WebTailBench run judged through the scripted endpoint: verdicts,
the dry run, a second run that asks nothing, 429s waited out, filters, the summary and flips, and
a kill mid-run resumed (a real process killed). The key is only ever in the environment."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.core.llm_judging.conftest import PASSING, TAIL
from tests.harness.scripted_llm import KEY, KEY_ENV, Mishap, ScriptedEndpoint, ScriptedModel, profiles_file


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedEndpoint]:
    monkeypatch.setenv(KEY_ENV, KEY)
    with ScriptedEndpoint(ScriptedModel(verdicts={"hiking trail": True})) as served:
        yield served


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A root holding a copy of the WebTailBench run (four trajectories)."""
    shutil.copytree(TAIL, tmp_path / "root" / "WebTailBench" / "traj")
    return tmp_path / "root"


def _args(root: Path, profiles: Path, *more: str) -> list[str]:
    return [
        "judge",
        str(root),
        "--judge",
        "outcome",
        "--endpoint",
        "scripted",
        "--profiles",
        str(profiles),
        *more,
    ]


def _written(root: Path, prefix: str) -> list[Path]:
    return sorted(root.rglob(f"scores/{prefix}*.json"))


def test_a_run_judges_writes_and_says_what_it_cost(
    endpoint: ScriptedEndpoint, root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profiles = profiles_file(tmp_path / "judges.toml", endpoint.base_url, price_input_per_mtok=1.0)
    code, out = run_cli(*_args(root, profiles))
    assert code == 0
    files = _written(root, "outcome_")
    assert [f.parent.parent.name for f in files] == sorted(
        p.name for p in (root / "WebTailBench/traj").iterdir()
    )
    assert {f.parent.parent.name: json.loads(f.read_text())["score"] for f in files}[PASSING] == 1.0
    assert "4 judged (1 success, 3 failure), 0 judged before, 0 error(s); 4 request(s) sent" in out
    assert re.search(r", cost 0\.0\d{3}; ", out)
    # The flip summary, as `webeval score` prints it. No official verdict on WebTailBench: the flips
    # are against the judge its figures use (Fara's rubric verifier), not "nothing to compare".
    assert re.search(r"against the mmrubric_0\.8-5-3 score files \(.*4 compared\)", out), out
    err = capsys.readouterr().err
    assert "judged 4/4: " in err  # plain lines when stderr is no terminal
    kept = [*root.rglob("*.json"), *(tmp_path / "cache").rglob("*.json")]  # score files, reply cache
    assert any("judge-replies" in str(p) for p in kept)
    for text in (out, err, *(f.read_text() for f in kept)):
        assert KEY not in text
    code, again = run_cli(*_args(root, profiles))
    assert code == 0 and "0 judged (0 success, 0 failure), 4 judged before" in again
    assert len(endpoint.requests) == 4


def test_the_dry_run_sends_nothing(endpoint: ScriptedEndpoint, root: Path, tmp_path: Path) -> None:
    profiles = profiles_file(tmp_path / "judges.toml", endpoint.base_url)
    code, out = run_cli(*_args(root, profiles, "--dry-run", "--json"))
    estimate = json.loads(out)["estimate"]
    assert code == 0 and (estimate["calls"], estimate["images"]) == (4, 20)
    assert endpoint.requests == [] and _written(root, "outcome_") == []


def test_429s_are_waited_out_and_filters_choose_the_trajectories(
    endpoint: ScriptedEndpoint, root: Path, tmp_path: Path
) -> None:
    endpoint.mishaps.extend([Mishap("429", 0.1), Mishap("429", 0.1)])
    profiles = profiles_file(tmp_path / "judges.toml", endpoint.base_url)
    code, out = run_cli(
        *_args(root, profiles, "--run", "WebTailBench", "--tasks", PASSING, "zillow_find_5", "--json")
    )
    assert code == 0
    results = {r["task_id"]: r["status"] for r in json.loads(out)["results"]}
    assert results == {PASSING: "success", "zillow_find_5": "failure"}
    assert len(endpoint.requests) == 4


def test_a_judge_error_is_said_and_the_exit_code_is_1(
    endpoint: ScriptedEndpoint, root: Path, tmp_path: Path
) -> None:
    endpoint.always = Mishap("no verdict")
    profiles = profiles_file(tmp_path / "judges.toml", endpoint.base_url)
    code, out = run_cli(*_args(root, profiles, "--tasks", PASSING))
    assert code == 1
    assert (
        f"{PASSING}: error: the reply holds no verdict (SUCCESS / NOT SUCCESS): 'I looked at the pages" in out
    )


def test_a_missing_key_or_profile_is_said_once(
    endpoint: ScriptedEndpoint,
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    profiles = profiles_file(tmp_path / "judges.toml", endpoint.base_url)
    monkeypatch.delenv(KEY_ENV)
    assert run_cli(*_args(root, profiles))[0] == 1
    assert f"the environment variable {KEY_ENV} is not set" in capsys.readouterr().err
    assert (
        run_cli("judge", str(root), "--judge", "outcome", "--endpoint", "other", "--profiles", str(profiles))[
            0
        ]
        == 1
    )
    assert "has no profile 'other' (it has: scripted)" in capsys.readouterr().err
    assert endpoint.requests == []


@pytest.mark.slow
def test_a_run_killed_mid_way_leaves_no_half_file_and_resumes(root: Path, tmp_path: Path) -> None:
    env = {**os.environ, KEY_ENV: KEY, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    with ScriptedEndpoint(ScriptedModel(verdicts={"hiking trail": True}), latency_s=0.1) as endpoint:
        profiles = profiles_file(tmp_path / "judges.toml", endpoint.base_url, concurrency=1)
        command = [sys.executable, "-m", "webeval_core.cli", *_args(root, profiles, "--judge", "webjudge")]
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not _written(root, "webjudge_") and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait()
        first = _written(root, "webjudge_")
        assert len(first) == 1  # one trajectory judged, the next one's requests under way
        assert [p for p in root.rglob("scores/*") if p.name.startswith(".")] == []
        sent_before = len(endpoint.requests)
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert "3 judged" in done.stdout and "1 judged before" in done.stdout
        assert len(_written(root, "webjudge_")) == 4
        # The killed run's answered requests came from the cache: only the rest was sent again.
        resumed = endpoint.requests[sent_before:]
        assert "from the cache" in done.stdout
        assert len(resumed) < sum(
            len(list(f.glob("screenshot*.png"))) + 2 for f in (root / "WebTailBench/traj").iterdir()
        )
    for text in (done.stdout, done.stderr, *(p.read_text() for p in root.rglob("*.json"))):
        assert KEY not in text
