"""Build HAR files and WebArena-Verified trajectory folders for tests.

Entries look like Playwright's HAR output: request/response objects with header lists, a
`startedDateTime` with an offset, `postData` with a mime type. Page loads carry the Sec-Fetch
headers a browser sends, so the evaluator sees them as navigation events.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tests.harness.builders import START_UTC

# Entry times are seconds after the start of a `tests.harness.builders` trajectory, whose step k begins
# at 5 + 10 * (k - 1) seconds, so `at=17` fires during step 2.
T0 = START_UTC

GITLAB = "http://localhost:8023"
REDDIT = "http://localhost:9999"
SHOPPING = "http://localhost:7770"
SHOPPING_ADMIN = "http://localhost:7780/admin"
MAP = "http://localhost:3000"
WIKIPEDIA = "http://localhost:8888"

CONFIG = {
    "environments": {
        "__GITLAB__": {"urls": [GITLAB]},
        "__REDDIT__": {"urls": [REDDIT]},
        "__SHOPPING__": {"urls": [SHOPPING]},
        "__SHOPPING_ADMIN__": {"urls": [SHOPPING_ADMIN]},
        "__MAP__": {"urls": [MAP]},
        "__WIKIPEDIA__": {"urls": [WIKIPEDIA]},
    }
}

DOCUMENT_HEADERS = {
    "accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "sec-fetch-dest": "document",
    "sec-fetch-mode": "navigate",
    "sec-fetch-user": "?1",
}
XHR_HEADERS = {"accept": "application/json, text/plain, */*", "x-requested-with": "XMLHttpRequest"}


def entry(
    url: str,
    *,
    method: str = "GET",
    status: int = 200,
    at: float = 0.0,
    headers: dict[str, str] | None = None,
    form: dict[str, str] | None = None,
    json_body: dict[str, Any] | None = None,
    post_data: tuple[str, str] | None = None,
    response_mime: str = "text/html",
    redirect_url: str = "",
) -> dict[str, Any]:
    """One HAR entry; `at` is seconds after T0; `form`, `json_body` or `post_data` (mime type,
    text as sent) become postData."""
    request: dict[str, Any] = {
        "method": method,
        "url": url,
        "httpVersion": "HTTP/1.1",
        "headers": [{"name": k, "value": v} for k, v in (headers or {}).items()],
        "queryString": [],
        "cookies": [],
        "headersSize": -1,
        "bodySize": 0,
    }
    if form is not None:
        request["postData"] = {"mimeType": "application/x-www-form-urlencoded", "text": urlencode(form)}
    if json_body is not None:
        request["postData"] = {"mimeType": "application/json", "text": json.dumps(json_body)}
    if post_data is not None:
        request["postData"] = {"mimeType": post_data[0], "text": post_data[1]}
    return {
        "startedDateTime": (T0 + timedelta(seconds=at)).isoformat().replace("+00:00", "Z"),
        "time": 12.5,
        "request": request,
        "response": {
            "status": status,
            "statusText": "",
            "httpVersion": "HTTP/1.1",
            "headers": [{"name": "content-type", "value": response_mime}],
            "cookies": [],
            "content": {"size": 1234, "mimeType": response_mime},
            "redirectURL": redirect_url,
            "headersSize": -1,
            "bodySize": 1234,
        },
        "cache": {},
        "timings": {"send": 0, "wait": 10, "receive": 2.5},
    }


def document(url: str, **kwargs: Any) -> dict[str, Any]:
    """A page load the browser made (a navigation event for the evaluator)."""
    return entry(url, headers={**DOCUMENT_HEADERS, **kwargs.pop("headers", {})}, **kwargs)


def xhr(url: str, **kwargs: Any) -> dict[str, Any]:
    """A fetch/XHR request (never a navigation event)."""
    return entry(
        url, headers={**XHR_HEADERS, **kwargs.pop("headers", {})}, response_mime="application/json", **kwargs
    )


def asset(url: str, **kwargs: Any) -> dict[str, Any]:
    """A static asset, which the evaluator drops before matching."""
    return entry(url, headers={"accept": "*/*"}, response_mime="application/javascript", **kwargs)


def har(entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "log": {"version": "1.2", "creator": {"name": "Playwright", "version": "1.50"}, "entries": entries}
    }


def write_har(path: Path, entries: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(har(entries)), encoding="utf-8")
    return path


def response_text(
    task_type: str, status: str = "SUCCESS", data: Any = None, naming: str = "task_type"
) -> str:
    """An agent response in either naming: "task_type" (evaluator) or "action" (published schema)."""
    if naming == "action":
        return json.dumps({"action": task_type, "status": status, "results": data})
    return json.dumps({"task_type": task_type, "status": status, "retrieved_data": data})


def wav_folder(
    root: Path,
    task_id: int | str,
    answer: str | None,
    entries: list[dict[str, Any]] | None,
) -> Path:
    """A trajectory in the official CLI layout: <root>/<task_id>/agent_response.json + network.har.

    `answer` None leaves agent_response.json out (an aborted run); `entries` None leaves the HAR out.
    """
    folder = root / str(task_id)
    folder.mkdir(parents=True, exist_ok=True)
    if answer is not None:
        (folder / "agent_response.json").write_text(answer, encoding="utf-8")
    if entries is not None:
        write_har(folder / "network.har", entries)
    return folder


def write_config(path: Path, config: dict[str, Any] | None = None) -> Path:
    path.write_text(json.dumps(config if config is not None else CONFIG), encoding="utf-8")
    return path
