"""THE registry of trajectory formats: every layout a harness writes is one module here, and
whatever finds, groups, glances at, loads or refuses a trajectory loops over `formats()`.

A format is an object implementing `TrajectoryFormat` (one module, `reading/formats/<name>.py`,
holding `FORMAT`), named in `_built_in()` below. What each part of the program asks it:

- **detect** (`detect(folder, names, asked=...)`): whether a folder is one of its trajectories, from
  the folder's path and the names it lists (`names`: every entry, files and folders alike). The
  index's walk (`runs.discovery`, `runs.refresh`) asks it of every folder under a root, so it
  must be cheap: names first; opening a file is for a name other formats share (a
  `result.json`), never for every folder. `asked=True` when a user or a reader names this very
  folder (`load_trajectory(path)`): weaker evidence may suffice there (Fara's lone core.log).
  The first format in the table that claims a folder reads it; a folder claimed is a trajectory
  and the walk goes no further down (a study folder's episodes are found one by one, each
  claimed by the format of its episodes).
- **markers**: file names whose presence ALONE makes a folder one of its trajectories (Fara's
  `web_surfer.log`). The refresh asks the file system for them by name before it lists a folder
  (a lookup is a fifth of a listing); a format without such a name leaves it empty.
- **watched** / **watched_suffixes**: the files whose edits in place change what its glance says
  (a running task rewrites them without changing the folder's mtime): the refresh fingerprints them.
- **run_folder(root, trajectory_dir)**: how it groups its trajectories into runs: the run's
  folder and the facts its path says (`RunPlace`), or None to leave the trajectory to the
  default (its parent folder is its run). Asked of the path alone, by every format in order,
  so it answers None for paths that are not of its shape (Fara: `.../<run>/traj/<task>`).
- **glance(reader)** for the index and **load(reader)** for the page: the folder's
  `reading.glance.Glance` and `reading.trajectory_model.Trajectory`, read through the
  `reading.folderreader.FolderReader` given (which refuses links out of the folder, FIFOs and
  huge files, and keeps warnings); `glance.glance_with_common_files` adds to a glance what any
  folder may hold (core.log's last error, our `scores/`, task_data.json, eval_result.json), and
  `reader.common()` the same to a load. Problems are warnings naming the file; a folder with nothing
  usable raises `UnreadableError(folder, reason)` with the format's own sentence (its "cannot
  read" messages are written there, in its module). `Trajectory.layout` / `Glance.layout` is
  the format's `name`. Any exception they let out becomes the folder's UnreadableError
  (`folderreader.read_guarded`), never the root's.
- **ended(reader)**: whether its task's run is over, as its folder says it (`TaskEnd`: the
  outcome, the file that says it, a crash the harness recorded), or None while it is not:
  Fara's times.json, a WebArena-Verified agent_response.json, AgentLab's summary_info.json,
  cube-harness's status.json once terminal, a Harbor trial's result.json, Online-Mind2Web's
  result.json. `reading.task_state` asks it of every folder (`ls`, `watch`, the Live page); it
  reads the few small files that tell, never a step, and says what the format's glance says.
- **tasks_dir**: the sub-folder of a run folder that holds its task folders ("traj" for Fara,
  "episodes" for cube-harness; "" when the run folder holds them): where `watch` looks.
- **name** (what `ls`, `show`, the index's `layout` column and exports print: "fara"), **title**
  (the format in words) and **holds** (what its trajectory folder holds, in the sentence every
  "not a trajectory folder" message says: `layouts()`).

Detection runs in the index's walk, which imports no model library (tests/core/runs/test_refresh
holds it): a format module imports at its top only the standard library, `reading.markers` and
this module; its glance and load import their readers (models, parsers) when first called.

A new format: its module here, its entry in `_built_in()` (in the order formats are tried: a
format whose marker another format's folder may also hold comes first), its tests in
`tests/core/reading/formats/` (test_contract.py holds every format of the table to this
contract); nothing else changes. `registered(fmt)` puts a format in the
table for a while (tests/core/reading/formats/test_registry.py adds a toy one and finds it in
discovery, the index, `load_trajectory` and the error message).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from webeval_core.reading.markers import AGENT_RESPONSE, TRACE_SUFFIXES

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.glance import Glance
    from webeval_core.reading.trajectory_model import Ending, Trajectory

__all__ = [
    "RunPlace",
    "TaskEnd",
    "TrajectoryFormat",
    "format_named",
    "format_of",
    "formats",
    "is_trajectory_folder",
    "layouts",
    "marker_names",
    "not_a_trajectory",
    "registered",
    "run_place",
    "tasks_dirs",
    "watched_file",
]


class RunPlace(NamedTuple):
    """Where a trajectory's run is: its folder, and the facts its path says (a tuple: the walk
    builds no model).
    """

    path: Path
    """The run folder."""
    facts: tuple[tuple[str, str], ...] = ()
    """(name, value) pairs of `runs.discovery.Run`'s metadata fields (system, model, user,
    benchmark, run_id) the path says; empty when it says none."""


class TaskEnd(NamedTuple):
    """How a task's run ended, as its folder says it (a tuple: the format modules build no model)."""

    outcome: Ending
    """Answered, no answer or aborted (`Trajectory.outcome`); never unfinished."""
    marker: str
    """The file that says the run is over: when it was last written is when the task ended."""
    crash: str | None = None
    """Why the task raised, when its harness recorded that it did (a crashed task, left out of
    rates as aborted ones are: `Trajectory.crash_reason`); None otherwise."""


