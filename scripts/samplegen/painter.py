"""Screenshots: a browser window drawn with Pillow, one layout per site and page kind.

`layout` says where the clickable texts of a frame land (what actions aim at), `png` draws it, and
`render_all` draws every distinct frame, in worker processes when asked.
"""

from __future__ import annotations

import functools
import io
import math
import random
import textwrap
import unicodedata
from collections.abc import Callable, Container, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

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

    def paint(self) -> None:
        self.chrome()
        getattr(self, f"site_{self.view.site}", self.site_live)()
        if self.view.menu or self.view.dialog:  # the page under an open menu is not clickable
            self.targets = {k: b for k, b in self.targets.items() if b[1] < CHROME_H}
            self.overlays()
        if self.frame.marks:
            self.set_of_marks()

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

    # -- shopping (Magento Luma storefront) ---------------------------------------------------

    def site_shopping(self) -> None:
        v, y0 = self.view, CHROME_H
        self.rect((0, y0, VIEW_W, y0 + 34), fill="#f6f6f6")
        self.text((920, y0 + 9), "Welcome, Emma Lopez!", 13, "#333333")
        self.link((1090, y0 + 9), "My Account", 13, "#333333")
        self.link((1190, y0 + 9), "My Wish List", 13, "#333333")
        self.link((1300, y0 + 9), "Sign Out", 13, "#333333")
        self.rect((40, y0 + 52, 78, y0 + 90), fill="#ff7f32", radius=6)
        self.link((92, y0 + 54), "One Stop Market", 28, "#1979c3")
        self.field((980, y0 + 54), 360, "Search entire store here...", v.query)
        self.target("Search", (1340, y0 + 54, 1380, y0 + 88))
        self.text((1396, y0 + 58), "Cart", 13, "#555555")
        self.rect((0, y0 + 110, VIEW_W, y0 + 150), fill="#f0f0f0")
        self.links((40, y0 + 122), SITES["shopping"]["menu"], 13, "#575757", 22)
        y = self.banner((40, y0 + 172, 1400, y0 + 212), 20, "#e5efe5", "#006400")
        y = self.heading((40, y), 30, 1340, "#333333", 56)
        kind = v.kind
        if kind in ("grid", "home"):
            if kind == "home" and self.frame.scroll == 0:
                self.rect((40, y, 1400, y + 150), fill="#eaf3fb")
                self.text((70, y + 40), "Product Showcases", 26, "#1979c3")
                self.text((70, y + 84), "New arrivals in every department, picked for you.", 16, "#555555")
                y += 180
            else:
                if v.buttons and self.frame.scroll == 0:  # sub-categories ("Shop By")
                    self.links((40, y), v.buttons, 15, "#1979c3", 28)
                    y += 34
                self.text((40, y), f"Items 1-12 of {self.rng.randint(40, 400)}", 13, "#555555")
                self.link((1000, y), "Sort By", 13, "#555555")
                order = "Price" if "product_list_order=price" in v.url else "Relevance"
                self.text((1060, y), order, 13, "#333333")
                self.link((1140, y), "Set Descending Direction", 12, "#1979c3")
                y += 34
            rows = self.rows(12, lambda r: (self.pick("products"), f"${r.uniform(5, 120):.2f}"))
            self.cards(rows[self.frame.scroll * 4 :], y)
        elif kind == "product":
            name, price = (v.rows[0] + ("", ""))[:2] if v.rows else ("Product", "$0.00")
            self.rect((40, y, 560, y + 460), fill="#f3f3f3")
            self.rect((200, y + 130, 400, y + 330), fill="#d9d9d9", radius=20)
            self.para((600, y), name, 26, 780, "#333333")
            self.stars((600, y + 112), 4)
            self.text((700, y + 110), "12 Reviews   Add Your Review", 14, "#555555")
            self.text((600, y + 150), price, 34, "#333333")
            self.text((1200, y + 160), "IN STOCK", 13, "#555555")
            self.text((600, y + 220), "Qty", 14)
            self.field((600, y + 244), 70, "Qty", "1")
            self.button((690, y + 242), "Add to Cart", size=16)
            self.link((600, y + 310), "Add to Wish List", 14, "#1979c3")
            self.link((780, y + 310), "Add to Compare", 14, "#1979c3")
            details = v.text or "Product details, dimensions and shipping information."
            self.para((600, y + 370), details, 14, 780, "#555555")
        elif kind in ("orders", "order"):
            for i, item in enumerate(SITES["shopping"]["account_menu"]):
                self.link((40, y + i * 34), item, 14, "#333333" if item != "My Orders" else "#1979c3")
            if v.text:
                y = self.para((320, y), v.text, 15, 1060, "#333333") + 10
            header = ("Order #", "Date", "Order Total", "Status", "Action")
            y = self.table((320, y, 1400), v.rows or (header,))
            x = 320
            for label in v.buttons:  # pagination / order actions
                x = self.button((x, y + 16), label, "#e8e8e8", "#333333", 13)[2] + 8
        else:
            self.generic(y)

    def stars(self, xy: tuple[int, int], n: int) -> None:
        for i in range(5):
            cx, cy = xy[0] + 8 + i * 17, xy[1] + 7
            pts = []
            for k in range(10):
                radius = 8 if k % 2 == 0 else 3.5
                angle = -1.5708 + k * 0.6283
                pts.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
            self.draw.polygon(pts, fill="#ff5501" if i < n else "#cccccc")

    def cards(self, rows: Sequence[tuple[str, ...]], y: int) -> None:
        for i, row in enumerate(rows[:8]):
            x, yy = 40 + (i % 4) * 345, y + (i // 4) * 330
            if yy > VIEW_H - 120:
                break
            self.rect((x, yy, x + 310, yy + 180), fill="#f3f3f3")
            self.rect((x + 110, yy + 45, x + 200, yy + 135), fill="#dcdcdc", radius=12)
            self.link((x, yy + 192), row[0], 14, "#333333", 310)
            self.stars((x, yy + 218), 3 + len(row[0]) % 3)
            self.text((x, yy + 240), row[1] if len(row) > 1 else "", 18, "#333333")

    # -- shopping_admin (Magento admin) -------------------------------------------------------

    def site_shopping_admin(self) -> None:
        v, y0 = self.view, CHROME_H
        self.rect((0, y0, 88, VIEW_H), fill="#373330")
        self.rect((22, y0 + 14, 66, y0 + 54), fill="#eb5202", radius=4)
        for i, item in enumerate(SITES["shopping_admin"]["menu"]):
            yy = y0 + 80 + i * 64
            self.rect((36, yy, 52, yy + 16), outline="#aaa6a0")
            w = self.draw.textlength(item.upper(), font=font(10))
            self.text((44 - int(w) // 2, yy + 24), item.upper(), 10, "#aaa6a0")
            self.target(item, (0, yy - 6, 88, yy + 40))
        x0, y = 120, y0 + 24
        self.text((x0, y), v.heading or v.title.split(" / ")[0], 28, "#41362f", 800)
        self.text((1310, y + 6), "admin", 14, "#41362f")
        y = self.banner((x0, y + 70, 1400, y + 114), 20, "#e5efe5", "#185b00")
        if v.buttons:
            self.right_buttons(1400, y, v.buttons, ("Save", "Save Page", "Show Report", "Save Config"))
            y += 60
        kind = v.kind
        if kind == "dashboard":
            for i, (label, value) in enumerate((("Lifetime Sales", "$0.00"), ("Average Order", "$0.00"))):
                self.text((x0 + i * 260, y), label, 14, "#41362f")
                self.text((x0 + i * 260, y + 24), value, 22, "#eb5202")
            self.rect((x0, y + 80, 900, y + 330), fill="#f8f8f8", outline="#e3e3e3")
            self.text((x0 + 20, y + 96), "Orders  Amounts  Tax  Shipping  Quantity", 13, "#41362f")
            self.text((x0, y + 350), "Last Orders", 18, "#41362f")
            self.table((x0, y + 380, 1400), v.rows or (("Customer", "Items", "Total"),))
        elif kind in ("grid", "report"):
            if kind == "report":
                for i, (label, value) in enumerate(v.fields):
                    self.text((x0 + 20, y + 8 + i * 46), label, 14, "#303030")
                    self.field((x0 + 200, y + i * 46), 300, label, value)
                y += max(1, len(v.fields)) * 46 + 20
            else:
                self.field((x0, y), 340, "Search by keyword", v.query)
                self.button((x0 + 350, y), "Search", "#e3e3e3", "#333333")
                self.text((1220, y + 8), "Filters   Columns", 14, "#007bdb")
                y += 54
            self.table((x0, y, 1400), v.rows, minimum=0 if kind == "report" else 12, header_bg="#514943")
        elif kind == "form":
            y = self.form((x0, y), v.fields)
            self.generic(y + 20)
        elif kind == "order":
            self.text((x0, y), "Order & Account Information", 20, "#41362f")
            self.table((x0, y + 36, 1400), v.rows, minimum=0, header_bg="#514943")
            y += 40 + 38 * (len(v.rows) + 1)
            if v.fields:
                self.text((x0, y + 10), "Notes for this Order", 20, "#41362f")
                y = self.form((x0, y + 46), v.fields)
                self.button((x0 + 300, y), "Submit Comment", "#eb5202")
            if v.text:
                self.para((x0, y + 70), v.text, 14, 1200, "#303030")
        else:
            self.generic(y)

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

    def site_live(self) -> None:
        """A site of the live web (WebTailBench): bar, search box, heading, form, text, table, buttons."""
        v, site, y0 = self.view, SITES[self.view.site], CHROME_H
        self.rect((0, y0, VIEW_W, y0 + 60), fill=site["color"])
        self.link((40, y0 + 16), site["name"], 24, "#ffffff")
        self.field((760, y0 + 13), 600, site["search"], v.query)
        y = self.banner((40, y0 + 80, 1400, y0 + 120), 20, "#e6f4ea", "#1e6b34")
        y = self.heading((40, y + 20), 28, 1340, "#202124", 56)
        self.generic(self.form((20, y), v.fields) + 16 if v.fields else y)

    # -- reddit (Postmill) --------------------------------------------------------------------

    def site_reddit(self) -> None:
        v, y0 = self.view, CHROME_H
        self.rect((0, y0, VIEW_W, y0 + 52), fill="#ffffff")
        self.draw.line((0, y0 + 52, VIEW_W, y0 + 52), fill="#dddddd")
        self.link((40, y0 + 12), "Postmill", 24, "#2a7ab0")
        self.link((190, y0 + 17), "Forums", 15, "#333333")
        self.link((270, y0 + 17), "Wiki", 15, "#333333")
        self.field((360, y0 + 9), 360, "Search query", v.query)
        self.link((1040, y0 + 17), "Submit", 15, "#333333")
        self.link((1120, y0 + 17), "Create forum", 15, "#333333")
        self.link((1250, y0 + 17), "MarvelsGrantMan136", 15, "#333333")
        y = self.banner((40, y0 + 76, 1020, y0 + 116), 20, "#dff0d8", "#3c763d")
        y = self.heading((40, y), 26, 960, "#222222", 48)
        # sidebar
        self.rect((1080, y0 + 76, 1400, y0 + 330), fill="#f7f7f7", outline="#e2e2e2")
        self.text((1100, y0 + 94), v.heading or "Postmill", 18, "#222222", 280)
        about = "A place to discuss, share and learn. Be kind and stay on topic."
        self.para((1100, y0 + 126), about, 13, 280, "#555555")
        self.button((1100, y0 + 200), "Subscribe", "#2a7ab0")
        kind = v.kind
        if kind == "list":
            tabs = ("Hot", "New", "Active", "Top", "Controversial", "Most commented")
            self.links((40, y), tabs, 14, "#2a7ab0", 22)
            y += 34
            if v.text and not v.rows:
                self.text((40, y + 10), v.text, 15, "#555555")

            def post(r: random.Random) -> tuple[str, ...]:
                title, user = self.pick("posts"), self.pick("users")
                return title, user, f"{r.randint(0, 90)} comments", str(r.randint(-3, 120))

            rows = self.rows(8, post)
            for row in rows[self.frame.scroll * 4 :]:
                if y > VIEW_H - 80:
                    break
                score = row[3] if len(row) > 3 else "1"
                self.draw.polygon([(42, y + 14), (50, y + 2), (58, y + 14)], fill="#999999")
                self.target(f"upvote {row[0]}", (40, y, 60, y + 16))
                self.text((42, y + 20), score, 13, "#333333")
                self.draw.polygon([(42, y + 40), (50, y + 52), (58, y + 40)], fill="#999999")
                self.link((90, y), row[0], 17, "#2a7ab0", 960)
                meta = f"Submitted by {row[1] if len(row) > 1 else 'someone'}"
                self.text((90, y + 26), meta, 13, "#777777")
                if len(row) > 2:
                    self.link((90, y + 46), row[2], 13, "#777777")
                y += 84
        elif kind == "post":
            self.para((40, y), v.text or "", 15, 980, "#222222")
            y += 40 + 21 * max(1, len(v.text) // 110)
            self.text((40, y), f"{len(v.rows)} comments", 16, "#222222")
            y += 36
            for author, body in v.rows[self.frame.scroll * 3 :]:
                if y > VIEW_H - 60:
                    break
                self.text((60, y), author, 13, "#2a7ab0")
                y = self.para((60, y + 20), body, 14, 940, "#333333") + 16
        elif kind == "form":
            self.buttons((300, self.form((20, y), v.fields)), v.buttons, "#2a7ab0")
        else:
            self.generic(y)

    # -- gitlab -------------------------------------------------------------------------------

    def site_gitlab(self) -> None:
        v, y0 = self.view, CHROME_H
        self.rect((0, y0, VIEW_W, y0 + 44), fill="#292961")
        self.rect((16, y0 + 10, 40, y0 + 34), fill="#fc6d26", radius=4)
        self.link((50, y0 + 12), "GitLab", 18, "#ffffff")
        self.link((140, y0 + 14), "Menu", 14, "#ffffff")
        self.field((560, y0 + 7), 320, "Search GitLab", v.query if "/search" in v.url else "", 30)
        for i, item in enumerate(("Issues", "Merge requests", "To-Do List")):
            self.link((1000 + i * 120, y0 + 14), item, 13, "#ffffff")
        self.rect((1380, y0 + 8, 1408, y0 + 36), fill="#6666c4", radius=14)
        self.target("byteblaze", (1380, y0 + 8, 1408, y0 + 36))
        path = urlsplit(render_url(v.url)).path.strip("/").split("/-/")[0]
        in_project = v.url.count("/") >= 4 and not path.startswith(("dashboard", "explore", "projects", "-"))
        x0 = 40
        if in_project:
            self.rect((0, y0 + 44, 230, VIEW_H), fill="#fbfafd")
            self.draw.line((230, y0 + 44, 230, VIEW_H), fill="#dbdbdb")
            self.text((16, y0 + 60), path.split("/")[-1], 15, "#303030", 200)
            for i, item in enumerate(SITES["gitlab"]["project_menu"]):
                self.link((24, y0 + 100 + i * 36), item, 14, "#303030")
            x0 = 260
        crumbs = " / ".join(p for p in path.split("/")[:3] if p) or "Dashboard"
        self.text((x0, y0 + 64), crumbs, 13, "#666666", 900)
        y = self.banner((x0, y0 + 94, 1400, y0 + 134), 16, "#ecf4ee", "#24663b", 14)
        y = self.heading((x0, y), 24, 1100, "#303030", 46)
        kind = v.kind
        if kind == "list":
            self.links((x0, y), v.buttons or ("Open", "Closed", "All"), 14, "#303030", 24)
            self.field((x0 + 420, y - 6), 560, "Search or filter results...", v.query, 30)
            y += 40
            rows = self.rows(
                9, lambda r: (self.pick("issues"), f"#{r.randint(10, 1600)}", self.pick("people"))
            )
            for row in rows[self.frame.scroll * 5 :]:
                if y > VIEW_H - 60:
                    break
                self.draw.line((x0, y, 1400, y), fill="#ececef")
                self.link((x0 + 4, y + 10), row[0], 15, "#303030", 900)
                meta = " · ".join(p for p in row[1:3])
                self.text((x0 + 4, y + 34), meta, 13, "#666666", 900)
                if len(row) > 3 and row[3]:
                    self.rect((x0 + 940, y + 10, x0 + 1040, y + 30), fill="#dbe9f8", radius=10)
                    self.text((x0 + 950, y + 13), row[3], 12, "#1f5a96", 86)
                    self.target(row[3], (x0 + 940, y + 10, x0 + 1040, y + 30))
                y += 64
        elif kind == "project":
            self.rect((x0, y, x0 + 64, y + 64), fill="#e7e4f2", radius=6)
            self.text((x0 + 24, y + 18), path.split("/")[-1][:1].upper(), 24, "#6b4fbb")
            self.text((x0 + 80, y + 4), v.text or path, 14, "#666666", 900)
            for i, label in enumerate(v.buttons):
                self.button((x0 + 80 + i * 120, y + 30), label, "#fafafa", "#303030", 13)
            y += 96
            self.table((x0, y, 1400), v.rows or tuple(map(tuple, SITES["gitlab"]["repo_files"])))
        elif kind in ("form", "mr", "settings"):
            if v.text:
                y = self.para((x0, y), v.text, 14, 1000, "#303030") + 14
            for label, value in v.fields:
                self.text((x0, y), label, 14, "#303030")
                big = label in ("Comment", "Content", "Description")
                self.field((x0, y + 24), 900, label, value, 120 if big else 34)
                y += 150 if big else 74
            self.buttons((x0, y), v.buttons, "#1f75cb")
            if v.rows:
                self.table((x0, y + 60, 1400), v.rows)
        elif kind == "ide":
            self.rect((x0 - 30, y, x0 + 250, VIEW_H - 20), fill="#f6f6f6")
            for i, row in enumerate(v.rows):
                self.link((x0 - 10, y + 14 + i * 30), row[0], 14, "#303030")
            self.rect((x0 + 260, y, 1400, VIEW_H - 20), fill="#fdfdfd", outline="#e5e5e5")
            content = self.filled.get("editor", v.text)
            for i, line in enumerate(content.split("\n")[:26]):
                self.text((x0 + 280, y + 14 + i * 22), f"{i + 1:>3}  {line}", 14, "#303030", 1000)
            self.target("editor", (x0 + 260, y, 1400, VIEW_H - 20))
            self.buttons((x0 + 260, VIEW_H - 70), v.buttons, "#1f75cb")
        else:
            self.generic(y)

    # -- wikipedia (Kiwix) --------------------------------------------------------------------

    def site_wikipedia(self) -> None:
        v, y0 = self.view, CHROME_H
        self.rect((0, y0, VIEW_W, y0 + 46), fill="#f8f9fa")
        self.draw.line((0, y0 + 46, VIEW_W, y0 + 46), fill="#c8ccd1")
        self.link((30, y0 + 13), "Home", 15, "#3366cc")
        self.field((110, y0 + 7), 420, "Search 'Wikipedia'", v.query, 32)
        self.link((560, y0 + 13), "Random", 15, "#3366cc")
        x0, y = 160, y0 + 80
        if v.kind == "search":
            self.text((x0, y), f'Results 1-{len(v.rows)} for "{v.query}"', 18, "#202122")
            y += 48
            for title, snippet in v.rows:
                self.link((x0, y), title, 18, "#3366cc")
                y = self.para((x0, y + 28), snippet, 14, 1000, "#54595d") + 18
            return
        if self.frame.scroll == 0:
            self.text((x0, y), v.heading or v.title, 32, "#000000", 1100)
            self.draw.line((x0, y + 46, 1300, y + 46), fill="#a2a9b1")
            self.text((x0, y + 56), "From Wikipedia, the free encyclopedia", 13, "#54595d")
            y += 90
        if v.rows:  # infobox
            self.rect((1000, y, 1300, y + 40 + 30 * len(v.rows)), fill="#f8f9fa", outline="#a2a9b1")
            for i, (key, value) in enumerate(v.rows):
                self.text((1012, y + 16 + i * 30), key, 13, "#202122", 110)
                self.link((1130, y + 16 + i * 30), value, 13, "#3366cc", 160)
        paragraphs = [p for p in v.text.split("\n") if p]
        while len(paragraphs) < 6:
            paragraphs.append(" ".join(self.rng.sample(FILLER["sentences"], 3)))
        for p in paragraphs[self.frame.scroll * 2 :]:
            if y > VIEW_H - 60:
                break
            y = self.para((x0, y), p, 16, 800, "#202122", 8) + 16

    # -- map (OpenStreetMap website) ----------------------------------------------------------

    def site_map(self) -> None:
        v, y0 = self.view, CHROME_H
        self.rect((0, y0, VIEW_W, y0 + 50), fill="#ffffff")
        self.draw.line((0, y0 + 50, VIEW_W, y0 + 50), fill="#cccccc")
        self.rect((20, y0 + 12, 46, y0 + 38), fill="#7ebc6f", radius=13)
        self.link((56, y0 + 14), "OpenStreetMap", 19, "#333333")
        for i, item in enumerate(("Edit", "History", "Export")):
            self.link((260 + i * 80, y0 + 17), item, 14, "#555555")
        for i, item in enumerate(("GPS Traces", "User Diaries", "Communities", "Copyright", "Help", "About")):
            self.link((760 + i * 100, y0 + 17), item, 13, "#555555")
        side = 360
        self.rect((0, y0 + 51, side, VIEW_H), fill="#ffffff")
        self.draw.line((side, y0 + 51, side, VIEW_H), fill="#cccccc")
        self.map_canvas(side, y0 + 51)
        y = y0 + 66
        if v.kind == "directions":
            for label, value in v.fields or (("From", ""), ("To", ""), ("Mode", "Car (OSRM)")):
                self.field((16, y), 300, label, value)
                y += 44
            self.button((262, y), "Go", "#7092ff")
            y += 52
        else:
            self.field((16, y), 260, "Search", v.query)
            self.button((282, y), "Go", "#7092ff")
            self.target("Directions", (326, y, 352, y + 34))
            self.draw.line((332, y + 26, 332, y + 12, 344, y + 12), fill="#333333", width=3)
            self.draw.polygon([(344, y + 6), (350, y + 12), (344, y + 18)], fill="#333333")
            y += 52
        if v.heading:
            self.text((16, y), v.heading, 20, "#333333", 330)
            y += 36
        if v.kind == "feature":
            feature = v.title.split(" | ")[0].split(":")[0] + " " + v.url.rsplit("/", 1)[-1]
            self.text((16, y), feature, 13, "#777777")
            self.text((16, y + 30), "Tags", 16, "#333333")
            y += 60
        if v.text:
            y = self.para((16, y), v.text, 14, 330, "#333333") + 10
        for row in v.rows[self.frame.scroll * 3 :]:
            if y > VIEW_H - 40:
                break
            if v.kind == "search":
                self.link((16, y), row[0], 14, "#0063bb", 330)
                if len(row) > 1:
                    self.text((16, y + 20), row[1], 12, "#777777", 330)
                y += 48
            else:
                self.text((16, y), row[0], 13, "#333333", 150)
                if len(row) > 1:
                    self.link((170, y), row[1], 13, "#333333", 180)
                y += 26

    def map_canvas(self, x0: int, y0: int) -> None:
        """A plausible map: streets, a park, a river; a route and pins for directions/features."""
        r = random.Random(f"map:{self.view.heading}:{self.view.kind}")
        self.rect((x0 + 1, y0, VIEW_W, VIEW_H), fill="#f2efe9")
        for _ in range(3):
            px, py = r.randint(x0 + 40, 1300), r.randint(y0 + 40, 760)
            self.rect((px, py, px + r.randint(80, 200), py + r.randint(60, 140)), fill="#c8facc")
        river = [(x0, r.randint(y0 + 100, 700))]
        while river[-1][0] < VIEW_W:
            x, y = river[-1]
            river.append((x + 120, min(VIEW_H - 20, max(y0 + 20, y + r.randint(-50, 50)))))
        self.draw.line(river, fill="#aad3df", width=18)
        for _ in range(9):
            if r.random() < 0.5:
                yy = r.randint(y0, VIEW_H)
                self.draw.line((x0, yy, VIEW_W, yy + r.randint(-80, 80)), fill="#ffffff", width=6)
            else:
                xx = r.randint(x0, VIEW_W)
                self.draw.line((xx, y0, xx + r.randint(-80, 80), VIEW_H), fill="#ffffff", width=6)
        self.draw.line((x0, r.randint(y0, VIEW_H), VIEW_W, r.randint(y0, VIEW_H)), fill="#f9b29c", width=8)
        self.rect((VIEW_W - 44, y0 + 12, VIEW_W - 14, y0 + 72), fill="#ffffff", outline="#cccccc")
        self.text((VIEW_W - 34, y0 + 16), "+", 18, "#333333")
        self.text((VIEW_W - 33, y0 + 44), "-", 18, "#333333")
        if self.view.kind == "directions" and self.view.rows:
            pts = [(r.randint(x0 + 80, x0 + 300), r.randint(y0 + 80, 700))]
            for _ in range(6):
                pts.append((pts[-1][0] + r.randint(60, 140), pts[-1][1] + r.randint(-60, 60)))
            self.draw.line(pts, fill="#0000ff", width=5)
            for (px, py), color in ((pts[0], "#72b026"), (pts[-1], "#d63e2a")):
                self.draw.ellipse((px - 9, py - 24, px + 9, py - 6), fill=color)
        elif self.view.kind == "feature":
            px, py = (x0 + VIEW_W) // 2, (y0 + VIEW_H) // 2
            corners = [(px - 90, py - 60), (px + 110, py - 40), (px + 80, py + 70), (px - 70, py + 50)]
            self.draw.polygon(corners, outline="#ff6200", fill=None)
            self.draw.line([*corners, corners[0]], fill="#ff6200", width=3)
        self.text((VIEW_W - 300, VIEW_H - 22), "© OpenStreetMap contributors", 12, "#555555")


@functools.cache
def layout(frame: Frame) -> dict[str, Box]:
    """Where the clickable texts of a frame are (cached; the same code path as the real drawing)."""
    painter = Painter(frame, layout_only=True)
    painter.paint()
    return painter.targets


def png(frame: Frame) -> bytes:
    """The screenshot of a frame as a palette PNG (a pure function of the frame, so it can run anywhere)."""
    painter = Painter(frame)
    painter.paint()
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
