"""A remote root as a local mirror: every reader, the index and the app then work on a local path.

`open_root(url)` lists the store (one recursive listing with sizes and versions), fetches the small
files every reader needs (logs, JSON, core.log, scores, HAR) into
`~/.cache/webeval/remote/<hash of URL>/<name>/`, and records the listing in the mirror's manifest.
An object whose version did not change is not fetched again. Screenshots are not fetched then:
the manifest lists them, so the index counts them by name (`ImageSource.names`). A view that
opens a trajectory needs their sizes (`ImageSource.listed`): the PNG headers of that folder are
read then (24 bytes each, one ranged read for the folder) and kept in the manifest, and a frame is
fetched when a view reads it (and the next frame in the background). Fetched images are bounded
by `image_cache_bytes()`, the least recently read evicted first.

Nothing here writes to the store except `upload`, which the CLI calls only for `--write-remote`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.screenshots import png_header_size, set_image_source
from webeval_core.remote import manifest
from webeval_core.remote.manifest import RemoteObject
from webeval_core.remote.stores import (
    RemoteLocation,
    call_timeout,
    is_remote,
    mask_secrets,
    open_filesystem,
    parse_location,
)
from webeval_core.support.user_cache import cache_folder

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif")
"""Files fetched only when a view reads them; every other file is fetched when the root opens."""
DEFAULT_IMAGE_CACHE_BYTES = 2 * 1024**3
_BATCH_BYTES = 32 * 1024 * 1024  # fetched per concurrent batch: bounds memory, keeps requests in flight
_BATCH_FILES = 256
_HEAD = 24  # a PNG's signature and IHDR: enough for width and height
_NEXT_FRAME = re.compile(r"(screenshot_?)(\d+)(\.png)")


class RemoteUnavailableError(Exception):
    """A remote root that cannot be listed and has no earlier copy to fall back on."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason


class RemoteReadError(OSError):
    """One remote object that could not be fetched (its URL and why, credentials masked)."""


class OpenedRoot(BaseModel):
    """A root ready for the readers: a local folder, mirrored from a store when a URL was given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The local folder to read: the given folder, or the mirror of the URL."""
    url: str | None = None
    """The remote URL it mirrors; None for a local folder."""
    fetched: int = 0
    """Files fetched by this sync (new or changed since the last)."""
    unchanged: int = 0
    """Files whose local copy was already the listed version (not fetched)."""
    problems: tuple[str, ...] = ()
    """What went wrong, one sentence each naming the URL (credentials masked); the rest is usable."""


def open_root(root: str | os.PathLike[str]) -> OpenedRoot:
    """The local folder for `root`: a path as given, or a URL's mirror brought up to date.

    Raises:
        RemoteUnavailableError: when a URL's store cannot be listed and was never mirrored.
        ValueError: when `root` looks like a URL of a store this tool does not read.
    """
    text = os.fspath(root)
    if not is_remote(text):
        return OpenedRoot(path=Path(text).expanduser())
    return sync(parse_location(text))


def remote_cache_dir() -> Path:
    """Where mirrors live: `$WEBEVAL_REMOTE_CACHE`, else `$XDG_CACHE_HOME/webeval/remote` (~/.cache)."""
    explicit = os.environ.get("WEBEVAL_REMOTE_CACHE")
    if explicit:
        return Path(explicit)
    return cache_folder().path / "remote"


def image_cache_bytes() -> int:
    """The bound on a mirror's fetched images: `$WEBEVAL_REMOTE_IMAGE_CACHE_BYTES`, default 2 GB."""
    return int(os.environ.get("WEBEVAL_REMOTE_IMAGE_CACHE_BYTES") or DEFAULT_IMAGE_CACHE_BYTES)


def mirror_folder(location: RemoteLocation) -> Path:
    """The mirror of `location`: its manifest, and the local root named like the remote folder."""
    return remote_cache_dir() / hashlib.sha256(location.url.encode()).hexdigest()[:16]


