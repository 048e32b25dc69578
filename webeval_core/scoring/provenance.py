"""Where each network check looked: the provenance the official result does not give.

For every NetworkEventEvaluator config of a task: the HAR entries it considered, the ones it kept,
field-by-field differences after normalization, the agent step during which each request fired,
and a sentence saying why the check passed or failed. It is computed with the evaluator's own
filtering, extraction, normalization and comparison (through `scoring.official`), so it cannot
drift from the verdict.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.network import Har, TimedStep, step_for_time
from webeval_core.scoring import official
from webeval_core.scoring.official import EffectiveConfig, Engine, NetworkCheck, Request, Trace
from webeval_core.scoring.results import TaskResult


class FieldDiff(BaseModel):
    """One expected field of a network check against one request, after normalization."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    field: str
    """E.g. "url", "response_status", "post_data.title", "headers.referer"."""
    expected: Any
    """The check's value, normalized (alternatives as {"one_of": [...]})."""
    actual: Any
    """The request's value, normalized; None when the request lacks the field."""
    matches: bool
    """The evaluator's comparison found no difference."""
    message: str | None = None
    """What the evaluator says about the difference."""


class Candidate(BaseModel):
    """A HAR entry that passed the evaluator's URL/method/referer filter for one network check."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    har_index: int | None
    """Its entry in the HAR."""
    started: datetime | None
    """When the request started, by the HAR."""
    method: str
    """HTTP method."""
    url: str
    """The request URL."""
    status: int | None
    """The response status."""
    step: int | None
    """Agent step during which the request fired."""
    is_document: bool
    """A page navigation by the evaluator's rule."""
    kept: bool
    """Compared by the evaluator (only the last one when last_event_only)."""
    matched: bool | None
    """All fields match (None when it could not be normalized)."""
    fields: tuple[FieldDiff, ...] = ()
    """Each expected field against this request."""
    error: str | None = None
    """Why the request could not be normalized."""


class NetworkCheckTrace(BaseModel):
    """What one NetworkEventEvaluator config looked at and why it passed or failed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    position: int
    """Index in the task's eval list and in evaluators_results."""
    expected_url: str | tuple[str, ...]
    """The expected URL, or its alternatives."""
    http_method: str
    """The expected HTTP method."""
    last_event_only: bool
    """Only the last matching request is compared."""
    should_not_exist: bool
    """The request must not happen."""
    considered: int
    """Requests the evaluator searched (static assets excluded)."""
    candidates: tuple[Candidate, ...]
    """The requests that passed its filter, in HAR order."""
    kept: tuple[int, ...]
    """HAR indices the evaluator compared."""
    matched: int | None
    """HAR index of the kept request that matched."""
    passed: bool | None
    """Verdict by this provenance; None when the evaluator errored."""
    official_status: str | None
    """The evaluator's status for this check; None when it stopped before it."""
    official_messages: tuple[str, ...] = ()
    """The evaluator's own words for this check's failed assertions (e.g. "Checked 1 event(s) but
    none matched"), to be shown beside `considered`, which counts the requests differently."""
    navigate_last_document_only: bool
    """The upstream navigate-task shortcut applied."""
    limitation: str | None = None
    """Set when that shortcut decided the verdict."""
    explanation: str
    """One sentence: why the check passed or failed."""
    error: str | None = None
    """Why the evaluator could not run or normalize this check."""


def trace_network_checks(
    engine: Engine,
    task_id: int,
    *,
    engine_input: Any,
    trace: Trace,
    effective: EffectiveConfig,
    result: TaskResult,
    har: Har | None,
    steps: Sequence[TimedStep],
) -> tuple[NetworkCheckTrace, ...]:
    """The provenance of each network check of the task, in eval-list order."""
    traces = []
    for check in official.network_checks(engine, task_id, engine_input, trace, effective):
        evaluator = result.at(check.position)
        status = str(evaluator.status) if evaluator is not None else None
        messages = tuple(m for a in evaluator.failed_assertions for m in a.messages) if evaluator else ()
        traces.append(_CheckTracer(check, har, steps).run(status, messages, effective.error))
    return tuple(traces)


