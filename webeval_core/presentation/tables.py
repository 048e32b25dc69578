"""What a verdict and a trajectory's evidence say, as tables for any view.

The official result is a nested tree of evaluators and assertions; a reviewer needs it flat:
which response field was wrong, what changed after re-scoring, which request fired in which
step. Built here, without a UI, so every view (and a test) reads the same tables.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from webeval_core.presentation.tones import Tone
from webeval_core.presentation.wording import UNKNOWN, moment, plural
from webeval_core.reading.corelog import CoreLogLine
from webeval_core.reading.network import Har, TimedStep, step_for_time
from webeval_core.reading.response import AgentResponse, parse_agent_response
from webeval_core.reading.trajectory_reader import Trajectory
from webeval_core.review.annotations import Annotation
from webeval_core.scoring import (
    RESPONSE_EVALUATOR,
    Candidate,
    EvaluatorResult,
    NetworkCheckTrace,
    ScoreOutcome,
    TaskResult,
    read_verdict_with_result,
)

MATCH, MISMATCH, UNATTRIBUTED = "✓", "✗", "?"
MATCH_TONES: dict[str, Tone] = {MATCH: "good", MISMATCH: "bad"}
"""How a match column's cell reads."""
# The verdict fields of an LLM judge's score file (Fara's rubric and verifier judges), a row each.
VERDICT_FIELDS = (
    "is_success",
    "outcome_success",
    "rubric_is_success",
    "verifier_success",
    "success_criterion",
    "outcome_reasoning",
    "verifier_reasoning",
)

# pandas (most of a second to import) is imported where a table is made: a page that draws
# none of these tables does not load it.
if TYPE_CHECKING:
    import pandas as pd
FIELD_COLUMNS = ["field", "match", "expected", "agent, normalized", "agent"]
ASSERTION_COLUMNS = ["evaluator", "assertion", "status", "messages"]
BEFORE_AFTER_COLUMNS = ["evaluator", "before", "before score", "after", "after score", "changed"]
CORE_LOG_COLUMNS = ["line", "time", "level", "logger", "message"]


def json_cell(value: Any) -> str:
    """A value as one table cell: JSON, so `"1"` and `1` stay distinguishable; empty for None."""
    return json.dumps(value, ensure_ascii=False, default=str) if value is not None else ""


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


# --- the agent's response -------------------------------------------------------------------


def agent_fields(result: EvaluatorResult, response: AgentResponse | None) -> dict[str, Any]:
    """The agent's fields under the evaluator's names.

    The evaluator's `actual` is the raw text when it was given text, so the parsed response
    stands in for it then.
    """
    actual = result.actual
    if isinstance(actual, dict):
        return actual
    if response is not None and isinstance(response.engine_input, dict):
        return response.engine_input
    return response.parsed if response is not None and response.parsed is not None else {}


def field_table(result: EvaluatorResult, actual: Mapping[str, Any]) -> pd.DataFrame:
    """Expected vs actual vs normalized, per response field.

    A field is wrong when a failed assertion names it (the evaluator's own verdict, not a
    re-comparison that could disagree); a failure naming no field leaves every field in doubt.
    An unparseable answer has no normalized fields, only its assertion.
    """
    import pandas as pd

    expected = _mapping(result.expected)
    normalized = _mapping(result.actual_normalized)
    fields = list(dict.fromkeys([*expected, *normalized, *actual]))
    failed = [a.assertion_name for a in result.failed_assertions]
    unattributed = any(not any(f in name for f in fields) for name in failed)
    rows = []
    for field in fields:
        if any(field in name for name in failed):
            match = MISMATCH
        elif unattributed:
            match = UNATTRIBUTED
        else:
            match = MATCH
        rows.append(
            {
                "field": field,
                "match": match,
                "expected": json_cell(expected.get(field)),
                "agent, normalized": json_cell(normalized.get(field)),
                "agent": json_cell(actual.get(field)),
            }
        )
    return pd.DataFrame(rows, columns=FIELD_COLUMNS)


