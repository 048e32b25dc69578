"""Reading files of a trajectory folder safely: paths stay inside it, bad bytes become warnings.

A trajectory folder is untrusted input: listed paths may lead out of it (`../`, absolute paths,
symlinks) and files may hold broken bytes. Every read of a folder's file goes through
`read_file`, so a test can prove what reading opens (and that it never writes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webeval_core.diagnostics import Diagnostic

LEADS_OUTSIDE = "is a symlink leading outside the trajectory folder; not opened"


def resolve_inside(folder: Path, entry: str | Path) -> Path | None:
    """`entry` (relative to `folder`, or absolute) with symlinks resolved; None if it lands outside."""
    try:
        root = folder.resolve()
        candidate = Path(entry)
        target = (candidate if candidate.is_absolute() else root / candidate).resolve()
    except (OSError, RuntimeError):  # RuntimeError: symlink loop
        return None
    return target if target.is_relative_to(root) else None


def read_file(path: str | Path, limit: int = -1) -> bytes:
    """The bytes of a file, or its first `limit` bytes; every read of a folder's file goes through here."""
    with open(path, "rb") as handle:
        return handle.read(limit)


def decode_text(data: bytes, file: str) -> tuple[str, list[Diagnostic]]:
    """UTF-8 text of a file; invalid bytes become U+FFFD and are reported with their first line."""
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    bad_lines = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            bad_lines.append(number)
    message = f"invalid UTF-8 bytes on {len(bad_lines)} line(s) replaced with U+FFFD"
    return data.decode("utf-8", errors="replace"), [Diagnostic(file=file, line=bad_lines[0], message=message)]


def read_json_file(path: Path, file: str) -> tuple[Any, list[Diagnostic]]:
    """The parsed content of a small JSON file, or None with the reason it could not be used."""
    try:
        data = read_file(path)
    except OSError as exc:
        return None, [Diagnostic(file=file, message=f"cannot be read ({exc.strerror or exc})")]
    text, diagnostics = decode_text(data, file)
    if not text.strip():
        return None, [*diagnostics, Diagnostic(file=file, message="is empty")]
    try:
        return json.loads(text.removeprefix("\ufeff")), diagnostics
    except json.JSONDecodeError as exc:
        problem = Diagnostic(file=file, line=exc.lineno, message=f"is not valid JSON ({exc.msg})")
    except RecursionError:
        problem = Diagnostic(file=file, message="is nested too deeply to read")
    return None, [*diagnostics, problem]
