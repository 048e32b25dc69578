"""Fixtures of the LLM judges' tests: the scripted endpoint (a loopback server in a thread of the
test: cheap, so quick tests use it), a profile for it read from a profiles file, the key in the
environment only, a reply cache of the test's own, and private copies of trajectories."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_RUNS
from tests.harness.scripted_llm import KEY, KEY_ENV, ScriptedEndpoint, ScriptedModel, profiles_file
from webeval_core.llm_judging import EndpointProfile, load_profile
from webeval_core.llm_judging.reply_cache import CACHE_ENV

TAIL = SAMPLE_RUNS / "runs/WebSurfer-fara-100-max_n_images-3/fara-7b/demo/WebTailBench_sample/0/traj"
"""The sample's WebTailBench trajectories (four, five screenshots each, Universal Verifier files)."""
PASSING = "alltrails_find_23"
"""The one the scripted model passes (its task mentions "hiking trail")."""


@pytest.fixture(autouse=True)
def judge_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key in the environment (never argv), and a reply cache of this test's own."""
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "reply-cache"))


@pytest.fixture
def endpoint() -> Iterator[ScriptedEndpoint]:
    """The scripted endpoint, passing the tasks about a hiking trail."""
    with ScriptedEndpoint(ScriptedModel(verdicts={"hiking trail": True})) as served:
        yield served


@pytest.fixture
def profile(endpoint: ScriptedEndpoint, tmp_path: Path) -> EndpointProfile:
    """The endpoint's profile, read from a profiles file as a user's would be."""
    return load_profile("scripted", profiles_file(tmp_path / "judges.toml", endpoint.base_url, max_images=3))


@pytest.fixture
def tail(tmp_path: Path) -> list[Path]:
    """A private copy of the WebTailBench trajectories, in order."""
    copy = shutil.copytree(TAIL, tmp_path / "traj")
    return sorted(p for p in copy.iterdir() if p.is_dir())
