"""Screenshots: a frame drawn as its site's page (one module per site in `sites_drawn/`, registered
in `SITE_PAGES`) inside the browser window of `canvas`.

`layout` says where the clickable texts of a frame land (what actions aim at), `png` draws it, and
`render_all` draws every distinct frame, in worker processes when asked.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor

from .canvas import Box, Frame, Painter
from .sites_drawn import gitlab, live, openstreetmap, reddit, shopping, shopping_admin, wikipedia

__all__ = ["Box", "Frame", "layout", "png", "render_all"]

SITE_PAGES: dict[str, Callable[[Painter], None]] = {
    "shopping": shopping.paint,
    "shopping_admin": shopping_admin.paint,
    "reddit": reddit.paint,
    "gitlab": gitlab.paint,
    "wikipedia": wikipedia.paint,
    "map": openstreetmap.paint,
}
"""Each site's page drawer; a site not listed (a live website) is drawn as `live.paint` draws it."""


def paint(frame: Frame, *, layout_only: bool = False) -> Painter:
    """The frame drawn: the window, its site's page, then what lies over it."""
    painter = Painter(frame, layout_only=layout_only)
    painter.chrome()
    SITE_PAGES.get(frame.view.site, live.paint)(painter)
    painter.finish()
    return painter


@functools.cache
def layout(frame: Frame) -> dict[str, Box]:
    """Where the clickable texts of a frame are (cached; the same code path as the real drawing)."""
    return paint(frame, layout_only=True).targets


def png(frame: Frame) -> bytes:
    """The screenshot of a frame as a palette PNG (a pure function of the frame, so it can run anywhere)."""
    painter = paint(frame)
    buf = io.BytesIO()
    painter.img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def render_all(frames: Iterable[Frame], jobs: int) -> dict[Frame, bytes]:
    """Encode every distinct frame once; identical frames give identical bytes (duplicate screenshots)."""
    unique = list(dict.fromkeys(frames))
    if jobs <= 1:
        return {f: png(f) for f in unique}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return dict(zip(unique, pool.map(png, unique, chunksize=8), strict=True))
