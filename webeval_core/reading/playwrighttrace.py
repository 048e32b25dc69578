"""A Playwright trace (a `.zip`, or a folder holding `trace.network`) read as HAR entries.

The official library accepts such traces: it keeps the `snapshot` of every `resource-snapshot`
line of `trace.network`, each a HAR entry, in file order. We keep exactly those, so HAR index i
means the same request to the evaluator and to the viewer. Playwright stores request and
response bodies apart (`resources/<sha1>.<ext>`, named by the entry's `_file` or `_sha1`); their
text is kept beside the entries for the viewer only, since the evaluator never reads them.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webeval_core.reading.folderfiles import LEADS_OUTSIDE, read_file, resolve_inside
from webeval_core.reading.markers import TRACE_NETWORK, TRACE_WORDS, is_trace_name
from webeval_core.support.diagnostics import UnreadableError

__all__ = [
    "TRACE_NETWORK",
    "PlaywrightTrace",
    "attached_name",
    "find_trace",
    "is_playwright_trace",
    "is_text_mime",
    "read_playwright_trace",
]

RESOURCES = "resources/"
BODY_PREVIEW_CHARS = 4000
"""How much of a body the viewer keeps: enough to read, never a whole page of a large run."""

_TEXT_MIME = ("text/", "json", "xml", "javascript", "x-www-form-urlencoded", "graphql")


@dataclass(frozen=True)
class PlaywrightTrace:
    """What a Playwright trace holds for the network view and the evaluator."""

    data: bytes
    """The bytes the trace was read from (the zip, or `trace.network`), to fingerprint it."""
    entries: list[dict[str, Any]]
    """The HAR entries, in the order the official library reads them."""
    bodies: dict[str, str] = field(default_factory=dict)
    """Beginnings of the text bodies the entries refer to, by their name in the trace."""


def is_playwright_trace(path: Path) -> bool:
    """Whether `path` names a Playwright trace rather than a HAR file (the official library's rule)."""
    return path.suffix == ".zip" or path.name == TRACE_NETWORK or path.is_dir()


def find_trace(folder: Path, names: set[str]) -> str | None:
    """The name of a Playwright trace among a trajectory folder's `names`, None when there is none.

    A zip whose name mentions trace or network, `trace.network` itself (the folder is the trace),
    or a subfolder `trace`/`network` holding `trace.network`.
    """
    zips = sorted(n for n in names if n.endswith(".zip") and is_trace_name(n))
    if zips:
        return zips[0]
    if TRACE_NETWORK in names:
        return TRACE_NETWORK
    return next((n for n in TRACE_WORDS if n in names and (folder / n / TRACE_NETWORK).is_file()), None)


def read_playwright_trace(path: Path) -> PlaywrightTrace:
    """Read the network part of a Playwright trace.

    Raises:
        UnreadableError: with a plain reason, when it is not a trace or holds no request.
    """
    if path.suffix == ".zip":
        data, lines, bodies = _from_zip(path)
    else:
        data, lines, bodies = _from_folder(path.parent if path.name == TRACE_NETWORK else path)
    entries = _snapshots(path, lines)
    return PlaywrightTrace(data=data, entries=entries, bodies=_texts(entries, bodies))


def _read(path: Path, what: str) -> bytes:
    try:
        return read_file(path)
    except FileNotFoundError:
        raise UnreadableError(path, f"{what} not found") from None
    except OSError as exc:
        raise UnreadableError(path, f"cannot be read ({exc.strerror or exc})") from None


def _from_zip(path: Path) -> tuple[bytes, list[str], dict[str, bytes]]:
    data = _read(path, "file")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise UnreadableError(path, "is not a zip file (a Playwright trace is a zip)") from None
    with archive:
        names = set(archive.namelist())
        if TRACE_NETWORK not in names:
            raise UnreadableError(path, f"is a zip without {TRACE_NETWORK}: not a Playwright trace")
        network = archive.read(TRACE_NETWORK)
        bodies = {n: archive.read(n) for n in sorted(names) if n.startswith(RESOURCES) and _textual(n)}
    return data, network.decode("utf-8", errors="replace").splitlines(), bodies


def _from_folder(folder: Path) -> tuple[bytes, list[str], dict[str, bytes]]:
    network_path = folder / TRACE_NETWORK
    if network_path.is_symlink() and resolve_inside(folder, TRACE_NETWORK) is None:
        raise UnreadableError(network_path, LEADS_OUTSIDE)
    data = _read(network_path, TRACE_NETWORK)
    bodies: dict[str, bytes] = {}
    resources = folder / RESOURCES
    if resources.is_dir():
        for body in sorted(resources.iterdir()):
            name = RESOURCES + body.name
            if _textual(name) and body.is_file() and not body.is_symlink():
                bodies[name] = read_file(body, BODY_PREVIEW_CHARS * 4)
    return data, data.decode("utf-8", errors="replace").splitlines(), bodies


def _snapshots(path: Path, lines: list[str]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UnreadableError(path, f"{TRACE_NETWORK} line {number} is not JSON ({exc.msg})") from None
        if isinstance(item, dict) and item.get("type") == "resource-snapshot":
            snapshot = item.get("snapshot")
            if not isinstance(snapshot, dict):
                raise UnreadableError(path, f"{TRACE_NETWORK} line {number} has no snapshot object")
            entries.append(snapshot)
    if not entries:
        raise UnreadableError(
            path,
            f"{TRACE_NETWORK} records no request (Playwright records the network only when tracing "
            "with snapshots)",
        )
    return entries


def _textual(name: str) -> bool:
    # Resource names end in the extension Playwright gave the MIME type; binary bodies are skipped.
    return name.rsplit(".", 1)[-1] in {"html", "htm", "json", "txt", "xml", "js", "css", "dat", "svg", "csv"}


def _texts(entries: list[dict[str, Any]], bodies: dict[str, bytes]) -> dict[str, str]:
    """Text previews of the bodies that entries with a textual MIME type refer to."""
    wanted: set[str] = set()
    for entry in entries:
        for holder in (_get(entry, "request", "postData"), _get(entry, "response", "content")):
            name = attached_name(holder)
            if name and (is_text_mime(holder.get("mimeType")) or name.endswith(".dat")):
                wanted.add(name)
    return {
        name: bodies[name][: BODY_PREVIEW_CHARS * 4].decode("utf-8", errors="replace")[:BODY_PREVIEW_CHARS]
        for name in sorted(wanted & bodies.keys())
    }


def is_text_mime(mime: Any) -> bool:
    """Whether a body of this MIME type reads as text (HTML, JSON, XML, scripts, forms...)."""
    return isinstance(mime, str) and any(marker in mime.lower() for marker in _TEXT_MIME)


def attached_name(holder: dict[str, Any]) -> str | None:
    """The trace's name for a body stored apart (`_file`, or `_sha1` under resources/), if any."""
    name = holder.get("_file")
    if isinstance(name, str):
        return name if name.startswith(RESOURCES) else RESOURCES + name
    sha1 = holder.get("_sha1")
    return RESOURCES + sha1 if isinstance(sha1, str) else None


def _get(entry: dict[str, Any], part: str, key: str) -> dict[str, Any]:
    holder = entry.get(part)
    value = holder.get(key) if isinstance(holder, dict) else None
    return value if isinstance(value, dict) else {}
