"""A rubric verifier's score file read in full, and a run's `verify_report.jsonl`.

Fara's Universal Verifier (mid-2026) writes, inside `gpt_response_text`, which verdict decided the
score, the outcome and rubric verdicts, a critical-point check, the failure points with their steps
and error codes, and whether the task itself is ambiguous or invalid
(shared/reference/fara-verifier-output.md). Earlier generations of the same judge wrote fewer of
these fields, some nested elsewhere (`first_point_of_failure` under the rubric's verification
details, a free-text failure): every field is looked for a few levels down and whatever is there
is kept, so an older file still shows what it holds. A value of the wrong shape is reported as a
`Diagnostic` naming the file and the field, and left out; it never hides the rest of the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any, TypeGuard

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.json_fields import FieldReader, holds_any, is_mapping, shown_value
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.reading.taxonomy import CriticalPointType
from webeval_core.support.diagnostics import Diagnostic

__all__ = [
    "VERIFIER_KEYS",
    "FailureAnalysis",
    "FailurePoint",
    "RubricItem",
    "SuccessCriterion",
    "TaskVerification",
    "VerifierOutput",
    "failure_codes",
    "is_verifier_response",
    "outcome_reasoning_in",
    "parse_step_numbers",
    "read_verifier_output",
    "verifier_outputs",
]

_MODEL = ConfigDict(frozen=True, extra="forbid")
_STEP_PART = re.compile(r"^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$")
_MAX_RANGE = 1000  # steps in one "a-b" range: a typo such as "5-50000" is not expanded
VERIFIER_KEYS = frozenset(
    {
        "success_criterion",
        "outcome_success",
        "rubric_items",
        "rubric_is_success",
        "first_point_of_failure",
        "cp_type_used",
        "task_verification",
        "verifier_success",
        "verifier_reasoning",
        "outcome_reasoning",
        "rubric_outcome_verification",
    }
)
"""Keys of which any one makes a judge's response a verifier's (rather than free text, or our own
WebArena-Verified evaluation, which has none of them)."""


class SuccessCriterion(StrEnum):
    """Which verdict decides a verifier's score (`success_criterion`)."""

    OUTCOME = "outcome"
    """The outcome verdict alone (the verifier's default)."""
    PROCESS = "process"
    """The rubric (process) verdict alone."""
    BOTH = "both"
    """Both, ANDed."""


class RubricItem(BaseModel):
    """One criterion of the rubric and the points the judge gave it."""

    model_config = _MODEL

    criterion: str
    """The criterion's short name."""
    description: str | None = None
    """What it asks."""
    earned_points: float | None = None
    """Points given; None when not a number."""
    max_points: float | None = None
    """Points possible; None when not a number."""
    justification: str | None = None
    """Why the judge gave them."""


class FailurePoint(BaseModel):
    """One place the judge says the agent went wrong, with its code in the error taxonomy."""

    model_config = _MODEL

    step_numbers: str
    """The steps as written ("5", "5-7", "5,8,12"); empty when not given."""
    steps: tuple[int, ...] = ()
    """Those steps (1-based action-history steps, as the replay numbers them); empty when unreadable."""
    error_code: str | None = None
    """The taxonomy code, e.g. "2.3" (`taxonomy.code_label` names it)."""
    error_category: str | None = None
    """The category as the judge wrote it."""
    error_type: str | None = None
    """The type as the judge wrote it."""
    what_happened: str | None = None
    """What went wrong."""
    agent_reasoning: str | None = None
    """What the agent was thinking there."""
    evidence: str | None = None
    """What in the trajectory shows it."""
    impact: str | None = None
    """What it cost the task."""

    @property
    def first_step(self) -> int | None:
        """The earliest step it names; None without readable steps."""
        return min(self.steps) if self.steps else None


class FailureAnalysis(BaseModel):
    """The verifier's first point of failure: whether the trajectory failed, where, and why."""

    model_config = _MODEL

    reasoning: str | None = None
    """The judge's reasoning (or, from an older generation, the whole failure as free text)."""
    has_failure: bool | None = None
    """Whether the judge found a failure; None when it did not say."""
    failure_points: tuple[FailurePoint, ...] = ()
    """The failure points in the judge's order."""