class _CheckTracer:
    """Replays one network check with the evaluator's own steps."""

    def __init__(self, check: NetworkCheck, har: Har | None, steps: Sequence[TimedStep]) -> None:
        self.check = check
        self.har = har
        self.steps = steps

    def run(
        self, official_status: str | None, official_messages: tuple[str, ...], config_error: str | None
    ) -> NetworkCheckTrace:
        check = self.check
        base: dict[str, Any] = {
            "official_messages": official_messages,
            "position": check.position,
            "expected_url": check.expected_url,
            "http_method": check.http_method,
            "last_event_only": check.last_event_only,
            "should_not_exist": check.should_not_exist,
            "official_status": official_status,
            "navigate_last_document_only": check.navigate_shortcut,
        }
        if not check.runnable:
            return _errored(base, 0, f"the evaluator could not run: {config_error}")
        requests = check.requests()
        try:
            expected = check.expected()
            found = check.found(requests)
        except Exception as exc:  # whatever the library raises, the reason is shown, not a crash
            return _errored(base, len(requests), f"the evaluator failed on this check: {exc}")
        kept_requests = found[-1:] if check.last_event_only else found
        candidates = [self._candidate(r, expected, kept=any(r is k for k in kept_requests)) for r in found]
        kept = [c for c in candidates if c.kept]
        passed = _passed(kept, should_not_exist=check.should_not_exist)
        limitation = self._limitation(requests, expected, passed) if check.navigate_shortcut else None
        return NetworkCheckTrace(
            **base,
            considered=len(requests),
            candidates=tuple(candidates),
            kept=tuple(c.har_index for c in kept if c.har_index is not None),
            matched=None if check.should_not_exist else next((c.har_index for c in kept if c.matched), None),
            passed=passed,
            limitation=limitation,
            explanation=explain(check, candidates, passed, len(requests)),
            error=next((c.error for c in kept if c.error), None),
        )

    def _candidate(self, request: Request, expected: Any, *, kept: bool) -> Candidate:
        started = self._started(request.har_index)
        info: dict[str, Any] = {
            "har_index": request.har_index,
            "started": started,
            "method": request.method,
            "url": request.url,
            "status": request.status,
            "step": step_for_time(self.steps, started),
            "is_document": request.is_document,
            "kept": kept,
        }
        try:
            actual = self.check.normalized(request, expected)
        except Exception as exc:  # the evaluator fails on this request too; shown as its error
            return Candidate(**info, matched=None, error=f"could not be normalized: {exc}")
        matched = self.check.compare(actual, expected).matches
        return Candidate(**info, matched=matched, fields=self._fields(actual, expected))

    def _fields(self, actual: Mapping[str, Any], expected: Mapping[str, Any]) -> tuple[FieldDiff, ...]:
        diffs: list[FieldDiff] = []
        for key, want in expected.items():
            got = actual.get(key)
            if want is None and got is None:
                continue  # not part of this check
            if isinstance(want, Mapping) and isinstance(got, Mapping):
                diffs.extend(self._diff(f"{key}.{sub}", got, sub, sub_want) for sub, sub_want in want.items())
            else:
                diffs.append(self._diff(key, actual, key, want))
        return tuple(diffs)

    def _diff(self, name: str, container: Mapping[str, Any], key: str, want: Any) -> FieldDiff:
        if key not in container:
            return FieldDiff(
                field=name,
                expected=official.jsonable(want),
                actual=None,
                matches=False,
                message="not in the request",
            )
        got = container[key]
        comparison = self.check.compare(got, want, name)
        return FieldDiff(
            field=name,
            expected=official.jsonable(want),
            actual=official.jsonable(got),
            matches=comparison.matches,
            message="; ".join(comparison.messages) or None,
        )

    def _limitation(self, requests: Sequence[Request], expected: Any, passed: bool | None) -> str | None:
        """Whether the navigate-task shortcut (only the last page navigation counts) decided the verdict."""
        if passed is not False or self.check.should_not_exist:
            return None
        try:
            found = self.check.found(requests, any_method_case=True)
        except Exception:  # the shortcut cannot be named when the regular filter fails
            return None
        matching = [r for r in found if self._matches(r, expected)]
        if not matching:
            return None
        described = ", ".join(self._describe(r) for r in matching[:3]) + (" ..." if len(matching) > 3 else "")
        return (
            f"{described} matches every expected field, but for navigate tasks the evaluator only looks "
            "at the last page navigation (known upstream limitation), so it was not considered"
        )

    def _matches(self, request: Request, expected: Any) -> bool:
        try:
            actual = self.check.normalized(request, expected)
        except Exception:  # a request the evaluator cannot normalize matches nothing
            return False
        return self.check.compare(actual, expected).matches

    def _started(self, index: int | None) -> datetime | None:
        return self.har.started(index) if self.har is not None and index is not None else None

    def _describe(self, request: Request) -> str:
        step = step_for_time(self.steps, self._started(request.har_index))
        kind = "page navigation" if request.is_document else "request"
        where = f" during step {step}" if step is not None else ""
        return f"entry {request.har_index} ({kind} {request.method} {request.url}{where})"


