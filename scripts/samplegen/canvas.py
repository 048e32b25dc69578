"""The drawing primitives of a screenshot: a browser window drawn with Pillow (text, links,
buttons, fields, tables, the window's chrome, menus, dialogs, set-of-marks), shared by every site's
page (`sites_drawn/`), each of which records where its clickable texts land.
"""

from __future__ import annotations

import functools
import random
import textwrap
import unicodedata
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .sites import CHROME_H, FILLER, SITES, VIEW_H, VIEW_W, render_url
from .web import Rows, View

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box = tuple[int, int, int, int]


@functools.cache
def font(size: int) -> Font:
    return ImageFont.load_default(size=size)


@dataclass(frozen=True)
class Frame:
    """What one screenshot shows: a view, how far it is scrolled, what was typed into it."""

    view: View
    scroll: int = 0
    filled: tuple[tuple[str, str], ...] = ()
    marks: bool = False  # draw set-of-marks ids (the solver's screenshots)


def drawable(s: str) -> str:
    """Text the bundled font can draw: Pillow's default font has no accents, dashes or symbols."""
    s = s.translate({0x2014: "-", 0x2013: "-", 0x2605: "*", 0x2192: "->"})
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


class Painter:
    """Draws one frame into a palette image and records where every clickable text landed."""

    def __init__(self, frame: Frame, *, layout_only: bool = False) -> None:
        self.frame = frame
        self.view = frame.view
        self.layout_only = layout_only  # skip glyph rasterization: only where things are is wanted
        self.img = Image.new("P", (VIEW_W, VIEW_H))
        self.draw = ImageDraw.Draw(self.img)
        self.draw.fontmode = "1"  # crisp text keeps the palette small and the PNGs compressible
        self.targets: dict[str, Box] = {}
        self.filled = dict(frame.filled)
        self.rng = random.Random(f"filler:{self.view.url}:{self.view.kind}")
        self.pools: dict[str, list[str]] = {}

    # -- primitives -------------------------------------------------------------------------

    def rect(self, box: Box, fill: str | None = None, outline: str | None = None, radius: int = 0) -> None:
        if radius:
            self.draw.rounded_rectangle(box, radius, fill=fill, outline=outline)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline)

    def text(
        self, xy: tuple[int, int], s: str, size: int = 14, fill: str = "#333333", width: int = 0
    ) -> tuple[int, int]:
        """Draw one line (cut with an ellipsis to `width`); return its right and bottom edge."""
        f = font(size)
        s = drawable(s)
        if width and self.draw.textlength(s, font=f) > width:
            while s and self.draw.textlength(s + "…", font=f) > width:
                s = s[:-1]
            s += "…"
        if not self.layout_only:
            self.draw.text(xy, s, font=f, fill=fill)
        return xy[0] + int(self.draw.textlength(s, font=f)), xy[1] + size + 2

    def para(
        self, xy: tuple[int, int], s: str, size: int, width: int, fill: str = "#202122", gap: int = 6
    ) -> int:
        """Word-wrapped paragraph; returns the y below it."""
        x, y = xy
        chars = max(10, int(width / (size * 0.52)))
        for line in textwrap.wrap(s, chars):
            self.text((x, y), line, size, fill)
            y += size + gap
        return y

    def target(self, label: str, box: Box) -> None:
        self.targets.setdefault(label, box)

    def link(self, xy: tuple[int, int], s: str, size: int = 14, fill: str = "#1979c3", width: int = 0) -> Box:
        right, bottom = self.text(xy, s, size, fill, width)
        box = (xy[0], xy[1], right, bottom)
        self.target(s, box)
        return box

    def button(
        self, xy: tuple[int, int], label: str, bg: str = "#1979c3", fg: str = "#ffffff", size: int = 14
    ) -> Box:
        w = int(self.draw.textlength(label, font=font(size))) + 28
        box = (xy[0], xy[1], xy[0] + w, xy[1] + size + 18)
        self.rect(box, fill=bg, radius=3)
        self.text((xy[0] + 14, xy[1] + 8), label, size, fg)
        self.target(label, box)
        return box

    def field(self, xy: tuple[int, int], w: int, label: str, value: str = "", h: int = 34) -> Box:
        """An input box registered under `label`; shows typed text (or the view's value)."""
        value = self.filled.get(label, value)
        box = (xy[0], xy[1], xy[0] + w, xy[1] + h)
        self.rect(box, fill="#ffffff", outline="#adadad")
        if value:
            lines = value.split("\n")
            for i, line in enumerate(lines[: max(1, (h - 8) // 18)]):
                self.text((xy[0] + 8, xy[1] + 8 + i * 18), line, 14, "#303030", w - 16)
        self.target(label, box)
        return box

    def links(self, xy: tuple[int, int], labels: Iterable[str], size: int, fill: str, gap: int) -> int:
        """A row of links; returns the x after the last."""
        x, y = xy
        for label in labels:
            x = self.link((x, y), label, size, fill)[2] + gap
        return x

    def buttons(self, xy: tuple[int, int], labels: Iterable[str], bg: str = "#1979c3", *style: Any) -> None:
        """A row of buttons, 12 px apart (`style`: the foreground colour and size of `button`)."""
        x, y = xy
        for label in labels:
            x = self.button((x, y), label, bg, *style)[2] + 12

    def right_buttons(self, right: int, y: int, labels: Sequence[str], primary: Container[str]) -> None:
        """Buttons right-aligned at `right`, the primary ones orange (Magento admin)."""
        for label in reversed(labels):
            right -= int(self.draw.textlength(label, font=font(14))) + 38
            if label in primary:
                self.button((right, y), label, "#eb5202", "#ffffff")
            elif label != "Submit Comment":  # the order page draws it under its notes
                self.button((right, y), label, "#e3e3e3", "#333333")

    def banner(self, box: Box, inset: int, fill: str, color: str, gap: int = 16) -> int:
        """The view's banner (a message after an action) in `box`; returns the y below it, or the top."""
        if not self.view.banner:
            return box[1]
        self.rect(box, fill=fill)
        self.text((box[0] + inset, box[1] + (box[3] - box[1] - 16) // 2), self.view.banner, 14, color)
        return box[3] + gap

    def heading(self, xy: tuple[int, int], size: int, width: int, fill: str, height: int) -> int:
        """The view's heading, on the first screen only; returns the y below it."""
        if self.frame.scroll or not self.view.heading:
            return xy[1]
        self.text(xy, self.view.heading, size, fill, width)
        return xy[1] + height

    # -- window ------------------------------------------------------------------------------

    def chrome(self) -> None:
        v = self.view
        self.rect((0, 0, VIEW_W, 36), fill="#dee1e6")
        self.rect((8, 6, 280, 42), fill="#ffffff", radius=8)
        self.rect((20, 14, 34, 28), fill=SITES[v.site]["color"], radius=3)
        self.text((44, 12), v.title, 13, "#202124", 220)
        self.text((300, 10), "+", 18, "#5f6368")
        self.rect((0, 36, VIEW_W, CHROME_H), fill="#ffffff")
        for i, glyph in enumerate(("<", ">", "C")):
            self.text((18 + i * 32, 50), glyph, 18, "#5f6368")
        self.rect((120, 44, 1380, 76), fill="#f1f3f4", radius=16)
        shown = render_url(v.url).split("://", 1)[-1]
        self.text((146, 52), shown, 15, "#202124", 1200)
        self.target("address bar", (120, 44, 1380, 76))
        self.draw.line((0, CHROME_H - 1, VIEW_W, CHROME_H - 1), fill="#c4c7c5")
        self.rect((0, CHROME_H, VIEW_W, VIEW_H), fill="#ffffff")

    def finish(self) -> None:
        """What is drawn over any site's page: an open menu or dialog (the page under it is no
        longer clickable), and set-of-marks ids on the solver's screenshots.
        """
        if self.view.menu or self.view.dialog:
            self.targets = {k: b for k, b in self.targets.items() if b[1] < CHROME_H}
            self.overlays()
        if self.frame.marks:
            self.set_of_marks()

    # -- what several sites' pages share ---------------------------------------------------------

    def set_of_marks(self) -> None:
        for number, box in enumerate(self.targets.values()):
            if box[1] < CHROME_H or number > 40:
                continue
            self.rect(box, outline="#e3007a")
            self.rect((box[0], box[1] - 12, box[0] + 22, box[1]), fill="#e3007a")
            self.text((box[0] + 3, box[1] - 12), str(number), 10, "#ffffff")

    def rows(self, minimum: int, make: Callable[[random.Random], tuple[str, ...]]) -> list[tuple[str, ...]]:
        """The view's rows, padded with deterministic filler to `minimum` (none when the view has text)."""
        rows = list(self.view.rows)
        while len(rows) < minimum and not self.view.text:
            rows.append(make(self.rng))
        return rows

    def pick(self, pool: str) -> str:
        """The next filler string of a pool, cycling through a per-page shuffle (no repeats nearby)."""
        if pool not in self.pools:
            self.pools[pool] = self.rng.sample(FILLER[pool], len(FILLER[pool]))
        items = self.pools[pool]
        items.append(items.pop(0))
        return items[-1]

    def overlays(self) -> None:
        v = self.view
        if v.menu:
            title, items = v.menu[0], v.menu[1:]
            if v.site == "shopping_admin":
                self.rect((88, CHROME_H, 380, VIEW_H), fill="#31302b")
                self.text((110, CHROME_H + 24), title, 22, "#ffffff")
                for i, item in enumerate(items):
                    self.link((110, CHROME_H + 80 + i * 36), item, 14, "#d1cfcb")
            else:
                x = {"gitlab": 1140, "reddit": 1180}.get(v.site, 1100)
                box = (x, CHROME_H + 46, x + 250, CHROME_H + 62 + 36 * len(v.menu))
                self.rect(box, fill="#ffffff", outline="#bfbfbf", radius=4)
                self.text((x + 14, CHROME_H + 56), title, 13, "#666666", 220)
                for i, item in enumerate(items):
                    self.link((x + 14, CHROME_H + 92 + i * 36), item, 14, "#303030", 220)
        if v.dialog:
            question, buttons = v.dialog[0], v.dialog[1:]
            box = (470, 300, 970, 500)
            self.rect((box[0] + 6, box[1] + 6, box[2] + 6, box[3] + 6), fill="#9a9a9a")
            self.rect(box, fill="#ffffff", outline="#666666")
            self.para((box[0] + 30, box[1] + 40), question, 16, 440, "#303030")
            self.right_buttons(box[2] - 30, box[3] - 60, buttons, buttons[-1:])

    # -- shopping_admin (Magento admin) -------------------------------------------------------

    def form(self, xy: tuple[int, int], fields: Sequence[tuple[str, str]]) -> int:
        x0, y = xy
        for label, value in fields:
            multiline = label.lower() in ("comment", "content", "description", "sidebar", "body", "biography")
            h = 110 if multiline else 34
            self.text((x0 + 20, y + 8), label, 14, "#303030", 240)
            self.field((x0 + 280, y), 620, label, value, h)
            y += h + 18
        return y

    def table(
        self, box: tuple[int, int, int], rows: Rows, minimum: int = 0, header_bg: str = "#f0f0f0"
    ) -> int:
        """A data grid: rows[0] is the header; every cell is a target. Returns the y below it."""
        x0, y, x1 = box
        header, body = (rows[0], list(rows[1:])) if rows else (("Name", "Value"), [])
        cols = max(1, len(header))
        if len(body) < minimum:
            make = self.filler_row(cols)
            body += [make(self.rng) for _ in range(minimum - len(body))]
        body = body[self.frame.scroll * 10 :]
        colw = (x1 - x0) // cols
        dark = header_bg == "#514943"
        self.rect((x0, y, x1, y + 38), fill=header_bg)
        for j, h in enumerate(header):
            self.text((x0 + 10 + j * colw, y + 11), h, 14, "#ffffff" if dark else "#333333", colw - 16)
        y += 38
        for i, row in enumerate(body):
            if y > VIEW_H - 40:
                break
            self.rect((x0, y, x1, y + 38), fill="#f5f5f5" if i % 2 else "#ffffff")
            for j, cell in enumerate(row[:cols]):
                blue = cell in ("View", "Edit", "Select") or (j == 0 and cell.startswith("#"))
                self.link((x0 + 10 + j * colw, y + 11), cell, 14, "#007bdb" if blue else "#303030", colw - 16)
            y += 38
        return y

    def filler_row(self, cols: int) -> Callable[[random.Random], tuple[str, ...]]:
        site = self.view.site

        def make(r: random.Random) -> tuple[str, ...]:
            pool: tuple[str, ...]
            if site == "shopping_admin":
                order, who, total = f"{r.randint(100, 299):09d}", self.pick("people"), r.uniform(20, 400)
                pool = (order, who, f"${total:.2f}", r.choice(("Pending", "Complete", "Canceled")), "View")
            elif site == "gitlab":
                issue, number, who = self.pick("issues"), f"#{r.randint(10, 1600)}", self.pick("people")
                pool = (issue, number, who, f"{r.randint(1, 30)} months ago", "")
            else:
                product, month, day = self.pick("products"), r.randint(1, 12), r.randint(1, 28)
                total, state = r.uniform(5, 300), r.choice(("Complete", "Canceled", "Pending"))
                pool = (product, f"{month}/{day}/22", f"${total:.2f}", state, "View Order")
            return tuple((pool * 2)[:cols])

        return make

    def generic(self, y: int) -> None:
        v = self.view
        x = 120 if v.site == "shopping_admin" else 40
        if v.text:
            y = self.para((x, y), v.text, 15, 1200) + 12
        if v.rows:
            y = self.table((x, y, 1400), v.rows) + 12
        self.buttons((x, y), v.buttons if v.site != "shopping_admin" else ())

    # -- gitlab -------------------------------------------------------------------------------

    # -- map (OpenStreetMap website) ----------------------------------------------------------
