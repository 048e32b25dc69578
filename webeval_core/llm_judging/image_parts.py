"""A screenshot as a Chat Completions image part: a base64 JPEG data URL (Pillow).

Images are encoded when a request is sent, one request's at a time, so a run holds only the
screenshots of the requests in flight, never a trajectory's or a run's all at once.
"""

from __future__ import annotations

import base64
import io
from functools import lru_cache
from pathlib import Path
from typing import Any

from webeval_core.reading.screenshots import read_image_bytes

_RECENT = 64  # encoded screenshots kept (about 6 MB): WebJudge sends each twice, near in time


def jpeg_data_url(path: Path, folder: Path, quality: int, identity: tuple[int, int] = (0, 0)) -> str:
    """The screenshot at `path` (inside `folder`) as a `data:image/jpeg;base64,...` URL; the last
    few encoded are reused while their `identity` (size, modification time) is the same.

    Raises:
        OSError: when it cannot be read or decoded (Pillow's errors are OSErrors).
    """
    return _encoded(path, folder, quality, identity)


@lru_cache(maxsize=_RECENT)
def _encoded(path: Path, folder: Path, quality: int, _identity: tuple[int, int]) -> str:
    from PIL import Image

    raw = read_image_bytes(path, folder)
    with Image.open(io.BytesIO(raw)) as image:
        # JPEG has no palette or alpha: a palette PNG (the sample screenshots) is converted first.
        converted = image if image.mode == "RGB" else image.convert("RGB")
        out = io.BytesIO()
        converted.save(out, format="JPEG", quality=quality)
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def image_part(url: str, detail: str) -> dict[str, Any]:
    """The message part carrying one image."""
    return {"type": "image_url", "image_url": {"url": url, "detail": detail}}


def estimated_image_tokens(size: tuple[int, int] | None, detail: str) -> int:
    """OpenAI's published count for one image: 85 at low detail; at high, 85 + 170 per 512-pixel
    tile once the image fits 2048 x 2048 and its short side is 768 (an estimate for other models).
    """
    if detail == "low" or size is None:
        return 85 if detail == "low" else 765
    scale = min(1.0, 2048 / max(size))
    scale *= min(1.0, 768 / (min(size) * scale))
    width, height = int(size[0] * scale), int(size[1] * scale)
    tiles = -(-width // 512) * -(-height // 512)
    return 85 + 170 * tiles
