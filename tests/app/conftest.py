"""AppTest fixtures: the app on a scored copy of sample_runs/, with fresh Streamlit caches per test.

The copy is the session's shared one (tests/conftest.py), scored once with the official
evaluator, so tests never depend on score files being committed and never write into the
repository. The summary index cache goes to a temporary XDG_CACHE_HOME for the same reason.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.components.v2 import manifest_scanner
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from tests.harness.builders import write_final_answer, write_score, write_times
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.index import RootIndex, build_index
from webeval_core.runs.judges import OFFICIAL
from webeval_core.runs.metrics import trajectory_frame
from webeval_ui.page_links import PAGES

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"


@pytest.fixture(scope="session")
def sample(scored_sample: Sample) -> Sample:
    """The session's scored copy of sample_runs/ (tests/conftest.py); tests that write copy it."""
    return scored_sample


@pytest.fixture(scope="session", autouse=True)
def _components_scanned_once() -> Iterator[None]:
    """Each new AppTest has Streamlit scan every installed package's metadata for components (a
    quarter of a second: test_consistency.py takes 39 s without this, 22 s with it); the packages
    do not change during a session, so the first scan's answer is kept.
    """
    scanned = functools.cache(manifest_scanner.scan_component_manifests)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", scanned)
        yield


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "xdg-cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))  # annotations
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture
def app(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Callable[..., AppTest]:
    """Factory: the app on the scored sample copy (or `root`), on `page`, with query parameters."""

    def make(
        page: str | None = None,
        root: Path | None = None,
        url: Mapping[str, str | list[str]] | None = None,
        **query: str | list[str],
    ) -> AppTest:
        # `root`: the folder the server was started on; `url`: query parameters whose names are not
        # Python identifiers free here (the URL's own `root`).
        if root is None:
            root = request.getfixturevalue("sample").root
        monkeypatch.setenv("WEBEVAL_ROOT", str(root))
        at = AppTest.from_file(str(APP), default_timeout=60)
        for key, value in {**query, **(url or {})}.items():
            at.query_params[key] = value
        # The default page needs no switch. Before a first run AppTest resolves a page by its file
        # name, and "overview" is the URL of app.py's redirect to the default page.
        if page is not None and page != PAGES["overview"]:
            at.switch_page(page)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return make


def expected(root: Path) -> tuple[RootIndex, pd.DataFrame]:
    """The index and metrics frame the app should be showing for `root`."""
    index = build_index(root)
    # The pages' default judge: the official evaluator (a live-web task has none; it is unscored).
    return index, trajectory_frame(index, load_catalog(), judge=OFFICIAL)


def verdict_file(folder: Path, status: str, assertions: tuple[str, ...] = ()) -> None:
    """A score file shaped like scoring.write_score_file's, without running the evaluator."""
    score = 1.0 if status == "success" else 0.0
    evaluation = {
        "engine": {
            "name": "webarena-verified",
            "version": "1.2.3",
            "eval_hash": "webarena-verified-1.2.3-synth",
        },
        "outcome": "answered",
        "result": {
            "status": status,
            "score": score,
            "evaluators_results": [
                {
                    "evaluator_name": "AgentResponseEvaluator",
                    "status": status,
                    "assertions": [{"assertion_name": a, "status": "failure"} for a in assertions],
                }
            ],
        },
        "agent_response": {"findings": [], "parse_error": None},
        "network": [],
    }
    write_score(folder, "webarena-verified-1.2.3-synth", score, json.dumps(evaluation))


@pytest.fixture(scope="session")
def big_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,000 Fara-layout trajectories (two runs x 500 real task ids) with synthetic verdicts."""
    root = tmp_path_factory.mktemp("big")
    task_ids = sorted(load_catalog().tasks)[:500]
    for model, passing in (("model-a", 5), ("model-b", 6)):
        traj = root / "runs" / "WebSurfer-synth" / model / "bench" / "WebArenaVerified" / "0" / "traj"
        for i, task_id in enumerate(task_ids):
            folder = traj / str(task_id)
            folder.mkdir(parents=True)
            pick = (i * 7 + 3 * (model == "model-b")) % 10
            if pick == 9:
                write_final_answer(folder, str(task_id), is_aborted=True)
                continue
            write_final_answer(
                folder, str(task_id), "<no_answer>" if pick == 8 else '{"task_type": "retrieve"}'
            )
            write_times(folder, duration=30.0 + 7 * (i % 40))
            if pick < passing:
                verdict_file(folder, "success")
            else:
                verdict_file(folder, "failure", ("agent_response.task_type_mismatch",))
    return root
