"""The WebArena-Verified verdict of a trajectory, read back from its score files.

`scoring` writes `scores/<eval_hash>.json`; the index reads the verdict (and its failure-taxonomy
tags) from there, or from the official CLI's `eval_result.json`, without importing the engine.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.scorefiles import ScoreFile

ENGINE_NAME = "webarena-verified"  # = scoring.ENGINE_NAME; importing scoring would slow every index build
EVAL_RESULT_SOURCE = "eval_result.json"  # the official CLI's verdict, beside agent_response.json

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

    model_config = ConfigDict(frozen=True)

    source: str
    """Score file stem, or "eval_result.json"."""
    status: str | None
    """Success | failure | error | partial_match."""
    score: float | None
    tags: tuple[str, ...] = ()


def read_verdict(scores: Mapping[str, ScoreFile], eval_result: Mapping[str, Any] | None) -> Verdict | None:
    """The newest WebArena-Verified score file's verdict, else the official CLI's eval_result.json."""
    ours = [sf for sf in scores.values() if _is_evaluation(sf.response)]
    if ours:
        newest = max(ours, key=lambda sf: (_mtime(sf), sf.name))
        evaluation: Mapping[str, Any] = newest.response  # type: ignore[assignment]
        result = evaluation.get("result") or {}
        return Verdict(
            source=newest.name,
            status=result.get("status"),
            score=newest.score,
            tags=_result_tags(result, evaluation.get("agent_response"), evaluation.get("network")),
        )
    if isinstance(eval_result, Mapping) and "evaluators_results" in eval_result:
        score = eval_result.get("score")
        return Verdict(
            source=EVAL_RESULT_SOURCE,
            status=eval_result.get("status"),
            score=float(score) if isinstance(score, int | float) else None,
            tags=_result_tags(eval_result, None, None),
        )
    return None


def _is_evaluation(response: object) -> bool:
    if not isinstance(response, Mapping) or not isinstance(response.get("result"), Mapping):
        return False
    engine = response.get("engine")
    return isinstance(engine, Mapping) and engine.get("name") == ENGINE_NAME


def _mtime(score_file: ScoreFile) -> float:
    try:
        return os.stat(score_file.path).st_mtime
    except OSError:
        return 0.0


def _result_tags(result: Mapping[str, Any], response: Any, network: Any) -> tuple[str, ...]:
    """Taxonomy tags of one official result; our network provenance refines missing vs mismatched."""
    tags: set[str] = set()
    if result.get("status") == "error":
        tags.add(SCORING_ERROR)
    if isinstance(response, Mapping):
        if response.get("findings"):
            tags.add(SCHEMA_VIOLATIONS)
        if response.get("parse_error"):
            tags.add(UNPARSEABLE)
    traced = isinstance(network, list) and bool(network)
    if traced:
        for check in network:
            if isinstance(check, Mapping) and check.get("passed") is False:
                if check.get("should_not_exist"):
                    tags.add(NETWORK_FORBIDDEN)
                else:
                    tags.add(NETWORK_MISMATCHED if check.get("candidates") else NETWORK_MISSING)
    for evaluator in result.get("evaluators_results") or ():
        for assertion in (evaluator.get("assertions") or ()) if isinstance(evaluator, Mapping) else ():
            if isinstance(assertion, Mapping) and assertion.get("status") != "success":
                tag = _assertion_tag(str(assertion.get("assertion_name", "")), assertion, traced)
                if tag:
                    tags.add(tag)
    return tuple(t for t in TAGS if t in tags)


def _assertion_tag(name: str, assertion: Mapping[str, Any], traced: bool) -> str | None:
    if name.startswith("agent_response.task_type") or name.startswith("agent_response.performed_operation"):
        return WRONG_TASK_TYPE
    if name.startswith("agent_response.status"):
        return WRONG_STATUS
    if name.startswith("retrieved_data"):
        return WRONG_VALUES
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
        messages = " ".join(assertion.get("assertion_msgs") or ())
        return NETWORK_MISMATCHED if "Checked" in messages else NETWORK_MISSING
    return None
