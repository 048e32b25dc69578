"""Reading files of a trajectory folder safely: paths stay inside it, bad bytes become warnings.

A trajectory folder is untrusted input: listed paths may lead out of it (`../`, absolute paths,
symlinks), names may be FIFOs or devices that block whoever opens them, files may be huge or
hold broken bytes and numbers JSON cannot carry (NaN, Infinity). Every read of an input file
goes through `read_file` / `read_head` (one `open_input` call: no link followed at the last
component, never blocking, regular files only), or, for the index's quick summary of a folder it
has just listed, `read_listed` (one `open_listed` call), so a test can prove what reading opens
(and that it never writes).
"""

from __future__ import annotations

import errno
import fcntl
import itertools
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

import orjson

from webeval_core.support.diagnostics import Diagnostic

LEADS_OUTSIDE = "is a symlink leading outside the trajectory folder; not opened"
READ_LIMIT = 256 * 1024 * 1024
"""Bytes above which a file is not read whole (a JSON file, a HAR): its reader refuses it."""

_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_FIRST_READ = 64 * 1024  # most files a summary reads are smaller: one read, and its short answer ends it
_NEXT_READ = 1024 * 1024
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class NotReadableFileError(OSError):
    """An input path that is not read: not a regular file, a link, or larger than allowed.

    `reason` is a plain phrase for the user ("is a FIFO, not a regular file; not opened").
    """

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path} {reason}")
        self.path = path
        self.reason = reason
        self.strerror = reason


def read_problem(exc: OSError) -> str:
    """Why a file could not be read, as a phrase after its name ("cannot be read (Permission denied)")."""
    if isinstance(exc, NotReadableFileError):
        return exc.reason
    return f"cannot be read ({exc.strerror or exc})"


