"""Screenshots with the step's action drawn on them, and filmstrip thumbnails (Pillow only).

`render_overlay` and `thumbnail` take a file path and plain values and return image bytes (PNG
unless asked for JPEG); `page_frame` is a frame as small as an exported page can show it.
`frame_image`, `thumbnails` and the `prefetch_*` functions memoize them per process and render on
worker threads, for a viewer that steps through frames. A file whose declared size is above
`MAX_DECODED_PIXELS` is never decoded: a placeholder frame saying so is drawn in its place (a 20 KB
PNG can declare 170 megapixels, 500 MB once decoded). Points are in the screenshot's own PNG
pixels (the trajectory loader has already scaled model coordinates). Paths are opened as given:
callers check that they lie inside the browsed root.
"""

from __future__ import annotations

import contextlib
import io
import os
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from webeval_core.reading.screenshots import ensure_local, frame_bytes, frame_file
from webeval_core.support.diagnostics import UnreadableError

MARK_COLOR = (230, 30, 60)
HALO_COLOR = (255, 255, 255)
LABEL_BACKGROUND = (20, 20, 20)
LABEL_TEXT = (255, 255, 255)
# PNG zlib level 1 encodes a 1440x900 frame ~5x faster than the default for a little more size.
# JPEG is still ~5x faster than that (PNG filtering dominates), which is why a viewer stepping
# through frames under a time budget may ask for it.
_PNG_LEVEL = 1
_JPEG_QUALITY = 90
# An exported page's frames are shown at their own size, where q80 keeps a page's text legible.
_PAGE_JPEG_QUALITY = 80
# A palette screenshot of at most this many colours (a drawn page) keeps its palette, with room
# for the marks' colours.
_FLAT_COLOURS = 240
ImageFormat = Literal["PNG", "JPEG"]
# (x, y) in a screenshot's own PNG pixels: the plain-value form of `reading.coordinates.Point`.
PixelXY = tuple[float, float]
# Above this many declared pixels a screenshot is not decoded (RGB costs 3 bytes a pixel, and
# more while converting): 50 megapixels is 35 times a 1440x900 frame, far beyond any real one.
MAX_DECODED_PIXELS = 50_000_000
# Files above this size are not read at all: real screenshots are well under 10 MB.
MAX_IMAGE_BYTES = 64 * 1024 * 1024
PLACEHOLDER_SIZE = (960, 600)
PLACEHOLDER_BACKGROUND = (238, 238, 242)
# Pillow warns at open above 89 megapixels; our cap is lower and says so in the frame itself.
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)


class _TooLargeError(Exception):
    """A screenshot declaring more pixels than the cap: drawn as a placeholder, never decoded."""


def _open_rgb(path: Path) -> Image.Image:
    """Decode `path` to RGB (`_decode`)."""
    return _decode(path).convert("RGB")


def _decode(path: Path) -> Image.Image:
    """Decode `path` in its own mode, turning every way a file can be broken into one readable reason.

    The declared size is checked before decoding (`Image.open` only reads the header);
    above the cap this raises `_TooLargeError` with the message its placeholder shows.
    """
    try:
        data = frame_bytes(path, MAX_IMAGE_BYTES + 1)  # an image kept in a step file: taken out of it
        if len(data) > MAX_IMAGE_BYTES:
            raise UnreadableError(path, f"screenshot is larger than {MAX_IMAGE_BYTES // 2**20} MB; not read")
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_DECODED_PIXELS:
                raise _TooLargeError(
                    f"{path.name} declares {width} x {height} pixels ({width * height / 1e6:.0f} megapixels),"
                    f" above the {MAX_DECODED_PIXELS // 1_000_000}-megapixel cap: not decoded"
                )
            image.load()
            return image
    except FileNotFoundError as exc:
        raise UnreadableError(path, "screenshot file not found") from exc
    except Image.DecompressionBombError as exc:
        raise UnreadableError(path, "screenshot is too large to decode safely") from exc
    except (OSError, ValueError, SyntaxError) as exc:
        raise UnreadableError(path, f"screenshot is not a readable image ({exc})") from exc


