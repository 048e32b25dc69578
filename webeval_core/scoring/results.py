"""The official evaluator's result as typed models, without importing the evaluator.

`webarena_verified` returns a TaskEvalResult; its CLI writes the same shape to `eval_result.json`
and we store it in every score file. These models mirror that shape (see
`webarena_verified/types/eval.py`) so every reader (verdicts, tables, the HTML page, the app)
reads attributes instead of string keys, and so the index can read verdicts without loading the
engine (it takes most of a second).

A result is parsed once where it enters: from the evaluator (`scoring.official` converts it), from
a stored score file, or from the official CLI's `eval_result.json`. Reading is tolerant, since
others write these files: missing optional keys get defaults and unknown keys are kept (and
listed by `unknown_keys`), never fatal. A result dumps exactly the keys it was read with, so a
score file written from a parsed result has the same bytes as one written from the official dict.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, ValidationError, model_serializer

ENGINE_NAME = "webarena-verified"
"""The engine name our score files record; verdicts recognise our score files by it."""

RESPONSE_EVALUATOR = "AgentResponseEvaluator"
"""The official evaluator of the agent's response (the others check network requests)."""


class EvalStatus(StrEnum):
    """The official evaluation status (`webarena_verified.types.eval.EvalStatus`)."""

    SUCCESS = "success"
    PARTIAL_MATCH = "partial_match"
    FAILURE = "failure"
    ERROR = "error"


class _AsRead(BaseModel):
    """Dumps only the keys it was read or built with, unknown ones included.

    The official model dumps some `None` values and drops others (its evaluator results have a
    custom serializer), so neither `exclude_none` nor a full dump reproduces it; the keys that
    were present do.
    """

    # Others write this shape: a newer evaluator may add keys, which must survive a round trip.
    model_config = ConfigDict(frozen=True, extra="allow", use_enum_values=False)

    @model_serializer(mode="wrap")
    def _dump_as_read(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        present = self.model_fields_set | set(self.model_extra or {})
        return {key: value for key, value in data.items() if key in present}

    @property
    def unknown_keys(self) -> tuple[str, ...]:
        """Keys the official shape does not have (kept, and dumped back unchanged)."""
        return tuple(sorted(self.model_extra or {}))


class AssertionResult(_AsRead):
    """One assertion of one evaluator (`EvalAssertion`)."""

    assertion_name: str = ""
    """E.g. "agent_response.task_type_mismatch" or "missing_navigation_event"."""
    status: EvalStatus
    """Whether this assertion held."""
    assertion_msgs: tuple[str, ...] | None = None
    """What the evaluator says about it (expected vs got)."""
    error_msg: str | None = None
    """Why the assertion could not be checked, when its status is error."""

    @property
    def passed(self) -> bool:
        """The assertion held."""
        return self.status == EvalStatus.SUCCESS

    @property
    def messages(self) -> tuple[str, ...]:
        """The assertion's messages, empty when it has none."""
        return self.assertion_msgs or ()


class EvaluatorResult(_AsRead):
    """What one evaluator of the task's eval list decided (`EvaluatorResult`)."""

    evaluator_name: str = ""
    """E.g. "AgentResponseEvaluator" or "NetworkEventEvaluator"."""
    status: EvalStatus
    """This evaluator's verdict."""
    score: float | None = None
    """1.0 on success, else 0.0."""
    actual: Any = None
    """The agent's response (raw text or fields), or the compared requests."""
    actual_normalized: Any = None
    """`actual` after the evaluator's normalization."""
    expected: Any = None
    """The task's expected value, normalized."""
    assertions: tuple[AssertionResult, ...] | None = None
    """The assertions that were checked; None when all passed without any to report."""
    error_msg: str | None = None
    """Why the evaluator failed to run, when its status is error."""
    should_not_exist: bool | None = None
    """For network checks: the request must not happen."""

    @property
    def all_assertions(self) -> tuple[AssertionResult, ...]:
        """The assertions, empty when there are none."""
        return self.assertions or ()

    @property
    def failed_assertions(self) -> tuple[AssertionResult, ...]:
        """The assertions that did not hold."""
        return tuple(a for a in self.all_assertions if not a.passed)


class TaskResult(_AsRead):
    """The verdict on one task (`TaskEvalResult`), as the official CLI writes it."""

    task_id: int | None = None
    """The task's id in the dataset."""
    intent_template_id: int | None = None
    """The task's intent template."""
    sites: tuple[str, ...] = ()
    """Sites the task runs on, e.g. ("gitlab",)."""
    task_revision: int | None = None
    """The dataset revision of the task."""
    status: EvalStatus
    """The task's verdict: success only when every evaluator succeeded."""
    score: float | None = None
    """1.0 on success, else 0.0."""
    evaluators_results: tuple[EvaluatorResult, ...] = ()
    """One result per entry of the task's eval list, in its order."""
    error_msg: str | None = None
    """Why the evaluation could not run, when the status is error."""
    webarena_verified_version: str | None = None
    """The evaluator library's version."""
    webarena_verified_evaluator_checksum: str | None = None
    """Checksum of the evaluator's code."""
    webarena_verified_data_checksum: str | None = None
    """Checksum of the dataset file."""

    @property
    def score_or_zero(self) -> float:
        """The score, 0.0 when the result has none."""
        return float(self.score or 0.0)

    def evaluator(self, name: str) -> EvaluatorResult | None:
        """The first evaluator result of that evaluator, None when the task has none."""
        return next((r for r in self.evaluators_results if r.evaluator_name == name), None)

    def at(self, position: int) -> EvaluatorResult | None:
        """The result of the eval list's entry `position`; None when the evaluator stopped before it."""
        return self.evaluators_results[position] if 0 <= position < len(self.evaluators_results) else None

    def error_message(self) -> str | None:
        """The first error message of the task or any evaluator."""
        messages = [self.error_msg, *(r.error_msg for r in self.evaluators_results)]
        return next((m for m in messages if m), None)

    def as_error(self, message: str) -> TaskResult:
        """This result turned into an error verdict with `message` (evaluators kept as they are)."""
        return self.model_copy(update={"status": EvalStatus.ERROR, "score": 0.0, "error_msg": message})


def parse_task_result(raw: object) -> TaskResult | None:
    """`raw` as an official result (the official CLI's eval_result.json); None when it is not one."""
    if not isinstance(raw, Mapping) or "evaluators_results" not in raw:
        return None
    try:
        return TaskResult.model_validate(raw)
    except ValidationError:
        return None