def _errored(base: dict[str, Any], considered: int, reason: str) -> NetworkCheckTrace:
    return NetworkCheckTrace(
        **base,
        considered=considered,
        candidates=(),
        kept=(),
        matched=None,
        passed=None,
        explanation=reason,
        error=reason,
    )


def _passed(kept: Sequence[Candidate], *, should_not_exist: bool) -> bool | None:
    if any(c.matched is None for c in kept):
        return None  # the evaluator itself fails normalizing a kept request
    if should_not_exist:
        return not kept
    return any(c.matched for c in kept)


# --- the explanation ---------------------------------------------------------------------------


def explain(
    check: NetworkCheck, candidates: Sequence[Candidate], passed: bool | None, considered: int
) -> str:
    """One sentence on why the check passed or failed, naming the entries and steps involved."""
    url = check.expected_url if isinstance(check.expected_url, str) else " or ".join(check.expected_url)
    target = f"{check.http_method} {url}"
    kept = [c for c in candidates if c.kept]
    if check.should_not_exist:
        if passed:
            return f"No request to {target} among {considered} request(s), as required (it must not happen)."
        return f"{_entry(kept[0])} is a request that must not happen ({target})."
    if not candidates:
        if check.navigate_shortcut:
            return "The HAR has no page navigation; for navigate tasks the evaluator checks the last one."
        return f"No request to {target} among {considered} request(s) (static assets excluded)."
    return _compared(check, candidates, kept, passed, target)


def _compared(
    check: NetworkCheck,
    candidates: Sequence[Candidate],
    kept: list[Candidate],
    passed: bool | None,
    target: str,
) -> str:
    """The explanation when some request was compared."""
    if passed is None:
        return f"The evaluator could not normalize {_entry(kept[0])}: {kept[0].error}"
    if passed:
        return f"Kept {_entry(next(c for c in kept if c.matched))}: all fields match."
    if not check.last_event_only:
        closest = min(kept, key=lambda c: sum(not f.matches for f in c.fields) + (c.matched is None) * 1_000)
        return (
            f"None of the {len(kept)} request(s) to {target} has every field right; "
            f"closest is {_entry(closest)}: {_differences(closest)}."
        )
    return _last_kept(check, candidates, kept[0], target)


def _last_kept(check: NetworkCheck, candidates: Sequence[Candidate], last: Candidate, target: str) -> str:
    if check.navigate_shortcut:
        which = ", the last page navigation"
    elif len(candidates) > 1:
        which = f", the last of {len(candidates)} requests to {target}"
    else:
        which = ""
    text = f"Kept {_entry(last)}{which}: {_differences(last)}."
    earlier = [c for c in candidates if not c.kept and c.matched]
    if earlier:
        text += (
            f" {_entry(earlier[-1])} matches every field, but only the last matching request counts"
            " (last_event_only)."
        )
    return text


def _entry(candidate: Candidate) -> str:
    step = f", step {candidate.step}" if candidate.step is not None else ""
    return f"entry {candidate.har_index} ({candidate.method} {candidate.url}{step})"


def _differences(candidate: Candidate) -> str:
    if candidate.error:
        return candidate.error
    wrong = [f for f in candidate.fields if not f.matches]
    if not wrong:
        return "fields differ"
    return "; ".join(
        f"{f.field} differs (expected {_short(f.expected)}, got {_short(f.actual)})" for f in wrong
    )


def _short(value: Any, width: int = 80) -> str:
    if isinstance(value, dict) and list(value) == ["one_of"]:
        return " or ".join(_short(v, width) for v in value["one_of"])
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= width else text[: width - 1] + "…"
