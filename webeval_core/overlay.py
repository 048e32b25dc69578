"""Screenshots with the step's action drawn on them, and filmstrip thumbnails (Pillow only).

Every function takes a file path and plain values and returns image bytes (PNG unless asked for
JPEG), so a caller can cache the result by (path, arguments). Points are in the screenshot's own PNG pixels (the trajectory
loader has already scaled model coordinates). Paths are opened as given: callers check that
they lie inside the browsed root first.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from webeval_core.diagnostics import UnreadableError

MARK_COLOR = (230, 30, 60)
HALO_COLOR = (255, 255, 255)
LABEL_BACKGROUND = (20, 20, 20)
LABEL_TEXT = (255, 255, 255)
_LABEL_MAX_CHARS = 80
# PNG zlib level 1 encodes a 1440x900 frame ~5x faster than the default for a little more size.
# JPEG is still ~5x faster than that (PNG filtering dominates), which is why a viewer stepping
# through frames under a time budget may ask for it.
_PNG_LEVEL = 1
_JPEG_QUALITY = 90
ImageFormat = Literal["PNG", "JPEG"]


def _open_rgb(path: Path) -> Image.Image:
    """Decode `path` to RGB, turning every way a file can be broken into one readable reason."""
    try:
        with Image.open(path) as image:
            image.load()
            return image.convert("RGB")
    except FileNotFoundError as exc:
        raise UnreadableError(path, "screenshot file not found") from exc
    except Image.DecompressionBombError as exc:
        raise UnreadableError(path, "screenshot is too large to decode safely") from exc
    except (OSError, ValueError, SyntaxError) as exc:
        raise UnreadableError(path, f"screenshot is not a readable image ({exc})") from exc


def _encode(image: Image.Image, fmt: ImageFormat = "PNG") -> bytes:
    buffer = io.BytesIO()
    if fmt == "JPEG":
        image.save(buffer, format="JPEG", quality=_JPEG_QUALITY)
    else:
        image.save(buffer, format="PNG", compress_level=_PNG_LEVEL)
    return buffer.getvalue()


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LABEL_MAX_CHARS else text[: _LABEL_MAX_CHARS - 3] + "..."


def action_label(action: str, typed_text: str | None = None, scroll: str | None = None) -> str | None:
    """The words drawn beside the mark: what was typed or which way the page scrolled."""
    if typed_text is not None:
        return _shorten(f"type: {typed_text!r}")
    if scroll:
        return f"scroll {scroll}"
    return None


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


def _draw_label(
    draw: ImageDraw.ImageDraw, text: str, anchor: tuple[float, float] | None, size: tuple[int, int]
) -> None:
    """Text in a dark box beside the mark (or top-left without one), kept inside the image."""
    width, height = size
    font = _font(max(12, height // 45))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    pad = 6
    box_w, box_h = right - left + 2 * pad, bottom - top + 2 * pad
    x0: float = pad
    y0: float = pad
    if anchor is not None:
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
    point: tuple[float, float] | None = None,
    label: str | None = None,
    scroll: str | None = None,
    fmt: ImageFormat = "PNG",
) -> bytes:
    """The screenshot at `path` with the action drawn on it, as PNG (or JPEG) bytes.

    `point` is drawn as a ring with a crosshair; `scroll` ("up"/"down") adds an arrow from the
    point (or from the image centre when the scroll had no point); `label` is boxed beside it.
    Points outside the image are clamped to its edge so the user still sees where it aimed.
    """
    image = _open_rgb(Path(path))
    draw = ImageDraw.Draw(image)
    w, h = image.size
    radius = max(8, min(w, h) // 45)
    anchor: tuple[float, float] | None = None
    if point is not None:
        anchor = (min(max(point[0], 0), w - 1), min(max(point[1], 0), h - 1))
        _draw_mark(draw, *anchor, radius)
    if scroll:
        origin = anchor or (w / 2, h / 2)
        _draw_scroll_arrow(draw, *origin, scroll, radius)
        anchor = origin
    if label:
        _draw_label(draw, label, anchor, (w, h))
    return _encode(image, fmt)


def thumbnail(path: Path, width: int = 192, point: tuple[float, float] | None = None) -> bytes:
    """A small PNG of the screenshot `width` pixels wide, with a dot where the action aimed."""
    image = _open_rgb(Path(path))
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
