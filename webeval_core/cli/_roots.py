"""The folder a command reads: a path as is, a submission package unpacked, a store URL's mirror."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.cli._output import Progress, complain, say

if TYPE_CHECKING:
    from webeval_core.remote import OpenedRoot
    from webeval_core.runs import IndexQueries
    from webeval_core.runs.summary import RootIndex

_PACKAGE_SUFFIXES = (".tar.gz", ".tgz")  # `packages.is_package_file`'s, checked before importing it


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
    from webeval_core.runs.packages import is_package_file, unpacked_package
    from webeval_core.support.diagnostics import UnreadableError

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
    """Every summary of `args.root` (its index brought up to date); None when it is no folder."""
    from webeval_core.runs.index import build_index

    root = _folder(args, command)
    if root is None:
        return None
    return build_index(root, use_cache=not getattr(args, "no_cache", False), on_progress=Progress("Reading"))


def root_queries(args: argparse.Namespace, command: str) -> IndexQueries | None:
    """The queries of `args.root`'s index, brought up to date; None when it is no folder (said why)."""
    from webeval_core.reading.task_catalog import installed_catalog
    from webeval_core.runs import IndexQueries, IndexStore, refresh_index

    root = _folder(args, command)
    if root is None:
        return None
    store = IndexStore(root)
    refresh_index(store, on_progress=Progress("Reading"))
    return IndexQueries(store, installed_catalog())


def _folder(args: argparse.Namespace, command: str) -> Path | None:
    """The local folder of `args.root`; None when it cannot be had or is no folder (said why)."""
    root = local_root(args.root, command)
    if root is None:
        return None
    if not root.is_dir():
        complain(command, root, "not a folder")
        return None
    return root
