"""ATIF's JSON schema, written from Harbor's RFC 0001 field tables (v1.6): what a document must
hold for another tool to read it. Harbor's own pydantic models need Python 3.12, so the tests check
our documents against this instead (README: "ATIF").
"""

from __future__ import annotations

from typing import Any

_TEXT_PART = {
    "type": "object",
    "required": ["type", "text"],
    "properties": {"type": {"const": "text"}, "text": {"type": "string"}},
}
_IMAGE_PART = {
    "type": "object",
    "required": ["type", "source"],
    "properties": {
        "type": {"const": "image"},
        "source": {
            "type": "object",
            "required": ["media_type", "path"],
            "properties": {"media_type": {"type": "string"}, "path": {"type": "string"}},
        },
    },
}
_PART = {"anyOf": [_TEXT_PART, _IMAGE_PART]}
_RESULT = {
    "type": "object",
    "properties": {
        "source_call_id": {"type": ["string", "null"]},
        "content": {
            "anyOf": [{"type": "string"}, {"type": "array", "items": {"anyOf": [_TEXT_PART, _IMAGE_PART]}}]
        },
        "subagent_trajectory_ref": {"type": "array"},
    },
}
_TOOL_CALL = {
    "type": "object",
    "required": ["tool_call_id", "function_name", "arguments"],
    "properties": {
        "tool_call_id": {"type": "string"},
        "function_name": {"type": "string"},
        "arguments": {"type": "object"},
    },
}
_METRICS = {
    "type": "object",
    "properties": {
        "prompt_tokens": {"type": "integer"},
        "completion_tokens": {"type": "integer"},
        "cached_tokens": {"type": "integer"},
        "cost_usd": {"type": "number"},
        "extra": {"type": "object"},
    },
}
_STEP = {
    "type": "object",
    "required": ["step_id", "source", "message"],
    "properties": {
        "step_id": {"type": "integer", "minimum": 1},
        "timestamp": {"type": "string", "format": "date-time"},
        "source": {"enum": ["system", "user", "agent"]},
        "model_name": {"type": "string"},
        "reasoning_effort": {"type": ["string", "number"]},
        "message": {"anyOf": [{"type": "string"}, {"type": "array", "items": _PART}]},  # parts since v1.6
        "reasoning_content": {"type": "string"},
        "tool_calls": {"type": "array", "items": _TOOL_CALL},
        "observation": {
            "type": "object",
            "required": ["results"],
            "properties": {"results": {"type": "array", "items": _RESULT}},
        },
        "metrics": _METRICS,
        "extra": {"type": "object"},
    },
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["schema_version", "session_id", "agent", "steps"],
    "properties": {
        "schema_version": {"type": "string", "pattern": r"^ATIF-v1\.\d+$"},
        "session_id": {"type": "string"},
        "agent": {
            "type": "object",
            "required": ["name", "version"],
            "properties": {
                "name": {"type": "string"},
                "version": {"type": "string"},
                "model_name": {"type": "string"},
                "extra": {"type": "object"},
            },
        },
        "steps": {"type": "array", "items": _STEP},
        "notes": {"type": "string"},
        "final_metrics": {
            "type": "object",
            "properties": {
                "total_prompt_tokens": {"type": "integer"},
                "total_completion_tokens": {"type": "integer"},
                "total_cached_tokens": {"type": "integer"},
                "total_cost_usd": {"type": "number"},
                "total_steps": {"type": "integer"},
                "extra": {"type": "object"},
            },
        },
        "extra": {"type": "object"},
    },
}


def atif_problems(document: dict[str, Any]) -> list[str]:
    """What keeps a document from being ATIF: the schema's errors, then the RFC's rules a schema
    cannot say (step ids 1, 2, 3...; each observation answers a tool call of its step; tool calls
    and reasoning on agent steps only).
    """
    from jsonschema import Draft202012Validator

    found = [
        f"{'/'.join(map(str, e.path))}: {e.message}"
        for e in Draft202012Validator(SCHEMA).iter_errors(document)
    ]
    steps = document.get("steps", [])
    if [s.get("step_id") for s in steps] != list(range(1, len(steps) + 1)):
        found.append("step ids are not 1, 2, 3...")
    for step in steps:
        calls = {c["tool_call_id"] for c in step.get("tool_calls", [])}
        results = step.get("observation", {}).get("results", [])
        found.extend(
            f"step {step.get('step_id')}: observation of an unknown call"
            for result in results
            if result.get("source_call_id") not in (None, *calls)
        )
        if step.get("source") != "agent" and ("tool_calls" in step or "reasoning_content" in step):
            found.append(f"step {step.get('step_id')}: agent fields on a {step.get('source')} step")
    return found