class TrajectoryFormat(Protocol):
    """One harness's trajectory layout (the module docstring says who asks what)."""

    @property
    def name(self) -> str:
        """Its short name ("fara", "webarena-verified"): `Trajectory.layout`, `ls`, the index."""

    @property
    def title(self) -> str:
        """The format in words ("Fara webeval folder")."""

    @property
    def holds(self) -> str:
        """What one of its trajectory folders holds, as "not a trajectory folder" messages say it."""

    @property
    def markers(self) -> tuple[str, ...]:
        """File names whose presence alone makes a folder one of its trajectories."""

    @property
    def watched(self) -> frozenset[str]:
        """File names whose edits in place change its glance (fingerprinted by the refresh)."""

    @property
    def watched_suffixes(self) -> tuple[str, ...]:
        """The same, for names ending so."""

    @property
    def tasks_dir(self) -> str:
        """The sub-folder of a run folder holding its task folders; "" when the run folder does."""

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        """Whether `folder` (listing `names`) is one of its trajectories."""

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        """The run of a trajectory folder of its shape; None to leave it to the default (its parent)."""

    def glance(self, reader: FolderReader) -> Glance:
        """What the index keeps of the folder."""

    def load(self, reader: FolderReader) -> Trajectory:
        """The whole trajectory, for its page."""

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        """How its task's run ended; None while it is not over (running, stalled, or crashed
        before the harness could say so: `reading.task_state` tells those apart).
        """


class _Table(NamedTuple):
    """The registered formats and what the walk asks of all of them at once, made once per change."""

    formats: tuple[TrajectoryFormat, ...]
    markers: tuple[str, ...]
    watched: frozenset[str]
    watched_suffixes: tuple[str, ...]


def _built_in() -> tuple[TrajectoryFormat, ...]:
    from webeval_core.reading.formats import agentlab, cube_harness, fara, harbor, mind2web, webarena_logs

    return (
        fara.FORMAT,
        webarena_logs.FORMAT,
        agentlab.FORMAT,
        harbor.FORMAT,
        mind2web.FORMAT,
        cube_harness.FORMAT,
    )


def _table_of(found: tuple[TrajectoryFormat, ...]) -> _Table:
    return _Table(
        formats=found,
        markers=tuple(dict.fromkeys(marker for f in found for marker in f.markers)),
        watched=frozenset().union(*(f.watched for f in found)),
        watched_suffixes=tuple(dict.fromkeys(suffix for f in found for suffix in f.watched_suffixes)),
    )


_table: _Table | None = None


def _current() -> _Table:
    global _table  # noqa: PLW0603 - the one table, made on first use (its modules import this one)
    if _table is None:
        _table = _table_of(_built_in())
    return _table


def formats() -> tuple[TrajectoryFormat, ...]:
    """The registered formats, in the order they are tried."""
    return _current().formats


def format_named(name: str) -> TrajectoryFormat | None:
    """The format of that name; None when none is registered so."""
    return next((f for f in formats() if f.name == name), None)


def format_of(folder: str | Path, names: Collection[str], *, asked: bool = False) -> TrajectoryFormat | None:
    """The first format that claims `folder` (listing `names`); None when none does."""
    where = os.fspath(folder)
    return next((f for f in formats() if f.detect(where, names, asked=asked)), None)


def is_trajectory_folder(path: Path | str) -> bool:
    """Cheap check for run discovery: whether a format claims the folder (False when it cannot be listed)."""
    try:
        with os.scandir(path) as entries:
            names = {e.name for e in entries}
    except OSError:
        return False
    return format_of(path, names) is not None


def marker_names() -> tuple[str, ...]:
    """Every format's markers: a folder holding a file of one of these names is a trajectory."""
    return _current().markers


def watched_file(name: str) -> bool:
    """Whether a file of a trajectory folder is fingerprinted by the refresh (some format watches it)."""
    table = _current()
    return name in table.watched or name.endswith(table.watched_suffixes)


def tasks_dirs() -> tuple[str, ...]:
    """The formats' sub-folders of a run that hold its task folders (`tasks_dir`), in table order."""
    return tuple(dict.fromkeys(f.tasks_dir for f in formats() if f.tasks_dir))


def run_place(root: Path, trajectory_dir: Path) -> RunPlace:
    """The run of a trajectory folder: the first format that places it, else its parent folder."""
    for found in formats():
        place = found.run_folder(root, trajectory_dir)
        if place is not None:
            return place
    return RunPlace(trajectory_dir.parent)


def layouts() -> str:
    """What makes a folder a trajectory, as every message that finds none says it."""
    held = [f.holds for f in formats()]
    listed = ", ".join(held[:-1]) + ", or " + held[-1] if len(held) > 1 else held[0]
    return f"a trajectory folder holds {listed}"


def not_a_trajectory(path: Path) -> str:
    """Why `path` is no trajectory folder, with the layouts that are: a network trace alone (a HAR
    or a trace archive) is named as such and told where it belongs.
    """
    if path.suffix.lower() in TRACE_SUFFIXES and path.is_file():
        return (
            f"this is a network trace ({path.suffix.lower()[1:].upper()}), not a trajectory: put it in a"
            f" task folder beside the agent's {AGENT_RESPONSE} (that folder is the trajectory); {layouts()}"
        )
    if path.is_file():
        return f"this is a file, not a trajectory folder; {layouts()}"
    return f"no trajectory folder found; {layouts()}"


@contextmanager
def registered(added: TrajectoryFormat, *, first: bool = False) -> Iterator[TrajectoryFormat]:
    """`added` in the table while the block runs (tried last, or first), then the table as it was."""
    global _table  # noqa: PLW0603 - the one table
    before = _current()
    _table = _table_of((added, *before.formats) if first else (*before.formats, added))
    try:
        yield added
    finally:
        _table = before
