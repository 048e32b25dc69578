"""The folder a command reads: a path as is, a submission package unpacked, a store URL's mirror;
and THE contract of every command on a path that is no folder and on a root without trajectories:
the same words (`folder_problem`, `no_trajectories`) and the same exit status (1), nothing written.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.cli._output import Progress, complain, say

if TYPE_CHECKING:
    from webeval_core.remote import OpenedRoot
    from webeval_core.runs import IndexQueries, RootIndex

_PACKAGE_SUFFIXES = (".tar.gz", ".tgz")  # `packages.is_package_file`'s, checked before importing it
FAILED = 1
"""THE exit status of a command that could not do its work: a path that is no folder, a root that
holds no trajectory (then nothing is written: no empty site, no empty export)."""


def folder_problem(path: Path) -> str | None:
    """Why `path` is no folder to read, in THE words every command says; None when it is one."""
    if path.is_dir():
        return None
    if not os.path.lexists(path):
        return "the folder does not exist"
    from webeval_core.reading import not_a_trajectory

    return not_a_trajectory(path)  # a file (a trace, a log): what it is, and what a trajectory folder holds


def checked_folder(path: Path, command: str) -> Path | None:
    """`path` when it is a folder; else None, said on stderr (`folder_problem`)."""
    problem = folder_problem(path)
    if problem is not None:
        complain(command, path, problem)
        return None
    return path


def no_trajectories(root: Path, command: str) -> int:
    """Say that `root` holds no trajectory folder (naming the network traces lying in it, which a
    user may have taken for one), as every command says it; the exit status, `FAILED`.
    """
    from webeval_core.presentation import plural
    from webeval_core.reading import not_a_trajectory, traces_in

    traces = traces_in(root)
    held = f" (it holds {plural(traces, 'network trace')}, and a trace alone is none)" if traces else ""
    complain(command, f"{root}{held}", not_a_trajectory(root))
    return FAILED


def opened(given: str, command: str) -> OpenedRoot | None:
    """`given` ready to read: a local path as is, a URL's mirror brought up to date (None: said why)."""
    from webeval_core.remote import RemoteUnavailableError, is_remote, mask_secrets, open_root

    if not is_remote(given):
        return _local_package(Path(given), command)
    try:
        root = open_root(given)
    except (RemoteUnavailableError, ValueError, ImportError) as exc:
        say(sys.stderr, f"webeval {command}: {mask_secrets(str(exc))}")
        return None
    for problem in root.problems:  # the cached part is still read: say what is stale
        say(sys.stderr, f"webeval {command}: {problem}")
    return root


def _local_package(path: Path, command: str) -> OpenedRoot | None:
    """A folder as is; a submission package tar unpacked into the cache (never read in place)."""
    from webeval_core.remote import OpenedRoot
    from webeval_core.runs import is_package_file, unpacked_package
    from webeval_core.support import UnreadableError

    if not is_package_file(path):
        return OpenedRoot(path=path)
    try:
        return OpenedRoot(path=unpacked_package(path))
    except UnreadableError as exc:
        complain(command, exc.path, exc.reason)
        return None


def local_root(given: str, command: str) -> Path | None:
    """The local folder of `given` (a path, a package, a URL); None when it cannot be had (said why)."""
    if "://" not in given and not given.endswith(_PACKAGE_SUFFIXES):
        return Path(given)  # a plain folder, the usual case: no remote layer, no package reader
    root = opened(given, command)
    return None if root is None else root.path


def load_index(args: argparse.Namespace, command: str) -> RootIndex | None:
    """Every summary of `args.root` (its index brought up to date); None when it is no folder or
    holds no trajectory (said why).
    """
    from webeval_core.runs import build_index

    root = _folder(args, command)
    if root is None:
        return None
    index = build_index(root, use_cache=not getattr(args, "no_cache", False), on_progress=Progress("Reading"))
    if not index.summaries:
        no_trajectories(root, command)
        return None
    return index


def root_queries(args: argparse.Namespace, command: str) -> IndexQueries | None:
    """The queries of `args.root`'s index, brought up to date; None when it is no folder or holds
    no trajectory (said why).
    """
    from webeval_core.reading import installed_catalog
    from webeval_core.runs import OUTSIDE_REVIEW, IndexQueries, IndexStore, refresh_index

    root = _folder(args, command)
    if root is None:
        return None
    store = IndexStore(root)
    refresh_index(store, on_progress=Progress("Reading"))
    counts = store.counts()
    if not counts.trajectories:
        no_trajectories(root, command)
        return None
    return IndexQueries(store, installed_catalog(), viewer=OUTSIDE_REVIEW)


def _folder(args: argparse.Namespace, command: str) -> Path | None:
    """The local folder of `args.root`; None when it cannot be had or is no folder (said why)."""
    root = local_root(args.root, command)
    return None if root is None else checked_folder(root, command)