FOUND, MISSING, EXTRA = "found", "missing", "extra"
"""An expected element the agent gave, one it did not, and one it gave that was not expected."""


def element_tables(official: TaskResult) -> dict[str, pd.DataFrame]:
    """Each list-valued response field that failed, element by element (after the evaluator's
    normalization): every expected element found in the agent's list or missing from it, then the
    agent's elements nobody expected. What "Matched 7/8" leaves out: which one.
    """
    result = official.evaluator(RESPONSE_EVALUATOR)
    if result is None:
        return {}
    expected, normalized = _mapping(result.expected), _mapping(result.actual_normalized)
    failed = [a.assertion_name for a in result.failed_assertions]
    return {
        field: _element_rows(wanted, normalized.get(field))
        for field, wanted in expected.items()
        if isinstance(wanted, list) and any(field in name for name in failed)
    }


def _element_rows(expected: list[Any], given: Any) -> pd.DataFrame:
    import pandas as pd

    left = [json_cell(value) for value in (given if isinstance(given, list) else [])]
    rows = []
    for value in map(json_cell, expected):
        found = value in left
        if found:
            left.remove(value)
        rows.append({"element": value, "in": FOUND if found else MISSING})
    rows += [{"element": value, "in": EXTRA} for value in left]
    return pd.DataFrame(rows, columns=["element", "in"])


def response_field_table(official: TaskResult, response: AgentResponse | None) -> pd.DataFrame | None:
    """The field table of the official result's response evaluator.

    None when the task has none (network-only tasks).
    """
    result = official.evaluator(RESPONSE_EVALUATOR)
    return None if result is None else field_table(result, agent_fields(result, response))


def assertion_table(results: Sequence[EvaluatorResult]) -> pd.DataFrame:
    """Every assertion of every evaluator, one row each.

    Evaluators are numbered by position because a task may run the same evaluator twice (two
    network checks).
    """
    import pandas as pd

    rows = [
        {
            "evaluator": f"{position}: {result.evaluator_name}",
            "assertion": a.assertion_name,
            "status": a.status.value,
            "messages": "\n".join(a.messages) or a.error_msg or "",
        }
        for position, result in enumerate(results)
        for a in result.all_assertions
    ]
    return pd.DataFrame(rows, columns=ASSERTION_COLUMNS)


def editable_response(text: str | None, task_type: str) -> str:
    """A response to start a what-if from.

    The agent's own (re-indented when it is JSON alone, often written on one line, to be easier
    to edit), else a minimal valid one for the task's type.
    """
    response = parse_agent_response(text) if text else None
    if response is not None and response.extracted_from == "text":
        return json.dumps(response.parsed, indent=2, ensure_ascii=False)
    return text or json.dumps(
        {"task_type": task_type.upper(), "status": "SUCCESS", "retrieved_data": None}, indent=2
    )


# --- re-scoring -----------------------------------------------------------------------------


def evaluator_rows(result: TaskResult | None) -> dict[str, tuple[Any, Any]]:
    """(status, score) of the task and of each evaluator, keyed so two results line up."""
    if result is None:
        return {}
    rows: dict[str, tuple[Any, Any]] = {"task": (result.status.value, result.score)}
    for position, r in enumerate(result.evaluators_results):
        rows[f"{position}: {r.evaluator_name}"] = (r.status.value, r.score)
    return rows


def stored_result(trajectory: Trajectory) -> tuple[str | None, TaskResult | None]:
    """The newest official verdict already on disk: its source and its official result.

    What a re-scoring is compared against.
    """
    found = read_verdict_with_result(trajectory.scores, trajectory.eval_result)
    if found is None:
        return None, None
    verdict, result = found
    return verdict.source, result


