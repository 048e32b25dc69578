"""A network trace read once into `NetworkEvent` models, with plain reasons when it cannot be used.

The trace is a HAR file or a Playwright trace (`playwrighttrace`), the two forms the official
library accepts. The raw entries are kept beside the models so the evaluator can be given the
very same entries (HAR index i is entry i for both), and each request can be placed in the agent
step during which it fired.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
from bisect import bisect_right
from collections.abc import Sequence
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import UNDECIDED, NotReadableFileError, fast_loads, read_file
from webeval_core.reading.playwrighttrace import (
    BODY_PREVIEW_CHARS,
    attached_name,
    is_playwright_trace,
    is_text_mime,
    read_playwright_trace,
)
from webeval_core.support.diagnostics import UnreadableError

Pairs = tuple[tuple[str, str], ...]


class NetworkEvent(BaseModel):
    """One HAR entry: the request, its response status and what kind of resource it was."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    har_index: int
    """Position in `log.entries`, 0-based: the same index the evaluator's trace uses."""
    started: datetime | None
    """The entry's `startedDateTime` (timezone-aware); None when absent, unparseable or naive."""
    method: str
    """The request's HTTP method as recorded ("GET", "POST"...)."""
    url: str
    """The request's full URL, query string included."""
    status: int | None
    """The response's HTTP status code; None when the HAR has no integer status."""
    resource_type: str | None
    """HAR `_resourceType`, else the Sec-Fetch-Dest header, else guessed from MIME type and URL."""
    resource_type_inferred: bool = False
    """Whether `resource_type` was guessed from the MIME type or URL: the recording did not say."""
    is_document: bool
    """A page load, by the evaluator's rule for navigation events."""
    request_headers: Pairs
    """The request's headers as (name, value) pairs, in HAR order, names as recorded."""
    response_headers: Pairs
    """The response's headers as (name, value) pairs, in HAR order, names as recorded."""
    query: Pairs
    """The URL's query parameters as (name, value) pairs, decoded, blank values kept."""
    post_data: str | None
    """The request body text (`postData.text`, else its attached file); None when the request has none."""
    post_data_attached: bool = False
    """Whether the body came from a file a Playwright trace keeps apart: the evaluator never sees it."""
    post_mime: str | None
    """The request body's MIME type (`request.postData.mimeType`); None when not recorded."""
    mime: str | None
    """The response content's MIME type (`response.content.mimeType`); None when not recorded."""
    response_size: int | None
    """Bytes of the response body (`content.size`, else `bodySize`); None when the HAR does not say."""
    duration_ms: float | None
    """The entry's total time in milliseconds (HAR `time`); None when absent or negative."""
    response_preview: str | None = None
    """The response body's beginning as text; None when not recorded or not text."""


TraceFormat = Literal["har", "playwright"]


class Har(BaseModel):
    """A parsed network trace: the raw entries (what the evaluator is given) and their events.

    Events are built on first use: scoring only needs a few of them, a viewer needs all.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The HAR file, as the caller named it."""
    sha256: str
    """Hex SHA-256 of the file's bytes, to tell whether a verdict was computed on this very trace."""
    entries: tuple[dict[str, Any], ...]
    """The raw `log.entries` objects, unchanged: what the evaluator is given."""
    format: TraceFormat = "har"
    """A HAR file, or a Playwright trace (a zip or a folder holding trace.network)."""
    bodies: dict[str, str] = {}
    """Text bodies a Playwright trace keeps apart from its entries, by name (viewer only)."""

    @cached_property
    def events(self) -> tuple[NetworkEvent, ...]:
        """One event per entry, in HAR order (built on first use)."""
        return tuple(_event(i, entry, self.bodies) for i, entry in enumerate(self.entries))

    def started(self, index: int) -> datetime | None:
        """Start time of entry `index` without building every event."""
        return _started(self.entries[index].get("startedDateTime"))


class TimedStep(Protocol):
    """What `step_for_time` needs of a trajectory step."""

    @property
    def index(self) -> int:
        """The step's 1-based index."""

    @property
    def time_utc(self) -> datetime | None:
        """When the step's action was taken (UTC); None when unknown."""


def read_har(path: Path | str) -> Har:
    """Read and validate a network trace: a HAR file, or a Playwright trace (zip or folder).

    Raises:
        UnreadableError: with a plain reason, when the file cannot be read, is not a trace, or has
            an entry without a request URL and method or without a response.
    """
    path = Path(path)
    if path.suffix != ".har" and is_playwright_trace(path):
        trace = read_playwright_trace(path)
        return Har(
            path=path,
            sha256=hashlib.sha256(trace.data).hexdigest(),
            entries=tuple(_checked(path, trace.entries)),
            format="playwright",
            bodies=trace.bodies,
        )
    data = _read_bytes(path)
    entries = _entries(path, _parse_json(path, data))
    return Har(path=path, sha256=hashlib.sha256(data).hexdigest(), entries=tuple(entries))