def sync(location: RemoteLocation) -> OpenedRoot:
    """Bring the mirror of `location` up to date with one listing; the cached part stays usable.

    Raises:
        RemoteUnavailableError: when the store cannot be listed and there is no earlier copy.
    """
    mirror = mirror_folder(location)
    tree = mirror / location.name
    tree.mkdir(parents=True, exist_ok=True)
    set_image_source(MIRROR_IMAGES)
    with manifest.connect(mirror) as db:
        manifest.set_meta(db, "url", location.url)
        try:
            fs, base = _filesystem(location.url)
            listing = _list(fs, base)
        except Exception as exc:  # any store's failure (network, auth, missing bucket) ends here
            return _offline(location, tree, db, _reason(exc))
        problems: list[str] = []
        objects = _merge(tree, db, listing, problems, location.url)
        fetched, unchanged = _fetch_eager(fs, base, tree, objects, problems, location.url)
        manifest.save(db, objects.values())
        manifest.set_meta(db, "synced", time.strftime("%Y-%m-%d %H:%M:%S"))
    return OpenedRoot(
        path=tree, url=location.url, fetched=fetched, unchanged=unchanged, problems=tuple(problems)
    )


def _offline(location: RemoteLocation, tree: Path, db: sqlite3.Connection, reason: str) -> OpenedRoot:
    synced = manifest.get_meta(db, "synced")
    if synced is None:
        raise RemoteUnavailableError(location.url, f"cannot be listed ({reason})")
    problem = f"{location.url}: cannot be listed ({reason}); showing the copy synced at {synced}"
    return OpenedRoot(path=tree, url=location.url, problems=(problem,))


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return mask_secrets(f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__)


def _filesystem(url: str) -> tuple[Any, str]:
    # The URL was checked when the mirror was made; fsspec keeps one client per store and options.
    return open_filesystem(RemoteLocation(url=url, protocol=url.split("://", 1)[0].lower()))


def _call(fs: Any, method: str, *args: Any, patience: float = 1.0, **kwargs: Any) -> Any:
    """`fs.method(...)` given up on after `call_timeout() * patience` seconds (fsspec.FSTimeoutError).

    adlfs applies its own timeouts to uploads only: a store that stops answering would hold a
    listing or a read for minutes. Async filesystems take a deadline for the whole call.
    """
    if getattr(fs, "async_impl", False):
        kwargs["timeout"] = call_timeout() * patience
    return getattr(fs, method)(*args, **kwargs)


def _list(fs: Any, base: str) -> dict[str, tuple[int, str]]:
    """Every object under `base`: relative path -> (size, version)."""
    # A large store's listing is many pages: it gets ten times a single read's patience.
    found = _call(fs, "find", base, detail=True, patience=10)
    if not found and not _call(fs, "exists", base):
        raise FileNotFoundError("no such folder or bucket")
    prefix = base.rstrip("/") + "/"
    listing: dict[str, tuple[int, str]] = {}
    for key, info in found.items():
        if info.get("type", "file") != "file" or not key.startswith(prefix):
            continue
        listing[key[len(prefix) :]] = (int(info.get("size") or 0), _version(info))
    return listing


def _version(info: Mapping[str, Any]) -> str:
    """The store's own version of an object (etag, generation, modification time) and its size."""
    for key in ("etag", "ETag", "generation", "md5Hash", "mtime", "LastModified", "last_modified", "created"):
        if info.get(key) is not None:
            return f"{info[key]}:{info.get('size')}"
    return f"size:{info.get('size')}"


def _safe_relative(rel: str) -> bool:
    """Object names may hold `..` or empty parts; only plain relative paths are mirrored."""
    parts = rel.split("/")
    return all(part not in ("", ".", "..") for part in parts) and "\\" not in rel and "\x00" not in rel


def _is_image(rel: str) -> bool:
    return rel.lower().endswith(IMAGE_SUFFIXES)