def open_input(path: str | Path, *, dir_fd: int | None = None) -> tuple[int, os.stat_result]:
    """A descriptor on a regular input file, and its stat: the one way an input file is opened.

    The last component is not followed when it is a symlink (folders are confined by resolving
    first), the open never blocks (a FIFO would), and the type is checked on the descriptor itself.

    Raises:
        NotReadableFileError: when the path is a symlink, a FIFO, a device, a socket or a folder.
        OSError: when the file cannot be opened (missing, permission denied...).
    """
    try:
        fd = os.open(path, _OPEN_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # what O_NOFOLLOW gives on a link (Linux, BSD)
            raise NotReadableFileError(path, "is a symlink; not followed") from None
        raise
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            what = next((name for test, name in _KINDS if test(found.st_mode)), "not a regular file")
            raise NotReadableFileError(path, f"is {what}, not a regular file; not opened")
        # Blocking again (a file system mounted through FUSE may honour O_NONBLOCK on reads); one
        # call, as the open set no other status flag.
        fcntl.fcntl(fd, fcntl.F_SETFL, 0)
    except BaseException:
        os.close(fd)
        raise
    return fd, found


def resolve_inside(folder: Path, entry: str | Path) -> Path | None:
    """`entry` (relative to `folder`, or absolute) with symlinks resolved; None if it lands outside."""
    try:
        root = folder.resolve()
        candidate = Path(entry)
        target = (candidate if candidate.is_absolute() else root / candidate).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte in the name
        return None
    return target if target.is_relative_to(root) else None


def read_file(path: str | Path, limit: int = -1, *, dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file, or its first `limit` bytes (see `open_input`).

    Raises:
        NotReadableFileError: as `open_input`, and when the whole file is wanted but it holds more
            than `READ_LIMIT` bytes.
        OSError: when it cannot be read.
    """
    data, size = read_head(path, READ_LIMIT if limit < 0 else limit, dir_fd=dir_fd)
    if limit < 0 and size > READ_LIMIT:
        raise NotReadableFileError(
            path, f"is {describe_size(size)}, more than {describe_size(READ_LIMIT)}; not read"
        )
    return data


def read_head(path: str | Path, limit: int, *, dir_fd: int | None = None) -> tuple[bytes, int]:
    """The first `limit` bytes of a regular file and the file's size (see `open_input`)."""
    fd, found = open_input(path, dir_fd=dir_fd)
    try:
        # Ask for what fstat announces and one byte more (reading on while the file grows), not for
        # `limit` at once: a large request allocates that many bytes on every call, which dominates
        # small files. A shorter answer is the end of the file: no call to hear it again.
        step = found.st_size + 1
        chunks: list[bytes] = []
        remaining = limit
        while remaining > 0:
            asked = min(remaining, step)
            chunk = os.read(fd, asked)
            chunks.append(chunk)
            remaining -= len(chunk)
            if len(chunk) < asked:  # the end: the file is what was read
                return b"".join(chunks), limit - remaining
        return b"".join(chunks), os.fstat(fd).st_size
    finally:
        os.close(fd)


def open_listed(path: str) -> int:
    """A non-blocking descriptor on a file its caller has just listed as a regular file.

    As `open_input` without its two extra system calls (a third of a small file's cost on a
    virtual machine): the type is the listing's, not the descriptor's, and the descriptor stays
    non-blocking. Only for a reader that declines whatever it does not read exactly: a file
    swapped since the listing changes its folder's mtime, so the index reads it again; a file
    system that honours O_NONBLOCK on reads raises BlockingIOError.
    """
    return os.open(path, _OPEN_FLAGS)


def read_listed(path: str, limit: int) -> bytes:
    """The bytes of a file just listed as a regular file (see `open_listed`).

    Raises:
        NotReadableFileError: when it holds more than `limit` bytes.
        OSError: when it cannot be opened or read.
    """
    fd = open_listed(path)
    try:
        asked = min(_FIRST_READ, limit + 1)
        data = os.read(fd, asked)
        if len(data) < asked:  # the end: as in `read_head`, a short answer from a regular file
            return data
        chunks, total = [data], len(data)
        while total <= limit:
            chunk = os.read(fd, min(_NEXT_READ, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    raise NotReadableFileError(path, f"holds more than {describe_size(limit)}; not read")


def describe_size(size: int) -> str:
    """A byte count for people: "312 bytes", "4.0 MB", "10.0 GB"."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


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


def read_json_file(path: str | Path, file: str) -> tuple[Any, list[Diagnostic]]:
    """The parsed content of a small JSON file, or None with the reason it could not be used.

    NaN, Infinity and numbers out of float range are read as null, each reported with its field.
    """
    try:
        data = read_file(path)
    except OSError as exc:
        return None, [Diagnostic(file=file, message=read_problem(exc))]
    text, diagnostics = decode_text(data, file)
    if not text.strip():
        return None, [*diagnostics, Diagnostic(file=file, message="is empty")]
    try:
        value, fields = loads_finite(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        problem = Diagnostic(file=file, line=exc.lineno, message=f"is not valid JSON ({exc.msg})")
    except RecursionError:
        problem = Diagnostic(file=file, message="is nested too deeply to read")
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        problem = Diagnostic(file=file, message=f"cannot be read as JSON ({_first_words(exc)})")
    else:
        if _SURROGATE_ESCAPE.search(text):  # only `json` reads one (orjson refuses the file)
            value, replaced = replace_lone_surrogates(value)
            diagnostics.extend(_surrogate_diagnostics(file, replaced))
        return value, [*diagnostics, *non_finite_diagnostics(file, fields)]
    return None, [*diagnostics, problem]


# A JSON escape of a UTF-16 surrogate: paired, `json` makes one character of it; alone, a lone
# surrogate no UTF-8 text (a page, the index, a score file) can hold.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(text: str) -> bool:
    """Whether `text` holds a character UTF-8 cannot encode (a JSON escape's, a file name's bytes')."""
    return not text.isascii() and _LONE_SURROGATE.search(text) is not None


def replace_lone_surrogates(value: Any) -> tuple[Any, list[str]]:
    """`value` (decoded JSON, changed in place) with each lone surrogate of its texts and keys
    replaced by U+FFFD, as bad UTF-8 bytes are; and the field paths where it did.
    """
    found: list[str] = []
    if isinstance(value, str):
        return _replaced(value, "(the document)", found), found
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            for key in [k for k in node if _LONE_SURROGATE.search(k)]:
                node[_replaced(key, f"{where}.{key}".lstrip("."), found)] = node.pop(key)
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in list(items):
            if isinstance(child, str):
                node[key] = _replaced(child, _child_path(node, where, key), found)
            elif isinstance(child, dict | list):
                stack.append((child, _child_path(node, where, key)))
    return value, found


def _replaced(text: str, where: str, found: list[str]) -> str:
    fixed = _LONE_SURROGATE.sub("\ufffd", text)
    if fixed != text:
        found.append(_LONE_SURROGATE.sub("\ufffd", where))
    return fixed


def _surrogate_diagnostics(file: str, fields: list[str]) -> list[Diagnostic]:
    if not fields:
        return []
    message = f"text that is not Unicode (a lone surrogate escape), shown as U+FFFD: {_fields_named(fields)}"
    return [Diagnostic(file=file, message=message)]


def _fields_named(fields: list[str]) -> str:
    """The first five field paths, and how many more."""
    return ", ".join(sorted(fields)[:5]) + (f" and {len(fields) - 5} more" if len(fields) > 5 else "")


_SERIALS = itertools.count()  # next() is atomic: tells whether any marker was made meanwhile


class _NonFinite:
    """Stands for a NaN / Infinity / out-of-range number while a document is decoded."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.serial = next(_SERIALS)


def _constant(text: str) -> _NonFinite:
    return _NonFinite(text)


def _float(text: str) -> float | _NonFinite:
    value = float(text)
    return value if math.isfinite(value) else _NonFinite(text)


def finite_decoder() -> json.JSONDecoder:
    """A decoder that reads NaN, Infinity and floats out of range as markers `replace_non_finite` finds."""
    return json.JSONDecoder(parse_constant=_constant, parse_float=_float)


_FINITE = finite_decoder()


UNDECIDED: Any = object()
"""What `fast_loads` gives for a text it leaves to `json` (orjson refused it, or could read it otherwise)."""


# Digits as "0", what may come right before a JSON number as ":", "-" kept, the rest as "x": a long
# integer is then ":" or ":-" and 19 zeros, while a digit run inside a checksum is not.
def _number_shape(byte: int) -> int:
    if byte in b"0123456789":
        return ord("0")
    if byte == ord("-"):
        return byte
    return ord(":") if byte in b":,[ \t\n\r" else ord("x")


_NUMBER_SHAPES = bytes(map(_number_shape, range(256)))
_LONG_INTEGERS = (b":" + b"0" * 19, b":-" + b"0" * 19)


def has_long_number(data: bytes) -> bool:
    """Whether `data` may hold an integer of 19 digits or more: the only numbers orjson reads
    otherwise than `json` without refusing them (past 64 bits it makes floats of them).
    """
    shapes = b":" + data.translate(_NUMBER_SHAPES)
    return _LONG_INTEGERS[0] in shapes or _LONG_INTEGERS[1] in shapes


def fast_loads(text: str | bytes, *, long_numbers: bool = True) -> Any:
    """`json.loads(text)` through orjson (3-5 times faster), or `UNDECIDED`: the caller decodes it
    with `json` then. Every text orjson decodes, `json` decodes to the same value.

    orjson refuses what `json` reads with a difference or a warning (NaN, Infinity, numbers out of
    float range, lone surrogates, nesting past 1,024, text after the document), so those are left
    to `json`; integers of 19 digits or more are too, unless the caller knows the text has none or
    does not use its numbers (`long_numbers=False`, e.g. after `has_long_number` on a whole file).
    """
    if long_numbers:
        raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        if has_long_number(raw):
            return UNDECIDED
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return UNDECIDED


def loads_finite(text: str) -> tuple[Any, list[str]]:
    """`json.loads` with NaN / Infinity / out-of-range floats as None, and where each was (a field path).

    Raises what `json.loads` raises (JSONDecodeError, RecursionError, ValueError).
    """
    value = fast_loads(text)
    if value is not UNDECIDED:
        return value, []
    before = next(_SERIALS)
    value = _FINITE.decode(text)
    if next(_SERIALS) == before + 1:  # no marker made (in any thread): nothing to replace
        return value, []
    return replace_non_finite(value)


def replace_non_finite(value: Any) -> tuple[Any, list[str]]:
    """`value` decoded by `finite_decoder` with its markers set to None, and their field paths.

    Walks iteratively (a deeply nested document must not exhaust the stack twice).
    """
    found: list[str] = []
    if isinstance(value, _NonFinite):
        return None, ["(the document)"]
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, where = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            # Most values are scalars: a path is spelt only for a marker or a container.
            if isinstance(child, _NonFinite):
                node[key] = None  # replacing a value while iterating keeps the dict's size
                found.append(f"{_child_path(node, where, key)} ({child.text})")
            elif isinstance(child, dict | list):
                stack.append((child, _child_path(node, where, key)))
    return value, found


def _child_path(node: Any, where: str, key: Any) -> str:
    return f"{where}.{key}".lstrip(".") if isinstance(node, dict) else f"{where}[{key}]"


def non_finite_diagnostics(file: str, fields: list[str], line: int | None = None) -> list[Diagnostic]:
    """One warning naming the fields that held NaN, Infinity or out-of-range numbers (read as null)."""
    if not fields:
        return []
    message = f"not a finite number, read as null: {_fields_named(fields)}"
    return [Diagnostic(file=file, line=line, message=message)]


def _first_words(exc: Exception, limit: int = 120) -> str:
    text = str(exc).split(";")[0].strip()
    return text[:limit]
