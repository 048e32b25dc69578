"""Shared by the scoring tests: trajectories scored with the sample config, and the checks that
the network provenance agrees with the official verdict."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.harness.builders import fara_folder
from tests.harness.datasets import score_file_diff
from tests.harness.har_builders import (
    CONFIG,
    GITLAB,
    REDDIT,
    document,
    entry,
    response_text,
    wav_folder,
    write_config,
    write_har,
)
from webeval_core.scoring import NetworkCheckTrace, ScoreOutcome, UrlConfig, score_trajectory
from webeval_core.scoring.flips import FlipReport

MUTATE = response_text("mutate")
NAVIGATE = response_text("navigate")
BIO = f"{REDDIT}/user/MarvelsGrantMan136/edit_biography"
VOTE = f"{REDDIT}/sv/124260.json"
REFUND = "I need a refund. Order: 180. Amount: $12.99. Reason: It broke after three days of use."
CONTACT_FORM = {
    "form_id": "contact-form",
    "name": "Emma Lopez",
    "email": "emma.lopez@gmail.com",
    "comment": REFUND,
}
ISSUE = f"{GITLAB}/a11yproject/a11yproject.com/-/issues/1478.json"


def score(folder: Path, config: UrlConfig | Path | None = None, **kwargs: Any) -> ScoreOutcome:
    outcome = score_trajectory(
        folder, config=config if config is not None else UrlConfig.from_dict(CONFIG), **kwargs
    )
    assert_provenance_agrees(outcome)
    return outcome


def assert_provenance_agrees(outcome: ScoreOutcome) -> None:
    """Provenance says "kept entry i, all fields match" exactly when the evaluator passed."""
    if outcome.evaluation is None:
        return
    results = outcome.evaluation.result.evaluators_results
    for trace in outcome.evaluation.network:
        if trace.position >= len(results):  # the evaluator stopped before this check
            assert trace.passed is None and trace.error is not None
            continue
        official = results[trace.position].status
        assert results[trace.position].evaluator_name == "NetworkEventEvaluator"
        assert trace.official_status == official
        if official == "error":
            assert trace.passed is None
            continue
        assert trace.passed == (official == "success"), trace.explanation
        if trace.should_not_exist:
            assert (not trace.kept) == (official == "success")
            continue
        assert (trace.matched is not None) == (official == "success")
        for candidate in trace.candidates:
            if candidate.matched is not None:
                assert candidate.matched == all(f.matches for f in candidate.fields)
        if trace.matched is not None:
            kept = next(c for c in trace.candidates if c.har_index == trace.matched)
            assert kept.kept and kept.matched
            assert trace.explanation.startswith(f"Kept entry {trace.matched} ")


def network(outcome: ScoreOutcome, position: int = 1) -> NetworkCheckTrace:
    assert outcome.evaluation is not None
    return next(t for t in outcome.evaluation.network if t.position == position)


def same_as_official(outcome: ScoreOutcome, official: Callable[[Path], dict[str, Any]]) -> None:
    assert outcome.evaluation is not None
    assert outcome.evaluation.result.model_dump(mode="json") == official(outcome.path)


def mixed_run(root: Path) -> list[Path]:
    vote = [entry(VOTE, method="POST", form={"choice": "1"})]
    folders = [wav_folder(root, 404, MUTATE, vote), wav_folder(root, 405, MUTATE, vote)]
    folders.append(wav_folder(root, 0, response_text("retrieve", data=["Quest Lumaflex™ Band"]), None))
    folders.append(wav_folder(root, 44, NAVIGATE, [document(f"{GITLAB}/dashboard/todos")]))
    folders.append(wav_folder(root, 45, NAVIGATE, [document(f"{GITLAB}/")]))
    folders.append(wav_folder(root, 99999, MUTATE, vote))
    folders.append(fara_folder(root, "397", final_answer=None))
    folders.append(fara_folder(root, "396", final_answer="<no_answer>"))
    write_har(folders[-1] / "network.har", [document(f"{GITLAB}/")])
    write_config(root / "webarena-verified-config.json")
    return folders


CHANGED = ("11", "108", "157", "238", "556")
"""Tasks of the sample corrected in the copy of the dataset (those checking the response)."""


def check_flips(root: Path, report: FlipReport, tasks: list[int]) -> None:
    """The report's flips are the score files' diff, each of a corrected task; both sides named."""
    ((old, before),) = report.before.items()
    ((new, after),) = report.after.items()
    assert old != new
    flipped = {f.folder for f in report.flips}
    assert flipped and flipped == score_file_diff(root, old, new)
    assert {f.task_id for f in report.flips} <= {str(t) for t in tasks}
    assert all(f.before.source == old and f.after.source == new for f in report.flips)
    assert before.version == after.version and before.data_checksum != after.data_checksum
    assert before.evaluator_checksum == after.evaluator_checksum
    assert str(len(report.flips)) in report.summary()
