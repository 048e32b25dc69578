"""The agent's structured response: found in its final text, mapped to the evaluator's field names.

Agents answer in two namings: `action`/`results` (the published schema page) and
`task_type`/`retrieved_data` (what the evaluator reads; legacy `performed_operation`). The
response may be bare JSON, inside a ```json fence, or embedded in prose. We extract it, hand the
evaluator something it understands, and list violations of the published schema rules as plain
findings. Findings never change the score: the verdict is always the evaluator's.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.task_catalog import TASK_TYPES

ResponseNaming = Literal[
    "action/results", "task_type/retrieved_data", "performed_operation/retrieved_data", "unparsed"
]
Source = Literal["text", "fence", "prose"]

STATUSES = (
    "SUCCESS",
    "NOT_FOUND_ERROR",
    "ACTION_NOT_ALLOWED_ERROR",
    "PERMISSION_DENIED_ERROR",
    "DATA_VALIDATION_ERROR",
    "UNKNOWN_ERROR",
)

# The evaluator's own extraction (AgentResponseEvaluator._get_actual_agent_response_dict): the
# first fenced block, else the whole stripped text, then json.loads. Mirrored to decide when the
# raw text can be handed over unchanged (so results read exactly like the official CLI's).
_ENGINE_FENCE = re.compile(r"```(?:json)?\s*\n?(.*?)\n?```", re.DOTALL)
_FENCES = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.DOTALL)


class AgentResponse(BaseModel):
    """The response as found in the agent's text and as given to the evaluator."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    raw_text: str
    """The agent's final answer text, unchanged."""
    parsed: dict[str, Any] | None
    """The JSON object found in `raw_text`, keys as the agent wrote them; None when none was found."""
    naming: ResponseNaming
    """Which pair of key names the response uses, or "unparsed" when no object was found."""
    engine_input: str | dict[str, Any]
    """What the evaluator is given: the raw text when its own parsing reads the same object, else the
    object, renamed to task_type / retrieved_data when the agent used action / results."""
    findings: tuple[str, ...]
    """Violations of the published response schema, one plain sentence each (they never change the score)."""
    parse_error: str | None
    """Why no response object was found; None when one was."""
    extracted_from: Source | None = None
    """Where the JSON object was found in `raw_text` (the whole text, a fence, prose); None when unparsed."""


def parse_agent_response(text: str) -> AgentResponse:
    """Find the structured response in `text` and check it against the published schema."""
    stripped = text.strip()
    if not stripped:
        return _unparsed(text, "the answer is empty")
    found = _find_object(stripped)
    if isinstance(found, str):
        return _unparsed(text, found)
    parsed, source = found
    naming, type_key, results_key = _naming(parsed)
    if naming == "action/results":
        engine_input: str | dict[str, Any] = {
            {type_key: "task_type", results_key: "retrieved_data"}.get(k, k): v for k, v in parsed.items()
        }
    elif evaluator_json(text) == parsed:
        engine_input = text
    else:
        engine_input = parsed
    return AgentResponse(
        raw_text=text,
        parsed=parsed,
        naming=naming,
        engine_input=engine_input,
        findings=tuple(_findings(parsed, naming, type_key, results_key)),
        parse_error=None,
        extracted_from=source,
    )


def _unparsed(text: str, reason: str) -> AgentResponse:
    # The evaluator gets the raw text so that its own failure verdict names what it received.
    return AgentResponse(
        raw_text=text, parsed=None, naming="unparsed", engine_input=text, findings=(), parse_error=reason
    )


def _find_object(text: str) -> tuple[dict[str, Any], Source] | str:
    """The response object and where it was found, or the reason none was found."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as exc:
        first_error = f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    except (ValueError, RecursionError) as exc:  # an integer beyond the digit limit, absurd nesting
        first_error = f"JSON that cannot be read ({type(exc).__name__})"
    else:
        if isinstance(whole, dict):
            return whole, "text"
        return f"the answer is a JSON {_type_name(whole)}, not an object"
    for match in _FENCES.finditer(text):
        try:
            fenced = json.loads(match.group(1))
        except (ValueError, RecursionError):
            continue
        if isinstance(fenced, dict):
            return fenced, "fence"
    embedded = _embedded_object(text)
    if embedded is not None:
        return embedded, "prose"
    return f"no JSON object found in the answer; the whole text is {first_error}"


def _embedded_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in prose that looks like a response (else the first object at all)."""
    decoder = json.JSONDecoder()
    first: dict[str, Any] | None = None
    start = text.find("{")
    while start != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            if value.keys() & {"action", "task_type", "performed_operation", "status"}:
                return value
            first = first or value
        start = text.find("{", end)
    return first


def evaluator_json(text: str) -> Any:
    """The JSON value the evaluator reads from a response text, or None when it reads none.

    A mirror of the evaluator's own extraction (the first ```json fence, else the whole text), kept
    here so that reading never loads the evaluator; tests/core/scoring/test_official.py checks the
    mirror against the evaluator.
    """
    value = text.strip()
    match = _ENGINE_FENCE.search(text)
    if match:
        value = match.group(1).strip()
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return None