class TaskVerification(BaseModel):
    """Whether the task itself is ambiguous or invalid, with codes from categories 7 and 8."""

    model_config = _MODEL

    is_ambiguous: bool | None = None
    """Whether the task is ambiguous; None when not said."""
    ambiguity_codes: tuple[str, ...] = ()
    """Its ambiguity codes (7.x)."""
    reasoning_is_ambiguous: str | None = None
    """Why it is (or is not) ambiguous."""
    is_invalid: bool | None = None
    """Whether the task is invalid; None when not said."""
    invalid_task_codes: tuple[str, ...] = ()
    """Its invalid-task codes (8.x)."""
    reasoning_is_invalid: str | None = None
    """Why it is (or is not) invalid."""

    @property
    def codes(self) -> tuple[str, ...]:
        """Ambiguity codes, then invalid-task codes."""
        return (*self.ambiguity_codes, *self.invalid_task_codes)


class VerifierOutput(BaseModel):
    """One rubric verifier's score file, every generation: what it holds beyond the score."""

    model_config = _MODEL

    judge: str
    """The score file's stem, e.g. "mmrubric_0.8-5-3"."""
    file: str
    """The score file relative to the trajectory folder."""
    score: float | None = None
    """The file's score."""
    success_criterion: SuccessCriterion | None = None
    """Which verdict decided the score; None when the file does not say (older generations)."""
    outcome_success: bool | None = None
    """The outcome verdict (the top level's, else the rubric agent's outcome check's, else a
    short-circuit's `verifier_success`); None when not given."""
    outcome_reasoning: str | None = None
    """The outcome verdict's reasoning wherever the verifier wrote it (`outcome_reasoning`, else
    `rubric_outcome_verification.reasoning`, an outcome object's, a short-circuit's
    `verifier_reasoning`); None when it wrote none."""
    outcome_primary_intent: str | None = None
    """The task's primary intent as the judge understood it."""
    rubric_is_success: bool | None = None
    """The rubric (process) verdict; None when not given."""
    rubric_earned_points: float | None = None
    """Rubric points earned (the total, else the items' sum)."""
    rubric_max_points: float | None = None
    """Rubric points possible (the total, else the items' sum)."""
    rubric_reasoning: str | None = None
    """The rubric agent's own reasoning, when it wrote one."""
    rubric_items: tuple[RubricItem, ...] = ()
    """The rubric's criteria."""
    cp_type_used: str | None = None
    """The critical-point type applied, as written (`critical_point` reads it as a type)."""
    cp_violation: bool | None = None
    """Whether the agent crossed a critical point without permission; None when not checked."""
    failure: FailureAnalysis | None = None
    """The first point of failure; None when the file has none."""
    task_verification: TaskVerification | None = None
    """The task checked from its text alone."""
    task_verification_with_trajectory: TaskVerification | None = None
    """The task checked again having seen the trajectory."""

    @property
    def critical_point(self) -> CriticalPointType | None:
        """`cp_type_used` as a known type; None when absent or not one of the published types."""
        try:
            return CriticalPointType(self.cp_type_used) if self.cp_type_used else None
        except ValueError:
            return None

    @property
    def failure_points(self) -> tuple[FailurePoint, ...]:
        """The failure points (none without a failure analysis)."""
        return self.failure.failure_points if self.failure is not None else ()

    @property
    def first_failure(self) -> FailurePoint | None:
        """The point of failure at the earliest step (`verify_report.jsonl`'s `first_failure_step`),
        whatever order the file lists them in; points naming no step come last.
        """
        if not self.failure_points:
            return None
        return min(self.failure_points, key=lambda point: min(point.steps, default=float("inf")))

    @property
    def flagged_steps(self) -> tuple[int, ...]:
        """Every step a failure point names, in order, once each."""
        return tuple(sorted({step for point in self.failure_points for step in point.steps}))

    @property
    def codes(self) -> tuple[str, ...]:
        """Every taxonomy code it gives: failure points', then the task's (both checks), once each."""
        found = [p.error_code for p in self.failure_points if p.error_code]
        for check in (self.task_verification, self.task_verification_with_trajectory):
            if check is not None:
                found.extend(check.codes)
        return tuple(dict.fromkeys(found))

    @property
    def is_universal(self) -> bool:
        """Whether it is of the Universal Verifier's generation (critical points or a taxonomy)."""
        return (
            self.cp_type_used is not None or self.failure_points != () or self.task_verification is not None
        )