def before_after(before: TaskResult | None, after: TaskResult | None) -> pd.DataFrame:
    """The task's and each evaluator's verdict before and after re-scoring, with what changed.

    A new engine version may decide differently.
    """
    import pandas as pd

    old, new = evaluator_rows(before), evaluator_rows(after)
    rows = []
    for name in dict.fromkeys([*new, *old]):
        was, now = old.get(name, (None, None)), new.get(name, (None, None))
        rows.append(
            {
                "evaluator": name,
                "before": was[0],
                "before score": was[1],
                "after": now[0],
                "after score": now[1],
                "changed": was != now,
            }
        )
    return pd.DataFrame(rows, columns=BEFORE_AFTER_COLUMNS)


def outcome_table(outcomes: Iterable[ScoreOutcome]) -> pd.DataFrame:
    """One row per scored trajectory of a batch, with why it did not succeed."""
    import pandas as pd

    return pd.DataFrame(
        [
            {"task": o.task_id, "status": o.status, "score": o.score, "reused": o.reused, "reason": o.reason}
            for o in outcomes
        ]
    )


# --- network --------------------------------------------------------------------------------


def request_table(har: Har, steps: Sequence[TimedStep]) -> pd.DataFrame:
    """The HAR's requests, each with the agent step during which it fired.

    So a request can be read beside what the agent was doing.
    """
    import pandas as pd

    first = next((e.started for e in har.events if e.started is not None), None)
    rows = [
        {
            "entry": e.har_index,
            "time (UTC)": e.started.astimezone(UTC).strftime("%H:%M:%S.%f")[:-3] if e.started else None,
            "+s": round((e.started - first).total_seconds(), 2) if e.started and first else None,
            "method": e.method,
            "status": e.status,
            "type": e.resource_type or ("document" if e.is_document else None),
            "url": e.url,
            "step": step_for_time(steps, e.started),
        }
        for e in har.events
    ]
    return pd.DataFrame(rows).astype({"step": "Int64", "status": "Int64"})


def candidate_table(trace: NetworkCheckTrace) -> pd.DataFrame:
    """The requests one network check considered, and which it kept and matched."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "entry": c.har_index,
                "step": c.step,
                "method": c.method,
                "status": c.status,
                "url": c.url,
                "page load": c.is_document,
                "kept": c.kept,
                "matched": c.matched,
            }
            for c in trace.candidates
        ]
    ).astype({"step": "Int64", "entry": "Int64", "status": "Int64"})


NAVIGATE_LAST_DOCUMENT = (
    "Navigate task with a GET check: the evaluator only looks at the last page navigation "
    "(known upstream limitation)."
)
"""Said of a navigate task's GET check, where an earlier matching request does not count."""


def check_notes(trace: NetworkCheckTrace) -> tuple[str, ...]:
    """What a network check's reader must know besides its explanation: an evaluator limitation
    that decided it, else the navigate rule (the app's check and the HTML page say the same).
    """
    if trace.limitation:
        return (trace.limitation,)
    return (NAVIGATE_LAST_DOCUMENT,) if trace.navigate_last_document_only else ()


def official_caption(trace: NetworkCheckTrace) -> str:
    """A network check's official status and how much of the trace it searched, in both counts:
    ours (the requests considered) and the evaluator's own words ("Checked 1 event(s)…"), which
    count after its filters, so a reader sees why the two numbers differ.
    """
    words = f"official status: {trace.official_status or UNKNOWN} · the check searched"
    words += f" {plural(trace.considered, 'request')} of the trace"
    if trace.official_messages:
        words += " · the evaluator says: " + " ".join(trace.official_messages)
    return words


def compared_candidates(trace: NetworkCheckTrace) -> tuple[Candidate, ...]:
    """The requests of a check worth showing field by field: those it kept, and any that matched
    every field (a match the check ignored is the explanation of many failures).
    """
    return tuple(c for c in trace.candidates if (c.kept or c.matched) and c.fields)


