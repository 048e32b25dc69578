"""A rubric judge's verdict made readable: its items as a table, its reasoning, its first point of
failure and the error-taxonomy flags it (or task_data.json) raised.

Fara's WebTailBench judge (MMRubricAgent) writes these into `gpt_response_text`; some fields are
nested inside the rubric payload, so each is looked for a few levels down.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.verifier import outcome_reasoning_in

# pandas (most of a second to import) is imported where a table is made: a page that draws
# none of these tables does not load it.
if TYPE_CHECKING:
    import pandas as pd

__all__ = ["JudgeVerdict", "judge_verdict", "rubric_table_in"]

TAXONOMY_KEYS = (
    "is_ambiguous",
    "ambiguity_codes",
    "is_invalid",
    "invalid_task_codes",
    "did_web_surfing_fail",
    "web_surfing_stalled",
    "encountered_captcha",
    "encountered_login",
    "encountered_error_page",
)
"""Error-taxonomy fields of the rubric judge and of task_data.json, in the order shown."""
_SEARCH_DEPTH = 3


class JudgeVerdict(BaseModel):
    """What a judge's score file says beyond its score."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    success_criterion: str | None
    """Which verdict decided the score: "outcome", "process" (the rubric) or "both"; None if not said."""
    outcome_success: bool | None
    """Whether the judge found the outcome achieved; None when it did not say."""
    outcome_reasoning: str | None
    """The judge's reasoning about the outcome (or a short-circuit's `verifier_reasoning`)."""
    primary_intent: str | None
    """The task's primary intent as the judge understood it; None when not given."""
    first_point_of_failure: str | None
    """Where the trajectory first went wrong, as the judge wrote it (JSON text when structured)."""
    points: tuple[float, float] | None
    """Rubric points earned and possible; None without rubric totals or items."""
    taxonomy: tuple[tuple[str, str], ...]
    """Error-taxonomy flags that are set (true or a non-empty list), as (name, value) pairs."""
    majority_vote: Any
    """The judge's majority-vote metadata as written; None when absent."""


def rubric_table_in(response: Mapping[str, Any]) -> pd.DataFrame | None:
    """The rubric's items: criterion, what it asks, points earned of possible, the justification."""
    import pandas as pd

    items = _find(response, "rubric_items")
    if not isinstance(items, list) or not items:
        return None
    rows = [
        {
            "criterion": _text(item.get("criterion")),
            "description": _text(item.get("description")),
            "points": f"{_number(item.get('earned_points'))} / {_number(item.get('max_points'))}",
            "justification": _text(item.get("justification")),
        }
        for item in items
        if isinstance(item, Mapping)
    ]
    return pd.DataFrame(rows, columns=["criterion", "description", "points", "justification"])


def judge_verdict(response: Mapping[str, Any], task_data: Mapping[str, Any] | None = None) -> JudgeVerdict:
    """The reasoning, first point of failure, points and taxonomy flags of one judge's response."""
    reasoning = outcome_reasoning_in(response)  # the reader's places, every generation
    failure = _find(response, "first_point_of_failure")
    outcome = _find(response, "outcome_success")
    if outcome is None:
        outcome = _find(response, "verifier_success")
    criterion = response.get("success_criterion")
    intent = _find(response, "outcome_primary_intent")
    return JudgeVerdict(
        success_criterion=criterion if isinstance(criterion, str) else None,
        outcome_success=outcome if isinstance(outcome, bool) else None,
        outcome_reasoning=_text(reasoning) or None,
        primary_intent=intent if isinstance(intent, str) else None,
        first_point_of_failure=_text(failure) or None,
        points=_points(response),
        taxonomy=_taxonomy(response, task_data or {}),
        majority_vote=_find(response, "rubric_majority_vote_metadata"),
    )


def _find(data: Any, key: str, depth: int = _SEARCH_DEPTH) -> Any:
    """`data[key]`, else the first value under `key` in nested objects, breadth first."""
    level = [data]
    for _ in range(depth):
        deeper: list[Any] = []
        for item in level:
            if isinstance(item, Mapping):
                if key in item and item[key] is not None:
                    return item[key]
                deeper.extend(v for v in item.values() if isinstance(v, Mapping))
        level = deeper
    return None


def _points(response: Mapping[str, Any]) -> tuple[float, float] | None:
    earned, possible = (
        _find(response, "rubric_total_earned_points"),
        _find(response, "rubric_total_max_points"),
    )
    if _is_number(earned) and _is_number(possible):
        return float(earned), float(possible)
    items = _find(response, "rubric_items")
    if not isinstance(items, list) or not items:
        return None
    pairs: list[tuple[Any, Any]] = [
        (i.get("earned_points"), i.get("max_points")) for i in items if isinstance(i, Mapping)
    ]
    numbers = [(float(e), float(m)) for e, m in pairs if _is_number(e) and _is_number(m)]
    if len(numbers) != len(pairs):
        return None
    return sum(e for e, _ in numbers), sum(m for _, m in numbers)


def _taxonomy(response: Mapping[str, Any], task_data: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    flags: list[tuple[str, str]] = []
    for key in TAXONOMY_KEYS:
        value = _find(response, key)
        if value is None:
            value = task_data.get(key)
        if value is True or (isinstance(value, list) and value):
            flags.append((key, "yes" if value is True else ", ".join(map(str, value))))
    return tuple(flags)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(value: Any) -> str:
    return f"{value:g}" if _is_number(value) else "?"


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
