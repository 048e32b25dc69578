"""A rubric verifier's output as the tables and lines views show: every field, each code named.

From `reading.verifier` models (every generation of the score file) to what the trajectory page's
Judges tab draws: the score and the verdict that decided it, the outcome and rubric verdicts side
by side, the critical point, the failure points (a row per point, its first step to jump to), the
task's verification, the steps each judge flagged, and a run report's rows with where they
disagree with the score files. Codes are named by `reading.taxonomy` only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from webeval_core.reading.taxonomy import category_label, code_label
from webeval_core.reading.verifier import (
    SuccessCriterion,
    TaskVerification,
    VerifierOutput,
)
from webeval_core.reading.verifyreport import VerifyReportRow

# pandas is imported where a table is made: a page drawing none of them does not load it.
if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FAILURE_COLUMNS",
    "ReportDifference",
    "StepFlag",
    "critical_point_text",
    "failure_points_table",
    "flagged_steps",
    "report_differences",
    "report_rows_table",
    "rubric_items_table",
    "score_text",
    "task_verification_table",
    "verdicts_table",
]

FAILURE_COLUMNS = (
    "steps",
    "step",
    "code",
    "category",
    "type",
    "what happened",
    "agent reasoning",
    "evidence",
    "impact",
)
"""The failure-points table's columns; `step` is the first step a row opens the replay at."""
NOT_SAID = "not said"
_DECIDED_BY = {
    SuccessCriterion.OUTCOME: "the outcome verdict",
    SuccessCriterion.PROCESS: "the rubric (process) verdict",
    SuccessCriterion.BOTH: "both verdicts, ANDed",
}


class StepFlag(NamedTuple):
    """A step a judge flagged: who, with which code, and what it says happened."""

    judge: str
    """The judge (score file stem)."""
    code: str
    """The code named ("2.3 Output fabrication"), or "no code" when the point has none."""
    what_happened: str
    """The point's account of what went wrong (empty when not given)."""


class ReportDifference(NamedTuple):
    """A field on which a run report's row and the score file it summarises disagree."""

    judge: str
    """The score file's judge."""
    field: str
    """The field, as the report names it."""
    report: str
    """The report's value, as text."""
    score_file: str
    """The score file's value, as text."""


def _yes_no(value: bool | None, yes: str = "yes", no: str = "no") -> str:
    return NOT_SAID if value is None else yes if value else no


def _points(earned: float | None, possible: float | None) -> str:
    if earned is None and possible is None:
        return ""
    return f"{'?' if earned is None else f'{earned:g}'} / {'?' if possible is None else f'{possible:g}'}"


def score_text(output: VerifierOutput) -> str:
    """The score and which criterion decided it, in one line."""
    score = "no score" if output.score is None else f"score {output.score:g}"
    if output.success_criterion is None:
        return f"{score} · the file does not say which verdict decided it"
    decided = _DECIDED_BY[output.success_criterion]
    return f"{score} · decided by {decided} (success_criterion: {output.success_criterion})"


def verdicts_table(output: VerifierOutput) -> pd.DataFrame:
    """Outcome and rubric verdicts side by side: verdict, points, whether it decided the score, reasoning."""
    import pandas as pd

    deciding = output.success_criterion
    rows = [
        {
            "verdict": "outcome",
            "result": _yes_no(output.outcome_success, "achieved", "not achieved"),
            "points": "",
            "decides the score": _decides(deciding, SuccessCriterion.OUTCOME),
            "reasoning": output.outcome_reasoning or "",
        },
        {
            "verdict": "rubric (process)",
            "result": _yes_no(output.rubric_is_success, "passed", "failed"),
            "points": _points(output.rubric_earned_points, output.rubric_max_points),
            "decides the score": _decides(deciding, SuccessCriterion.PROCESS),
            "reasoning": output.rubric_reasoning or "",
        },
    ]
    return pd.DataFrame(rows, columns=["verdict", "result", "points", "decides the score", "reasoning"])


def _decides(chosen: SuccessCriterion | None, this: SuccessCriterion) -> str:
    if chosen is None:
        return NOT_SAID
    return "yes" if chosen in (this, SuccessCriterion.BOTH) else "no"


def critical_point_text(output: VerifierOutput) -> str | None:
    """The critical-point type applied and whether it was violated; None when the file has neither."""
    if output.cp_type_used is None and output.cp_violation is None:
        return None
    kind = output.critical_point
    shown = f"{kind.value} ({kind.words})" if kind is not None else output.cp_type_used or "type not given"
    violated = {True: "violated", False: "not violated", None: "violation not said"}[output.cp_violation]
    return f"critical point: {shown} · {violated}"


def failure_points_table(output: VerifierOutput) -> pd.DataFrame:
    """A row per failure point (`FAILURE_COLUMNS`): its steps, code named, category, type and account."""
    import pandas as pd

    rows = [
        (
            point.step_numbers,
            point.first_step,
            code_label(point.error_code) if point.error_code else "",
            point.error_category or (category_label(point.error_code) if point.error_code else ""),
            point.error_type or "",
            point.what_happened or "",
            point.agent_reasoning or "",
            point.evidence or "",
            point.impact or "",
        )
        for point in output.failure_points
    ]
    return pd.DataFrame(rows, columns=list(FAILURE_COLUMNS)).astype({"step": "Int64"})


