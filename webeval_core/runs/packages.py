"""A submission package tar opened as a root: unpacked once into the cache, then read as a folder.

`webarena-verified create-submission-pkg` writes a `.tar.gz`; a tar is never read in place
(`reading.submission.extract_submission` unpacks data files only). The unpacked copy lives in
`<cache>/packages/`, keyed by the tar's path, size and modification time, so opening the same
package again costs nothing and a changed package is unpacked afresh. The input is never written.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

from webeval_core.reading.submission import extract_submission
from webeval_core.runs.index_db import default_cache_dir

__all__ = ["is_package_file", "unpacked_package"]

_COMPLETE = ".webeval-unpacked"


def is_package_file(path: Path) -> bool:
    """Whether `path` is a file a packager writes (`.tar.gz` / `.tgz`), to be unpacked before reading."""
    return path.name.endswith((".tar.gz", ".tgz")) and path.is_file()


def unpacked_package(tar: Path, cache_dir: Path | None = None) -> Path:
    """The folder holding `tar`'s content (unpacked on first use, atomically).

    Raises:
        UnreadableError: when the file is not a readable tar.
    """
    tar = Path(tar).resolve()
    stat = tar.stat()
    digest = hashlib.sha1(f"{tar}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    name = tar.name.removesuffix(".gz").removesuffix(".tgz").removesuffix(".tar")
    target = (cache_dir or default_cache_dir()) / "packages" / digest / name
    if (target / _COMPLETE).is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # Unpacked beside the target and renamed into place: a reader never sees half a package.
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=target.parent))
    try:
        extract_submission(tar, staging / name)
        (staging / name / _COMPLETE).touch()
        if not target.exists():
            (staging / name).rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