def placeholder(message: str, size: tuple[int, int] = PLACEHOLDER_SIZE) -> Image.Image:
    """A plain frame with `message` written across it, shown where a screenshot is not decoded."""
    image = Image.new("RGB", size, PLACEHOLDER_BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size[0] - 1, size[1] - 1), outline=MARK_COLOR, width=max(1, size[0] // 240))
    font_size = max(9, size[0] // 40)
    # About 0.55 em per character of the default font: the lines fill 90% of the width.
    lines = _wrap(message, max(12, int(size[0] * 0.9 / (font_size * 0.55))))
    draw.multiline_text(
        (size[0] // 20, size[1] // 3), "\n".join(lines), font=_font(font_size), fill=(60, 60, 60)
    )
    return image


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines


def _encode(image: Image.Image, fmt: ImageFormat = "PNG") -> bytes:
    buffer = io.BytesIO()
    if fmt == "JPEG":
        image.save(buffer, format="JPEG", quality=_JPEG_QUALITY)
    else:
        image.save(buffer, format="PNG", compress_level=_PNG_LEVEL)
    return buffer.getvalue()


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _draw_mark(draw: ImageDraw.ImageDraw, x: float, y: float, radius: int) -> None:
    """A ring with a crosshair through it; the white halo keeps it visible on red or dark pages."""
    width = max(2, radius // 6)
    for color, extra in ((HALO_COLOR, width), (MARK_COLOR, 0)):
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=color, width=width + extra)
        arm = radius * 1.6
        draw.line((x - arm, y, x - radius / 3, y), fill=color, width=width + extra)
        draw.line((x + radius / 3, y, x + arm, y), fill=color, width=width + extra)
        draw.line((x, y - arm, x, y - radius / 3), fill=color, width=width + extra)
        draw.line((x, y + radius / 3, x, y + arm), fill=color, width=width + extra)
    draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=MARK_COLOR)


def _draw_scroll_arrow(draw: ImageDraw.ImageDraw, x: float, y: float, direction: str, size: int) -> None:
    sign = -1 if direction.startswith("up") else 1
    tip = y + sign * size * 3
    draw.line((x, y + sign * size, x, tip), fill=MARK_COLOR, width=max(3, size // 4))
    draw.polygon(
        [(x - size * 0.7, tip - sign * size), (x + size * 0.7, tip - sign * size), (x, tip)], fill=MARK_COLOR
    )


def _draw_label(draw: ImageDraw.ImageDraw, text: str, anchor: PixelXY, size: tuple[int, int]) -> None:
    """Text in a dark box beside the mark, kept inside the image."""
    width, height = size
    font = _font(max(12, height // 45))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    pad = 6
    box_w, box_h = right - left + 2 * pad, bottom - top + 2 * pad
    x0, y0 = anchor[0] + 24, anchor[1] + 24
    if x0 + box_w > width:
        x0 = anchor[0] - 24 - box_w
    if y0 + box_h > height:
        y0 = anchor[1] - 24 - box_h
    x0 = min(max(0, x0), max(0, width - box_w))
    y0 = min(max(0, y0), max(0, height - box_h))
    draw.rectangle((x0, y0, x0 + box_w, y0 + box_h), fill=LABEL_BACKGROUND, outline=MARK_COLOR, width=2)
    draw.text((x0 + pad - left, y0 + pad - top), text, font=font, fill=LABEL_TEXT)


def render_overlay(
    path: Path,
    point: PixelXY | None = None,
    label: str | None = None,
    scroll: str | None = None,
    fmt: ImageFormat = "PNG",
) -> bytes:
    """The screenshot at `path` with the action drawn on it, as PNG (or JPEG) bytes.

    `point` is drawn as a ring with a crosshair; `scroll` ("up"/"down") adds an arrow from the
    point (or from the image centre when the scroll had no point); `label` is boxed beside it.
    Points outside the image are clamped to its edge so the user still sees where it aimed.
    A screenshot above the pixel cap gives a placeholder frame saying so, without the marks.
    """
    try:
        image = _open_rgb(Path(path))
    except _TooLargeError as exc:
        return _encode(placeholder(str(exc)), fmt)
    _mark(image, point, label, scroll)
    return _encode(image, fmt)


def page_frame(
    path: Path, width: int, point: PixelXY | None = None, label: str | None = None, scroll: str | None = None
) -> tuple[bytes, str]:
    """The marked screenshot (`render_overlay`) as small as an exported page can show it, and its
    MIME type.

    A screenshot stored with a palette of room to spare (a drawn page) is marked in that palette
    and stays a PNG at its own size: several times smaller than a JPEG, and no colour conversion.
    Any other is scaled down to at most `width` pixels (the marks and label with it), as a JPEG.
    """
    try:
        image = _decode(Path(path))
    except _TooLargeError as exc:
        image = placeholder(str(exc))
        point = label = scroll = None
    flat = image.mode == "P" and len(image.getpalette() or ()) <= 3 * _FLAT_COLOURS
    if not flat:
        image = image.convert("RGB")
    _mark(image, point, label, scroll)
    buffer = io.BytesIO()
    if flat:
        image.save(buffer, format="PNG")
        return buffer.getvalue(), "image/png"
    if image.width > width:
        height = max(1, round(image.height * width / image.width))
        image = image.resize((width, height), Image.Resampling.BILINEAR)
    image.save(buffer, format="JPEG", quality=_PAGE_JPEG_QUALITY)
    return buffer.getvalue(), "image/jpeg"


def zoom_view(
    path: Path,
    point: PixelXY | None = None,
    label: str | None = None,
    scroll: str | None = None,
    zoom: float = 2.0,
    marked: bool = True,
) -> bytes:
    """The marked screenshot's region around the action, `zoom` times larger, as JPEG bytes.

    The region is the frame's size divided by `zoom`, centred on where the action aimed (the
    frame's centre when it aimed nowhere) and kept inside the frame; it is enlarged back to the
    frame's size, so small text reads at any width the page gives it. `marked=False` leaves the
    action undrawn (the page after it, zoomed on the same place).
    """
    try:
        image = _open_rgb(Path(path))
    except _TooLargeError as exc:
        return _encode(placeholder(str(exc)), "JPEG")
    w, h = image.size
    anchor = _mark(image, point, label, scroll) if marked else _clamped(point, w, h)
    crop_w, crop_h = max(1, round(w / zoom)), max(1, round(h / zoom))
    cx, cy = anchor or (w / 2, h / 2)
    left = int(min(max(0, cx - crop_w / 2), w - crop_w))
    top = int(min(max(0, cy - crop_h / 2), h - crop_h))
    region = image.crop((left, top, left + crop_w, top + crop_h))
    return _encode(region.resize((w, h), Image.Resampling.LANCZOS), "JPEG")


def _clamped(point: PixelXY | None, w: int, h: int) -> PixelXY | None:
    return None if point is None else (min(max(point[0], 0), w - 1), min(max(point[1], 0), h - 1))


def _mark(image: Image.Image, point: PixelXY | None, label: str | None, scroll: str | None) -> PixelXY | None:
    """Draw the action on `image` (see render_overlay); returns where it aimed, clamped to the image."""
    draw = ImageDraw.Draw(image)
    w, h = image.size
    radius = max(8, min(w, h) // 45)
    anchor = _clamped(point, w, h)
    if anchor is not None:
        _draw_mark(draw, *anchor, radius)
    aimed = anchor
    if scroll:
        origin = anchor or (w / 2, h / 2)
        _draw_scroll_arrow(draw, *origin, scroll, radius)
        anchor = origin
    if label and anchor is not None:  # an action aimed nowhere (typing, a key): the page names it,
        _draw_label(draw, label, anchor, (w, h))  # a box at the corner would only hide the page
    return aimed


def thumbnail(path: Path, width: int = 192, point: PixelXY | None = None) -> bytes:
    """A small PNG of the screenshot `width` pixels wide, with a dot where the action aimed."""
    try:
        image = _open_rgb(Path(path))
    except _TooLargeError:
        return _encode(placeholder("too large to decode", (width, max(1, width * 5 // 8))))
    full_w, full_h = image.size
    height = max(1, round(full_h * width / full_w))
    # reduce() first: integer box-downsampling is much cheaper than resampling the full frame.
    factor = max(1, full_w // (width * 2))
    small = image.reduce(factor) if factor > 1 else image
    small = small.resize((width, height), Image.Resampling.BILINEAR)
    if point is not None:
        x, y = point[0] * width / full_w, point[1] * height / full_h
        r = max(3, width // 40)
        ImageDraw.Draw(small).ellipse((x - r, y - r, x + r, y + r), fill=MARK_COLOR, outline=HALO_COLOR)
    return _encode(small)


# --- memoized rendering shared by every viewer session of the process -----------------------
#
# A viewer stepping through a trajectory wants the next frame drawn before the user asks for it
# and a row of thumbnails without decoding them one after the other. Frames and thumbnails are
# rendered on a few worker threads (Pillow releases the GIL while it decodes and encodes) into
# small LRU memos keyed by the file's identity (path, mtime, size), so an edited file is never
# served from an older rendering.

MemoKey = tuple[Hashable, ...]


class _Memo:
    """A thread-safe LRU of rendered images."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[MemoKey, bytes] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: MemoKey) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: MemoKey, value: bytes) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


_frames = _Memo(128)  # a 1440x900 JPEG is ~100-150 KB
_thumbnails = _Memo(4096)  # ~10 KB each
_workers = ThreadPoolExecutor(max_workers=min(4, max(2, os.cpu_count() or 1)), thread_name_prefix="overlay")
_inflight: dict[MemoKey, Future[bytes]] = {}
_inflight_lock = threading.Lock()


def _identity(path: Path) -> tuple[str, int, int]:
    holder = frame_file(path)  # the step file an embedded image is kept in changes with it
    try:
        ensure_local(holder)  # a mirrored remote root fetches its screenshots when first shown
    except OSError as exc:  # the store did not answer: its message names the URL
        raise UnreadableError(path, str(exc)) from exc
    try:
        stat = holder.stat()
    except OSError as exc:
        raise UnreadableError(path, "screenshot file not found") from exc
    return str(path), stat.st_mtime_ns, stat.st_size


def _fill(memo: _Memo, key: MemoKey, make: Callable[[], bytes]) -> bytes:
    try:
        value = make()
        memo.put(key, value)
        return value
    finally:
        with _inflight_lock:
            _inflight.pop(key, None)


def _start(memo: _Memo, key: MemoKey, make: Callable[[], bytes]) -> bytes | Future[bytes]:
    """The memoized value, else the rendering under way, else one started on the workers."""
    value = memo.get(key)
    if value is not None:
        return value
    with _inflight_lock:
        future = _inflight.get(key)
        if future is None:
            future = _inflight[key] = _workers.submit(_fill, memo, key, make)
    return future


def _frame_job(
    path: Path, point: PixelXY | None, label: str | None, scroll: str | None, fmt: ImageFormat
) -> tuple[_Memo, MemoKey, Callable[[], bytes]]:
    key = (*_identity(path), point, label, scroll, fmt)
    return _frames, key, partial(render_overlay, path, point, label, scroll, fmt)


def _thumbnail_job(
    path: Path, width: int, point: PixelXY | None
) -> tuple[_Memo, MemoKey, Callable[[], bytes]]:
    return _thumbnails, (*_identity(path), width, point), partial(thumbnail, path, width, point)


def frame_image(
    path: Path,
    point: PixelXY | None = None,
    label: str | None = None,
    scroll: str | None = None,
    fmt: ImageFormat = "JPEG",
) -> bytes:
    """`render_overlay`, memoized; waits for a `prefetch_frame` of the same frame under way."""
    memo, key, make = _frame_job(Path(path), point, label, scroll, fmt)
    value = memo.get(key)
    if value is not None:
        return value
    with _inflight_lock:
        future = _inflight.get(key)
    # Rendered here rather than queued: the workers may be busy with thumbnails.
    return future.result() if future is not None else _fill(memo, key, make)


def prefetch_frame(
    path: Path,
    point: PixelXY | None = None,
    label: str | None = None,
    scroll: str | None = None,
    fmt: ImageFormat = "JPEG",
) -> Future[bytes] | None:
    """Start rendering `frame_image(...)` on the workers; None when it is memoized already."""
    started = _start(*_frame_job(Path(path), point, label, scroll, fmt))
    return started if isinstance(started, Future) else None


def thumbnails(
    frames: Sequence[tuple[Path, PixelXY | None]], width: int = 192
) -> list[bytes | UnreadableError]:
    """Memoized `thumbnail`s of several frames (path, point), the missing ones rendered in
    parallel; a frame that cannot be read gives its error instead of bytes.
    """
    started: list[bytes | Future[bytes] | UnreadableError] = []
    for path, point in frames:
        try:
            started.append(_start(*_thumbnail_job(Path(path), width, point)))
        except UnreadableError as exc:
            started.append(exc)
    results: list[bytes | UnreadableError] = []
    for item in started:
        if isinstance(item, Future):
            try:
                results.append(item.result())
            except UnreadableError as exc:
                results.append(exc)
        else:
            results.append(item)
    return results


def prefetch_thumbnail(path: Path, width: int = 192, point: PixelXY | None = None) -> None:
    """Start rendering `thumbnails([(path, point)], width)` on the workers (errors show later)."""
    with contextlib.suppress(UnreadableError):
        _start(*_thumbnail_job(Path(path), width, point))
