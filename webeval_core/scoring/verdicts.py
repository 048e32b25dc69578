"""The WebArena-Verified verdict of a trajectory, read back from its score files.

`scoring` writes `scores/<eval_hash>.json`; the index reads the verdict (and its failure-taxonomy
tags) from there, or from the official CLI's `eval_result.json`, without importing the engine.
Both are read through the typed result (`scoring.results`), tolerantly: these files may come from
older versions or other tools, and an unreadable one is simply not a verdict.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from webeval_core.reading.markers import EVAL_RESULT_NAME
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.scoring.results import (
    ENGINE_NAME,
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
    return _tags(
        errored=result.status == EvalStatus.ERROR,
        response=(bool(response.findings), bool(response.parse_error)) if response is not None else None,
        checks=[(c.passed, c.should_not_exist, bool(c.candidates)) for c in network or ()],
        failed=[
            (a.assertion_name, a.messages)
            for evaluator in result.evaluators_results
            for a in evaluator.failed_assertions
        ],
    )


def _tags(
    *,
    errored: bool,
    response: tuple[bool, bool] | None,
    checks: Sequence[tuple[bool | None, bool, bool]],
    failed: Iterable[tuple[str, Sequence[str]]],
) -> tuple[str, ...]:
    """The tags of a result's facts: whether it errored; the response's (has schema findings, has a
    parse error); each network check's (passed, should not exist, has candidates); each failed
    assertion's (name, messages).
    """
    tags: set[str] = set()
    if errored:
        tags.add(SCORING_ERROR)
    if response is not None:
        if response[0]:
            tags.add(SCHEMA_VIOLATIONS)
        if response[1]:
            tags.add(UNPARSEABLE)
    for passed, should_not_exist, candidates in checks:
        if passed is False:
            if should_not_exist:
                tags.add(NETWORK_FORBIDDEN)
            else:
                tags.add(NETWORK_MISMATCHED if candidates else NETWORK_MISSING)
    traced = bool(checks)
    for name, messages in failed:
        tag = _assertion_tag(name, messages, traced)
        if tag:
            tags.add(tag)
    return tuple(t for t in TAGS if t in tags)


def _assertion_tag(name: str, messages: Sequence[str], traced: bool) -> str | None:
    if name.startswith(("agent_response.task_type", "agent_response.performed_operation")):
        return WRONG_TASK_TYPE
    if name.startswith("agent_response.status"):
        return WRONG_STATUS
    if name.startswith("retrieved_data"):
        return WRONG_VALUES
    return _other_assertion_tag(name, messages, traced)


def _other_assertion_tag(name: str, messages: Sequence[str], traced: bool) -> str | None:
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
        return NETWORK_MISMATCHED if "Checked" in " ".join(messages) else NETWORK_MISSING
    return None


def stored_task_result(response: object) -> TaskResult | None:
    """The official result inside a score file we wrote; None for any other judge's file."""
    stored = _stored(response)
    return stored.result if stored is not None else None


# --- a stored evaluation read from its JSON as it is (the index's quick summary) ---------------

_STATUSES = frozenset(status.value for status in EvalStatus)
_RESULT_INTS = ("task_id", "intent_template_id", "task_revision")
_RESULT_TEXTS = (
    "error_msg",
    "webarena_verified_version",
    "webarena_verified_evaluator_checksum",
    "webarena_verified_data_checksum",
)


class _NotPlainError(Exception):
    """A value the models would coerce or refuse: validating decides, not this."""


def plain_verdict(name: str, score: float | None, response: Mapping[str, Any]) -> Verdict | None:
    """The verdict `read_verdict` gives when `response` (the decoded JSON of score file `name`, of
    score `score`) is the folder's only stored evaluation, read without validating it: None unless
    every value it validates is already of its type (no coercion, no error) and the file is ours.
    """
    try:
        engine, result = response["engine"], response["result"]
        if type(engine) is not dict or engine.get("name") != ENGINE_NAME or type(result) is not dict:
            return None
        failed = _plain_result(result)
        facts = _tags(
            errored=result["status"] == EvalStatus.ERROR.value,
            response=_plain_response(response.get("agent_response")),
            checks=_plain_checks(response.get("network")),
            failed=failed,
        )
    except (_NotPlainError, KeyError):
        return None
    return Verdict(source=name, status=result["status"], score=score, tags=facts)


def _plain_result(result: dict[str, Any]) -> list[tuple[str, Sequence[str]]]:
    """A `TaskResult` held as it is: its failed assertions (name, messages)."""
    _status(result)
    for key in _RESULT_INTS:
        _optional(result.get(key), int)
    for key in _RESULT_TEXTS:
        _optional(result.get(key), str)
    _optional(result.get("score"), int, float)
    _texts(result.get("sites", []))
    failed: list[tuple[str, Sequence[str]]] = []
    for evaluator in _list(result.get("evaluators_results", [])):
        failed.extend(_plain_evaluator(evaluator))
    return failed


def _plain_evaluator(evaluator: object) -> list[tuple[str, Sequence[str]]]:
    """An `EvaluatorResult` held as it is: its failed assertions (name, messages)."""
    if type(evaluator) is not dict or type(evaluator.get("evaluator_name", "")) is not str:
        raise _NotPlainError
    _status(evaluator)
    _optional(evaluator.get("score"), int, float)
    _optional(evaluator.get("error_msg"), str)
    _optional(evaluator.get("should_not_exist"), bool)
    assertions = evaluator.get("assertions")
    failed: list[tuple[str, Sequence[str]]] = []
    for assertion in _list(assertions) if assertions is not None else []:
        if type(assertion) is not dict:
            raise _NotPlainError
        name, given = assertion.get("assertion_name", ""), assertion.get("assertion_msgs")
        if type(name) is not str:
            raise _NotPlainError
        _optional(assertion.get("error_msg"), str)
        messages = _texts(given) if given is not None else []
        if _status(assertion) != EvalStatus.SUCCESS.value:
            failed.append((name, messages))
    return failed


def _plain_response(response: object) -> tuple[bool, bool] | None:
    """A `_StoredResponse` held as it is: (has findings, has a parse error); None without one."""
    if response is None:
        return None
    if type(response) is not dict:
        raise _NotPlainError
    _optional(response.get("parse_error"), str)
    return bool(_texts(response.get("findings", []))), bool(response.get("parse_error"))


def _plain_checks(network: object) -> list[tuple[bool | None, bool, bool]]:
    """`_StoredCheck`s held as they are: (passed, should not exist, has candidates) of each."""
    checks = []
    for check in _list(network) if network is not None else []:
        if type(check) is not dict:
            raise _NotPlainError
        passed, forbidden = check.get("passed"), check.get("should_not_exist", False)
        _optional(passed, bool)
        if type(forbidden) is not bool:
            raise _NotPlainError
        checks.append((passed, forbidden, bool(_list(check.get("candidates", [])))))
    return checks


def _status(holder: dict[str, Any]) -> str:
    status = holder["status"]
    if type(status) is not str or status not in _STATUSES:
        raise _NotPlainError
    return status


def _optional(value: object, *kinds: type) -> None:
    """Refuse `value` unless it is None or exactly of one of `kinds` (no bool for an int)."""
    if value is not None and type(value) not in kinds:
        raise _NotPlainError


def _list(value: object) -> list[Any]:
    if type(value) is not list:
        raise _NotPlainError
    return value


def _texts(value: object) -> list[str]:
    items = _list(value)
    if any(type(item) is not str for item in items):
        raise _NotPlainError
    return items
