"""Screenshots of a trajectory folder and their pixel space.

Listed screenshot paths are untrusted (`../`, absolute paths, symlinks): only files inside the
folder are used (see `folderfiles`). Only PNG headers are read (never a decoded image), so
loading stays cheap on runs with thousands of frames.

A folder mirrored from a remote root (`webeval_core.remote`) holds its screenshots only once a
view needs them: the mirror registers an `ImageSource` (`set_image_source`) that lists the frames
the store holds, with their PNG sizes, and fetches one when it is read (`ensure_local`). Reading
never imports the remote layer; without a registered source nothing changes.

A frame may also be an image kept inside another file of the folder (cube-harness's step files:
`steps/002_obs.msgpack.zst#0`, `embedded_images`): whoever reads a frame reads it through
`frame_bytes` (and stats `frame_file`), which take it out of its file in memory.

Two screenshot namings exist: Fara's `screenshot0.png ... screenshotN.png` (the page before
action 1, then one after each action, so action k is taken on `screenshot{k-1}`) and the
solver's `screenshot_1.png ... screenshot_N.png` (action k is taken on `screenshot_k`).
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.embedded_images import container_of, embedded_image
from webeval_core.reading.folderfiles import (
    LEADS_OUTSIDE,
    NotReadableFileError,
    describe_size,
    read_file,
    read_head,
    resolve_inside,
)
from webeval_core.support.diagnostics import Diagnostic

ScreenshotNaming = Literal["fara", "solver"]

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"IEND\xaeB`\x82"  # the IEND chunk: its type and CRC, the last 8 bytes of a whole PNG
_NAMINGS: tuple[tuple[ScreenshotNaming, re.Pattern[str]], ...] = (
    ("fara", re.compile(r"screenshot(\d+)\.png")),
    ("solver", re.compile(r"screenshot_(\d+)\.png")),
)
_EXAMPLES = 3  # names quoted in a grouped warning
IMAGE_READ_LIMIT = 64 * 1024 * 1024
"""Bytes of a screenshot read at most (real ones are a few hundred KB)."""


class Screenshot(BaseModel):
    """One screenshot that exists inside the folder and is a PNG."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """Path relative to the trajectory folder, "/"-separated."""
    number: int | None
    """The N of `screenshotN.png` / `screenshot_N.png`; None for listed files outside both namings."""
    width: int
    """Width in pixels, from the PNG header."""
    height: int
    """Height in pixels, from the PNG header."""


class Screenshots(BaseModel):
    """The usable screenshots of a folder, in order, and the naming that says which action is on which."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    naming: ScreenshotNaming | None = None
    """Fara's or the solver's file naming; None when the frames come from the answer file's list."""
    frames: tuple[Screenshot, ...] = ()
    """The usable screenshots, by number (or in listed order when `naming` is None)."""

    def frames_for_actions(self, count: int) -> list[Screenshot | None]:
        """The frame each of actions 1..count was taken on (None where that frame is missing)."""
        if self.naming is None:
            return [self.frames[k - 1] if k <= len(self.frames) else None for k in range(1, count + 1)]
        by_number = {frame.number: frame for frame in self.frames}
        shift = 1 if self.naming == "fara" else 0
        return [by_number.get(k - shift) for k in range(1, count + 1)]


class ImageSource(Protocol):
    """Where the screenshots of a mirrored folder come from before they are fetched (the remote layer)."""

    def names(self, folder: Path) -> Collection[str]:
        """Names of the images the store holds directly in `folder`, known without reading any."""
        ...

    def listed(self, folder: Path) -> Mapping[str, tuple[int, int]]:
        """Images the store holds directly in `folder` (file name -> PNG width, height); {} if none."""
        ...

    def ensure_local(self, path: Path) -> None:
        """Fetch `path` into its folder when the store lists it and the local copy is missing."""
        ...


_image_source: ImageSource | None = None


def set_image_source(source: ImageSource | None) -> None:
    """Register the source of not-yet-fetched screenshots for this process (None: local files only)."""
    global _image_source  # noqa: PLW0603 -- one per process, set by the remote layer when a mirror opens
    _image_source = source


def unfetched_names(folder: Path | str) -> Collection[str]:
    """Names of the images a registered source holds directly in `folder` (a mirror's, fetched
    or not); empty with no source: a reader listing a folder's images adds them to its own listing.
    """
    return _image_source.names(Path(folder)) if _image_source is not None else ()


def ensure_local(path: Path) -> None:
    """Before an image is read: fetch it when it belongs to a mirror and is not there yet."""
    if _image_source is not None:
        _image_source.ensure_local(path)


def frame_file(path: Path) -> Path:
    """The file holding screenshot `path`: itself, or the file its image is kept in (`embedded_images`)."""
    found = container_of(path)
    return found[0] if found is not None else path