def candidate_field_table(candidate: Candidate) -> pd.DataFrame:
    """A compared request's fields against the check's, after the evaluator's normalization."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "field": f.field,
                "match": MATCH if f.matches else MISMATCH,
                "expected": json_cell(f.expected),
                "actual": json_cell(f.actual),
                "message": f.message or "",
            }
            for f in candidate.fields
        ]
    )


# --- evidence -------------------------------------------------------------------------------


def rubric_table(response: Mapping[str, Any]) -> pd.DataFrame | None:
    """A judge's rubric items (Fara score files), None when the score file has none."""
    import pandas as pd

    items = response.get("rubric_items")
    return pd.DataFrame(items) if isinstance(items, list) else None


def verdict_field_table(response: Mapping[str, Any]) -> pd.DataFrame | None:
    """A judge's verdict and reasoning fields, None when the score file has none of them."""
    import pandas as pd

    verdict = {k: response[k] for k in VERDICT_FIELDS if k in response}
    if not verdict:
        return None
    return pd.DataFrame({"field": list(verdict), "value": [json_cell(v) for v in verdict.values()]})


def core_log_table(lines: Iterable[CoreLogLine], utc_offset_s: float | None = None) -> pd.DataFrame:
    """core.log lines as rows, keeping their line numbers to find them in the file; times in UTC
    (`wording.moment`: the log's local times moved by the run's offset, written with their zone).
    """
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "line": r.line,
                "time": moment(r.time, utc_offset_s) if r.time else None,
                "level": r.level,
                "logger": r.logger,
                "message": r.message,
            }
            for r in lines
        ],
        columns=CORE_LOG_COLUMNS,
    )


def token_usage_table(trajectory: Trajectory) -> pd.DataFrame | None:
    """Tokens per model call kind plus the total; None when the answer recorded none."""
    import pandas as pd

    usage = trajectory.final_answer.token_usage if trajectory.final_answer else {}
    if not usage:
        return None
    rows = {name: u.model_dump(exclude_none=True) for name, u in usage.items()}
    rows["total"] = trajectory.token_usage.model_dump(exclude_none=True)
    return pd.DataFrame.from_dict(rows, orient="index")


# --- annotations ----------------------------------------------------------------------------


def annotation_table(annotations: Iterable[Annotation], current_source: str | None) -> pd.DataFrame:
    """One trajectory's annotations, newest first, each saying whether it judged the verdict shown now.

    A re-scoring may have replaced the one it judged.
    """
    import pandas as pd

    columns = [name for name in Annotation.model_fields if name not in ("run", "task_id")]
    newest_first = sorted(annotations, key=lambda a: a.created, reverse=True)
    rows = pd.DataFrame(
        [a.model_dump(mode="json", include=set(columns)) for a in newest_first], columns=columns
    )
    rows["judged current verdict"] = rows["verdict_source"] == current_source
    return rows


def utc_moment(seconds: float | None) -> str:
    """Unix seconds as `wording.moment` writes a time; `UNKNOWN` for None, NaN or a value out of range."""
    try:
        return moment(datetime.fromtimestamp(seconds, UTC) if seconds is not None else None)
    except (ValueError, OverflowError, OSError, TypeError):  # NaN, 4e12 (year 128,000), inf
        return UNKNOWN


def arguments_table(arguments: Mapping[str, Any]) -> pd.DataFrame:
    """An action's arguments one per row (text as written, anything else as JSON), not a paragraph."""
    import pandas as pd

    rows = [
        {
            "argument": name,
            "value": value if isinstance(value, str) else json.dumps(value, ensure_ascii=False),
        }
        for name, value in arguments.items()
    ]
    return pd.DataFrame(rows, columns=["argument", "value"])


def network_results(official: TaskResult) -> list[str]:
    """Each network check of an official result as its evaluator reported it (status, then its
    assertions' messages): what the official CLI's eval_result.json says of the trace.
    """
    lines = []
    for position, result in enumerate(official.evaluators_results):
        if result.evaluator_name == RESPONSE_EVALUATOR:
            continue
        said = "; ".join(m for a in result.all_assertions for m in (a.messages or (a.error_msg or "",)) if m)
        lines.append(f"Network check {position}: {result.status.value}" + (f": {said}" if said else ""))
    return lines
