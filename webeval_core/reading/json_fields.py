"""Fields of a judge's decoded JSON looked up a few levels down and read tolerantly: a value of the
wrong shape becomes a `Diagnostic` naming the file and the field, never an exception. What the
verifier's score files (`verifier`) and a run's `verify_report.jsonl` (`verifyreport`) are read with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from webeval_core.support.diagnostics import Diagnostic

__all__ = ["FieldReader", "holds_any", "is_mapping", "shown_value"]

_SEARCH_DEPTH = 3  # levels of nesting an older generation may bury a field under

# Types JSON decodes to that are never a Mapping: `is_mapping` answers for them without the ABC's
# isinstance, which on a large evaluation was a third of the index's summary time.
_NOT_MAPPINGS = frozenset({str, int, float, bool, list, type(None)})


def is_mapping(value: Any) -> bool:
    """`isinstance(value, Mapping)`, answered at once for the types a JSON decoder makes."""
    kind = type(value)
    return kind is dict or (kind not in _NOT_MAPPINGS and isinstance(value, Mapping))


class FieldReader:
    """Looks fields up in one decoded JSON object and reports the malformed ones with their path.

    Shared with `verifyreport`, whose rows carry the same kinds of values (flags, codes, numbers).
    """

    def __init__(self, response: Mapping[str, Any], file: str) -> None:
        self.response = response
        self.file = file
        self.diagnostics: list[Diagnostic] = []

    def report(self, path: str, problem: str) -> None:
        """Record that the field at `path` is malformed (what was done about it in `problem`)."""
        self.diagnostics.append(Diagnostic(file=self.file, message=f"gpt_response_text.{path} {problem}"))

    def find(self, key: str, data: Any = None) -> tuple[Any, str]:
        """`data[key]`, else the first value under `key` in nested objects (breadth first), and its path."""
        level: list[tuple[Any, str]] = [(self.response if data is None else data, "")]
        for _ in range(_SEARCH_DEPTH):
            deeper: list[tuple[Any, str]] = []
            for item, path in level:
                if is_mapping(item):
                    if item.get(key) is not None:
                        return item[key], f"{path}{key}"
                    deeper.extend((v, f"{path}{k}.") for k, v in item.items() if is_mapping(v))
            level = deeper
        return None, key

    def holds_any(self, keys: frozenset[str]) -> bool:
        """Whether `find` finds any of `keys`: one walk of the nested objects instead of one per key."""
        return holds_any(self.response, keys)

    def text(self, value: Any, path: str) -> str | None:
        """A text; numbers as written, a structured value as its JSON (kept, not reported)."""
        if value is None or isinstance(value, str):
            return value or None
        if isinstance(value, int | float | bool):
            return str(value)
        return json.dumps(
            value, ensure_ascii=False
        )  # structured where text was expected: kept, shown as JSON

    def flag(self, value: Any, path: str) -> bool | None:
        """A yes/no as verifiers write it: a bool, 0/1, or "true"/"false"."""
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int | float) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
            return value.strip().lower() in ("true", "yes")
        self.report(path, f"is {shown_value(value)}, not true or false; ignored")
        return None

    def number(self, value: Any, path: str) -> float | None:
        """A number (not a bool); anything else reported and None."""
        if value is None:
            return None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        self.report(path, f"is {shown_value(value)}, not a number; ignored")
        return None

    def codes(self, value: Any, path: str) -> tuple[str, ...]:
        """Codes as a list, or one text of codes separated by commas."""
        if value is None:
            return ()
        if isinstance(value, str):
            return tuple(c.strip() for c in value.split(",") if c.strip())
        if isinstance(value, list):
            kept = [
                str(c).strip() for c in value if isinstance(c, str | int | float) and not isinstance(c, bool)
            ]
            if len(kept) != len(value):
                self.report(path, "holds entries that are not codes; those are left out")
            return tuple(c for c in kept if c)
        self.report(path, f"is {shown_value(value)}, not a list of codes; ignored")
        return ()


def holds_any(data: object, keys: frozenset[str]) -> bool:
    """Whether `FieldReader(data).find` finds any of `keys` (breadth first, `_SEARCH_DEPTH` levels)."""
    level: list[Any] = [data] if is_mapping(data) else []
    for depth in range(_SEARCH_DEPTH, 0, -1):
        deeper: list[Any] = []
        for item in level:  # each a Mapping: only those are walked into
            # The keys an object holds met in C first: most of an evaluation's objects hold none.
            if not keys.isdisjoint(item) and any(item.get(key) is not None for key in keys):
                return True
            if depth > 1:  # the last level's values are not looked into
                # `is_mapping` inline: a call for every value would cost more than the walk.
                deeper += [
                    v
                    for v in item.values()
                    if (kind := type(v)) is dict or (kind not in _NOT_MAPPINGS and isinstance(v, Mapping))
                ]
        level = deeper
    return False


def shown_value(value: Any, limit: int = 60) -> str:
    """A value as a message quotes it: a text in quotes, anything else as JSON, cut to `limit`."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
