"""The network inspector's tables: steps or time from the start, search, a request's summary."""

from __future__ import annotations

from pathlib import Path

from tests.harness.builders import fara_folder
from tests.harness.har_builders import GITLAB, asset, document, entry, write_har, xhr
from webeval_core.presentation.network_detail import (
    NOT_FOUND_LIMIT,
    evaluator_limits,
    request_list,
    request_summary,
    search_requests,
)
from webeval_core.reading.network import read_har
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.support.vocabulary import UNKNOWN


def _har(tmp_path: Path) -> Path:
    return write_har(
        tmp_path / "network.har",
        [
            document(f"{GITLAB}/a", at=6),
            asset(f"{GITLAB}/app.js", at=7),
            xhr(f"{GITLAB}/api/graphql", method="POST", json_body={"q": 1}, at=17),
            entry(f"{GITLAB}/users/sign_in", method="POST", status=302, at=18),
        ],
    )


def test_requests_are_placed_in_steps_or_by_time(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path / "r", "108")
    har = read_har(_har(tmp_path))
    stepped = request_list(har, load_trajectory(folder).steps)
    assert stepped["step"].tolist() == [1, 1, 2, 2]
    timed = request_list(har, ())
    assert "step" not in timed.columns and timed["+s"].tolist() == [0.0, 1.0, 11.0, 12.0]


def test_search_needs_every_word_in_any_column(tmp_path: Path) -> None:
    requests = request_list(read_har(_har(tmp_path)), ())
    entries = {
        q: search_requests(requests, q)["entry"].tolist()
        for q in ("post", "POST 302", "script", "graphql fetch")
    }
    assert entries == {"post": [2, 3], "POST 302": [3], "script": [1], "graphql fetch": [2]}
    assert search_requests(requests, "", hide_static=True)["entry"].tolist() == [0, 2, 3]


def test_summary_names_inferred_types(tmp_path: Path) -> None:
    path = write_har(tmp_path / "network.har", [entry(f"{GITLAB}/x.css", headers={"accept": "*/*"})])
    summary = dict(request_summary(read_har(path).events[0]).itertuples(index=False, name=None))
    assert summary["type"] == "stylesheet (inferred from MIME type and URL)"
    assert summary["from first request"] == UNKNOWN and summary["step"] == UNKNOWN


def test_the_not_found_limit_is_flagged_only_when_it_ended_in_an_evaluator_error() -> None:
    catalog = load_catalog()
    not_found, ordinary = catalog.get("22"), catalog.get("132")
    assert not_found is not None and ordinary is not None
    assert evaluator_limits(None, not_found, evaluator_error=True) == (NOT_FOUND_LIMIT,)
    assert evaluator_limits(None, not_found, evaluator_error=False) == ()
    assert evaluator_limits(None, ordinary, evaluator_error=True) == ()
