"""One trajectory folder opened for reading (`FolderReader`): its own files by name, never through a
link leading out of it, each problem kept as a warning; which format reads it (`folder_format`);
and `read_guarded`, which turns any failure into the folder's `UnreadableError`. Shared by the full
reader (`trajectory`) and the index's light one (`glance`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from webeval_core.reading.corelog import CoreLogLine, parse_core_log
from webeval_core.reading.folderfiles import (
    LEADS_OUTSIDE,
    describe_size,
    read_file,
    read_head,
    read_json_file,
    read_problem,
    resolve_inside,
)
from webeval_core.reading.formats import TrajectoryFormat, format_of, layouts, not_a_trajectory
from webeval_core.reading.markers import (
    ANSWER_SUFFIX,
    CORE_LOG_NAME,
    EVAL_RESULT_NAME,
    HAR_NAME,
    TASK_DATA_NAME,
)
from webeval_core.reading.playwrighttrace import find_trace
from webeval_core.reading.scorefiles import read_score_files
from webeval_core.reading.taskdata import task_text_of
from webeval_core.support.diagnostics import Diagnostic, UnreadableError

LOG_READ_LIMIT = 64 * 1024 * 1024
"""Bytes of web_surfer.log and core.log read at most; a larger file is read up to here, with a warning."""
_T = TypeVar("_T")
_REASON_CHARS = 300


class Listing(NamedTuple):
    """A folder's entries as one listing gives them: what its reader needs of them, so a caller
    that lists the folder first (the index's refresh) hands the same listing on instead of
    listing it again.
    """

    names: set[str]
    """Every entry's name, files and folders alike."""
    links: set[str]
    """The names that are symlinks."""
    plain: bool
    """Every entry is a regular file or a folder (no link, FIFO, socket or device)."""


def list_folder(folder: str | Path) -> Listing:
    """The folder's `Listing`, from its directory entries' types (no `stat` per entry).

    Raises:
        OSError: when the folder cannot be listed (missing, not a folder, permission denied...).
    """
    names: set[str] = set()
    links: set[str] = set()
    plain = True
    with os.scandir(folder) as entries:
        for entry in entries:
            names.add(entry.name)
            # One type test for most entries (regular files): the index lists every folder it reads.
            if not (entry.is_file(follow_symlinks=False) or entry.is_dir(follow_symlinks=False)):
                plain = False
                if entry.is_symlink():
                    links.add(entry.name)
    return Listing(names, links, plain)


def read_guarded(folder: Path, read: Callable[[FolderReader], _T], listing: Listing | None = None) -> _T:
    """`read` applied to the folder's `FolderReader`, every failure as the folder's UnreadableError:
    a folder that is missing, a file or not listable, and any error no reader foresaw. `listing`:
    the folder's, when the caller has just listed it (else it is listed here).
    """
    try:
        return read(
            _open_folder(folder) if listing is None else FolderReader(folder, listing.names, listing.links)
        )
    except UnreadableError:
        raise
    except Exception as exc:  # one folder's surprise must not stop a root: it says what it was
        reason = f"could not be read: unexpected {type(exc).__name__}: {exc}"
        raise UnreadableError(folder, reason[:_REASON_CHARS]) from None


def _open_folder(folder: Path) -> FolderReader:
    try:
        listing = list_folder(folder)  # the listing says which names are links: no lstat each
    except FileNotFoundError:
        raise UnreadableError(folder, "the folder does not exist") from None
    except NotADirectoryError:
        raise UnreadableError(folder, not_a_trajectory(folder)) from None
    except OSError as exc:
        raise UnreadableError(folder, f"the folder cannot be listed ({exc.strerror})") from None
    return FolderReader(folder, listing.names, listing.links)


def folder_format(reader: FolderReader) -> TrajectoryFormat:
    """The format that reads the folder (the registry's first to claim it, asked by path);
    UnreadableError, saying which folders are trajectories, when none does.
    """
    found = format_of(reader.folder, reader.names, asked=True)
    if found is None:
        raise UnreadableError(reader.folder, f"not a trajectory folder; {layouts()}")
    return found


class FolderReader:
    """Reads the folder's own files by name, never through a link that leads out of it, and keeps
    the problems met as warnings (the full reader's and `glance`'s shared file access).
    """

    def __init__(self, folder: Path, names: set[str], links: set[str] | None = None) -> None:
        self.folder = folder
        self.names = names
        self.links = links  # the names that are symlinks; None: ask the file system for each
        self.warnings: list[Diagnostic] = []

    def answer_files(self) -> list[str]:
        """The folder's `*_answer.json` names, sorted."""
        return sorted(n for n in self.names if n.endswith(ANSWER_SUFFIX))

    def warn(self, file: str, message: str, line: int | None = None) -> None:
        """Keep a problem with one of the folder's files as a warning."""
        self.warnings.append(Diagnostic(file=file, line=line, message=message))

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Keep the problems a file reader met as warnings."""
        self.warnings.extend(diagnostics)

    def path(self, name: str) -> Path | None:
        """The file `name` of the folder, a symlink replaced by its target when that stays inside."""
        location = self.location(name)
        return Path(location) if location is not None else None

    def location(self, name: str) -> str | None:
        """`path` as a string: what reading needs, without building a Path for every file."""
        if name not in self.names:
            return None
        path = os.path.join(self.folder, name)
        if name in self.links if self.links is not None else os.path.islink(path):
            target = resolve_inside(self.folder, name)
            if target is None:
                self.warn(name, LEADS_OUTSIDE)
            return str(target) if target is not None else None
        return path

    def trace_path(self) -> Path | None:
        """A Playwright trace, the other network trace the official library reads."""
        name = find_trace(self.folder, self.names)
        return self.path(name) if name else None

    def read_bytes(self, name: str, head: int | None = None) -> bytes | None:
        """The file's bytes (only its first `head` bytes, with a warning, when it is larger)."""
        path = self.location(name)
        if path is None:
            return None
        try:
            if head is None:
                return read_file(path)
            data, size = read_head(path, head)
        except OSError as exc:
            self.warn(name, read_problem(exc))
            return None
        if size > head:
            self.warn(name, f"is {describe_size(size)}; only its first {describe_size(head)} were read")
        return data

    def read_object(self, name: str) -> dict[str, Any] | None:
        """The file's JSON object; None (with a warning) when missing, unreadable or not an object."""
        path = self.location(name)
        if path is None:
            return None
        content, problems = read_json_file(path, name)
        self.extend(problems)
        if content is not None and not isinstance(content, dict):
            self.warn(name, "is not a JSON object; ignored")
            return None
        return content

    def common(self) -> dict[str, Any]:
        """The files both layouts may hold."""
        core_log: tuple[CoreLogLine, ...] = ()
        core_data = self.read_bytes(CORE_LOG_NAME, LOG_READ_LIMIT)
        if core_data is not None:
            core_log, problems = parse_core_log(core_data)
            self.extend(problems)
        scores, problems = read_score_files(self.folder)
        self.extend(problems)
        task_data = self.read_object(TASK_DATA_NAME)
        return {
            "core_log": core_log,
            "task_data": task_data,
            "task_text": task_text_of(task_data),
            "scores": scores,
            "har_path": self.path(HAR_NAME) or self.trace_path(),
            "eval_result": self.read_object(EVAL_RESULT_NAME),
        }
