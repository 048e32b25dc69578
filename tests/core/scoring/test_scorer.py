"""Scoring folders: aborted and unanswered runs, bad input in a batch, parallel and interrupted batches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.core.scoring.helpers import (
    MUTATE,
    VOTE,
    assert_provenance_agrees,
    mixed_run,
    network,
    score,
)
from tests.harness.builders import fara_folder, write_final_answer
from tests.harness.har_builders import (
    CONFIG,
    GITLAB,
    document,
    entry,
    response_text,
    wav_folder,
    write_config,
    write_har,
)
from webeval_core.scoring import (
    ScoreOutcome,
    UrlConfig,
    score_trajectories,
)


def test_aborted_is_excluded_and_no_answer_is_a_failure(tmp_path: Path) -> None:
    aborted = fara_folder(tmp_path / "a", "404", final_answer=None)
    excluded = score(aborted)
    assert excluded.status == "excluded" and excluded.score is None and excluded.score_file is None
    assert not (aborted / "scores").exists()
    over_budget = fara_folder(tmp_path / "b", "404", final_answer="<no_answer>")
    write_har(over_budget / "network.har", [entry(VOTE, method="POST", form={"choice": "1"}, at=20)])
    outcome = score(over_budget)
    assert outcome.status == "failure" and outcome.score == 0.0
    assert outcome.reason is not None and outcome.reason.startswith("no answer")
    assert outcome.score_file is not None and json.loads(outcome.score_file.read_text())["score"] == 0.0
    assert network(outcome).passed  # the vote did happen; the provenance still says so
    flagged = fara_folder(tmp_path / "c", "404", final_answer=MUTATE)
    write_final_answer(flagged, "404", MUTATE, is_aborted=True)
    assert score(flagged).status == "excluded"


# --- bad input never stops a batch --------------------------------------------------------------


BadBatch = tuple[list[Path], list[ScoreOutcome], list[tuple[int, int]]]


@pytest.fixture(scope="module")
def bad_batch(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[list[Path], list[Any], list[tuple[int, int]]]:
    """A batch mixing a good folder with every kind of bad input, scored once for all cases."""
    root = tmp_path_factory.mktemp("bad") / "run"
    vote = [entry(VOTE, method="POST", form={"choice": "1"})]
    good = wav_folder(root, 404, MUTATE, vote)
    unknown = wav_folder(root, 99999, MUTATE, vote)
    not_an_id = wav_folder(root, "notes", MUTATE, vote)
    no_har = wav_folder(root, 405, MUTATE, None)
    truncated = wav_folder(root, 406, MUTATE, vote)
    (truncated / "network.har").write_text((truncated / "network.har").read_text()[:-30])
    empty = wav_folder(root, 399, MUTATE, [])
    prose = wav_folder(root, 397, "I forked the repository.", [document(f"{GITLAB}/", at=1)])
    retrieve_no_har = wav_folder(root, 0, response_text("retrieve", data=["Quest Lumaflex™ Band"]), None)
    retrieve_bad_har = wav_folder(root, 1, response_text("retrieve", data=["x"]), vote)
    (retrieve_bad_har / "network.har").write_text("{")
    write_config(root / "webarena-verified-config.json")
    folders = [good, unknown, not_an_id, no_har, truncated, empty, prose, retrieve_no_har, retrieve_bad_har]
    seen: list[tuple[int, int]] = []
    outcomes = score_trajectories(folders, config_root=root, on_progress=lambda d, t: seen.append((d, t)))
    return folders, outcomes, seen


def test_batch_with_bad_inputs_keeps_order_and_progress(bad_batch: BadBatch) -> None:
    folders, outcomes, seen = bad_batch
    assert [o.path for o in outcomes] == folders
    assert seen[0] == (0, 9) and seen[-1] == (9, 9)
    for outcome in outcomes:
        assert_provenance_agrees(outcome)
        # Every verdict of a known task is written, errors included; input errors are not.
        assert (outcome.score_file is not None) == (outcome.evaluation is not None)


@pytest.mark.parametrize(
    ("folder", "status", "reason_parts", "reason", "note", "has_score_file"),
    [
        pytest.param("404", "success", (), None, None, None, id="good"),
        pytest.param("99999", "error", ("'99999' is not a task id",), None, None, False, id="unknown-task"),
        pytest.param("notes", "error", ("not a task id",), None, None, None, id="not-an-id"),
        pytest.param(
            "405",
            "error",
            (),
            "no network.har in the folder, and task 405 has 1 network check(s)",
            None,
            True,
            id="no-har",
        ),
        pytest.param("406", "error", ("looks truncated",), None, None, None, id="truncated-har"),
        pytest.param("399", "error", ("has no entries",), None, None, None, id="empty-har"),
        # the evaluator's own verdict on plain text
        pytest.param(
            "397",
            "failure",
            ("agent_response_invalid_format", "no JSON object found"),
            None,
            None,
            None,
            id="prose-answer",
        ),
        # Tasks without network checks do not need the HAR.
        pytest.param("0", "success", (), None, None, True, id="retrieve-without-har"),
        pytest.param("1", "failure", (), None, "scored without it", None, id="retrieve-with-bad-har"),
    ],
)
def test_batch_with_bad_inputs(
    bad_batch: BadBatch,
    folder: str,
    status: str,
    reason_parts: tuple[str, ...],
    reason: str | None,
    note: str | None,
    has_score_file: bool | None,
) -> None:
    _, outcomes, _ = bad_batch
    outcome = next(o for o in outcomes if o.path.name == folder)
    assert outcome.status == status
    for part in reason_parts:
        assert part in (outcome.reason or "")
    if reason is not None:
        assert outcome.reason == reason
    if note is not None:
        assert any(note in n for n in outcome.notes)
    if has_score_file is not None:
        assert (outcome.score_file is not None) == has_score_file


def test_parallel_batch_matches_sequential(tmp_path: Path) -> None:
    folders = mixed_run(tmp_path / "run")
    sequential = score_trajectories(folders, write=False)
    parallel = score_trajectories(folders, jobs=2, write=False)
    assert [(o.path, o.status, o.score, o.reason) for o in parallel] == [
        (o.path, o.status, o.score, o.reason) for o in sequential
    ]


def test_interrupted_batch_leaves_only_complete_score_files(tmp_path: Path) -> None:
    root = tmp_path / "run"
    vote = [entry(VOTE, method="POST", form={"choice": "1"})]
    folders = [wav_folder(root, task_id, MUTATE, vote) for task_id in range(404, 424)]

    def interrupt(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        score_trajectories(folders, config=UrlConfig.from_dict(CONFIG), jobs=2, on_progress=interrupt)
    written = [p for folder in folders for p in (folder / "scores").glob("*")]
    assert len(written) >= 3
    for path in written:
        assert path.suffix == ".json" and not path.name.startswith(".")
        assert json.loads(path.read_text())["score"] in (0.0, 1.0)


def test_another_benchmarks_task_is_excluded_not_an_error(tmp_path: Path) -> None:
    from webeval_core.scoring import summarize_scores

    folder = fara_folder(tmp_path / "WebTailBench_hf" / "traj", "alltrails_find_23")
    outcome = score(folder)
    assert (outcome.status, outcome.score, outcome.score_file) == ("excluded", None, None)
    assert outcome.reason is not None and outcome.reason.startswith(
        "no official evaluator for this benchmark"
    )
    tally = summarize_scores([outcome]).overall
    assert (tally.error, tally.excluded, tally.scored) == (0, 1, 0)


def test_a_cube_harness_episode_is_scored_by_its_submitted_response(tmp_path: Path) -> None:
    # cube-harness's WebArena-Verified agent answers by submit_response; its arguments are the
    # response the official evaluator scores (task 11 counts 6 reviews and has no network checks).
    from tests.harness.cube_writer import CubeStep, submit, write_episode

    def episode(count: int, name: str) -> Path:
        answer = submit({"task_type": "retrieve", "status": "success", "retrieved_data": [count]})
        return write_episode(
            tmp_path / name, "webarena_verified.11", [CubeStep("click", {"bid": "a1"}), answer]
        )

    right, wrong = score(episode(6, "right")), score(episode(5, "wrong"))
    assert (right.status, right.score) == ("success", 1.0)
    assert (wrong.status, wrong.score) == ("failure", 0.0)
    response = wrong.evaluation.agent_response if wrong.evaluation else None
    assert response is not None and json.loads(response.engine_input)["retrieved_data"] == [5]
