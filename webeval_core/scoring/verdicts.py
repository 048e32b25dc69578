"""The WebArena-Verified verdict of a trajectory, read back from its score files.

`scoring` writes `scores/<eval_hash>.json`; the index reads the verdict (and its failure-taxonomy
tags) from there, or from the official CLI's `eval_result.json`, without importing the engine.
Both are read through the typed result (`scoring.results`), tolerantly: these files may come from
older versions or other tools, and an unreadable one is simply not a verdict.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from webeval_core.reading.folderreader import EVAL_RESULT_NAME
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.scoring.results import (
    ENGINE_NAME,
    AssertionResult,
    EvalStatus,
    TaskResult,
    parse_task_result,
)

# Failure-taxonomy tags, in the order charts list them.
WRONG_TASK_TYPE = "wrong task type"
WRONG_STATUS = "wrong status"
WRONG_VALUES = "wrong values"
UNPARSEABLE = "unparseable response"
SCHEMA_VIOLATIONS = "schema violations"
NETWORK_MISSING = "network request missing"
NETWORK_MISMATCHED = "network request mismatched"
NETWORK_FORBIDDEN = "forbidden request made"
NO_ANSWER = "no answer"
ABORTED = "aborted"
SCORING_ERROR = "scoring error"
CORE_LOG_PREFIX = "core.log: "
TAGS = (
    WRONG_TASK_TYPE,
    WRONG_STATUS,
    WRONG_VALUES,
    UNPARSEABLE,
    SCHEMA_VIOLATIONS,
    NETWORK_MISSING,
    NETWORK_MISMATCHED,
    NETWORK_FORBIDDEN,
    NO_ANSWER,
    ABORTED,
    SCORING_ERROR,
)


class Verdict(BaseModel):
    """The WebArena-Verified verdict of one trajectory, reduced to what lists and charts need."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    """Score file stem, or "eval_result.json"."""
    status: str | None
    """Success | failure | error | partial_match."""
    score: float | None
    """The stored score; None when the source has none."""
    tags: tuple[str, ...] = ()
    """Failure-taxonomy tags, in TAGS order."""


# A stored Evaluation read for its verdict only: older or hand-made score files may lack what
# the full model requires, and must still give their verdict.
class _StoredEngine(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str | None = None
    """The engine that wrote the file."""


class _StoredResponse(BaseModel):
    model_config = ConfigDict(frozen=True)

    findings: tuple[str, ...] = ()
    """Violations of the published response schema."""
    parse_error: str | None = None
    """Why no response object was found in the answer."""


class _StoredCheck(BaseModel):
    model_config = ConfigDict(frozen=True)

    passed: bool | None = None
    """The network check passed; None when the evaluator errored."""
    should_not_exist: bool = False
    """The request must not happen."""
    candidates: tuple[Any, ...] = ()
    """The requests that passed the check's filter."""


class _StoredEvaluation(BaseModel):
    model_config = ConfigDict(frozen=True)

    engine: _StoredEngine
    """The engine that wrote the file."""
    result: TaskResult
    """The official result."""
    agent_response: _StoredResponse | None = None
    """The parsed response, when there was an answer."""
    network: tuple[_StoredCheck, ...] | None = None
    """Network provenance, one per check."""


def read_verdict(scores: Mapping[str, ScoreFile], eval_result: Mapping[str, Any] | None) -> Verdict | None:
    """The newest WebArena-Verified score file's verdict, else the official CLI's eval_result.json."""
    found = read_verdict_with_result(scores, eval_result)
    return found[0] if found is not None else None


def read_verdict_with_result(
    scores: Mapping[str, ScoreFile], eval_result: Mapping[str, Any] | None
) -> tuple[Verdict, TaskResult] | None:
    """`read_verdict`'s verdict and the typed official result it was read from."""
    ours = [(sf, ev) for sf in scores.values() if (ev := _stored(sf.response)) is not None]
    if ours:
        # Files are dated only to choose among several: most folders hold one (a stat spared).
        newest, evaluation = ours[0] if len(ours) == 1 else max(ours, key=lambda p: (_mtime(p[0]), p[0].name))
        verdict = Verdict(
            source=newest.name,
            status=evaluation.result.status.value,
            score=newest.score,
            tags=_result_tags(evaluation.result, evaluation.agent_response, evaluation.network),
        )
        return verdict, evaluation.result
    result = parse_task_result(eval_result)
    if result is None:
        return None
    verdict = Verdict(
        source=EVAL_RESULT_NAME,
        status=result.status.value,
        score=result.score,
        tags=_result_tags(result, None, None),
    )
    return verdict, result


def _stored(response: object) -> _StoredEvaluation | None:
    if not isinstance(response, Mapping) or not isinstance(response.get("engine"), Mapping):
        return None
    try:
        evaluation = _StoredEvaluation.model_validate(response)
    except ValidationError:
        return None
    return evaluation if evaluation.engine.name == ENGINE_NAME else None


def _mtime(score_file: ScoreFile) -> float:
    try:
        return os.stat(score_file.path).st_mtime
    except OSError:
        return 0.0


def _result_tags(
    result: TaskResult, response: _StoredResponse | None, network: tuple[_StoredCheck, ...] | None
) -> tuple[str, ...]:
    """Taxonomy tags of one official result; our network provenance refines missing vs mismatched."""
    tags: set[str] = set()
    if result.status == EvalStatus.ERROR:
        tags.add(SCORING_ERROR)
    if response is not None:
        if response.findings:
            tags.add(SCHEMA_VIOLATIONS)
        if response.parse_error:
            tags.add(UNPARSEABLE)
    traced = bool(network)
    for check in network or ():
        if check.passed is False:
            if check.should_not_exist:
                tags.add(NETWORK_FORBIDDEN)
            else:
                tags.add(NETWORK_MISMATCHED if check.candidates else NETWORK_MISSING)
    for evaluator in result.evaluators_results:
        for assertion in evaluator.failed_assertions:
            tag = _assertion_tag(assertion, traced)
            if tag:
                tags.add(tag)
    return tuple(t for t in TAGS if t in tags)


def _assertion_tag(assertion: AssertionResult, traced: bool) -> str | None:
    name = assertion.assertion_name
    if name.startswith(("agent_response.task_type", "agent_response.performed_operation")):
        return WRONG_TASK_TYPE
    if name.startswith("agent_response.status"):
        return WRONG_STATUS
    if name.startswith("retrieved_data"):
        return WRONG_VALUES
    return _other_assertion_tag(assertion, traced)


def _other_assertion_tag(assertion: AssertionResult, traced: bool) -> str | None:
    name = assertion.assertion_name
    if name == "agent_response_invalid_format":
        return UNPARSEABLE
    if name == "agent_response_none_mismatch":
        return NO_ANSWER
    if traced:
        return None  # network assertions are already classified from the provenance
    if name == "unexpected_navigation_event":
        return NETWORK_FORBIDDEN
    if name == "missing_navigation_event":
        # "Checked N event(s) but none matched" means candidates existed; otherwise none did.
        return NETWORK_MISMATCHED if "Checked" in " ".join(assertion.messages) else NETWORK_MISSING
    return None


def stored_task_result(response: object) -> TaskResult | None:
    """The official result inside a score file we wrote; None for any other judge's file."""
    stored = _stored(response)
    return stored.result if stored is not None else None