def frame_bytes(path: Path, limit: int = IMAGE_READ_LIMIT) -> bytes:
    """The bytes of screenshot `path` (no check that it lies in a folder: `read_image_bytes` makes
    it): its file's, fetched first when a mirror holds it (`ensure_local`); an image kept inside
    another file taken out of it (`embedded_images`). At most `limit` bytes of a file are read.

    Raises:
        OSError: when it cannot be read (`folderfiles.NotReadableFileError`: its `reason` says why).
    """
    ensure_local(frame_file(path))  # a mirror fetches the step file an embedded image is kept in
    if container_of(path) is not None:
        return embedded_image(path, limit)
    return read_file(path, limit)


def png_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) from the PNG header, or None when the file is not a PNG or unreadable."""
    try:
        head = (
            frame_bytes(Path(path), IMAGE_READ_LIMIT)[:24]
            if container_of(Path(path))
            else read_file(path, 24)
        )
    except OSError:
        return None
    return png_header_size(head)


def image_complete(path: str | Path) -> bool:
    """Whether an image file is whole: a PNG ends with its IEND chunk, a JPEG with its end marker.
    A screenshot still being written is not (a running trajectory shows it once it is); an image
    kept inside another file is whole when that file reads (cube-harness writes its steps whole).
    """
    if container_of(Path(path)) is not None:
        try:
            return bool(frame_bytes(Path(path)))
        except OSError:
            return False
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(size - 12, 0))
            tail = f.read()
    except OSError:
        return False
    if head.startswith(_PNG_SIGNATURE):
        return tail.endswith(_PNG_END)
    if head.startswith(b"\xff\xd8"):
        return tail.endswith(b"\xff\xd9")
    return size > 0  # another format: no end to look for


def png_header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's first 24 bytes, or None when they are not a PNG header."""
    if len(head) < 24 or not head.startswith(_PNG_SIGNATURE) or head[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", head[16:24])
    return (width, height) if width and height else None


def read_image_bytes(path: str | Path, folder: Path | None = None, limit: int = IMAGE_READ_LIMIT) -> bytes:
    """The bytes of a screenshot, for decoding: a regular file inside `folder` (default: the file's
    own folder), read through `folderfiles` (a link is followed only when it stays inside).

    Raises:
        OSError: when it cannot be read; `folderfiles.NotReadableFileError` when it is not a
            regular file, leads outside the folder or holds more than `limit` bytes (its `reason`
            says which).
    """
    path = Path(path)
    holder = frame_file(path)
    ensure_local(holder)
    target = resolve_inside(folder if folder is not None else path.parent, holder)
    if target is None:
        raise NotReadableFileError(path, LEADS_OUTSIDE)
    if holder != path:  # an image inside the file: taken out of it, bounded as a file is
        return embedded_image(target.with_name(path.name), limit)
    data, size = read_head(target, limit)
    if size > limit:
        raise NotReadableFileError(
            path, f"is {describe_size(size)}, more than {describe_size(limit)}; not read"
        )
    return data


def discover_screenshots(
    folder: Path, listed: Sequence[object] = (), answer_file: str | None = None
) -> tuple[Screenshots, list[Diagnostic]]:
    """The folder's screenshots, checked; `listed` are the answer file's `screenshots` entries.

    Files of the chosen naming are the frames. Listed entries are cross-checked (missing, not a
    PNG, outside the folder) and used as frames only when the folder has no named screenshots.
    """
    root = folder.resolve()
    named: dict[ScreenshotNaming, dict[int, _Entry]] = {"fara": {}, "solver": {}}
    try:
        entries: list[_Entry] = list(os.scandir(folder))
    except OSError:
        entries = []
    remote = _image_source.listed(folder) if _image_source is not None else {}
    present = {entry.name for entry in entries}
    entries += [_listed(name, size) for name, size in remote.items() if name not in present]
    for entry in entries:
        for scheme, pattern in _NAMINGS:
            match = pattern.fullmatch(entry.name)
            if match:
                named[scheme][int(match.group(1))] = entry
    naming: ScreenshotNaming | None = "fara" if named["fara"] else "solver" if named["solver"] else None
    diagnostics: list[Diagnostic] = []
    frames: list[Screenshot] = []
    if naming is not None:
        for number, entry in sorted(named[naming].items()):
            frame = _frame(root, entry, number, diagnostics)
            if frame is not None:
                frames.append(frame)
        if naming == "fara" and named["solver"]:
            diagnostics.extend(_other_naming_check(named["fara"], named["solver"]))
    listed_frames = _check_listed(root, listed, answer_file, {f.name for f in frames}, diagnostics, remote)
    if not frames and listed_frames:
        return Screenshots(naming=None, frames=tuple(listed_frames)), diagnostics
    return Screenshots(naming=naming, frames=tuple(frames)), diagnostics


def count_screenshots(folder: Path | str, names: Iterable[str], listed: Sequence[object] = ()) -> int:
    """How many screenshots `discover_screenshots` would find, counted by file name alone: the
    numbers of the naming it chooses, among the folder's `names` and the frames a registered image
    source lists; else the `listed` entries that name a file of the folder. No file is opened or
    fetched, so a file of the right name that is not a PNG still counts.
    """
    present = set(names)
    if _image_source is not None:
        present.update(_image_source.names(Path(folder)))
    fara: set[int] = set()
    solver: set[int] = set()
    for name in present:
        # `_NAMINGS` without a regex per name (the index counts every folder's): `\d` matches what
        # str.isdecimal accepts (Unicode category Nd), and "_" starts only the solver's numbers.
        if name.startswith("screenshot") and name.endswith(".png"):
            number = name[10:-4]
            if number.isdecimal():
                fara.add(int(number))
            elif number[:1] == "_" and number[1:].isdecimal():
                solver.add(int(number[1:]))
    named = len(fara) or len(solver)
    return named or len({str(item) for item in listed} & present)


# A file of the folder, or a frame the image source lists and the folder does not hold yet.
_Entry = os.DirEntry[str] | Screenshot


def _listed(name: str, size: tuple[int, int]) -> Screenshot:
    return Screenshot(name=name, number=None, width=size[0], height=size[1])


def _frame(root: Path, entry: _Entry, number: int, diagnostics: list[Diagnostic]) -> Screenshot | None:
    if isinstance(entry, Screenshot):
        return entry.model_copy(update={"number": number})
    path = resolve_inside(root, entry.name) if entry.is_symlink() else Path(entry.path)
    if path is None:
        diagnostics.append(Diagnostic(file=entry.name, message=LEADS_OUTSIDE))
        return None
    size = png_size(path)
    if size is None:
        diagnostics.append(
            Diagnostic(file=entry.name, message="is not a PNG image (or cannot be read); skipped")
        )
        return None
    # A link is named by its target, so whoever opens the frame later opens a regular file.
    name = path.relative_to(root).as_posix() if entry.is_symlink() else entry.name
    return Screenshot(name=name, number=number, width=size[0], height=size[1])


def _other_naming_check(primary: dict[int, _Entry], other: dict[int, _Entry]) -> list[Diagnostic]:
    """Links between the two namings are normal; distinct files under the other naming are not."""

    def identity(entry: _Entry) -> tuple[int, int] | None:
        if isinstance(entry, Screenshot):  # not fetched yet: a store has no links
            return None
        try:
            st = entry.stat()  # follows symlinks, so a link and its target compare equal
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    known = {identity(e) for e in primary.values()}
    distinct = sorted(e.name for e in other.values() if identity(e) not in known)
    if not distinct:
        return []
    return [
        Diagnostic(
            file=distinct[0],
            message=f"both screenshot namings are present; using screenshotN.png and ignoring "
            f"{_names(distinct)}",
        )
    ]


def _check_listed(
    root: Path,
    listed: Sequence[object],
    answer_file: str | None,
    frame_names: set[str],
    diagnostics: list[Diagnostic],
    remote: Mapping[str, tuple[int, int]],
) -> list[Screenshot]:
    outside: list[str] = []
    missing: list[str] = []
    not_png: list[str] = []
    usable: list[Screenshot] = []
    for item in listed:
        entry = str(item)
        if entry in frame_names:  # already checked as a frame; the common case, kept cheap
            continue
        target = resolve_inside(root, entry)
        if target is None:
            outside.append(entry)
            continue
        name = target.relative_to(root).as_posix()
        if name in frame_names:
            continue
        if not _is_file(target):
            size = remote.get(name) or _unfetched_size(target)
            if size is None:
                missing.append(entry)
            else:
                usable.append(_listed(name, size))
            continue
        size = png_size(target)
        if size is None:
            not_png.append(entry)
            continue
        usable.append(Screenshot(name=name, number=None, width=size[0], height=size[1]))
    file = answer_file or "screenshots"
    for names, message in (
        (outside, "lead outside the trajectory folder; not opened"),
        (missing, "do not exist"),
        (not_png, "are not PNG images"),
    ):
        if names:
            diagnostics.append(Diagnostic(file=file, message=f"listed screenshots {_names(names)} {message}"))
    return usable


def _unfetched_size(path: Path) -> tuple[int, int] | None:
    """The PNG size a registered source lists for an image in a folder below the trajectory's
    (Harbor's agent/images/, Online-Mind2Web's trajectory/); None when it lists none there.
    """
    return _image_source.listed(path.parent).get(path.name) if _image_source is not None else None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        return False


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(name if len(name) <= 100 else f"{name[:97]}..." for name in names[:_EXAMPLES])
    return shown + (f" and {len(names) - _EXAMPLES} more" if len(names) > _EXAMPLES else "")