def task_verification_table(output: VerifierOutput) -> pd.DataFrame | None:
    """The task's checks (from its text alone, then with the trajectory): ambiguous / invalid, the
    codes named, the reasoning; None when the file checked neither.
    """
    import pandas as pd

    checks = (
        ("task alone", output.task_verification),
        ("with the trajectory", output.task_verification_with_trajectory),
    )
    rows = [row for seen, check in checks if check is not None for row in _check_rows(seen, check)]
    if not rows:
        return None
    return pd.DataFrame(rows, columns=["checked on", "question", "answer", "codes", "reasoning"])


def _check_rows(seen: str, check: TaskVerification) -> list[tuple[str, str, str, str, str]]:
    return [
        (
            seen,
            "ambiguous?",
            _yes_no(check.is_ambiguous),
            ", ".join(code_label(c) for c in check.ambiguity_codes),
            check.reasoning_is_ambiguous or "",
        ),
        (
            seen,
            "invalid?",
            _yes_no(check.is_invalid),
            ", ".join(code_label(c) for c in check.invalid_task_codes),
            check.reasoning_is_invalid or "",
        ),
    ]


def rubric_items_table(output: VerifierOutput) -> pd.DataFrame | None:
    """The rubric's criteria: what each asks, points earned of possible, the justification."""
    import pandas as pd

    if not output.rubric_items:
        return None
    rows = [
        (i.criterion, i.description or "", _points(i.earned_points, i.max_points), i.justification or "")
        for i in output.rubric_items
    ]
    return pd.DataFrame(rows, columns=["criterion", "description", "points", "justification"])


def flagged_steps(outputs: Iterable[VerifierOutput]) -> dict[int, tuple[StepFlag, ...]]:
    """Each step any judge's failure points name, with who flagged it and why, by step."""
    flags: dict[int, list[StepFlag]] = {}
    for output in outputs:
        for point in output.failure_points:
            flag = StepFlag(
                output.judge,
                code_label(point.error_code) if point.error_code else "no code",
                point.what_happened or "",
            )
            for step in point.steps:
                flags.setdefault(step, []).append(flag)
    return {step: tuple(flags[step]) for step in sorted(flags)}


def report_rows_table(rows: Sequence[VerifyReportRow]) -> pd.DataFrame:
    """A run report's rows as written: status (and error), verdicts, points and rubric score, actions,
    failure, task codes named.
    """
    import pandas as pd

    table = [
        {
            "line": row.line,
            "status": row.status or NOT_SAID,
            "error": row.error or "",
            "task": row.task_id or row.folder or "",
            "score file": row.score_path or "",
            "outcome": _yes_no(row.outcome_success, "achieved", "not achieved"),
            "rubric": _yes_no(row.rubric_is_success, "passed", "failed"),
            "points": _points(row.rubric_total_earned_points, row.rubric_total_max_points),
            "rubric score": "" if row.rubric_score is None else f"{row.rubric_score:g}",
            "actions": row.n_actions,
            "has failure": _yes_no(row.has_failure),
            "first failure step": row.first_failure_step,
            "ambiguous": _yes_no(row.is_ambiguous),
            "invalid": _yes_no(row.is_invalid),
            "task codes": ", ".join(code_label(c) for c in (*row.ambiguity_codes, *row.invalid_task_codes)),
        }
        for row in rows
    ]
    counts = {"first failure step": "Int64", "actions": "Int64"}
    return pd.DataFrame(table).astype(counts) if table else pd.DataFrame(table)


def report_differences(
    row: VerifyReportRow, outputs: Sequence[VerifierOutput]
) -> tuple[ReportDifference, ...]:
    """Where a report row and the score file it names say different things (fields both give)."""
    output = next((o for o in outputs if o.judge == row.judge), outputs[0] if len(outputs) == 1 else None)
    if output is None or row.is_error:
        return ()
    check = output.task_verification
    first_steps = [p.first_step for p in output.failure_points if p.first_step is not None]
    pairs: list[tuple[str, object, object]] = [
        ("outcome_success", row.outcome_success, output.outcome_success),
        ("rubric_is_success", row.rubric_is_success, output.rubric_is_success),
        ("rubric_total_earned_points", row.rubric_total_earned_points, output.rubric_earned_points),
        ("rubric_total_max_points", row.rubric_total_max_points, output.rubric_max_points),
        ("has_failure", row.has_failure, output.failure.has_failure if output.failure else None),
        ("first_failure_step", row.first_failure_step, min(first_steps) if first_steps else None),
        ("is_ambiguous", row.is_ambiguous, check.is_ambiguous if check else None),
        ("is_invalid", row.is_invalid, check.is_invalid if check else None),
        # Codes compared where the row answers the question (an empty list then means "none").
        (
            "ambiguity_codes",
            _codes(row.ambiguity_codes, row.is_ambiguous),
            _codes(check.ambiguity_codes, check) if check else None,
        ),
        (
            "invalid_task_codes",
            _codes(row.invalid_task_codes, row.is_invalid),
            _codes(check.invalid_task_codes, check) if check else None,
        ),
    ]
    return tuple(
        ReportDifference(output.judge, name, _shown(ours), _shown(theirs))
        for name, ours, theirs in pairs
        if ours is not None and theirs is not None and ours != theirs
    )


def _codes(codes: tuple[str, ...], answered: object) -> str | None:
    """The codes named, "none" when there are none; None when the question was not answered."""
    if answered is None:
        return None
    return ", ".join(code_label(c) for c in sorted(codes)) or "none"


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