def parse_step_numbers(text: Any) -> tuple[int, ...] | None:
    """Steps written "5", "5-7", "5,8,12" (or a number, or a list of numbers), sorted once each;
    None when they cannot be read as steps.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return (text,) if text >= 0 else None
    if isinstance(text, list):
        parts = [parse_step_numbers(item) for item in text]
        return None if any(p is None for p in parts) else tuple(sorted({s for p in parts for s in p or ()}))
    if not isinstance(text, str):
        return None
    steps: set[int] = set()
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        found = _STEP_PART.match(part.strip().removeprefix("step").removeprefix("Step"))
        if found is None:
            return None
        low, high = int(found.group(1)), int(found.group(2) or found.group(1))
        if high < low or high - low > _MAX_RANGE:
            return None
        steps.update(range(low, high + 1))
    return tuple(sorted(steps))


def verifier_outputs(scores: Mapping[str, ScoreFile]) -> tuple[tuple[VerifierOutput, ...], list[Diagnostic]]:
    """Every verifier output among a trajectory's score files (by judge name), and what was malformed."""
    outputs: list[VerifierOutput] = []
    diagnostics: list[Diagnostic] = []
    for name in sorted(scores):
        output, problems = read_verifier_output(scores[name])
        diagnostics.extend(problems)
        if output is not None:
            outputs.append(output)
    return tuple(outputs), diagnostics


def failure_codes(scores: Mapping[str, ScoreFile]) -> dict[str, tuple[str, ...]]:
    """The taxonomy codes each verifier gives a trajectory (`VerifierOutput.codes`), by judge; judges
    giving none are left out. What the index keeps per trajectory for the overview's charts.
    """
    return {output.judge: output.codes for output in verifier_outputs(scores)[0] if output.codes}


def is_verifier_response(response: object) -> TypeGuard[Mapping[str, Any]]:
    """Whether a score file's decoded response is a verifier's output: an object holding one of
    `VERIFIER_KEYS`, at most three levels down. Any other response gives no output and no codes.
    """
    return holds_any(response, VERIFIER_KEYS)  # never true of anything but a Mapping


def read_verifier_output(score_file: ScoreFile) -> tuple[VerifierOutput | None, list[Diagnostic]]:
    """A score file read as a rubric verifier's; None when its response is not one (free text, an
    official evaluation). Every generation is read: absent fields stay None.
    """
    response = score_file.response
    if not is_verifier_response(response):
        return None, []
    fields = FieldReader(response, f"scores/{score_file.name}.json")
    output = VerifierOutput(
        judge=score_file.name,
        file=fields.file,
        score=score_file.score,
        **_outcome(fields),
        **_rubric(fields),
        **_critical_point(fields),
        failure=_failure(fields),
        task_verification=_task_verification(fields, "task_verification"),
        task_verification_with_trajectory=_task_verification(fields, "task_verification_with_trajectory"),
    )
    return output, fields.diagnostics


# Where each generation put the outcome verdict and its reasoning, in the order looked at: the top
# level's fields (often copies), the rubric agent's own outcome check (Fara's example writes its
# justification only there, `outcome_reasoning` left empty), an outcome object, a short-circuit's.
_OUTCOME_REASONING_PLACES = (
    ("outcome_reasoning",),
    ("rubric_outcome_verification", "reasoning"),
    ("rubric_outcome_verification", "outcome_reasoning"),
    ("outcome_verification", "reasoning"),
    ("outcome", "reasoning"),
    ("verifier_reasoning",),
)
_OUTCOME_SUCCESS_PLACES = (
    ("outcome_success",),
    ("rubric_outcome_verification", "outcome_success"),
    ("rubric_outcome_verification", "success"),
    ("rubric_outcome_verification", "is_success"),
    ("outcome_verification", "success"),
    ("outcome", "success"),
    ("verifier_success",),
)


