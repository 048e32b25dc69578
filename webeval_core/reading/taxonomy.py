"""Fara's error taxonomy and critical-point types: the codes a Universal Verifier writes, named.

The one place these names live (shared/reference/fara-verifier-output.md, from Fara's "CP-aware
verifier + error taxonomy"): the trajectory view, the overview's chart and the run comparison all
name a code through `code_label` / `category_label`, so a code never appears bare in one view and
named in another. Categories 1-6 describe the agent's execution, 7-8 the task; 9 is a harness
recheck of 6.4 that takes no part in scoring.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

__all__ = [
    "CATEGORIES",
    "CODES",
    "CriticalPointType",
    "category_label",
    "category_of",
    "code_label",
    "code_name",
    "describes_task",
    "sorted_codes",
]

CATEGORIES: Mapping[str, str] = MappingProxyType(
    {
        "1": "Selection",
        "2": "Hallucination",
        "3": "Execution & Strategy",
        "4": "Critical Point",
        "5": "Side-Effect",
        "6": "Tool Interaction",
        "7": "Task Ambiguity",
        "8": "Invalid Task",
        "9": "Harness recheck (not scored)",
    }
)
"""Each category's number and name."""

CODES: Mapping[str, str] = MappingProxyType(
    {
        "1.1": "Missing intent",
        "1.2": "Unauthorized substitution",
        "1.3": "Wrong action type",
        "1.4": "Wrong values or constraint violation",
        "1.5": "Other",
        "2.1": "Output contradiction",
        "2.2": "Action contradiction",
        "2.3": "Output fabrication",
        "2.4": "Action fabrication",
        "2.5": "Other",
        "3.1": "Computational mistakes",
        "3.2": "Platform non-compliance",
        "3.2.1": "API-sniffing",
        "3.3": "Incomplete delivery",
        "3.4": "Environment failure",
        "3.5": "Incomplete task execution",
        "3.6": "Other",
        "4.1": "Premature stop (with permission)",
        "4.2": "Critical point violation",
        "4.3": "Other",
        "5.1": "Unsolicited side effects",
        "5.2": "Other",
        "6.1": "Invalid invocation",
        "6.2": "Hallucinated action",
        "6.3": "Intent-action mismatch",
        "6.4": "Fine-grained grounding error",
        "6.5": "Grounding intent-action mismatch",
        "6.6": "Other",
        "7.1": "Underspecified task",
        "7.2": "Ambiguous task",
        "7.3": "Other",
        "8.1": "Impossible task",
        "8.2": "Likely illegal task",
        "8.3": "NSFW URL",
        "8.4": "RAI violation",
        "8.5": "Unsafe task",
        "8.6": "Other",
        "9.1": "Harness + grounding error",
        "9.2": "Harness only",
    }
)
"""Each error code (the type level) and its name."""

_TASK_CATEGORIES = frozenset({"7", "8"})


class CriticalPointType(StrEnum):
    """The critical-point type a verifier applied (`cp_type_used`): permission x information x
    specification.
    """

    NO_PERMISSION_MISSING_INFO_TASK_UNDERSPECIFIED = "NO_PERMISSION_MISSING_INFO_TASK_UNDERSPECIFIED"
    NO_PERMISSION_MISSING_INFO_TASK_SPECIFIED = "NO_PERMISSION_MISSING_INFO_TASK_SPECIFIED"
    NO_PERMISSION_INFO_PROVIDED_TASK_UNDERSPECIFIED = "NO_PERMISSION_INFO_PROVIDED_TASK_UNDERSPECIFIED"
    NO_PERMISSION_INFO_PROVIDED_TASK_SPECIFIED = "NO_PERMISSION_INFO_PROVIDED_TASK_SPECIFIED"
    PERMISSION_GRANTED_MISSING_INFO_TASK_UNDERSPECIFIED = (
        "PERMISSION_GRANTED_MISSING_INFO_TASK_UNDERSPECIFIED"
    )
    PERMISSION_GRANTED_MISSING_INFO_TASK_SPECIFIED = "PERMISSION_GRANTED_MISSING_INFO_TASK_SPECIFIED"
    PERMISSION_GRANTED_INFO_PROVIDED_TASK_UNDERSPECIFIED = (
        "PERMISSION_GRANTED_INFO_PROVIDED_TASK_UNDERSPECIFIED"
    )
    PERMISSION_GRANTED_INFO_PROVIDED_TASK_SPECIFIED = "PERMISSION_GRANTED_INFO_PROVIDED_TASK_SPECIFIED"
    NO_CRITICAL_POINT = "NO_CRITICAL_POINT"

    @property
    def words(self) -> str:
        """The type in plain words: "no permission · missing info · task underspecified"."""
        if self is CriticalPointType.NO_CRITICAL_POINT:
            return "no critical point"
        permission, _, rest = self.value.partition("_MISSING_INFO_")
        if not rest:
            permission, _, rest = self.value.partition("_INFO_PROVIDED_")
            information = "info provided"
        else:
            information = "missing info"
        specification = rest.removeprefix("TASK_").lower()
        return f"{permission.replace('_', ' ').lower()} · {information} · task {specification}"


def category_of(code: str) -> str:
    """The category number of a code ("2.3" -> "2", "3.2.1" -> "3"); the code itself when it has no dot."""
    return code.strip().split(".", 1)[0]


def code_name(code: str) -> str | None:
    """The taxonomy's name of a code (type level, or a category number); None when it names none."""
    code = code.strip()
    return CODES.get(code) or CATEGORIES.get(code)


def code_label(code: str) -> str:
    """A code as every view shows it: "2.3 Output fabrication"; an unknown code says so."""
    name = code_name(code)
    return f"{code.strip()} {name}" if name else f"{code.strip()} (not in the taxonomy)"


def category_label(code: str) -> str:
    """A code's category as every view shows it: "2 Hallucination" (of "2.3" or "2")."""
    return code_label(category_of(code))


def describes_task(code: str) -> bool:
    """Whether a code describes the task (7 ambiguity, 8 invalid) rather than the agent's execution."""
    return category_of(code) in _TASK_CATEGORIES


def sorted_codes(codes: set[str] | frozenset[str] | list[str] | tuple[str, ...]) -> list[str]:
    """Codes in the taxonomy's order (numerically: 3.2.1 after 3.2, 10.1 after 9.2)."""

    def key(code: str) -> tuple[tuple[int, int | str], ...]:
        return tuple((0, int(p)) if p.isdigit() else (1, p) for p in code.strip().split("."))

    return sorted(set(codes), key=key)
