"""The network inspector's views: the request list, its search, one request's detail, and the
official evaluator's known limits that apply to a trace.

A request list without agent steps (the official CLI's folders have none) places each request by
its time from the first one instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from webeval_core.reading.network import Har, NetworkEvent, Pairs, TimedStep, step_for_time
from webeval_core.reading.task_catalog import Task
from webeval_core.support.vocabulary import UNKNOWN

# pandas (most of a second to import) is imported where a table is made: a page that draws
# none of these tables does not load it.
if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "STATIC_TYPES",
    "evaluator_limits",
    "expected_checks_table",
    "pairs_table",
    "request_list",
    "request_summary",
    "search_requests",
]

STATIC_TYPES = frozenset({"image", "script", "stylesheet", "font", "media", "manifest", "style"})
"""Resource types "Hide static assets" hides: what the evaluator drops as static files."""

SEARCHED = ("method", "status", "type", "url")
"""The columns a search looks in."""

PLAYWRIGHT_POST_LIMIT = (
    "This Playwright trace keeps request bodies in separate files; the official evaluator reads only "
    "the inline post data, which is empty here, so a check on post data cannot match."
)
NOT_FOUND_LIMIT = (
    "This retrieve task expects NOT_FOUND_ERROR: the official evaluator is known to end such tasks "
    "in an evaluator error rather than a verdict (upstream issue #5)."
)


def request_list(har: Har, steps: Sequence[TimedStep]) -> pd.DataFrame:
    """Every request of the trace, with the step during which it fired when steps have times.

    Without timed steps the "step" column is left out: "+s", seconds from the first request,
    places each request in time instead.
    """
    import pandas as pd

    first = min((e.started for e in har.events if e.started is not None), default=None)
    with_steps = any(s.time_utc is not None for s in steps)
    rows = [_row(e, first, steps if with_steps else None) for e in har.events]
    frame = pd.DataFrame(rows).astype({"status": "Int64", "size": "Int64"})
    return frame.astype({"step": "Int64"}) if with_steps else frame


def _row(e: NetworkEvent, first: datetime | None, steps: Sequence[TimedStep] | None) -> dict[str, object]:
    row: dict[str, object] = {
        "entry": e.har_index,
        "+s": round((e.started - first).total_seconds(), 2) if e.started and first else None,
        "method": e.method,
        "status": e.status,
        "type": e.resource_type,
        "size": e.response_size,
        "ms": round(e.duration_ms) if e.duration_ms is not None else None,
        "url": e.url,
    }
    if steps is not None:
        row["step"] = step_for_time(steps, e.started)
    return row


def search_requests(requests: pd.DataFrame, query: str, *, hide_static: bool = False) -> pd.DataFrame:
    """The rows whose method, status, type or URL hold every word of `query` (any case)."""
    import pandas as pd

    shown = requests[~requests["type"].isin(STATIC_TYPES)] if hide_static else requests
    words = query.lower().split()
    if not words or shown.empty:
        return shown
    haystack = shown[list(SEARCHED)].astype("string").fillna("").agg(" ".join, axis=1).str.lower()
    keep = pd.Series(True, index=shown.index)
    for word in words:
        keep &= haystack.str.contains(word, regex=False)
    return shown[keep]


def request_summary(
    event: NetworkEvent, first: datetime | None = None, step: int | None = None
) -> pd.DataFrame:
    """One request at a glance: what was asked, what came back, when and how long it took."""
    import pandas as pd

    started = event.started.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] if event.started else None
    kind = event.resource_type or UNKNOWN
    rows = {
        "request": f"{event.method} {event.url}",
        "status": UNKNOWN if event.status is None else str(event.status),
        "type": f"{kind} (inferred from MIME type and URL)" if event.resource_type_inferred else kind,
        "response MIME type": event.mime or UNKNOWN,
        "response size": UNKNOWN if event.response_size is None else f"{event.response_size:,} bytes",
        "time": UNKNOWN if event.duration_ms is None else f"{event.duration_ms:,.1f} ms",
        "started (UTC)": started or UNKNOWN,
        "from first request": (
            f"+{(event.started - first).total_seconds():.2f} s" if event.started and first else UNKNOWN
        ),
        "step": UNKNOWN if step is None else str(step),
        "page load (navigation)": "yes" if event.is_document else "no",
    }
    return pd.DataFrame({"field": list(rows), "value": list(rows.values())})


def pairs_table(pairs: Pairs) -> pd.DataFrame:
    """Headers or query parameters as a two-column table, in recorded order."""
    import pandas as pd

    return pd.DataFrame(list(pairs), columns=["name", "value"])


def evaluator_limits(
    har: Har | None, task: Task | None, *, evaluator_error: bool = False, failed_checks: Sequence[int] = ()
) -> tuple[str, ...]:
    """Known limits of the official evaluator where they decide this trajectory's verdict.

    `evaluator_error`: the official verdict is an evaluator error; `failed_checks`: positions of
    the task's network checks that did not pass.
    """
    limits: list[str] = []
    if har is not None and task is not None and _post_data_hidden(har, task, failed_checks):
        limits.append(PLAYWRIGHT_POST_LIMIT)
    expects_not_found = (
        task is not None and task.task_type == "retrieve" and task.expected.status == "NOT_FOUND_ERROR"
    )
    if expects_not_found and evaluator_error:
        limits.append(NOT_FOUND_LIMIT)
    return tuple(limits)


def _post_data_hidden(har: Har, task: Task, failed_checks: Sequence[int]) -> bool:
    """A failed check compares post data that the Playwright trace keeps out of the evaluator's sight."""
    failed_on_post = any(
        c.position in failed_checks and c.config.get("expected", {}).get("post_data")
        for c in task.network_checks
    )
    return failed_on_post and har.format == "playwright" and any(e.post_data_attached for e in har.events)


def expected_checks_table(task: Task) -> pd.DataFrame | None:
    """The task's network checks as the task states them (no request matched against them, no
    verdict): what a blind reviewer judges the trace against, in the task's order. None when the
    task has none. No column that reads as a mark on the trace ("check", "status", "match"): only
    what the task asks for.
    """
    import pandas as pd

    if not task.network_checks:
        return None
    rows = [
        {
            "method": check.http_method,
            "url": check.url if isinstance(check.url, str) else " | ".join(check.url),
            "expected response status": check.response_status,
            "must not happen": check.should_not_exist,
            "last page load only": check.last_event_only,
        }
        for check in task.network_checks
    ]
    return pd.DataFrame(rows)
