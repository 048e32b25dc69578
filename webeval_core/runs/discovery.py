"""Find trajectory folders under any root and group them into runs.

Fara trees encode the run in the path
(`runs/<system>/<model>/<user>/<benchmark>/<run_id>/traj/<task_id>/`); any other folder of
trajectories (e.g. the official WebArena-Verified CLI output) is a run named by its parent.
Discovery never opens more than a folder listing, so it stays fast on large trees, and it never
stops on a folder it cannot read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.trajectory import is_trajectory_folder

# Folders inside a trajectory or a run that never hold trajectories of their own.
_SKIP_DIRS = {"scores", "__pycache__", "node_modules"}


class Run(BaseModel):
    """One agent run: a set of trajectory folders produced together."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    key: str
    """Run folder relative to the root, "/"-separated; stable id for links and tables."""
    path: Path
    """The run folder (the parent of `traj/` in Fara trees, else the trajectories' parent)."""
    system: str | None = None
    """The agent system with its settings hash (e.g. "WebSurfer-fara-100-max_n_images-3"); None elsewhere."""
    model: str | None = None
    """The model prefix, e.g. "fara-7b"; None outside Fara trees."""
    user: str | None = None
    """The user who launched the run; None outside Fara trees."""
    benchmark: str | None = None
    """The benchmark and its execution hash, e.g. "WebTailBench_hf"; None outside Fara trees."""
    run_id: str | None = None
    """The run's number under that benchmark (often "0"); None outside Fara trees."""
    trajectory_dirs: tuple[Path, ...] = ()
    """The run's trajectory folders in natural order (task 9 before 10)."""

    @property
    def label(self) -> str:
        """A readable name: "model · benchmark · run N" in Fara trees, else the key."""
        if self.model and self.benchmark:
            return f"{self.model} · {self.benchmark} · run {self.run_id}"
        return self.key

    @property
    def metadata(self) -> dict[str, str | None]:
        """The facts read from a Fara path (system, model, user, benchmark, run_id), None where absent."""
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
    or into a cycle; unreadable directories are skipped.
    """
    root = Path(root)
    if is_trajectory_folder(root):
        yield root
        return
    try:
        entries = sorted(os.scandir(root), key=lambda e: natural_key(e.name))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(".") or entry.name in _SKIP_DIRS:
            continue
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
        except OSError:
            continue
        yield from iter_trajectory_dirs(Path(entry.path))


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts `9` before `10` (task ids are numbers in WebArena folders)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", name) if part)


def run_of(root: Path, trajectory_dir: Path) -> Run:
    """The run a trajectory folder belongs to, read from its path."""
    run_dir = trajectory_dir.parent
    if run_dir.name == "traj":
        run_dir = run_dir.parent
        parts = run_dir.parts
        # <system>/<model>/<user>/<benchmark>/<run_id> above traj/
        if len(parts) >= 5:
            system, model, user, benchmark, run_id = parts[-5:]
            return Run(
                key=_relative_key(root, run_dir),
                path=run_dir,
                system=system,
                model=model,
                user=user,
                benchmark=benchmark,
                run_id=run_id,
            )
    return Run(key=_relative_key(root, run_dir), path=run_dir)


def discover_runs(root: Path) -> tuple[Run, ...]:
    """Every run under `root` with its trajectory folders, ordered by run key."""
    root = Path(root)
    runs: dict[Path, Run] = {}
    members: dict[Path, list[Path]] = {}
    for trajectory_dir in iter_trajectory_dirs(root):
        run = run_of(root, trajectory_dir)
        runs.setdefault(run.path, run)
        members.setdefault(run.path, []).append(trajectory_dir)
    return tuple(
        runs[path].model_copy(update={"trajectory_dirs": tuple(members[path])})
        for path in sorted(runs, key=lambda p: runs[p].key)
    )


def _relative_key(root: Path, path: Path) -> str:
    try:
        rel = path.relative_to(root)
    except ValueError:
        return path.as_posix()
    return rel.as_posix() if rel.parts else (root.name or ".")
