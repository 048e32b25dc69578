"""A live website of WebTailBench's kind: its heading, text, rows and form."""

from __future__ import annotations

from ..canvas import Painter
from ..sites import CHROME_H, SITES, VIEW_W


def paint(p: Painter) -> None:
    """A site of the live web (WebTailBench): bar, search box, heading, form, text, table, buttons."""
    v, site, y0 = p.view, SITES[p.view.site], CHROME_H
    p.rect((0, y0, VIEW_W, y0 + 60), fill=site["color"])
    p.link((40, y0 + 16), site["name"], 24, "#ffffff")
    p.field((760, y0 + 13), 600, site["search"], v.query)
    y = p.banner((40, y0 + 80, 1400, y0 + 120), 20, "#e6f4ea", "#1e6b34")
    y = p.heading((40, y + 20), 28, 1340, "#202124", 56)
    p.generic(p.form((20, y), v.fields) + 16 if v.fields else y)
