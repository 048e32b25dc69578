"""Find trajectory folders under any root and group them into runs.

What a trajectory folder is, and which run it belongs to, is its format's to say
(`reading.formats`): Fara trees encode the run in the path
(`runs/<system>/<model>/<user>/<benchmark>/<run_id>/traj/<task_id>/`); a folder of trajectories
no format groups otherwise (e.g. the official WebArena-Verified CLI output) is a run named by
its parent.
Discovery never opens more than a folder listing, so it stays fast on large trees, and it never
stops on a folder it cannot read: such a folder is kept as a trajectory folder, so the index lists
it as unreadable with the system's reason instead of dropping it. The walk is iterative (a
thousand nested folders are no recursion), and run metadata comes only from folders under the
root the user gave.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.formats import is_trajectory_folder, run_place
from webeval_core.reading.markers import is_walked

DIGIT_RUNS = re.compile(r"([0-9]+)")
"""The runs of ASCII digits `natural_key` reads as numbers (a capturing group: `split` keeps them)."""
NUMBER_DIGITS = 100
"""Digit runs this long or longer sort as text (`int` refuses more than a few thousand digits)."""


class Run(BaseModel):
    """One agent run: a set of trajectory folders produced together."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    """Run folder relative to the root, "/"-separated; stable id for links and tables."""
    path: Path
    """The run folder (the parent of `traj/` in Fara trees, else the trajectories' parent)."""
    system: str | None = None
    """The agent system: with its settings hash in Fara trees ("WebSurfer-fara-100-max_n_images-3"),
    the agent another harness records (AgentLab's "GenericAgent", a Harbor job's agent); None
    where nothing says it."""
    model: str | None = None
    """The model, e.g. "fara-7b" (a Fara path's, or the model another harness records); None
    where nothing says it."""
    user: str | None = None
    """The user who launched the run; None outside Fara trees."""
    benchmark: str | None = None
    """The benchmark, e.g. "WebTailBench_hf" (with its execution hash in Fara trees); None where
    nothing says it."""
    run_id: str | None = None
    """The run's number under that benchmark in Fara trees (often "0"), the job's or
    experiment's name elsewhere; None where nothing says it."""
    trajectory_dirs: tuple[Path, ...] = ()
    """The run's trajectory folders in natural order (task 9 before 10)."""

    @property
    def label(self) -> str:
        """A readable name: "model · benchmark · run N" in Fara trees; of another harness's run,
        the facts it records ("GenericAgent · gpt-4o · webarena_verified"); else the key.
        """
        if self.user and self.model and self.benchmark:
            return f"{self.model} · {self.benchmark} · run {self.run_id}"
        said = [s for s in (self.system, self.model, self.benchmark) if s]
        if not said:
            return self.key
        return " · ".join([*said, f"run {self.run_id}"] if self.run_id else said)

    @property
    def metadata(self) -> dict[str, str | None]:
        """The run's facts (system, model, user, benchmark, run_id: a Fara path's, or what another
        harness records), None where absent.
        """
        return {
            "system": self.system,
            "model": self.model,
            "user": self.user,
            "benchmark": self.benchmark,
            "run_id": self.run_id,
        }


def iter_trajectory_dirs(root: Path) -> Iterator[Path]:
    """Yield every trajectory folder at or below `root`, in sorted order.

    Symlinked directories are not followed, so a link cannot lead discovery out of the root
    or into a cycle. A directory that cannot be listed (permissions, a name too long) is yielded
    as it is: loading it then says why it cannot be read.
    """
    stack = [Path(root)]
    while stack:
        folder = stack.pop()
        if is_trajectory_folder(folder):
            yield folder
            continue
        try:
            entries = sorted(os.scandir(folder), key=lambda e: natural_key(e.name))
        except (NotADirectoryError, FileNotFoundError):  # a file, or gone since it was listed
            continue
        except OSError:
            yield folder
            continue
        stack.extend(reversed([Path(e.path) for e in entries if is_walked(e)]))


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts `9` before `10` (task ids are numbers in WebArena folders).

    Only ASCII digit runs count as numbers ("²" is a digit to `str.isdigit`, not to `int`), and
    very long runs sort as text (`int` refuses more than a few thousand digits).
    """
    return tuple(
        (0, int(part)) if len(part) < NUMBER_DIGITS and part.isascii() and part.isdigit() else (1, part)
        for part in DIGIT_RUNS.split(name)
        if part
    )


def trajectory_key(root: Path, trajectory_dir: Path) -> str:
    """The trajectory folder relative to the root, "/"-separated: unique under the root, even when
    two folders of a run hold the same task id; what links and pickers name a trajectory by.
    """
    return _relative_key(Path(root), Path(trajectory_dir))


def run_of(root: Path, trajectory_dir: Path) -> Run:
    """The run a trajectory folder belongs to, as its format groups it (`reading.formats.run_place`:
    a Fara run is the folder above `traj/`, its metadata the path's names under `root`).
    """
    place = run_place(Path(root), Path(trajectory_dir))
    return Run(key=run_key(root, place.path), path=place.path, **dict(place.facts))


def discover_runs(root: Path) -> tuple[Run, ...]:
    """Every run under `root` with its trajectory folders, ordered by run key."""
    root = Path(root)
    runs: dict[Path, Run] = {}
    members: dict[Path, list[Path]] = {}
    by_parent: dict[Path, Run] = {}  # a run is its trajectories' parent's (as the refresh has it)
    for trajectory_dir in iter_trajectory_dirs(root):
        run = by_parent.get(trajectory_dir.parent)
        if run is None or trajectory_dir == root:
            run = by_parent[trajectory_dir.parent] = run_of(root, trajectory_dir)
        runs.setdefault(run.path, run)
        members.setdefault(run.path, []).append(trajectory_dir)
    return tuple(
        runs[path].model_copy(update={"trajectory_dirs": tuple(members[path])})
        for path in sorted(runs, key=lambda p: runs[p].key)
    )


def run_key(root: Path, run_dir: Path) -> str:
    """The key of a run: its folder relative to the root, "/"-separated.

    A root that is itself the run (or a trajectory, whose run folder lies above the root) is named
    by its own folder's name, symlinks resolved: the key is the same however the root was typed
    (relative, absolute, trailing slash, through a link) and whatever a cache holds, so that
    annotations keyed by it are found again.
    """
    try:
        rel = Path(run_dir).relative_to(root)
    except ValueError:
        rel = None
    if rel is not None and rel.parts:
        return rel.as_posix()
    return root_name(root)


def root_name(root: Path) -> str:
    """The name of the root's own folder (symlinks and `.` resolved)."""
    return Path(root).resolve().name or "root"


def _relative_key(root: Path, path: Path) -> str:
    try:
        rel = path.relative_to(root)
    except ValueError:
        return path.as_posix()
    return rel.as_posix() if rel.parts else root_name(root)