def _merge(
    tree: Path,
    db: sqlite3.Connection,
    listing: Mapping[str, tuple[int, str]],
    problems: list[str],
    url: str,
) -> dict[str, RemoteObject]:
    """The new manifest rows: versions from the listing, local copies kept only where still current.

    Files the store no longer holds, or holds in another version, are removed from the mirror
    (only files that came from the store: local score files written beside them stay).
    """
    old = manifest.all_objects(db)
    gone = [rel for rel in old if rel not in listing]
    for rel in gone:
        _remove(tree / rel)
    manifest.forget(db, gone)
    objects: dict[str, RemoteObject] = {}
    unsafe = [rel for rel in listing if not _safe_relative(rel)]
    if unsafe:
        problems.append(f"{url}: {len(unsafe)} object names leave the folder (e.g. {unsafe[0]!r}); skipped")
    for rel, (size, tag) in listing.items():
        if not _safe_relative(rel):
            continue
        before = old.get(rel)
        if before is not None and before.tag == tag:
            objects[rel] = before
            continue
        if before is not None and before.local_tag is not None:
            _remove(tree / rel)  # the store holds another version now
        objects[rel] = RemoteObject(path=rel, size=size, tag=tag)
    return objects


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def _fetch_eager(
    fs: Any, base: str, tree: Path, objects: dict[str, RemoteObject], problems: list[str], url: str
) -> tuple[int, int]:
    """Fetch every non-image file whose local copy is missing or of another version."""
    wanted: list[RemoteObject] = []
    unchanged = 0
    for item in objects.values():
        if _is_image(item.path):
            # Its folder exists before it is fetched: a folder of images alone (Online-Mind2Web's
            # trajectory/) is what tells a reader the layout.
            (tree / item.path).parent.mkdir(parents=True, exist_ok=True)
            continue
        if item.is_current and (tree / item.path).is_file():
            unchanged += 1
        else:
            wanted.append(item)
    fetched = 0
    for batch in _batches(wanted):
        try:
            contents = _call(fs, "cat", [f"{base}/{o.path}" for o in batch], on_error="return")
        except Exception as exc:  # the whole batch timed out: said once, retried next refresh
            problems.append(f"{url}: {len(batch)} files (e.g. {batch[0].path}) not fetched ({_reason(exc)})")
            continue
        for item in batch:
            data = contents.get(f"{base}/{item.path}")
            result = _store(tree, item, data, url)
            if isinstance(result, str):
                problems.append(result)
                continue
            objects[item.path] = result
            fetched += 1
    return fetched, unchanged


def _batches(items: list[RemoteObject]) -> Iterable[list[RemoteObject]]:
    batch: list[RemoteObject] = []
    size = 0
    for item in items:
        if batch and (size + item.size > _BATCH_BYTES or len(batch) >= _BATCH_FILES):
            yield batch
            batch, size = [], 0
        batch.append(item)
        size += item.size
    if batch:
        yield batch


def _store(tree: Path, item: RemoteObject, data: object, url: str) -> RemoteObject | str:
    """Write one fetched object into the mirror: its new manifest row, or the problem."""
    where = f"{url}/{item.path}"
    if not isinstance(data, bytes):
        reason = _reason(data) if isinstance(data, BaseException) else "no content returned"
        return f"{where}: could not be fetched ({reason}); the earlier copy, if any, is kept"
    try:
        _write_atomic(tree / item.path, data)
    except OSError as exc:
        return f"{where}: could not be written to the mirror ({exc.strerror or exc})"
    if len(data) != item.size:  # changed between the listing and the read: fetched again next refresh
        return item.model_copy(update={"local_tag": None})
    return item.model_copy(update={"local_tag": item.tag})


