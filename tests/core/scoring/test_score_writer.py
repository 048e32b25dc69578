"""Score files: their shape, byte-stable rewriting, reuse while inputs are unchanged, atomic writes."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.core.scoring.helpers import (
    MUTATE,
    NAVIGATE,
    VOTE,
    score,
)
from tests.harness.builders import snapshot
from tests.harness.har_builders import (
    CONFIG,
    GITLAB,
    REDDIT,
    document,
    entry,
    wav_folder,
    write_har,
    xhr,
)
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.scoring import (
    Evaluation,
    UrlConfig,
    score_trajectory,
    score_writer,
)


def test_score_file_shape_and_byte_identical_rescoring(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    before = {k: v for k, v in snapshot(folder).items() if not k.startswith("scores")}
    outcome = score(folder)
    assert outcome.eval_hash is not None
    assert re.fullmatch(r"webarena-verified-1\.2\.3-[0-9a-f]{8}", outcome.eval_hash)
    assert outcome.score_file == folder / "scores" / f"{outcome.eval_hash}.json"
    first = outcome.score_file.read_bytes()
    document_ = json.loads(first)
    assert set(document_) == {"score", "gpt_response_text"} and document_["score"] == 1.0
    payload = json.loads(document_["gpt_response_text"])
    assert payload["result"]["status"] == "success" and payload["engine"]["eval_hash"] == outcome.eval_hash
    assert payload["network"][0]["matched"] == 0
    again = score(folder, force=True)
    assert not again.reused and again.score_file is not None and again.score_file.read_bytes() == first
    assert {k: v for k, v in snapshot(folder).items() if not k.startswith("scores")} == before
    assert os.listdir(folder / "scores") == [f"{outcome.eval_hash}.json"]


def test_up_to_date_score_files_are_reused_until_an_input_changes(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    assert not score(folder).reused
    reused = score(folder)
    assert reused.reused and reused.status == "success" and reused.evaluation is not None
    write_har(folder / "network.har", [entry(VOTE, method="POST", form={"choice": "0"})])
    changed = score(folder)
    assert not changed.reused and changed.status == "failure"
    assert json.loads(changed.score_file.read_text())["score"] == 0.0  # type: ignore[union-attr]


def test_another_config_writes_beside_the_older_verdict(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])
    first = score(folder)
    other = UrlConfig.from_dict({"environments": {"__REDDIT__": {"urls": [REDDIT, "http://reddit.example"]}}})
    second = score(folder, config=other)
    assert first.eval_hash != second.eval_hash
    assert sorted(os.listdir(folder / "scores")) == sorted(
        [f"{first.eval_hash}.json", f"{second.eval_hash}.json"]
    )


def test_interrupted_write_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = wav_folder(tmp_path, 404, MUTATE, [entry(VOTE, method="POST", form={"choice": "1"})])

    def interrupted(src: str, dst: str, **dir_fds: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(score_writer.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        score_trajectory(folder, config=UrlConfig.from_dict(CONFIG))
    assert os.listdir(folder / "scores") == []


def test_evaluation_round_trips_through_the_score_file(tmp_path: Path) -> None:
    folder = wav_folder(
        tmp_path, 44, NAVIGATE, [xhr(f"{GITLAB}/dashboard/todos", at=1), document(f"{GITLAB}/", at=2)]
    )
    outcome = score(folder)
    assert outcome.score_file is not None and outcome.evaluation is not None
    stored = Evaluation.model_validate_json(json.loads(outcome.score_file.read_text())["gpt_response_text"])
    assert stored == outcome.evaluation
    assert load_catalog().get(44) is not None