def _naming(parsed: dict[str, Any]) -> tuple[ResponseNaming, str, str]:
    # The evaluator reads task_type first, then performed_operation; only without either is the
    # published `action` naming mapped.
    if "task_type" in parsed:
        return "task_type/retrieved_data", "task_type", "retrieved_data"
    if "performed_operation" in parsed:
        return "performed_operation/retrieved_data", "performed_operation", "retrieved_data"
    if "action" in parsed or "results" in parsed:
        return "action/results", "action", "results"
    return "task_type/retrieved_data", "task_type", "retrieved_data"


def _findings(parsed: dict[str, Any], naming: ResponseNaming, type_key: str, results_key: str) -> list[str]:
    findings: list[str] = []
    task_type = parsed.get(type_key)
    if type_key not in parsed:
        findings.append(f"missing '{type_key}' (one of {', '.join(TASK_TYPES)})")
    elif not isinstance(task_type, str) or task_type.lower() not in TASK_TYPES:
        findings.append(f"'{type_key}' is {task_type!r}; expected one of {', '.join(TASK_TYPES)}")
    status = parsed.get("status")
    if "status" not in parsed:
        findings.append("missing 'status'")
    elif not isinstance(status, str) or status.upper() not in STATUSES:
        findings.append(f"'status' is {status!r}; expected one of {', '.join(STATUSES)}")
    findings.extend(_results_findings(parsed, naming, results_key, task_type))
    details = parsed.get("error_details")
    if details is not None and not isinstance(details, str):
        findings.append(f"'error_details' must be a string or null, found {_type_name(details)}")
    elif details is not None and isinstance(status, str) and status.upper() == "SUCCESS":
        findings.append("'error_details' should be null when status is SUCCESS")
    findings.extend(_key_findings(parsed, naming, type_key, results_key))
    return findings


def _results_findings(parsed: dict[str, Any], naming: ResponseNaming, key: str, task_type: Any) -> list[str]:
    if key not in parsed:
        # The published schema requires `results`; the evaluator's own model defaults it to null.
        return (
            [f"missing '{key}' (use null when there is nothing to return)"]
            if naming == "action/results"
            else []
        )
    results = parsed[key]
    if results is None:
        return []
    if not isinstance(results, list):
        return [f"'{key}' must be an array or null, found {_type_name(results)}"]
    findings = []
    if isinstance(task_type, str) and task_type.lower() in ("navigate", "mutate") and results:
        findings.append(
            f"'{key}' must be null or empty for a {task_type.lower()} action, found {len(results)} item(s)"
        )
    nested = [i for i, item in enumerate(results) if isinstance(item, list)]
    if nested:
        findings.append(
            f"'{key}' item {nested[0] + 1} is an array; "
            "items must be strings, numbers, booleans, objects or null"
        )
    kinds = sorted({_type_name(item) for item in results})
    if len(kinds) > 1:
        findings.append(f"'{key}' mixes item types ({', '.join(kinds)}); all items must have one type")
    objects = [(i, item) for i, item in enumerate(results) if isinstance(item, dict)]
    for i, item in objects[1:]:
        first_index, first = objects[0]
        if set(item) != set(first):
            findings.append(
                f"objects in '{key}' do not share the same keys (item {first_index + 1}: "
                f"{', '.join(sorted(first)) or 'none'}; item {i + 1}: {', '.join(sorted(item)) or 'none'})"
            )
            break
    return findings


def _key_findings(
    parsed: dict[str, Any], naming: ResponseNaming, type_key: str, results_key: str
) -> list[str]:
    known = {type_key, "status", results_key, "error_details"}
    findings = []
    if naming != "action/results":
        for published, engine in (("action", type_key), ("results", results_key)):
            if published in parsed:
                findings.append(
                    f"both '{published}' and '{engine}' are present; the evaluator reads '{engine}'"
                )
                known.add(published)
    if naming == "task_type/retrieved_data" and "performed_operation" in parsed:
        findings.append(
            "both 'task_type' and 'performed_operation' are present; the evaluator reads 'task_type'"
        )
        known.add("performed_operation")
    lowered = {k.lower(): k for k in known}
    for key in parsed:
        if key in known:
            continue
        hint = (
            f"; keys are case-sensitive, did you mean '{lowered[key.lower()]}'?"
            if key.lower() in lowered
            else ""
        )
        findings.append(f"unexpected key '{key}' (ignored by the evaluator{hint})")
    return findings


# JSON's names for the types json.loads produces (bool before int: True is an int in Python).
_JSON_TYPE_NAMES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (type(None), "null"),
    (bool, "boolean"),
    ((int, float), "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def _type_name(value: Any) -> str:
    return next((name for kind, name in _JSON_TYPE_NAMES if isinstance(value, kind)), type(value).__name__)