def _placed(fields: FieldReader, places: tuple[tuple[str, ...], ...], *, text: bool) -> tuple[Any, str]:
    """The first value found at one of `places` (its first key searched a few levels down, then
    the rest under it), and its path; an empty text counts as absent, so the next place is tried.
    """
    for key, *under in places:
        value, path = fields.find(key)
        for name in under:
            if not is_mapping(value):
                value = None
                break
            value, path = value.get(name), f"{path}.{name}"
        if value is None or (text and isinstance(value, str) and not value.strip()):
            continue
        return value, path
    return None, places[0][0]


def outcome_reasoning_in(response: Mapping[str, Any]) -> str | None:
    """A verifier's outcome reasoning wherever its generation put it (`_OUTCOME_REASONING_PLACES`);
    None when it wrote none. What every view of a judge's reasoning shows.
    """
    fields = FieldReader(response, "")
    return fields.text(*_placed(fields, _OUTCOME_REASONING_PLACES, text=True))


def _outcome(fields: FieldReader) -> dict[str, Any]:
    criterion, path = fields.find("success_criterion")
    chosen: SuccessCriterion | None = None
    if criterion is not None:
        try:
            chosen = SuccessCriterion(str(criterion).strip().lower())
        except ValueError:
            fields.report(path, f"is {shown_value(criterion)}, not outcome, process or both; ignored")
    intent, intent_path = fields.find("outcome_primary_intent")
    return {
        "success_criterion": chosen,
        "outcome_success": fields.flag(*_placed(fields, _OUTCOME_SUCCESS_PLACES, text=False)),
        "outcome_reasoning": fields.text(*_placed(fields, _OUTCOME_REASONING_PLACES, text=True)),
        "outcome_primary_intent": fields.text(intent, intent_path),
    }


def _rubric(fields: FieldReader) -> dict[str, Any]:
    items = _rubric_items(fields)
    earned = fields.number(*fields.find("rubric_total_earned_points"))
    possible = fields.number(*fields.find("rubric_total_max_points"))
    if earned is None and possible is None and items:
        pairs = [(i.earned_points, i.max_points) for i in items]
        if all(e is not None and m is not None for e, m in pairs):
            earned, possible = sum(e or 0.0 for e, _ in pairs), sum(m or 0.0 for _, m in pairs)
    return {
        "rubric_is_success": fields.flag(*fields.find("rubric_is_success")),
        "rubric_earned_points": earned,
        "rubric_max_points": possible,
        "rubric_reasoning": fields.text(*fields.find("rubric_reasoning")),
        "rubric_items": items,
    }


def _rubric_items(fields: FieldReader) -> tuple[RubricItem, ...]:
    items, path = fields.find("rubric_items")
    if items is None:
        return ()
    if not isinstance(items, list):
        fields.report(path, f"is {shown_value(items)}, not a list of criteria; ignored")
        return ()
    kept = []
    for i, item in enumerate(items):
        where = f"{path}[{i}]"
        if not isinstance(item, Mapping):
            fields.report(where, "is not an object; left out")
            continue
        kept.append(
            RubricItem(
                criterion=fields.text(item.get("criterion"), f"{where}.criterion") or f"criterion {i + 1}",
                description=fields.text(item.get("description"), f"{where}.description"),
                earned_points=fields.number(item.get("earned_points"), f"{where}.earned_points"),
                max_points=fields.number(item.get("max_points"), f"{where}.max_points"),
                justification=fields.text(item.get("justification"), f"{where}.justification"),
            )
        )
    return tuple(kept)


