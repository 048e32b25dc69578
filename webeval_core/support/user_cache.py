"""The user's cache folder (`$XDG_CACHE_HOME/webeval`, else `~/.cache/webeval`): where it is, what
is done when it cannot be written, and the marker every score write touches.

A cache is never the reason a command fails: when the folder cannot be made or written (a read-only
home, `XDG_CACHE_HOME` under a regular file), a private folder under the system's temporary folder
is used instead and `CacheFolder.notice` names both, so the index and the verdicts are still
computed (they are only not kept for the next run).

`scores-written` in the cache is touched after every score file this project writes, whatever
process wrote it (`webeval score`, `--cluster`, the app's Re-score tab): a viewer that stats this
one file every few seconds knows at once that figures changed, without walking the root.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "CacheFolder",
    "cache_folder",
    "cache_home",
    "note_scores_written",
    "scores_written_stamp",
    "unsaid_notices",
]

_MARKER = "scores-written"
_UNSAID: dict[str, bool] = {}  # each notice of this process, and whether it was handed on


class CacheFolder(NamedTuple):
    """The cache folder in use (a tuple: reading a folder never pays for pydantic)."""

    path: Path
    """The folder to write caches into: the user's, else a private temporary one."""
    notice: str | None = None
    """Why the user's folder is not used (it names it and the cause); None when it is."""


def cache_home() -> Path:
    """THE user's cache folder of this project: `$XDG_CACHE_HOME/webeval`, else `~/.cache/webeval`."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "webeval"


def cache_folder(preferred: Path | None = None) -> CacheFolder:
    """`preferred` (default `cache_home()`) made if need be; when it cannot be, a private folder
    under the temporary folder, with the notice saying so.
    """
    return _usable(preferred or cache_home())


def _usable(preferred: Path) -> CacheFolder:
    try:
        preferred.mkdir(parents=True, exist_ok=True)
        if not os.access(preferred, os.W_OK | os.X_OK):
            raise PermissionError(13, "permission denied")
    except OSError as exc:
        cause = exc.strerror or str(exc)
        fallback = _private_temporary()
        kept = f"caches are kept in {fallback} for now" if fallback else "nothing is cached"
        notice = f"The cache folder {preferred} cannot be written ({cause}); {kept}."
        _UNSAID.setdefault(notice, False)
        return CacheFolder(fallback or preferred, notice)
    return CacheFolder(preferred)


def _private_temporary() -> Path | None:
    """`webeval-cache-<uid>` in the temporary folder, the same for every process of the user (the
    app and its refresh child agree on it); a new one when that name is not the user's own folder;
    None when the temporary folder cannot be written either.
    """
    try:
        shared = Path(tempfile.gettempdir()) / f"webeval-cache-{os.getuid()}"
        shared.mkdir(mode=0o700, exist_ok=True)
        found = os.lstat(shared)
        if stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o077:
            return shared
        return Path(tempfile.mkdtemp(prefix="webeval-cache-"))
    except OSError:
        return None


def unsaid_notices() -> list[str]:
    """The notices of cache folders that could not be used since the last call (each once): what
    a command says on stderr once it is done.
    """
    said = [notice for notice, done in _UNSAID.items() if not done]
    _UNSAID.update(dict.fromkeys(said, True))
    return said


def note_scores_written() -> None:
    """Touch the marker after score files were written; a cache that cannot be written is left be."""
    marker = cache_folder().path / _MARKER
    with contextlib.suppress(OSError):
        marker.touch()


def scores_written_stamp() -> int:
    """When score files were last written by this project, in ns (the marker's mtime); 0 when never."""
    try:
        return os.stat(cache_folder().path / _MARKER).st_mtime_ns
    except OSError:
        return 0