def _read_bytes(path: Path) -> bytes:
    try:
        return read_file(path)
    except FileNotFoundError:
        raise UnreadableError(path, "file not found") from None
    except NotReadableFileError as exc:
        raise UnreadableError(path, exc.reason) from None
    except OSError as exc:
        raise UnreadableError(path, f"cannot be read ({exc.strerror})") from None


def _parse_json(path: Path, data: bytes) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableError(path, "is not UTF-8 text") from None
    if not text.strip():
        raise UnreadableError(path, "is empty")
    # orjson where it reads as json does: decoding the HAR was a tenth of scoring's time.
    value = fast_loads(data)
    if value is not UNDECIDED:
        return value
    try:
        return json.loads(text)
    except RecursionError:
        raise UnreadableError(path, "is nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        # Running out of input (or a string that never closes) means the file was cut short.
        if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise UnreadableError(path, "ends in the middle of the JSON (the file looks truncated)") from None
        raise UnreadableError(
            path, f"is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        raise UnreadableError(path, f"cannot be read as JSON ({str(exc).split(';')[0]})") from None


def _entries(path: Path, raw: Any) -> list[Any]:
    log = raw.get("log") if isinstance(raw, dict) else None
    if not isinstance(log, dict):
        raise UnreadableError(path, "is JSON but not a HAR (no 'log' object)")
    entries = log.get("entries")
    if not isinstance(entries, list):
        raise UnreadableError(path, "is a HAR without a 'log.entries' list")
    if not entries:
        raise UnreadableError(path, "has no entries (no requests were recorded)")
    return _checked(path, entries)


def _checked(path: Path, entries: list[Any]) -> list[Any]:
    for index, entry in enumerate(entries):
        problem = _entry_problem(entry)
        if problem:
            raise UnreadableError(path, f"entry {index} {problem}")
    return entries


def _entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return "is not an object"
    request, response = entry.get("request"), entry.get("response")
    if not isinstance(request, dict) or not isinstance(response, dict):
        return "has no request or no response"
    if not isinstance(request.get("url"), str) or not isinstance(request.get("method"), str):
        return "has no request URL or method"
    return None


def _event(index: int, entry: dict[str, Any], bodies: dict[str, str]) -> NetworkEvent:
    request, response = entry["request"], entry["response"]
    url, method = request["url"], request["method"]
    status = response.get("status")
    request_headers = _pairs(request.get("headers"))
    lower = {name.lower(): value for name, value in request_headers}
    post = _object(request.get("postData"))
    content = _object(response.get("content"))
    size = content.get("size")
    if not isinstance(size, int) or size < 0:
        size = response.get("bodySize") if isinstance(response.get("bodySize"), int) else None
    duration = entry.get("time")
    is_document = _is_document(method, lower)
    mime = _text(content.get("mimeType"))
    recorded = _recorded_type(entry.get("_resourceType"), lower.get("sec-fetch-dest"))
    post_text, attached = _post_body(post, bodies)
    return NetworkEvent(
        har_index=index,
        started=_started(entry.get("startedDateTime")),
        method=method,
        url=url,
        status=status if isinstance(status, int) and not isinstance(status, bool) else None,
        resource_type=recorded or infer_resource_type(mime, url, is_document=is_document),
        resource_type_inferred=recorded is None,
        is_document=is_document,
        request_headers=request_headers,
        response_headers=_pairs(response.get("headers")),
        query=tuple(parse_qsl(urlsplit(url).query, keep_blank_values=True)),
        post_data=post_text,
        post_data_attached=attached,
        post_mime=_text(post.get("mimeType")),
        mime=mime,
        response_size=size if isinstance(size, int) and size >= 0 else None,
        duration_ms=_duration(duration),
        response_preview=_body_preview(content, bodies),
    )


# --- resource types and bodies -----------------------------------------------------------------

# Sec-Fetch-Dest names the same kinds as Chrome's resource types, with a few other words.
_DEST_TYPES = {"style": "stylesheet", "empty": "fetch", "audio": "media", "video": "media", "track": "media"}
_MIME_TYPES = (
    ("text/html", "document"),
    ("application/xhtml", "document"),
    ("text/css", "stylesheet"),
    ("javascript", "script"),
    ("ecmascript", "script"),
    ("image/", "image"),
    ("font/", "font"),
    ("font-", "font"),
    ("audio/", "media"),
    ("video/", "media"),
    ("manifest", "manifest"),
    ("json", "fetch"),
    ("xml", "fetch"),
)
_EXTENSION_TYPES = {
    **dict.fromkeys(("css",), "stylesheet"),
    **dict.fromkeys(("js", "mjs"), "script"),
    **dict.fromkeys(("png", "jpg", "jpeg", "gif", "svg", "ico", "webp", "avif", "bmp"), "image"),
    **dict.fromkeys(("woff", "woff2", "ttf", "otf", "eot"), "font"),
    **dict.fromkeys(("mp4", "webm", "mp3", "ogg", "wav"), "media"),
    **dict.fromkeys(("html", "htm"), "document"),
    **dict.fromkeys(("json",), "fetch"),
}


def _recorded_type(resource_type: Any, fetch_dest: str | None) -> str | None:
    if isinstance(resource_type, str) and resource_type:
        return resource_type
    if fetch_dest:
        return _DEST_TYPES.get(fetch_dest.lower(), fetch_dest.lower())
    return None


def infer_resource_type(mime: str | None, url: str, *, is_document: bool = False) -> str:
    """A request's resource type guessed when the recording has none: its URL's extension, else
    the response's MIME type ("other" when neither tells).
    """
    if is_document:
        return "document"
    extension = urlsplit(url).path.rsplit("/", 1)[-1].rpartition(".")[2].lower()
    if extension in _EXTENSION_TYPES:
        return _EXTENSION_TYPES[extension]
    lowered = (mime or "").lower()
    return next((kind for marker, kind in _MIME_TYPES if marker in lowered), "other")


def _post_body(post: dict[str, Any], bodies: dict[str, str]) -> tuple[str | None, bool]:
    text = _text(post.get("text"))
    name = attached_name(post)
    if not text and name in bodies:
        return bodies[name], True
    return (text if "text" in post else None), False


def _body_preview(content: dict[str, Any], bodies: dict[str, str]) -> str | None:
    name = attached_name(content)
    if name is not None:
        return bodies.get(name)
    text = content.get("text")
    if not isinstance(text, str) or not text or not is_text_mime(content.get("mimeType")):
        return None
    if content.get("encoding") == "base64":
        try:
            raw = base64.b64decode(text[: BODY_PREVIEW_CHARS * 2], validate=False)
        except (binascii.Error, ValueError):
            return None
        decoded = raw.decode("utf-8", errors="replace")
        return None if "\ufffd" in decoded[:200] else decoded[:BODY_PREVIEW_CHARS]
    return text[:BODY_PREVIEW_CHARS]


def _is_document(method: str, headers: dict[str, str]) -> bool:
    # Same rule as the evaluator's NetworkEvent.is_navigation_event, so the viewer's "page load"
    # means what the navigate-task check means.
    if method != "GET":
        return False
    accept = headers.get("accept", "").lower()
    if "sec-fetch-user" in headers:
        return (
            headers.get("sec-fetch-dest", "").lower() == "document"
            and headers.get("sec-fetch-mode", "").lower() == "navigate"
            and headers.get("sec-fetch-user", "").lower() == "?1"
            and "text/html" in accept
        )
    return accept.startswith("text/html")


def _duration(raw: Any) -> float | None:
    if not isinstance(raw, int | float) or isinstance(raw, bool):
        return None
    try:
        value = float(raw)
    except OverflowError:
        return None
    return value if 0 <= value < math.inf else None


def _object(raw: Any) -> dict[str, Any]:
    return raw if isinstance(raw, dict) else {}


def _text(raw: Any) -> str | None:
    return raw if isinstance(raw, str) else None


def _pairs(raw: Any) -> Pairs:
    if not isinstance(raw, list):
        return ()
    return tuple(
        (str(h["name"]), str(h.get("value", "")))
        for h in raw
        if isinstance(h, dict) and isinstance(h.get("name"), str)
    )


def _started(raw: Any) -> datetime | None:
    if not isinstance(raw, str):
        return None
    try:
        moment = datetime.fromisoformat(raw)  # Python 3.11 reads a trailing "Z" as UTC
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def step_for_time(steps: Sequence[TimedStep], t: datetime | None) -> int | None:
    """The step during which time `t` fell: step k when step_k.time_utc <= t < step_{k+1}.time_utc.

    None before the first step, when `t` is None, or when no step has a time.
    """
    if t is None:
        return None
    timed = sorted((s.time_utc, s.index) for s in steps if s.time_utc is not None)
    position = bisect_right([moment for moment, _ in timed], t)
    return timed[position - 1][1] if position else None