def _critical_point(fields: FieldReader) -> dict[str, Any]:
    kind, path = fields.find("cp_type_used")
    if kind is not None and not isinstance(kind, str):
        fields.report(path, f"is {shown_value(kind)}, not a critical-point type; ignored")
        kind = None
    elif isinstance(kind, str):
        try:
            CriticalPointType(kind)
        except ValueError:
            fields.report(
                path,
                f"{shown_value(kind)} is not one of the published critical-point types; shown as written",
            )
    return {"cp_type_used": kind, "cp_violation": fields.flag(*fields.find("cp_violation"))}


def _failure(fields: FieldReader) -> FailureAnalysis | None:
    found, path = fields.find("first_point_of_failure")
    if found is None:
        return None
    if isinstance(found, str):  # older generations: free text (sometimes JSON text)
        try:
            decoded = json.loads(found)
        except ValueError:
            decoded = None
        if not isinstance(decoded, Mapping):
            return FailureAnalysis(reasoning=found)
        found = decoded
    if not isinstance(found, Mapping):
        return FailureAnalysis(reasoning=fields.text(found, path))
    points = found.get("failure_points")
    if points is not None and not isinstance(points, list):
        fields.report(f"{path}.failure_points", f"is {shown_value(points)}, not a list; ignored")
        points = None
    known = {"reasoning", "has_failure", "failure_points"}
    # An older nested shape ({"step": 4, "reason": ...}) has none of the known keys: kept whole as text.
    reasoning = found.get("reasoning") if known & set(found) else found
    return FailureAnalysis(
        reasoning=fields.text(reasoning, f"{path}.reasoning"),
        has_failure=fields.flag(found.get("has_failure"), f"{path}.has_failure"),
        failure_points=tuple(_points(fields, points or [], f"{path}.failure_points")),
    )


def _points(fields: FieldReader, points: list[Any], path: str) -> Iterator[FailurePoint]:
    for i, point in enumerate(points):
        where = f"{path}[{i}]"
        if not isinstance(point, Mapping):
            fields.report(where, "is not an object; left out")
            continue
        raw = point.get("step_numbers")
        steps = parse_step_numbers(raw) if raw is not None else ()
        if steps is None:
            fields.report(f"{where}.step_numbers", f"{shown_value(raw)} names no steps; shown as written")
        code = point.get("error_code")
        yield FailurePoint(
            step_numbers="" if raw is None else raw if isinstance(raw, str) else json.dumps(raw),
            steps=steps or (),
            error_code=None if code is None else str(code).strip() or None,
            **{
                name: fields.text(point.get(name), f"{where}.{name}")
                for name in (
                    "error_category",
                    "error_type",
                    "what_happened",
                    "agent_reasoning",
                    "evidence",
                    "impact",
                )
            },
        )


def _task_verification(fields: FieldReader, key: str) -> TaskVerification | None:
    # Not searched below the top and the error taxonomy: the "with trajectory" check must not be
    # mistaken for the plain one.
    found, path = fields.response.get(key), key
    taxonomy = fields.response.get("error_taxonomy")
    if found is None and isinstance(taxonomy, Mapping):
        found, path = taxonomy.get(key), f"error_taxonomy.{key}"
    if found is None:
        return None
    if not isinstance(found, Mapping):
        fields.report(path, f"is {shown_value(found)}, not an object; ignored")
        return None
    return TaskVerification(
        is_ambiguous=fields.flag(found.get("is_ambiguous"), f"{path}.is_ambiguous"),
        ambiguity_codes=fields.codes(found.get("ambiguity_codes"), f"{path}.ambiguity_codes"),
        reasoning_is_ambiguous=fields.text(
            found.get("reasoning_is_ambiguous"), f"{path}.reasoning_is_ambiguous"
        ),
        is_invalid=fields.flag(found.get("is_invalid"), f"{path}.is_invalid"),
        invalid_task_codes=fields.codes(found.get("invalid_task_codes"), f"{path}.invalid_task_codes"),
        reasoning_is_invalid=fields.text(found.get("reasoning_is_invalid"), f"{path}.reasoning_is_invalid"),
    )
