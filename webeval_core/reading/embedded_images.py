"""Screenshots kept inside another file of a trajectory folder: cube-harness keeps each
observation's images in its step file (`steps/NNN_obs.msgpack.zst`). Such a frame is named
`<file>#<n>` (the n-th image of that file, from 0) wherever a frame name goes (`Trajectory.
screenshots`, `Step.screenshot`), and its bytes are taken out of the file in memory when a view
reads it (`screenshots.frame_bytes`): nothing is written, input folders being read-only. The file
is decompressed within its reader's bound (`cube_reader.STEP_READ_LIMIT`), and the images of the
few files read last are kept (`KEPT_BYTES`), so a filmstrip's thumbnails and the frame beside
them decompress each file once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

from webeval_core.reading.folderfiles import NotReadableFileError, describe_size, read_file

__all__ = ["KEPT_BYTES", "container_of", "embedded_image", "embedded_name"]

MARK = "#"
"""Between a file's name and the number of an image it holds."""
CONTAINER_SUFFIXES = (".msgpack.zst",)
"""The files whose images are read so: cube-harness's step files."""
KEPT_BYTES = 64 * 1024 * 1024
"""Bytes of images kept in memory, the files read longest ago dropped first."""

_Stamp = tuple[str, int, int]  # a file's path, mtime (ns) and size: its images while they hold
_kept: OrderedDict[_Stamp, list[bytes]] = OrderedDict()
_lock = threading.Lock()  # the overlay reads frames on worker threads


def embedded_name(file: str, number: int) -> str:
    """The frame name of image `number` of `file` (a name relative to the folder)."""
    return f"{file}{MARK}{number}"


def container_of(path: Path) -> tuple[Path, int] | None:
    """(the file holding it, its number) when `path` names an image inside a file; None otherwise."""
    head, mark, number = path.name.rpartition(MARK)
    if not mark or not number.isascii() or not number.isdecimal() or not head.endswith(CONTAINER_SUFFIXES):
        return None
    return path.with_name(head), int(number)


def embedded_image(path: Path, limit: int) -> bytes:
    """The bytes of the image `path` names inside its file (`container_of`).

    Raises:
        OSError: the file cannot be read; `NotReadableFileError` when it holds no such image, cannot
            be read as a file of images, or the image holds more than `limit` bytes.
    """
    found = container_of(path)
    if found is None:
        raise NotReadableFileError(path, "names no image kept inside a file")
    container, number = found
    images = _images(container)
    if number >= len(images):
        raise NotReadableFileError(path, f"names image {number}, and {container.name} holds {len(images)}")
    if len(images[number]) > limit:
        raise NotReadableFileError(path, f"is {describe_size(len(images[number]))}; not read")
    return images[number]


def _images(container: Path) -> list[bytes]:
    stat = container.stat()
    stamp = (str(container), stat.st_mtime_ns, stat.st_size)
    with _lock:
        if stamp in _kept:
            _kept.move_to_end(stamp)
            return _kept[stamp]
    images = _read(container)
    with _lock:
        _kept[stamp] = images
        while len(_kept) > 1 and sum(len(i) for kept in _kept.values() for i in kept) > KEPT_BYTES:
            _kept.popitem(last=False)
    return images


def _read(container: Path) -> list[bytes]:
    from webeval_core.reading.cube_reader import StepFileError, step_images

    try:
        return step_images(read_file(container))
    except StepFileError as exc:
        raise NotReadableFileError(container, str(exc)) from None
