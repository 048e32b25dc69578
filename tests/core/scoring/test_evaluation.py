"""One evaluation without a complete config: guessed URLs, stand-ins, evaluator errors, other datasets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.core.scoring.helpers import (
    MUTATE,
    VOTE,
    assert_provenance_agrees,
    network,
    score,
)
from tests.harness.har_builders import (
    CONFIG,
    REDDIT,
    document,
    entry,
    response_text,
    wav_folder,
)
from webeval_core.reading.task_catalog import default_dataset_path
from webeval_core.scoring import (
    UrlConfig,
    score_trajectory,
)


def test_without_config_the_guessed_urls_are_named(tmp_path: Path) -> None:
    folder = wav_folder(
        tmp_path,
        404,
        MUTATE,
        [document(f"{REDDIT}/f/books"), entry(VOTE, method="POST", form={"choice": "1"})],
    )
    outcome = score_trajectory(folder, config_root=tmp_path)
    assert outcome.status == "success" and outcome.evaluation is not None
    assert outcome.evaluation.url_config.guessed == {"__REDDIT__": [REDDIT]}
    assert any(
        "the evaluator guessed __REDDIT__ = http://localhost:9999 from the HAR" in n for n in outcome.notes
    )
    assert outcome.eval_hash != score(folder, force=True).eval_hash  # guessing is another config


def test_evaluator_error_when_nothing_tells_the_urls(tmp_path: Path) -> None:
    # No config, and only a static asset to guess from: the evaluator refuses (status error).
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(f"{REDDIT}/static/app.js")])
    outcome = score_trajectory(folder, config_root=tmp_path)
    assert_provenance_agrees(outcome)
    assert outcome.status == "error" and outcome.score_file is not None  # the error verdict is kept
    assert "environments missing and network trace unavailable" in (outcome.reason or "")
    assert network(outcome).passed is None
    assert network(outcome).error is not None and "could not run" in network(outcome).error


def test_without_config_or_har_a_retrieve_task_is_still_scored(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 0, response_text("retrieve", data=["Quest Lumaflex™ Band"]), None)
    outcome = score_trajectory(folder, config_root=tmp_path)
    assert outcome.status == "success"
    assert any("no URL mapping for __SHOPPING_ADMIN__ and no HAR" in n for n in outcome.notes)


def test_published_naming_is_scored_through_the_mapping(tmp_path: Path, official: Any) -> None:
    answer = response_text("mutate", data=None, naming="action")
    folder = wav_folder(tmp_path, 404, answer, [entry(VOTE, method="POST", form={"choice": "1"})])
    outcome = score(folder)
    assert outcome.status == "success"
    assert official(folder)["status"] == "failure"  # the official CLI does not read `action`
    assert outcome.evaluation is not None and outcome.evaluation.agent_response is not None
    assert outcome.evaluation.agent_response.naming == "action/results"


def test_another_dataset_file(tmp_path: Path) -> None:
    raw = json.loads(default_dataset_path().read_text())
    subset = tmp_path / "tasks.json"
    subset.write_text(json.dumps([t for t in raw if t["task_id"] in (0, 404)]))
    folder = wav_folder(tmp_path / "run", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    outcome = score(folder, catalog=subset)
    assert outcome.status == "success"
    assert outcome.eval_hash != score(folder, force=True).eval_hash


def test_dataset_the_evaluator_rejects(tmp_path: Path) -> None:
    raw = json.loads(default_dataset_path().read_text())
    task = next(t for t in raw if t["task_id"] == 404)
    subset = tmp_path / "tasks.json"
    subset.write_text(json.dumps([{**task, "comment": "extra keys are refused upstream"}]))
    folder = wav_folder(tmp_path / "run", 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    outcome = score_trajectory(folder, config=UrlConfig.from_dict(CONFIG), catalog=subset)
    assert outcome.status == "error" and "the evaluator rejects this dataset file" in (outcome.reason or "")