def _write_atomic(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.part")
    try:
        temp.write_bytes(data)
        os.replace(temp, target)
    finally:
        _remove(temp)


# --- a few folders, for a cluster's worker -----------------------------------------------------


def fetch_folders(
    url: str, folders: Iterable[str], into: Path, *, ancestor_files: Iterable[str] = ()
) -> dict[str, str]:
    """Copy folders of the root `url` into the folder `into`, laid out as in the store.

    What a cluster's worker scores from: every file of each folder but its images, and the files
    named `ancestor_files` (URL configs) of the folders between the root and each one, where the
    store holds them. No mirror or manifest: the copy lives as long as the worker needs it.

    Returns:
        The folders that could not be copied (relative path -> why, credentials masked).
    """
    fs, base = _filesystem(url)
    prefix = base.rstrip("/") + "/"
    wanted: dict[str, str] = {}  # relative file -> its folder
    problems: dict[str, str] = {}
    optional: set[str] = set()
    for folder in folders:
        try:
            found = _call(fs, "find", f"{base}/{folder}")
        except Exception as exc:  # any store's failure: this folder is reported, the others go on
            problems[folder] = f"{url}/{folder}: cannot be listed ({_reason(exc)})"
            continue
        files = [key[len(prefix) :] for key in found if key.startswith(prefix)]
        wanted.update({rel: folder for rel in files if _safe_relative(rel) and not _is_image(rel)})
        parts = folder.split("/")
        optional.update(
            "/".join([*parts[:depth], name]) for depth in range(len(parts)) for name in ancestor_files
        )
    required = list(wanted)
    extra = sorted(optional - wanted.keys())
    for start in range(0, len(required) + len(extra), _BATCH_FILES):
        batch = (required + extra)[start : start + _BATCH_FILES]
        contents = _call(fs, "cat", [f"{base}/{rel}" for rel in batch], on_error="return")
        for rel in batch:
            data = contents.get(f"{base}/{rel}")
            if isinstance(data, bytes):
                _write_atomic(into / rel, data)
            elif rel in wanted:  # an ancestor's config the store does not hold is simply not there
                problems.setdefault(wanted[rel], f"{url}/{rel}: could not be fetched ({_reason(data)})")
    return problems


# --- screenshots on demand ------------------------------------------------------------------


class MirrorImages:
    """The `reading.screenshots.ImageSource` of every mirror: lists and fetches their screenshots."""

    def __init__(self) -> None:
        self._ahead = ThreadPoolExecutor(max_workers=2, thread_name_prefix="webeval-prefetch")

    def names(self, folder: Path) -> frozenset[str]:
        """The names of the PNG images the store holds directly in `folder` (nothing is read)."""
        return frozenset(o.name for o in _images_in(folder))

    def listed(self, folder: Path) -> dict[str, tuple[int, int]]:
        """The PNG screenshots the store holds directly in `folder` (a mirror folder), with sizes.

        Sizes not known yet are read from the store now, for the whole folder at once.

        Raises:
            RemoteReadError: when the store does not answer for headers not read before.
        """
        images = _images_in(folder)
        if any(o.width is None for o in images):
            images = _measure(folder, images)
        return {o.name: (o.width, o.height) for o in images if o.width and o.height}

    def ensure_local(self, path: Path) -> None:
        """Fetch `path` if a mirror lists it and it is missing; mark it read (for eviction) if present."""
        located = _locate(path)
        if located is None:
            return
        if os.path.isfile(path):
            with contextlib.suppress(OSError):
                os.utime(path, (time.time(), os.stat(path).st_mtime))
            return
        fetch_image(*located)
        following = _next_frame(located[2])
        if following is not None:
            self._ahead.submit(_prefetch, located[0], located[1], following, time.time())


MIRROR_IMAGES = MirrorImages()
"""The one image source a process registers (`reading.screenshots.set_image_source`)."""


def _images_in(folder: Path) -> list[RemoteObject]:
    located = _locate(folder)
    if located is None or not (located[0] / manifest.MANIFEST_NAME).is_file():
        return []
    with manifest.connect(located[0]) as db:
        return [o for o in manifest.objects_in(db, located[2]) if o.path.lower().endswith(".png")]


def _measure(folder: Path, images: list[RemoteObject]) -> list[RemoteObject]:
    """`images` with the sizes their PNG headers give (one ranged read each, in one call), saved
    in the manifest; an image whose header is not a PNG's is recorded as 0 x 0 (not a frame, and
    not read again), one the store did not return stays unmeasured (read again next time).
    """
    mirror, _, rel = _locate(folder) or (folder, folder, "")
    with manifest.connect(mirror) as db:
        url = manifest.get_meta(db, "url")
    pending = [o for o in images if o.width is None]
    if url is None:
        return images
    try:
        fs, base = _filesystem(url)
        paths = [f"{base}/{o.path}" for o in pending]
        heads = _call(fs, "cat_ranges", paths, [0] * len(paths), [_HEAD] * len(paths), on_error="return")
    except Exception as exc:
        raise RemoteReadError(f"{url}/{rel}: screenshot sizes could not be read ({_reason(exc)})") from None
    measured = {}
    for item, head in zip(pending, heads, strict=True):
        if isinstance(head, bytes):
            width, height = png_header_size(head) or (0, 0)
            measured[item.path] = item.model_copy(update={"width": width, "height": height})
    with manifest.connect(mirror) as db:
        manifest.save(db, measured.values())
    return [measured.get(o.path, o) for o in images]


def _locate(path: Path) -> tuple[Path, Path, str] | None:
    """(mirror folder, local root, path relative to the root) of a path inside a mirror, else None."""
    absolute = os.path.abspath(path)
    for cache_dir in {remote_cache_dir(), remote_cache_dir().resolve()}:
        try:
            parts = Path(absolute).relative_to(cache_dir).parts
        except ValueError:
            continue
        if len(parts) >= 2:
            mirror = cache_dir / parts[0]
            return mirror, mirror / parts[1], "/".join(parts[2:])
    return None


def _next_frame(rel: str) -> str | None:
    folder, _, name = rel.rpartition("/")
    match = _NEXT_FRAME.fullmatch(name)
    if match is None:
        return None
    following = f"{match.group(1)}{int(match.group(2)) + 1}{match.group(3)}"
    return f"{folder}/{following}" if folder else following


_LANDING = threading.Lock()
"""Held while a fetched image is stored, dated and the cache bounded (reader and prefetch threads)."""


def _prefetch(mirror: Path, tree: Path, rel: str, asked_at: float) -> None:
    if not (tree / rel).is_file():
        with contextlib.suppress(Exception):  # a prefetch is a guess; the real read reports errors
            fetch_image(mirror, tree, rel, read_at=asked_at)


def fetch_image(mirror: Path, tree: Path, rel: str, read_at: float | None = None) -> None:
    """Fetch one listed object of a mirror into it, then keep the mirror's images within the bound.

    `read_at`: when it counts as read for eviction (a prefetch: when the read that guessed it was
    made, so a guess that lands late never outlives a frame read after it); default now.

    Raises:
        RemoteReadError: when the store does not answer or no longer holds it (URL named).
    """
    with manifest.connect(mirror) as db:
        item = manifest.object_at(db, rel)
        url = manifest.get_meta(db, "url")
    if item is None or url is None:
        return
    try:
        fs, base = _filesystem(url)
        data = _call(fs, "cat_file", f"{base}/{rel}")
    except Exception as exc:
        raise RemoteReadError(f"{url}/{rel}: could not be fetched ({_reason(exc)})") from None
    # One image lands at a time: a prefetch's file, newest until its read time is set on it, must
    # never be what an eviction compares a frame just read against.
    with _LANDING:
        stored = _store(tree, item, data, url)
        if isinstance(stored, str):
            raise RemoteReadError(stored)
        # Dated by this clock always: a new file's own atime comes from the kernel's coarse clock,
        # which can lag time.time() by milliseconds, so a frame just fetched could look older
        # than a prefetch dated a moment before it, and be evicted before it is opened.
        with contextlib.suppress(OSError):
            os.utime(
                tree / rel, (read_at if read_at is not None else time.time(), os.stat(tree / rel).st_mtime)
            )
        with manifest.connect(mirror) as db:
            manifest.save(db, [stored])
            _evict(db, tree)


def _evict(db: sqlite3.Connection, tree: Path) -> None:
    """Remove the least recently read images until those fetched fit in `image_cache_bytes()`."""
    cap = image_cache_bytes()
    fetched = [o for o in manifest.all_objects(db).values() if o.local_tag is not None and _is_image(o.path)]
    total = sum(o.size for o in fetched)
    if total <= cap:
        return
    by_last_read = sorted(fetched, key=lambda o: _atime(tree / o.path))
    dropped: list[RemoteObject] = []
    for item in by_last_read:
        if total <= cap * 0.9:  # some room, so the next fetches do not evict one by one
            break
        _remove(tree / item.path)
        dropped.append(item.model_copy(update={"local_tag": None}))
        total -= item.size
    manifest.save(db, dropped)


def _atime(path: Path) -> float:
    try:
        return path.stat().st_atime
    except OSError:
        return 0.0


# --- writing back (only with --write-remote) ----------------------------------------------


def upload(opened: OpenedRoot, files: Iterable[Path]) -> list[str]:
    """Copy local files of a mirror (score files) to the store; the URLs written.

    Only the CLI's `score --write-remote` calls this: nothing else ever writes to a store.

    Raises:
        RemoteReadError: when a file cannot be written (its URL named, credentials masked).
    """
    if opened.url is None:
        return []
    fs, base = _filesystem(opened.url)
    written: list[str] = []
    rows: list[RemoteObject] = []
    for file in files:
        rel = Path(os.path.abspath(file)).relative_to(os.path.abspath(opened.path)).as_posix()
        target = f"{base}/{rel}"
        try:
            fs.put_file(str(file), target)
            tag = _version(fs.info(target))
        except Exception as exc:
            raise RemoteReadError(f"{opened.url}/{rel}: could not be written ({_reason(exc)})") from None
        rows.append(RemoteObject(path=rel, size=Path(file).stat().st_size, tag=tag, local_tag=tag))
        written.append(f"{opened.url}/{rel}")
    with manifest.connect(mirror_folder(parse_location(opened.url))) as db:
        manifest.save(db, rows)
    return written
