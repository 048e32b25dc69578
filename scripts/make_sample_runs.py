#!/usr/bin/env python3
"""Generate `sample_runs/`: the realistic demo data the inspector opens on by default.

What it writes (all deterministic: fixed seeds and base times, no wall clock, no machine time zone):

- `runs/<system.hash>/<model>/demo/WebArenaVerified_sample/0/traj/<task_id>/`: Fara-layout trajectory
  folders for two "models" over the same 44 real WebArena-Verified tasks (all six sites, all three
  task types). Each folder has `web_surfer.log`, `<task_id>_final_answer.json`, screenshots,
  `times.json`, `core.log` and `network.har`, shaped like the real files described in
  `/work/shared/reference/fara-trajectory-format.md`:
    * `fara-7b` logs in the Fara-agent structured generation (OtherEvent lines with
      `action: "computer_use"`, coordinates in the 1428x896 model space) and names frames
      `screenshot0..N`; four of its folders are older, text-only logs.
    * `gpt-4o-som` logs in the solver generation (WebSurferEvent lines with set-of-marks ids,
      `WebSurfer-SummarizedAction` lines, LLMCallEvent lines) and names frames `screenshot_1..N`.
- `webarena-verified-cli/<task_id>/`: five tasks in the official CLI layout
  (`agent_response.json` + `network.har`).
- `webarena-verified-config.json`: the site URLs every log, HAR and answer uses.
- `intended_verdicts.json`: for every trajectory, the scenario it was built for and the verdict the
  official evaluator gives it (checked while generating, see below).
- `README.md`: what is where.

Every trajectory follows a PLAN row (task id -> scenario per model). Scenarios cover right and wrong
answers, the answer-format variants agents produce (fences, prose, the published schema's
`action`/`results` naming), missing or wrong network requests for mutate tasks, right and wrong final
navigations, over-budget, aborted and crashed runs. While writing, the script asks the installed
official evaluator (`webarena_verified`) for the verdict of each answered trajectory and fails if it is
not the one the plan intended, so the sample really has the mix it claims.

Usage: `.venv/bin/python scripts/make_sample_runs.py [--out DIR]` (default: `<repo>/sample_runs`).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import math
import os
import random
import shutil
import sys
import textwrap
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "sample_runs"

# The six sites at the ports the official containers publish (webarena_verified
# environments/container/config.py); the admin site must include `/admin` for derendering.
SITE_URLS: dict[str, str] = {
    "__SHOPPING__": "http://localhost:7770",
    "__SHOPPING_ADMIN__": "http://localhost:7780/admin",
    "__REDDIT__": "http://localhost:9999",
    "__GITLAB__": "http://localhost:8023",
    "__WIKIPEDIA__": "http://localhost:8888",
    "__MAP__": "http://localhost:3000",
}
SITE_NAMES = {
    "__SHOPPING__": "shopping",
    "__SHOPPING_ADMIN__": "shopping_admin",
    "__REDDIT__": "reddit",
    "__GITLAB__": "gitlab",
    "__WIKIPEDIA__": "wikipedia",
    "__MAP__": "map",
}

# The machine that "ran" the agents logged naive local time in UTC-08:00 (ARCHITECTURE.md, "Time").
LOCAL_TZ = timezone(timedelta(hours=-8))
VIEW_W, VIEW_H = 1440, 900  # browser viewport == PNG size
MODEL_W, MODEL_H = 1428, 896  # what the Fara model sees; its coordinates live in this space
CHROME_H = 84  # tab strip + address bar drawn at the top of every screenshot
WIKI_BOOK = "wikipedia_en_all_maxi_2022-05"


def render_url(url: str) -> str:
    """Replace a leading site placeholder with its real URL (as the browser saw it)."""
    for key, base in SITE_URLS.items():
        if url.startswith(key):
            return base + url[len(key) :]
    return url


def site_of(url: str) -> str:
    for key in SITE_URLS:
        if url.startswith(key):
            return SITE_NAMES[key]
    raise ValueError(f"URL without a site placeholder: {url}")


# ---------------------------------------------------------------------------------------------
# What an agent sees and does
# ---------------------------------------------------------------------------------------------

Rows = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class View:
    """One page state in the browser. `url` keeps its site placeholder; the site follows from it.

    `kind` picks the page layout; `rows`, `fields`, `buttons` and `text` are the content that matters
    for the task (the renderer adds plausible filler around it). Every drawn row cell, button, link
    and field label is a click/type target the trajectory can refer to by its text.
    """

    url: str
    title: str
    kind: str
    heading: str = ""
    rows: Rows = ()
    fields: tuple[tuple[str, str], ...] = ()
    buttons: tuple[str, ...] = ()
    text: str = ""
    banner: str = ""
    query: str = ""  # text shown in the site's search box
    menu: tuple[str, ...] = ()  # an open dropdown / flyout menu: its title, then its items
    dialog: tuple[str, ...] = ()  # an open confirmation dialog: its question, then its buttons

    @property
    def site(self) -> str:
        return site_of(self.url)


@dataclass(frozen=True)
class Req:
    """A request an action fires besides the document load of its new view (HAR entry)."""

    method: str
    url: str
    body: Mapping[str, Any] | str | None = None
    mime: str = "application/x-www-form-urlencoded; charset=UTF-8"
    status: int = 200
    kind: str = "xhr"  # HAR _resourceType: document (form post), xhr, fetch
    response: Any = None  # JSON body of the response, kept small
    redirect: str = ""  # Location of a 3xx answer (placeholder form)
    headers: tuple[tuple[str, str], ...] = ()  # extra request headers (e.g. Referer, Cookie)


@dataclass(frozen=True)
class Act:
    """One agent action. `view` is the page afterwards (None: the page does not change)."""

    kind: str  # visit_url | click | type | scroll_down | scroll_up | key | back | memorize | wait
    target: str = ""  # text of the element acted on (click / type)
    text: str = ""  # typed text, URL, keys or memorized fact
    view: View | None = None
    reqs: tuple[Req, ...] = ()
    nav: bool = True  # False: the new view came from script (no document request)
    why: str = ""  # the agent's thought for this step
    enter: bool = True  # type: press Enter afterwards


@dataclass(frozen=True)
class Recipe:
    """How an agent solves one task: the path of a successful run plus the variants scenarios need.

    `variants` hold alternative step lists keyed by what goes wrong: "wrong" (wrong final page or
    wrong request), "missing" (the mutating request never fires), "left" (the right page, then
    another one). `answer` is the retrieved data of
    a right answer and `wrong_answer` what a mistaken agent returns.
    """

    task_id: int
    start: View
    steps: tuple[Act, ...]
    answer: Any = None
    wrong_answer: Any = None
    variants: Mapping[str, tuple[Act, ...]] = field(default_factory=dict)
    finding: str = ""  # one sentence the agent says when it is done
    wrong_finding: str = ""


# ---------------------------------------------------------------------------------------------
# Screenshots: a browser window drawn with Pillow, one layout per site and page kind
# ---------------------------------------------------------------------------------------------

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box = tuple[int, int, int, int]
_FONTS: dict[int, Font] = {}


def font(size: int) -> Font:
    if size not in _FONTS:
        _FONTS[size] = ImageFont.load_default(size=size)
    return _FONTS[size]


@dataclass(frozen=True)
class Frame:
    """What one screenshot shows: a view, how far it is scrolled, what was typed into it."""

    view: View
    scroll: int = 0
    filled: tuple[tuple[str, str], ...] = ()
    marks: bool = False  # draw set-of-marks ids (the solver's screenshots)


FILLER: dict[str, tuple[str, ...]] = {
    "products": (
        "Bluetooth Speaker Portable Wireless 20W",
        "Stainless Steel Water Bottle 32oz",
        "LED Desk Lamp with USB Charging Port",
        "Organic Green Tea Bags, 100 Count",
        "Memory Foam Pillow, Queen Size",
        "USB-C Hub 7-in-1 Adapter",
        "Yoga Mat Non Slip 6mm",
        "Ceramic Coffee Mug Set of 4",
        "Wireless Mouse 2.4G Silent Click",
        "Kids Toothbrush Soft Bristles 4 Pack",
        "Cotton Bath Towels, 6 Piece Set",
        "Phone Stand Adjustable Aluminum",
    ),
    "people": (
        "Jane Doe",
        "Sarah Miller",
        "Alex Thomas",
        "Grace Nguyen",
        "Lily Potter",
        "John Smith",
        "Emma Lopez",
        "Bob Jones",
        "Adam Garcia",
        "Ava Brown",
        "Olivia Lee",
        "Daniel Jackson",
    ),
    "posts": (
        "What is the best way to learn a new language as an adult?",
        "Finally finished my first marathon after two years of training",
        "Local library is hosting a free book swap this weekend",
        "Anyone else notice the new bike lanes downtown?",
        "Tips for keeping houseplants alive during winter",
        "My grandfather's old camera still works perfectly",
        "Looking for recommendations: cozy mystery novels",
        "The sunset over the river last night was unreal",
        "How do you all budget for irregular expenses?",
        "Weekly discussion thread: what are you reading?",
    ),
    "users": (
        "Hammer94",
        "mineinhusdson",
        "ziostraccette",
        "Dhghomon",
        "Proud_Idiot",
        "bookworm_22",
        "quietriver",
        "PixelPilot",
        "MarvelsGrantMan136",
        "jmvanhorn",
        "tealeaf77",
        "rustyspoon",
    ),
    "issues": (
        "Broken link on the contributors page",
        "Add dark mode toggle to the header",
        "Improve focus styles for keyboard users",
        "Update dependencies to latest minor versions",
        "Typo in README installation section",
        "Search results do not announce count to screen readers",
        "CI pipeline fails on Node 18",
        "Refactor navigation component",
        "Add alt text to decorative images",
        "Document release process",
    ),
    "places": (
        "Forbes Avenue",
        "Fifth Avenue",
        "Schenley Park",
        "Craig Street",
        "Oakland",
        "Squirrel Hill",
        "Shadyside",
        "Bellefield Avenue",
        "Morewood Avenue",
        "Panther Hollow",
        "Junction Hollow",
    ),
    "sentences": (
        "The article describes its history, organisation and notable events in detail.",
        "It has been covered extensively by regional and national media since its founding.",
        "Several sources give slightly different figures for the early years.",
        "The following sections summarise the most commonly cited facts.",
        "Later editions revised the methodology and expanded the list of entries.",
        "Critics have noted both the strengths and the limitations of this approach.",
    ),
}


def drawable(s: str) -> str:
    """Text the bundled font can draw: Pillow's default font has no accents, dashes or symbols."""
    s = s.translate({0x2014: "-", 0x2013: "-", 0x2605: "*", 0x2192: "->"})
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


REPO_FILES: Rows = (
    ("Name", "Last commit", "Last update"),
    (".gitlab", "Add issue templates", "1 year ago"),
    ("src", "Refactor the build script", "1 year ago"),
    (".gitignore", "Ignore editor folders", "2 years ago"),
    ("LICENSE", "Add LICENSE", "2 years ago"),
    ("README.md", "Update README.md", "1 year ago"),
    ("package.json", "Bump dependencies", "1 year ago"),
)


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

    # -- window ------------------------------------------------------------------------------

    def chrome(self) -> None:
        v = self.view
        self.rect((0, 0, VIEW_W, 36), fill="#dee1e6")
        self.rect((8, 6, 280, 42), fill="#ffffff", radius=8)
        color = {
            "shopping": "#1979c3",
            "shopping_admin": "#eb5202",
            "reddit": "#2a7ab0",
            "gitlab": "#fc6d26",
            "wikipedia": "#54595d",
            "map": "#7ebc6f",
        }[v.site]
        self.rect((20, 14, 34, 28), fill=color, radius=3)
        self.text((44, 12), v.title, 13, "#202124", 220)
        self.text((300, 10), "+", 18, "#5f6368")
        self.rect((0, 36, VIEW_W, CHROME_H), fill="#ffffff")
        for i, glyph in enumerate(("<", ">", "C")):
            self.text((18 + i * 32, 50), glyph, 18, "#5f6368")
        self.rect((120, 44, 1380, 76), fill="#f1f3f4", radius=16)
        shown = render_url(v.url).removeprefix("http://")
        self.text((146, 52), shown, 15, "#202124", 1200)
        self.target("address bar", (120, 44, 1380, 76))
        self.draw.line((0, CHROME_H - 1, VIEW_W, CHROME_H - 1), fill="#c4c7c5")
        self.rect((0, CHROME_H, VIEW_W, VIEW_H), fill="#ffffff")

    def paint(self) -> None:
        self.chrome()
        if self.view.menu or self.view.dialog:
            # The page under an open menu is not clickable: draw it, then forget its targets.
            getattr(self, f"site_{self.view.site}")()
            self.targets = {k: b for k, b in self.targets.items() if b[1] < CHROME_H}
            self.overlays()
        else:
            getattr(self, f"site_{self.view.site}")()
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
            bx = box[2] - 30
            for label in reversed(buttons):
                w = int(self.draw.textlength(label, font=font(14))) + 28
                bx -= w + 10
                self.button(
                    (bx, box[3] - 60),
                    label,
                    "#eb5202" if label == buttons[-1] else "#e3e3e3",
                    "#ffffff" if label == buttons[-1] else "#333333",
                )

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
        x = 40
        for cat in (
            "Beauty & Personal Care",
            "Sports & Outdoors",
            "Clothing, Shoes & Jewelry",
            "Home & Kitchen",
            "Office Products",
            "Tools & Home Improvement",
            "Health & Household",
            "Electronics",
            "Video Games",
        ):
            x = self.link((x, y0 + 122), cat, 13, "#575757")[2] + 22
        y = y0 + 172
        if v.banner:
            self.rect((40, y, 1400, y + 40), fill="#e5efe5")
            self.text((60, y + 12), v.banner, 14, "#006400")
            y += 56
        if self.frame.scroll == 0 and v.heading:
            self.text((40, y), v.heading, 30, "#333333", 1340)
            y += 56
        kind = v.kind
        if kind in ("grid", "home"):
            if kind == "home" and self.frame.scroll == 0:
                self.rect((40, y, 1400, y + 150), fill="#eaf3fb")
                self.text((70, y + 40), "Product Showcases", 26, "#1979c3")
                self.text((70, y + 84), "New arrivals in every department, picked for you.", 16, "#555555")
                y += 180
            else:
                if v.buttons and self.frame.scroll == 0:  # sub-categories ("Shop By")
                    x = 40
                    for label in v.buttons:
                        x = self.link((x, y), label, 15, "#1979c3")[2] + 28
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
            self.para(
                (600, y + 370),
                v.text or "Product details, dimensions and shipping information.",
                14,
                780,
                "#555555",
            )
        elif kind in ("orders", "order"):
            for i, item in enumerate(
                (
                    "My Account",
                    "My Orders",
                    "My Downloadable Products",
                    "My Wish List",
                    "Address Book",
                    "Account Information",
                    "My Product Reviews",
                )
            ):
                self.link((40, y + i * 34), item, 14, "#333333" if item != "My Orders" else "#1979c3")
            if v.text:
                y = self.para((320, y), v.text, 15, 1060, "#333333") + 10
            y = self.table(
                (320, y, 1400), v.rows or (("Order #", "Date", "Order Total", "Status", "Action"),)
            )
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
        for i, item in enumerate(
            (
                "Dashboard",
                "Sales",
                "Catalog",
                "Customers",
                "Marketing",
                "Content",
                "Reports",
                "Stores",
                "System",
            )
        ):
            yy = y0 + 80 + i * 64
            self.rect((36, yy, 52, yy + 16), outline="#aaa6a0")
            w = self.draw.textlength(item.upper(), font=font(10))
            self.text((44 - int(w) // 2, yy + 24), item.upper(), 10, "#aaa6a0")
            self.target(item, (0, yy - 6, 88, yy + 40))
        x0, y = 120, y0 + 24
        self.text((x0, y), v.heading or v.title.split(" / ")[0], 28, "#41362f", 800)
        self.text((1310, y + 6), "admin", 14, "#41362f")
        y += 70
        if v.banner:
            self.rect((x0, y, 1400, y + 44), fill="#e5efe5")
            self.text((x0 + 20, y + 14), v.banner, 14, "#185b00")
            y += 60
        if v.buttons:
            bx = 1400
            for label in reversed(v.buttons):
                w = int(self.draw.textlength(label, font=font(14))) + 28
                bx -= w + 10
                if label == "Submit Comment":
                    continue
                primary = label in ("Save", "Save Page", "Show Report", "Save Config")
                self.button(
                    (bx, y), label, "#eb5202" if primary else "#e3e3e3", "#ffffff" if primary else "#333333"
                )
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
            if site == "shopping_admin":
                pool: tuple[str, ...] = (
                    f"{r.randint(100, 299):09d}",
                    self.pick("people"),
                    f"${r.uniform(20, 400):.2f}",
                    r.choice(("Pending", "Complete", "Canceled")),
                    "View",
                )
            elif site == "gitlab":
                pool = (
                    self.pick("issues"),
                    f"#{r.randint(10, 1600)}",
                    self.pick("people"),
                    f"{r.randint(1, 30)} months ago",
                    "",
                )
            else:
                pool = (
                    self.pick("products"),
                    f"{r.randint(1, 12)}/{r.randint(1, 28)}/22",
                    f"${r.uniform(5, 300):.2f}",
                    r.choice(("Complete", "Canceled", "Pending")),
                    "View Order",
                )
            return tuple((pool * 2)[:cols])

        return make

    def generic(self, y: int) -> None:
        v = self.view
        x = 120 if v.site == "shopping_admin" else 40
        if v.text:
            y = self.para((x, y), v.text, 15, 1200) + 12
        if v.rows:
            y = self.table((x, y, 1400), v.rows) + 12
        bx = x
        for label in v.buttons if v.site != "shopping_admin" else ():
            bx = self.button((bx, y), label)[2] + 12

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
        y = y0 + 76
        if v.banner:
            self.rect((40, y, 1020, y + 40), fill="#dff0d8")
            self.text((60, y + 12), v.banner, 14, "#3c763d")
            y += 56
        if self.frame.scroll == 0 and v.heading:
            self.text((40, y), v.heading, 26, "#222222", 960)
            y += 48
        # sidebar
        self.rect((1080, y0 + 76, 1400, y0 + 330), fill="#f7f7f7", outline="#e2e2e2")
        self.text((1100, y0 + 94), v.heading or "Postmill", 18, "#222222", 280)
        self.para(
            (1100, y0 + 126),
            "A place to discuss, share and learn. Be kind and stay on topic.",
            13,
            280,
            "#555555",
        )
        self.button((1100, y0 + 200), "Subscribe", "#2a7ab0")
        kind = v.kind
        if kind == "list":
            x = 40
            for tab in ("Hot", "New", "Active", "Top", "Controversial", "Most commented"):
                x = self.link((x, y), tab, 14, "#2a7ab0")[2] + 22
            y += 34
            if v.text and not v.rows:
                self.text((40, y + 10), v.text, 15, "#555555")
            rows = self.rows(
                8,
                lambda r: (
                    self.pick("posts"),
                    self.pick("users"),
                    f"{r.randint(0, 90)} comments",
                    str(r.randint(-3, 120)),
                ),
            )
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
            y = self.form((20, y), v.fields)
            bx = 300
            for label in v.buttons:
                bx = self.button((bx, y), label, "#2a7ab0")[2] + 12
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
            for i, item in enumerate(
                (
                    "Project information",
                    "Repository",
                    "Issues",
                    "Merge requests",
                    "CI/CD",
                    "Deployments",
                    "Wiki",
                    "Snippets",
                    "Settings",
                )
            ):
                self.link((24, y0 + 100 + i * 36), item, 14, "#303030")
            x0 = 260
        y = y0 + 64
        self.text((x0, y), " / ".join(p for p in path.split("/")[:3] if p) or "Dashboard", 13, "#666666", 900)
        y += 30
        if v.banner:
            self.rect((x0, y, 1400, y + 40), fill="#ecf4ee")
            self.text((x0 + 16, y + 12), v.banner, 14, "#24663b")
            y += 54
        if self.frame.scroll == 0 and v.heading:
            self.text((x0, y), v.heading, 24, "#303030", 1100)
            y += 46
        kind = v.kind
        if kind == "list":
            x = x0
            for tab in v.buttons or ("Open", "Closed", "All"):
                x = self.link((x, y), tab, 14, "#303030")[2] + 24
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
            self.table((x0, y, 1400), v.rows or REPO_FILES)
        elif kind in ("form", "mr", "settings"):
            if v.text:
                y = self.para((x0, y), v.text, 14, 1000, "#303030") + 14
            for label, value in v.fields:
                self.text((x0, y), label, 14, "#303030")
                big = label in ("Comment", "Content", "Description")
                self.field((x0, y + 24), 900, label, value, 120 if big else 34)
                y += 150 if big else 74
            bx = x0
            for label in v.buttons:
                bx = self.button((bx, y), label, "#1f75cb")[2] + 12
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
            bx = x0 + 260
            for label in v.buttons:
                bx = self.button((bx, VIEW_H - 70), label, "#1f75cb")[2] + 12
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
            self.text(
                (16, y), v.title.split(" | ")[0].split(":")[0] + " " + v.url.rsplit("/", 1)[-1], 13, "#777777"
            )
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
            river.append(
                (river[-1][0] + 120, min(VIEW_H - 20, max(y0 + 20, river[-1][1] + r.randint(-50, 50))))
            )
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
            self.draw.polygon(
                [(px - 90, py - 60), (px + 110, py - 40), (px + 80, py + 70), (px - 70, py + 50)],
                outline="#ff6200",
                fill=None,
            )
            self.draw.line(
                [
                    (px - 90, py - 60),
                    (px + 110, py - 40),
                    (px + 80, py + 70),
                    (px - 70, py + 50),
                    (px - 90, py - 60),
                ],
                fill="#ff6200",
                width=3,
            )
        self.text((VIEW_W - 300, VIEW_H - 22), "© OpenStreetMap contributors", 12, "#555555")


_LAYOUTS: dict[Frame, dict[str, Box]] = {}


def layout(frame: Frame) -> dict[str, Box]:
    """Where the clickable texts of a frame are (cached; the same code path as the real drawing)."""
    if frame not in _LAYOUTS:
        painter = Painter(frame, layout_only=True)
        painter.paint()
        _LAYOUTS[frame] = painter.targets
    return _LAYOUTS[frame]


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


# ---------------------------------------------------------------------------------------------
# Recipes: how an agent solves each task of the sample (real task ids, real expected values)
# ---------------------------------------------------------------------------------------------

FORM_KEY = "qXo2vNfLm7aTk3Zc"  # Magento form key
POSTMILL_TOKEN = "vH4wq0Gk2yJ8mZr1cT6bNs9dLx3pEf7u"
GITLAB_TOKEN = "Y3w9ZbK1qP0tM8rV6nX2sJ4hL7dF5gC0aE1uR3iO9yT2wQ=="


def shop(path: str, title: str, kind: str, **kw: Any) -> View:
    return View("__SHOPPING__" + path, title, kind, **kw)


def adm(path: str, title: str, kind: str, **kw: Any) -> View:
    return View("__SHOPPING_ADMIN__" + path, f"{title} / Magento Admin", kind, **kw)


def forum(path: str, title: str, kind: str, **kw: Any) -> View:
    return View("__REDDIT__" + path, title, kind, **kw)


def gl(path: str, title: str, kind: str, **kw: Any) -> View:
    return View("__GITLAB__" + path, f"{title} · GitLab", kind, **kw)


def osm(path: str, title: str, kind: str, **kw: Any) -> View:
    return View("__MAP__" + path, f"{title} | OpenStreetMap" if title else "OpenStreetMap", kind, **kw)


def wiki(article: str, **kw: Any) -> View:
    return View(f"__WIKIPEDIA__/{WIKI_BOOK}/A/{article}", article.replace("_", " "), "article", **kw)


def click(
    target: str,
    view: View | None = None,
    *,
    why: str = "",
    reqs: Iterable[Req] = (),
    nav: bool = True,
    text: str = "",
) -> Act:
    return Act("click", target=target, view=view, why=why, reqs=tuple(reqs), nav=nav, text=text)


def typ(
    target: str,
    text: str,
    view: View | None = None,
    *,
    why: str = "",
    enter: bool = True,
    reqs: Iterable[Req] = (),
    nav: bool = True,
) -> Act:
    return Act("type", target=target, text=text, view=view, why=why, enter=enter, reqs=tuple(reqs), nav=nav)


def visit(view: View, *, why: str = "") -> Act:
    return Act("visit_url", text=render_url(view.url), view=view, why=why)


def scroll(*, why: str = "", up: bool = False) -> Act:
    return Act("scroll_up" if up else "scroll_down", why=why)


def back(view: View, *, why: str = "") -> Act:
    return Act("back", view=view, why=why)


def memorize(fact: str, *, why: str = "") -> Act:
    return Act("memorize", text=fact, why=why)


def form_post(url: str, body: Mapping[str, Any], redirect: str) -> Req:
    """A classic HTML form submission answered with a redirect (the browser then loads `redirect`)."""
    return Req("POST", url, body, status=302, kind="document", redirect=redirect)


def json_req(
    method: str,
    url: str,
    body: Any,
    *,
    status: int = 200,
    response: Any = None,
    kind: str = "xhr",
    headers: tuple[tuple[str, str], ...] = (),
) -> Req:
    return Req(
        method,
        url,
        json.dumps(body, separators=(",", ":")),
        "application/json",
        status,
        kind,
        response,
        headers=headers,
    )


def uenc(url: str) -> str:
    """Magento's `uenc` parameter: the page URL, base64url with `,` for padding."""
    return base64.urlsafe_b64encode(render_url(url).encode()).decode().replace("=", ",")


def magento_filter(query: str) -> str:
    return base64.b64encode(query.encode()).decode().rstrip("=")


def build_recipes() -> dict[int, Recipe]:
    recipes: list[Recipe] = []
    add = recipes.append

    # -- shopping --------------------------------------------------------------------------
    home = shop("/", "One Stop Market", "home")
    account = shop(
        "/customer/account/",
        "My Account",
        "orders",
        heading="My Account",
        text="Contact Information: Emma Lopez, emma.lopz@gmail.com. Newsletters: not subscribed.",
    )
    head = ("Order #", "Date", "Ship To", "Order Total", "Status", "Action")
    page1 = (
        ("000000189", "5/2/23", "Emma Lopez", "$754.99", "Pending"),
        ("000000188", "5/2/23", "Emma Lopez", "$2,126.32", "Pending"),
        ("000000187", "4/27/23", "Emma Lopez", "$1,004.99", "Pending"),
        ("000000186", "4/19/23", "Emma Lopez", "$21.99", "Pending"),
        ("000000185", "4/12/23", "Emma Lopez", "$215.80", "Pending"),
        ("000000184", "4/5/23", "Emma Lopez", "$194.96", "Pending"),
        ("000000183", "3/30/23", "Emma Lopez", "$67.00", "Pending"),
        ("000000182", "3/25/23", "Emma Lopez", "$45.65", "Pending"),
        ("000000181", "3/17/23", "Emma Lopez", "$40.43", "Pending"),
        ("000000180", "3/11/23", "Emma Lopez", "$65.32", "Complete"),
    )
    page2 = (
        ("000000179", "3/10/23", "Emma Lopez", "$440.64", "Complete"),
        ("000000178", "3/9/23", "Emma Lopez", "$64.13", "Complete"),
        ("000000177", "3/8/23", "Emma Lopez", "$38.99", "Complete"),
        ("000000176", "3/6/23", "Emma Lopez", "$132.20", "Complete"),
        ("000000175", "3/4/23", "Emma Lopez", "$17.44", "Complete"),
        ("000000174", "3/2/23", "Emma Lopez", "$229.95", "Complete"),
        ("000000173", "3/1/23", "Emma Lopez", "$84.50", "Complete"),
        ("000000172", "2/28/23", "Emma Lopez", "$22.35", "Complete"),
        ("000000171", "2/28/23", "Emma Lopez", "$31.10", "Complete"),
        ("000000170", "2/27/23", "Emma Lopez", "$365.42", "Canceled"),
    )
    orders1 = shop(
        "/sales/order/history/",
        "My Orders",
        "orders",
        heading="My Orders",
        rows=(head, *((*r, "View Order") for r in page1)),
        buttons=("Page 2", "Next"),
    )
    orders2 = shop(
        "/sales/order/history/?p=2",
        "My Orders",
        "orders",
        heading="My Orders",
        rows=(head, *((*r, "View Order") for r in page2)),
        buttons=("Page 1", "Previous"),
    )
    foundation = "Zinus 9 Inch Metal Smart Box Spring / Mattress Foundation, Queen"
    order170 = shop(
        "/sales/order/view/order_id/170/",
        "Order # 000000170",
        "order",
        heading="Order # 000000170",
        text="Status: Canceled. Order Date: February 27, 2023. Subtotal $360.42, Shipping & Handling "
        "$5.00, Grand Total $365.42.",
        rows=(
            ("Product Name", "SKU", "Price", "Qty", "Subtotal"),
            (foundation, "B06XKNQ9T5", "$360.42", "Canceled 1", "$360.42"),
        ),
        buttons=("Reorder", "Print Order"),
    )
    to_orders = (
        click(
            "My Account", account, why="My orders are listed in the account area, so I'll open My Account."
        ),
        click(
            "My Orders", orders1, why="I'll open the My Orders tab to see the order history with statuses."
        ),
    )
    add(
        Recipe(
            188,
            home,
            (
                *to_orders,
                scroll(
                    why="The first page shows pending orders and one complete order; I'll look further down."
                ),
                click(
                    "Page 2",
                    orders2,
                    why="No canceled order on this page, so I'll go to page 2 of the order history.",
                ),
                click(
                    "000000170",
                    order170,
                    why="Order 000000170 is the most recent one marked Canceled; I'll open it to "
                    "confirm its total.",
                ),
            ),
            answer=[365.42],
            wrong_answer=[360.42],
            finding="The latest canceled order is #000000170 with a grand total of $365.42.",
            wrong_finding="The canceled order #000000170 cost $360.42.",
        )
    )
    add(
        Recipe(
            191,
            home,
            (
                *to_orders,
                scroll(why="I need an order with status Processing; none so far, I'll keep looking."),
                click("Page 2", orders2, why="I'll check the second page of orders for a Processing status."),
                scroll(why="Still only Complete and Canceled orders here."),
            ),
            answer=None,
            wrong_answer=[754.99],
            finding="None of my orders has the status Processing; all are Pending, Complete or Canceled.",
            wrong_finding="The latest order still being processed is #000000189 with a total of $754.99.",
        )
    )
    add(
        Recipe(
            233,
            home,
            to_orders,
            answer=["000000180"],
            wrong_answer=["000000189"],
            finding="The most recent order with status Complete is order #000000180 (3/11/23).",
            wrong_finding="I could not find any order with the status Complete in the order history.",
        )
    )
    earphone = "wireless earphone"
    q = "/catalogsearch/result/?q=wireless+earphone"
    res = shop(
        q,
        f"Search results for: '{earphone}'",
        "grid",
        heading=f"Search results for: '{earphone}'",
        query=earphone,
    )
    asc = shop(
        "/catalogsearch/result/index/?product_list_order=price&q=wireless+earphone",
        f"Search results for: '{earphone}'",
        "grid",
        heading=f"Search results for: '{earphone}'",
        query=earphone,
        rows=(
            ("Earbuds Replacement Ear Tips, 1 Pair", "$0.01"),
            ("Wired Earphones with Microphone, 3.5mm", "$5.99"),
            ("Bluetooth Earbuds with Charging Case", "$9.99"),
            ("Sport Wireless Earphones, Over-Ear Hooks", "$12.49"),
        ),
    )
    desc = shop(
        "/catalogsearch/result/index/?product_list_dir=desc&product_list_order=price&q=wireless+earphone",
        f"Search results for: '{earphone}'",
        "grid",
        heading=f"Search results for: '{earphone}'",
        query=earphone,
        rows=(
            ("Sony WF-1000XM4 Industry Leading Noise Canceling Truly Wireless Earbuds", "$298.00"),
            ("Jabra Elite 85t True Wireless Earbuds", "$229.99"),
            ("Bose QuietComfort Earbuds", "$199.00"),
        ),
    )
    add(
        Recipe(
            124,
            home,
            (
                typ(
                    "Search entire store here...",
                    earphone,
                    res,
                    why="I'll search the store for wireless earphones.",
                ),
                click(
                    "Sort By", asc, why="Sorting the results by price will give me the cheapest item first."
                ),
                click(
                    "Set Descending Direction",
                    desc,
                    why="Now I'll reverse the order to see the most expensive one.",
                ),
            ),
            answer=[{"min": 0.01, "max": 298.0}],
            wrong_answer=[{"min": 9.99, "max": 298.0}],
            finding="Wireless earphones range from $0.01 to $298.00.",
            wrong_finding="The cheapest real wireless earphones cost $9.99 and the most expensive $298.00.",
        )
    )
    games = shop(
        "/video-games.html",
        "Video Games",
        "grid",
        heading="Video Games",
        buttons=("PlayStation 4", "Xbox One", "Nintendo Switch", "PC"),
    )
    add(
        Recipe(
            260,
            home,
            (
                click("Video Games", games, why="The Video Games category is in the top menu; I'll open it."),
                scroll(why="This is the Video Games category page with the products listed."),
            ),
            finding="The Video Games category page is open.",
        )
    )
    xbox = shop(
        "/catalogsearch/result/?q=xbox",
        "Search results for: 'xbox'",
        "grid",
        heading="Search results for: 'xbox'",
        query="xbox",
    )
    xbox_ctl = shop(
        "/catalogsearch/result/?q=xbox+controller",
        "Search results for: 'xbox controller'",
        "grid",
        heading="Search results for: 'xbox controller'",
        query="xbox controller",
    )
    add(
        Recipe(
            275,
            home,
            (
                typ(
                    "Search entire store here...",
                    "xbox",
                    xbox,
                    why="I'll type xbox into the store search box.",
                ),
            ),
            variants={
                "wrong": (
                    typ(
                        "Search entire store here...",
                        "xbox controller",
                        xbox_ctl,
                        why="I'll search for xbox controllers, which is what people usually look for.",
                    ),
                )
            },
            finding="The search results for 'xbox' are shown.",
        )
    )
    ps4 = shop(
        "/video-games/playstation-4.html",
        "PlayStation 4",
        "grid",
        heading="PlayStation 4",
        buttons=("Accessories", "Consoles", "Games"),
    )
    ps4_acc = shop(
        "/video-games/playstation-4/accessories.html",
        "Accessories - PlayStation 4",
        "grid",
        heading="Accessories",
    )
    ps4_sorted = shop(
        "/video-games/playstation-4/accessories.html?product_list_order=price",
        "Accessories - PlayStation 4",
        "grid",
        heading="Accessories",
    )
    astro = (
        "Astro Gaming A50 Wireless Headset + Base Station Gen 4 - Compatible with PS5, PS4, PC, Mac - "
        "Black/Silver"
    )
    dualshock = "DualShock 4 Wireless Controller for PlayStation 4 - Jet Black"
    ps4_desc = shop(
        "/video-games/playstation-4/accessories.html?product_list_dir=desc&product_list_order=price",
        "Accessories - PlayStation 4",
        "grid",
        heading="Accessories",
        rows=((astro, "$299.99"), (dualshock, "$64.99"), ("PS4 Vertical Stand with Cooling Fan", "$29.99")),
    )
    astro_page = shop(
        "/astro-gaming-a50-wireless-headset-base-station-gen-4-compatible-with-ps5-ps4-pc-mac-black-"
        "silver.html",
        astro,
        "product",
        rows=((astro, "$299.99"),),
    )
    ds_page = shop(
        "/dualshock-4-wireless-controller-for-playstation-4-jet-black.html",
        dualshock,
        "product",
        rows=((dualshock, "$64.99"),),
    )
    ps4_path = (
        click("Video Games", games, why="PS4 accessories should be under Video Games."),
        click("PlayStation 4", ps4, why="I'll narrow down to PlayStation 4."),
        click("Accessories", ps4_acc, why="Now the Accessories subcategory."),
        click("Sort By", ps4_sorted, why="I'll sort by price to find the most expensive accessory."),
        click(
            "Set Descending Direction", ps4_desc, why="Switching to descending order puts the priciest first."
        ),
    )
    open_astro = click(astro, astro_page, why="The Astro A50 headset is the most expensive; I'll open it.")
    add(
        Recipe(
            238,
            home,
            (*ps4_path, open_astro),
            variants={
                "left": (
                    *ps4_path,
                    open_astro,
                    back(ps4_desc, why="Let me go back to the list to double-check no accessory costs more."),
                ),
                "wrong": (
                    *ps4_path,
                    click(
                        dualshock,
                        ds_page,
                        why="The DualShock 4 controller is the most popular accessory; I'll open its page.",
                    ),
                ),
            },
            finding="The product page of the most expensive PS4 accessory (Astro Gaming A50) is open.",
        )
    )
    tide = "Tide PODS Spring Meadow Scent HE Turbo Laundry Detergent Pacs, 81 Count"
    tide_url = "/tide-pods-spring-meadow-scent-he-turbo-laundry-detergent-pacs-81-count.html"
    tide_res = shop(
        "/catalogsearch/result/?q=Tide+PODS+Spring+Meadow",
        "Search results for: 'Tide PODS Spring Meadow'",
        "grid",
        heading="Search results for: 'Tide PODS Spring Meadow'",
        query="Tide PODS Spring Meadow",
        rows=((tide, "$19.99"), ("Tide PODS Free & Gentle, 81 Count", "$21.49")),
    )
    tide_page = shop(tide_url, tide, "product", rows=((tide, "$19.99"),))
    wishlist = shop(
        "/wishlist/index/index/wishlist_id/5/",
        "My Wish List",
        "grid",
        heading="My Wish List",
        banner=f"{tide} has been added to your Wish List.",
        rows=((tide, "$19.99"),),
        text="1 item",
    )
    add(
        Recipe(
            465,
            home,
            (
                typ(
                    "Search entire store here...",
                    "Tide PODS Spring Meadow",
                    tide_res,
                    why="I'll search for the product.",
                ),
                click(tide, tide_page, why="The first result is exactly the 81 count Spring Meadow pack."),
                click(
                    "Add to Wish List",
                    wishlist,
                    why="I'll add it to my wish list.",
                    reqs=(
                        form_post(
                            "__SHOPPING__/wishlist/index/add/",
                            {
                                "product": "71337",
                                "uenc": uenc("__SHOPPING__" + tide_url),
                                "form_key": FORM_KEY,
                            },
                            "__SHOPPING__/wishlist/index/index/wishlist_id/5/",
                        ),
                    ),
                ),
            ),
            finding=f"{tide} is now in my wish list.",
        )
    )
    foundation_url = "/zinus-9-inch-smart-box-spring-mattress-foundation-queen.html"
    foundation_page = shop(foundation_url, foundation, "product", rows=((foundation, "$360.42"),))
    added = replace(foundation_page, banner=f"You added {foundation} to your shopping cart.")
    to_order170 = (
        *to_orders,
        click("Page 2", orders2, why="The cancelled order from February or March 2023 should be on page 2."),
        click(
            "000000170", order170, why="Order 000000170 from 2/27/23 was canceled; let me check its items."
        ),
    )
    add(
        Recipe(
            436,
            home,
            (
                *to_order170,
                click(
                    foundation,
                    foundation_page,
                    why="This is the mattress foundation; I'll open its product page.",
                ),
                click(
                    "Add to Cart",
                    added,
                    nav=False,
                    why="I'll add one to the cart to reorder it.",
                    reqs=(
                        Req(
                            "POST",
                            f"__SHOPPING__/checkout/cart/add/uenc/{uenc('__SHOPPING__' + foundation_url)}"
                            "/product/14854/",
                            {
                                "product": "14854",
                                "selected_configurable_option": "",
                                "related_product": "",
                                "item": "14854",
                                "form_key": FORM_KEY,
                                "qty": "1",
                            },
                            response=[],
                        ),
                    ),
                ),
            ),
            variants={
                # Magento's own "Reorder" link posts to sales/order/reorder: a real reorder, but not the
                # add-to-cart request the task's evaluator looks for.
                "wrong": (
                    *to_order170,
                    click(
                        "Reorder",
                        shop(
                            "/checkout/cart/",
                            "Shopping Cart",
                            "orders",
                            heading="Shopping Cart",
                            rows=(
                                ("Item", "Price", "Qty", "Subtotal"),
                                (foundation, "$360.42", "1", "$360.42"),
                            ),
                            text="1 item",
                        ),
                        why="The order page has a Reorder button; that re-adds its items to the cart.",
                        reqs=(
                            form_post(
                                "__SHOPPING__/sales/order/reorder/order_id/170/",
                                {"form_key": FORM_KEY},
                                "__SHOPPING__/checkout/cart/",
                            ),
                        ),
                    ),
                ),
                "missing": to_order170,
            },
            finding=f"I reordered the {foundation}.",
        )
    )

    # -- shopping_admin ----------------------------------------------------------------------
    dash = adm(
        "/admin/dashboard/",
        "Dashboard",
        "dashboard",
        heading="Dashboard",
        rows=(
            ("Customer", "Items", "Total"),
            ("Jane Doe", "3", "$188.00"),
            ("Alex Thomas", "1", "$39.00"),
            ("Grace Nguyen", "2", "$121.50"),
            ("Lily Potter", "1", "$54.00"),
            ("Sarah Miller", "4", "$212.90"),
        ),
    )

    def flyout(title: str, *items: str) -> View:
        return replace(dash, menu=(title, *items))

    reports_menu = flyout(
        "Reports",
        "Products in Cart",
        "Search Terms",
        "Orders",
        "Tax",
        "Invoiced",
        "Shipping",
        "Refunds",
        "Coupons",
        "Reviews by customers",
        "Bestsellers",
    )
    report_fields = (("From", ""), ("To", ""), ("Order Status", "Any"), ("Period", "Day"))
    report = adm(
        "/reports/report_sales/sales/",
        "Orders Report / Sales / Reports",
        "report",
        heading="Orders Report",
        fields=report_fields,
        buttons=("Show Report",),
        rows=(("Interval", "Orders", "Sales Items", "Sales Total", "Invoiced", "Refunded"),),
    )
    filt = magento_filter(
        "report_from=01/01/2023&report_to=05/31/2023&report_period=month&show_order_statuses=1"
        "&order_statuses[]=complete"
    )
    report_done = adm(
        f"/reports/report_sales/sales/filter/{filt}/",
        "Orders Report / Sales / Reports",
        "report",
        heading="Orders Report",
        buttons=("Show Report",),
        fields=(
            ("From", "01/01/2023"),
            ("To", "05/31/2023"),
            ("Order Status", "Complete"),
            ("Period", "Month"),
        ),
        rows=(
            ("Interval", "Orders", "Sales Items", "Sales Total", "Invoiced", "Refunded"),
            ("1/2023", "12", "26", "$2,016.37", "$2,016.37", "$0.00"),
            ("2/2023", "7", "15", "$1,034.61", "$1,034.61", "$0.00"),
            ("3/2023", "5", "9", "$612.18", "$612.18", "$0.00"),
            ("4/2023", "9", "21", "$1,498.40", "$1,498.40", "$0.00"),
            ("5/2023", "5", "12", "$804.35", "$804.35", "$0.00"),
            ("Total", "38", "83", "$5,965.91", "$5,965.91", "$0.00"),
        ),
    )
    add(
        Recipe(
            108,
            dash,
            (
                click(
                    "Reports", reports_menu, nav=False, why="Order counts per month are in the Reports menu."
                ),
                click(
                    "Orders", report, why="The Orders report under Sales can group completed orders by month."
                ),
                typ("From", "01/01/2023", enter=False, why="I'll set the start date to January 1, 2023."),
                typ("To", "05/31/2023", enter=False, why="And the end date to May 31, 2023."),
                typ("Order Status", "Complete", enter=False, why="Only completed orders should be counted."),
                typ("Period", "Month", enter=False, why="The report should be grouped by month."),
                click("Show Report", report_done, why="Now I'll run the report."),
            ),
            answer=[
                {"month": "January", "count": 12},
                {"month": "February", "count": 7},
                {"month": "March", "count": 5},
                {"month": "April", "count": 9},
                {"month": "May", "count": 5},
            ],
            wrong_answer=[
                {"month": "January", "count": 12},
                {"month": "February", "count": 7},
                {"month": "March", "count": 5},
                {"month": "April", "count": 9},
            ],
            finding="Completed orders per month: January 12, February 7, March 5, April 9, May 5.",
        )
    )
    marketing_menu = flyout(
        "Marketing",
        "Catalog Price Rule",
        "Cart Price Rules",
        "Email Templates",
        "Newsletter Queue",
        "All Reviews",
        "Pending Reviews",
        "URL Rewrites",
        "Search Terms",
    )
    reviews = adm(
        "/review/product/",
        "Reviews / Customer Reviews / Reviews / Marketing",
        "grid",
        heading="Reviews",
        rows=(("ID", "Created", "Status", "Title", "Nickname", "Review"),),
    )
    found = (
        ("352", "Apr 24, 2023", "Approved", "Not what I hoped", "Valorie", "I was disappointed with the fit"),
        ("318", "Apr 19, 2023", "Approved", "Runs small", "Merrie", "Really disappointed, had to return it"),
        ("301", "Apr 19, 2023", "Approved", "Meh", "Chang", "A bit disappointed by the fabric"),
        ("276", "Apr 19, 2023", "Approved", "Color faded", "Josefina", "Disappointed after one wash"),
        (
            "207",
            "Apr 19, 2023",
            "Approved",
            "Zipper broke",
            "Lavinia",
            "Disappointed, zipper broke in a week",
        ),
        ("118", "Apr 19, 2023", "Approved", "Too thin", "Rick", "Disappointed that it is see-through"),
    )
    reviews_found = adm(
        f"/review/product/index/filter/{magento_filter('detail=disappointed')}/",
        "Reviews / Customer Reviews / Reviews / Marketing",
        "grid",
        heading="Reviews",
        query="disappointed",
        text="6 records found",
        rows=(("ID", "Created", "Status", "Title", "Nickname", "Review"), *found),
    )
    add(
        Recipe(
            11,
            dash,
            (
                click(
                    "Marketing", marketing_menu, nav=False, why="Product reviews are managed under Marketing."
                ),
                click("All Reviews", reviews, why="I'll open the list of all reviews."),
                typ(
                    "Search by keyword",
                    "disappointed",
                    reviews_found,
                    why="I'll filter the reviews by the term 'disappointed'.",
                ),
            ),
            answer=[6],
            wrong_answer=[5],
            finding="6 reviews mention 'disappointed'.",
            wrong_finding="5 reviews mention 'disappointed'.",
        )
    )
    sales_menu = flyout(
        "Sales",
        "Orders",
        "Invoices",
        "Shipments",
        "Credit Memos",
        "Billing Agreements",
        "Transactions",
        "Braintree Virtual Terminal",
    )
    order_head = ("ID", "Bill-to Name", "Grand Total", "Status", "Action")
    orders = adm("/sales/order/", "Orders / Operations / Sales", "grid", heading="Orders", rows=(order_head,))
    canceled = adm(
        "/sales/order/",
        "Orders / Operations / Sales",
        "grid",
        heading="Orders",
        query="canceled",
        text="41 records found",
        rows=(
            order_head,
            ("000000296", "Lucy Garcia", "$89.00", "Canceled", "View"),
            ("000000287", "Jennifer White", "$202.75", "Canceled", "View"),
            ("000000261", "Lucy Garcia", "$61.00", "Canceled", "View"),
            ("000000240", "Lucy Garcia", "$145.20", "Canceled", "View"),
            ("000000233", "Jennifer White", "$88.00", "Canceled", "View"),
            ("000000198", "Lucy Garcia", "$39.00", "Canceled", "View"),
            ("000000164", "Lucy Garcia", "$107.40", "Canceled", "View"),
            ("000000121", "Jennifer White", "$55.00", "Canceled", "View"),
        ),
    )
    customers_menu = flyout(
        "Customers", "All Customers", "Now Online", "Login as Customer Log", "Customer Groups"
    )
    cust_head = ("ID", "Name", "Email", "Group", "Phone", "ZIP", "State/Province")
    customers = adm(
        "/customer/index/", "Customers / Customers", "grid", heading="Customers", rows=(cust_head,)
    )
    lucy = adm(
        "/customer/index/",
        "Customers / Customers",
        "grid",
        heading="Customers",
        query="Lucy Garcia",
        text="1 records found",
        rows=(
            cust_head,
            ("27", "Lucy Garcia", "coolcat321@hotmail.com", "General", "5552293326", "90012", "California"),
        ),
    )
    add(
        Recipe(
            288,
            dash,
            (
                click("Sales", sales_menu, nav=False, why="I'll look at the orders under Sales."),
                click("Orders", orders, why="Opening the order grid."),
                typ(
                    "Search by keyword",
                    "canceled",
                    canceled,
                    why="I'll filter the orders to the canceled ones.",
                    nav=False,
                    reqs=(
                        Req(
                            "GET",
                            "__SHOPPING_ADMIN__/mui/index/render/?namespace=sales_order_grid"
                            "&search=canceled&isAjax=true",
                            response={"totalRecords": 41},
                        ),
                    ),
                ),
                scroll(
                    why="Lucy Garcia appears on most of the canceled orders; I'll check the rest of the list."
                ),
                click(
                    "Customers", customers_menu, nav=False, why="Now I need her email from the customer grid."
                ),
                click("All Customers", customers, why="Opening all customers."),
                typ(
                    "Search by keyword",
                    "Lucy Garcia",
                    lucy,
                    nav=False,
                    why="I'll search for Lucy Garcia.",
                    reqs=(
                        Req(
                            "GET",
                            "__SHOPPING_ADMIN__/mui/index/render/?namespace=customer_listing&search=Lucy%20Garcia"
                            "&isAjax=true",
                            response={"totalRecords": 1},
                        ),
                    ),
                ),
            ),
            answer=["coolcat321@hotmail.com"],
            wrong_answer=["jennifer.white@yahoo.com"],
            finding="Lucy Garcia has the most canceled orders; her email is coolcat321@hotmail.com.",
            wrong_finding="Jennifer White has the most cancellations; her email is jennifer.white@yahoo.com.",
        )
    )
    add(
        Recipe(
            157,
            dash,
            (
                click(
                    "Customers",
                    customers_menu,
                    nav=False,
                    why="Customer details are under the Customers menu.",
                ),
                click(
                    "All Customers", customers, why="'All Customers' lists every customer with their details."
                ),
            ),
            wrong_answer=["Jane Doe", "Sarah Miller", "Alex Thomas", "Grace Nguyen", "Lily Potter"],
            finding="The All Customers grid is open.",
        )
    )
    content_menu = flyout(
        "Content", "Pages", "Blocks", "Widgets", "Templates", "Configuration", "Themes", "Schedule"
    )
    themes = adm(
        "/admin/system_design_theme/",
        "Themes / Design / Content",
        "grid",
        heading="Themes",
        text="3 records",
        rows=(
            ("Theme Title", "Parent Theme", "Theme Path", "Action"),
            ("Magento Blank", "", "Magento/blank", "Edit"),
            ("Magento Luma", "Magento Blank", "Magento/luma", "Edit"),
        ),
    )

    def theme(tid: int, name: str) -> View:
        return adm(
            f"/admin/system_design_theme/edit/id/{tid}/",
            f"{name} / Themes / Design / Content",
            "form",
            heading=name,
            buttons=("Back", "Reset", "Save and Continue Edit", "Save"),
            fields=(("Theme Title", name), ("Theme Preview", "preview_image.jpg")),
        )

    to_themes = (
        click("Content", content_menu, nav=False, why="Themes are configured under Content > Design."),
        click("Themes", themes, why="I'll open the Themes list."),
    )
    add(
        Recipe(
            374,
            dash,
            (
                *to_themes,
                click("Magento Blank", theme(1, "Magento Blank"), why="I'll open the Magento Blank theme."),
            ),
            variants={
                "wrong": (
                    *to_themes,
                    click(
                        "Magento Luma",
                        theme(3, "Magento Luma"),
                        why="Luma is based on Blank; I'll open its settings.",
                    ),
                )
            },
            finding="The Magento Blank theme settings page is open.",
        )
    )

    def order_view(oid: int, name: str, status: str, **kw: Any) -> View:
        return adm(
            f"/sales/order/view/order_id/{oid}/",
            f"#000000{oid} / Orders / Operations / Sales",
            "order",
            heading=f"#000000{oid}",
            buttons=("Back", "Login as Customer", "Cancel", "Send Email", "Hold", "Invoice", "Ship", "Edit"),
            rows=(
                ("Order Date", "Order Status", "Purchased From", "Customer Name"),
                ("Apr 19, 2023", status, "Main Website", name),
            ),
            **kw,
        )

    def cancel_path(oid: int) -> tuple[Act, ...]:
        found_rows = (
            order_head,
            (f"000000{oid}", "Jane Doe" if oid == 302 else "Alex Thomas", "$47.00", "Pending", "View"),
        )
        hit = adm(
            "/sales/order/",
            "Orders / Operations / Sales",
            "grid",
            heading="Orders",
            query="302",
            text="2 records found",
            rows=(
                order_head,
                ("000000302", "Jane Doe", "$47.00", "Pending", "View"),
                ("000000301", "Alex Thomas", "$302.00", "Pending", "View"),
            ),
        )
        view = order_view(oid, str(found_rows[1][1]), "Pending")
        return (
            click("Sales", sales_menu, nav=False, why="I'll go to Sales > Orders."),
            click("Orders", orders, why="Opening the order grid."),
            typ(
                "Search by keyword",
                "302",
                hit,
                nav=False,
                why="I'll search for order 302.",
                reqs=(
                    Req(
                        "GET",
                        "__SHOPPING_ADMIN__/mui/index/render/?namespace=sales_order_grid&search=302"
                        "&isAjax=true",
                        response={"totalRecords": 1},
                    ),
                ),
            ),
            click(
                f"000000{oid}",
                view,
                why=f"I'll open order 000000{oid}."
                if oid == 302
                else "Two orders match; I'll open the one whose total also matches 302.",
            ),
            click(
                "Cancel",
                replace(view, dialog=("Are you sure you want to cancel this order?", "Cancel", "OK")),
                nav=False,
                why="I'll press Cancel to cancel the order.",
            ),
            click(
                "OK",
                order_view(oid, str(found_rows[1][1]), "Canceled", banner="You canceled the order."),
                why="Confirming the cancellation.",
                reqs=(
                    form_post(
                        f"__SHOPPING_ADMIN__/sales/order/cancel/order_id/{oid}/",
                        {"form_key": FORM_KEY},
                        f"__SHOPPING_ADMIN__/sales/order/view/order_id/{oid}/",
                    ),
                ),
            ),
        )

    add(
        Recipe(
            470,
            dash,
            cancel_path(302),
            variants={"wrong": cancel_path(301)},
            finding="Order 302 is canceled.",
        )
    )
    product_fields = (
        ("Enable Product", "Yes"),
        ("Attribute Set", "Top"),
        ("Product Name", "Gabrielle Micro Sleeve Top"),
        ("SKU", "WS02"),
        ("Price", "32.00"),
        ("Tax Class", "Taxable Goods"),
        ("Quantity", "100"),
    )
    product = adm(
        "/catalog/product/edit/id/1481/",
        "Gabrielle Micro Sleeve Top / Products / Inventory / Catalog",
        "form",
        heading="Gabrielle Micro Sleeve Top",
        fields=product_fields,
        buttons=("Back", "Add Attribute", "Save"),
    )

    def save_price(price: str) -> tuple[Act, ...]:
        saved = replace(
            product,
            banner="You saved the product.",
            fields=tuple((k, price if k == "Price" else v) for k, v in product_fields),
        )
        body = {
            "product[status]": "1",
            "product[name]": "Gabrielle Micro Sleeve Top",
            "product[sku]": "WS02",
            "product[price]": price,
            "product[tax_class_id]": "2",
            "product[quantity_and_stock_status][qty]": "100",
            "product[visibility]": "4",
            "form_key": FORM_KEY,
        }
        return (
            typ(
                "Price",
                price,
                enter=False,
                why=f"The price is $32.00; reduced by $5 it is {price}. I'll type it.",
            ),
            click(
                "Save",
                saved,
                why="Saving the product.",
                reqs=(
                    form_post(
                        "__SHOPPING_ADMIN__/catalog/product/save/id/1481/type/configurable/store/0/set/9"
                        "/back/edit",
                        body,
                        "__SHOPPING_ADMIN__/catalog/product/edit/id/1481/",
                    ),
                ),
            ),
        )

    add(
        Recipe(
            458,
            product,
            save_price("27.00"),
            variants={"wrong": save_price("22.00")},
            finding="The price is now $27.00.",
        )
    )
    pages = adm(
        "/cms/page/",
        "Pages / Elements / Content",
        "grid",
        heading="Pages",
        text="5 records found",
        rows=(
            ("ID", "Title", "URL Key", "Layout", "Status", "Action"),
            ("1", "404 Not Found", "no-route", "2 columns with right bar", "Enabled", "Select"),
            ("2", "Home Page", "home", "1 column", "Enabled", "Select"),
            ("3", "Enable Cookies", "enable-cookies", "1 column", "Enabled", "Select"),
            (
                "4",
                "Privacy Policy",
                "privacy-policy-cookie-restriction-mode",
                "1 column",
                "Enabled",
                "Select",
            ),
            ("5", "About us", "about-us", "1 column", "Enabled", "Select"),
        ),
    )
    page_fields = (
        ("Enable Page", "Yes"),
        ("Page Title", "Enable Cookies"),
        ("Content Heading", "What are Cookies?"),
        ("URL Key", "enable-cookies"),
    )
    cookie_page = adm(
        "/cms/page/edit/page_id/3/",
        "Enable Cookies / Pages / Elements / Content",
        "form",
        heading="Enable Cookies",
        fields=page_fields,
        buttons=("Back", "Delete Page", "Save"),
    )
    new_title = "Cookie monster coming to your place"
    add(
        Recipe(
            487,
            dash,
            (
                click("Content", content_menu, nav=False, why="CMS pages are under Content."),
                click("Pages", pages, why="I'll open Pages."),
                click("Enable Cookies", cookie_page, why="This is the 'Enable Cookies' page; I'll edit it."),
                typ("Page Title", new_title, enter=False, why="I'll replace the title."),
                click(
                    "Save",
                    replace(
                        cookie_page,
                        heading=new_title,
                        banner="You saved the page.",
                        fields=(
                            ("Enable Page", "Yes"),
                            ("Page Title", new_title),
                            ("Content Heading", "What are Cookies?"),
                            ("URL Key", "enable-cookies"),
                        ),
                    ),
                    why="Saving the page.",
                    reqs=(
                        form_post(
                            "__SHOPPING_ADMIN__/cms/page/save/back/edit",
                            {
                                "is_active": "1",
                                "title": new_title,
                                "content_heading": "What are Cookies?",
                                "identifier": "enable-cookies",
                                "store_id[0]": "0",
                                "page_layout": "1column",
                                "page_id": "3",
                                "form_key": FORM_KEY,
                            },
                            "__SHOPPING_ADMIN__/cms/page/edit/page_id/3/",
                        ),
                    ),
                ),
            ),
            finding=f"The 'Enable Cookies' page is now titled '{new_title}'.",
        )
    )
    message = "sorry we are out of stock, please reorder"
    jane = adm(
        "/sales/order/",
        "Orders / Operations / Sales",
        "grid",
        heading="Orders",
        query="Jane Doe",
        text="4 records found",
        rows=(
            order_head,
            ("000000302", "Jane Doe", "$47.00", "Pending", "View"),
            ("000000279", "Jane Doe", "$138.00", "Complete", "View"),
            ("000000205", "Jane Doe", "$64.00", "Pending", "View"),
            ("000000114", "Jane Doe", "$222.70", "Complete", "View"),
        ),
    )
    note_fields = (("Status", "Pending"), ("Comment", ""), ("Notify Customer by Email", "[ ]"))
    order302 = order_view(302, "Jane Doe", "Pending", fields=note_fields)
    to_comment = (
        click("Sales", sales_menu, nav=False, why="I'll find Jane Doe's orders under Sales > Orders."),
        click("Orders", orders, why="Opening the order grid."),
        typ(
            "Search by keyword",
            "Jane Doe",
            jane,
            nav=False,
            why="Searching for Jane Doe.",
            reqs=(
                Req(
                    "GET",
                    "__SHOPPING_ADMIN__/mui/index/render/?namespace=sales_order_grid&search=Jane%20Doe"
                    "&isAjax=true",
                    response={"totalRecords": 4},
                ),
            ),
        ),
        click("000000302", order302, why="000000302 is her most recent pending order."),
        typ("Comment", message, enter=False, why="I'll write the message in the order comment box."),
        click(
            "Notify Customer by Email",
            text="[x]",
            why="The customer must be notified, so I'll tick this box.",
        ),
    )
    add(
        Recipe(
            492,
            dash,
            (
                *to_comment,
                click(
                    "Submit Comment",
                    replace(order302, text=f"Customer Notified: {message}"),
                    nav=False,
                    why="Submitting the comment.",
                    reqs=(
                        Req(
                            "POST",
                            "__SHOPPING_ADMIN__/sales/order/addComment/order_id/302/?isAjax=true",
                            {
                                "history[status]": "pending",
                                "history[comment]": message,
                                "history[is_customer_notified]": "1",
                                "history[is_visible_on_front]": "0",
                                "form_key": FORM_KEY,
                            },
                        ),
                    ),
                ),
            ),
            variants={"missing": to_comment},
            finding="Jane Doe was notified on order 000000302.",
        )
    )

    # -- reddit (Postmill) ----------------------------------------------------------------------
    fhome = forum("/", "Postmill", "list", heading="")
    forums = forum(
        "/forums",
        "List of forums",
        "table",
        heading="List of forums",
        rows=(
            ("Forum", "Title", "Submissions"),
            ("AskReddit", "AskReddit", "3,814"),
            ("books", "books", "1,295"),
            ("consoles", "consoles", "604"),
            ("DIY", "DIY", "1,040"),
            ("personalfinance", "Personal Finance", "2,031"),
            ("space", "space", "1,544"),
            ("Worcester", "Worcester", "312"),
        ),
    )
    pf_title = "56 year old mom has no retirement. Where do I even start on her behalf?"
    pf_new = forum(
        "/f/personalfinance/new",
        "/f/personalfinance",
        "list",
        heading="/f/personalfinance",
        rows=(
            (pf_title, "Hammer94", "4 comments", "3"),
            ("Is it worth refinancing at 6.2%?", "tealeaf77", "11 comments", "5"),
            ("First paycheck: how much should go to the 401k?", "PixelPilot", "8 comments", "12"),
        ),
    )
    pf_post = forum(
        "/f/personalfinance/129816/56-year-old-mom-has-no-retirement-where-do-i-even-start-on-her",
        f"{pf_title} : personalfinance",
        "post",
        heading=pf_title,
        text="My mom is 56, recently divorced and has essentially nothing saved for retirement. She owns "
        "a small house with a mortgage and works part time. Where should she even start?",
        rows=(
            (
                "quietriver  +34 / -0",
                "Start with an emergency fund, then max out the catch-up "
                "contributions she is allowed after 50.",
            ),
            ("tealeaf77  +12 / -1", "Look at when she can claim Social Security; delaying matters."),
            ("Hammer94  +5 / -0", "Thanks, this is really helpful."),
            ("rustyspoon  +3 / -2", "Downsizing the house could free up a lot of equity."),
        ),
    )
    pf = forum("/f/personalfinance", "/f/personalfinance", "list", heading="/f/personalfinance")
    add(
        Recipe(
            27,
            fhome,
            (
                click("Forums", forums, why="I'll open the list of forums to find personal finance."),
                click("personalfinance", pf, why="This is the personal finance forum."),
                click("New", pf_new, why="Sorting by New shows the most recent post first."),
                click(
                    pf_title,
                    pf_post,
                    why="The newest post is by Hammer94; I'll open it to check the comments.",
                ),
                scroll(why="Every comment not from the author has more upvotes than downvotes."),
            ),
            answer=[{"username": "Hammer94", "post_title": pf_title, "count": 0}],
            wrong_answer=[{"username": "Hammer94", "post_title": pf_title, "count": 1}],
            finding=f"The most recent post is '{pf_title}' by Hammer94; no other commenter's comment has "
            "more downvotes than upvotes.",
        )
    )
    hobbit = "I just finished reading The Hobbit to my 6 year old daughter, and she loved it!"
    carol = "Apple Books has a free audiobook of A Christmas Carol narrated by LeVar Burton!"
    books_rows = (
        (
            "The letters of T.S. Eliot to Emily Hale that were kept sealed for 60 years are now public",
            "Icy-Mortgage",
            "132 comments",
            "1563",
        ),
        ("Friendly reminder bookshop.org exists.", "bookworm_22", "84 comments", "1204"),
        (hobbit, "jmvanhorn", "56 comments", "987"),
        (
            "Which book do you wish you could read again for the first time?",
            "quietriver",
            "412 comments",
            "876",
        ),
        ("Books that made you cry? I need recommendations", "tealeaf77", "233 comments", "640"),
        ("Is it just me or do physical books smell amazing?", "PixelPilot", "97 comments", "611"),
        (carol, "rustyspoon", "31 comments", "598"),
        ("Recommend me a long fantasy series", "Dhghomon", "305 comments", "544"),
        ("I've read 100 books this year. Here are my ten favorites", "Proud_Idiot", "120 comments", "512"),
        ("Best translations of Dostoevsky?", "mineinhusdson", "66 comments", "498"),
    )
    books = forum("/f/books", "/f/books", "list", heading="/f/books", rows=books_rows)
    hobbit_post = forum(
        "/f/books/59447/i-just-finished-reading-the-hobbit-to-my-6-year-old-daughter-and",
        hobbit,
        "post",
        heading=hobbit,
        text="We read a chapter every night. She did all the voices for Gollum herself by the end.",
        rows=(("quietriver", "That's wonderful! The Hobbit is perfect for reading aloud."),),
    )
    carol_post = forum(
        "/f/books/81352/apple-books-has-a-free-audiobook-of-a-christmas-carol-narrated",
        carol,
        "post",
        heading=carol,
        text="LeVar Burton reading Dickens. That's it, that's the post.",
        rows=(("tealeaf77", "Reading Rainbow forever."),),
    )
    add(
        Recipe(
            66,
            fhome,
            (
                click("Forums", forums, why="I'll find the Books forum in the forum list."),
                click("books", books, why="The books forum is sorted by Hot by default."),
                click(hobbit, hobbit_post, why="This post is about one book, The Hobbit; let me check it."),
                back(books, why="It recommends exactly one book. Back to the list."),
                click(carol, carol_post, why="This one is about A Christmas Carol only."),
                back(
                    books,
                    why="Also exactly one book. The others are general questions or lists of several books.",
                ),
            ),
            answer=[hobbit, carol],
            wrong_answer=[hobbit, carol, "Recommend me a long fantasy series"],
            finding="Two of the ten hottest posts recommend exactly one book: The Hobbit, A Christmas Carol.",
        )
    )
    missing_forum = forum(
        "/f/iphone13",
        "Page not found",
        "page",
        heading="Page not found",
        text="The forum you were looking for does not exist.",
    )
    search_user = forum(
        "/search?q=FTorrez81",
        'Search results for "FTorrez81"',
        "list",
        heading="Search",
        query="FTorrez81",
        text="No results found.",
    )
    add(
        Recipe(
            723,
            fhome,
            (
                visit(missing_forum, why="I'll go straight to the iphone13 forum."),
                typ(
                    "Search query",
                    "FTorrez81",
                    search_user,
                    why="The forum doesn't exist; I'll search for the user.",
                ),
                click("Forums", forums, why="Let me double check the forum list for an iPhone forum."),
            ),
            answer=None,
            wrong_answer=None,
            finding="There is no forum iphone13 and no submission by FTorrez81, so nothing to like.",
        )
    )
    me = forum(
        "/user/MarvelsGrantMan136",
        "MarvelsGrantMan136",
        "page",
        heading="MarvelsGrantMan136",
        text="Registered 2 years ago. Biography: (none)",
        buttons=("Edit biography", "Submissions", "Comments"),
    )
    bio_form = forum(
        "/user/MarvelsGrantMan136/edit_biography",
        "Edit biography",
        "form",
        heading="Edit biography",
        fields=(("Biography", ""),),
        buttons=("Save",),
    )
    add(
        Recipe(
            399,
            fhome,
            (
                click("MarvelsGrantMan136", me, why="The bio is on my user page."),
                click("Edit biography", bio_form, why="There is an 'Edit biography' link."),
                typ("Biography", "I am a robot", enter=False, why="I'll enter the new bio."),
                click(
                    "Save",
                    replace(me, text="Registered 2 years ago. Biography: I am a robot"),
                    why="Saving.",
                    reqs=(
                        form_post(
                            "__REDDIT__/user/MarvelsGrantMan136/edit_biography",
                            {
                                "user_biography[biography]": "I am a robot",
                                "user_biography[_token]": POSTMILL_TOKEN,
                            },
                            "__REDDIT__/user/MarvelsGrantMan136",
                        ),
                    ),
                ),
            ),
            finding="My biography now reads 'I am a robot'.",
        )
    )
    newest = "Just finished Project Hail Mary and I need to talk about it"
    second = "What are you reading this week? (June 2023)"
    books_new = forum(
        "/f/books/new",
        "/f/books",
        "list",
        heading="/f/books",
        rows=((newest, "tealeaf77", "2 comments", "1"), (second, "bookworm_22", "17 comments", "4")),
    )

    def upvote(title: str, sid: int, why: str) -> tuple[Act, ...]:
        rows = tuple(
            (r[0], r[1], r[2], str(int(r[3]) + 1) if r[0] == title else r[3]) for r in books_new.rows
        )
        return (
            click("Forums", forums, why="I'll open the forum list."),
            click("books", books, why="Here is the books forum."),
            click("New", books_new, why="Sorting by New to find the newest post."),
            click(
                f"upvote {title}",
                replace(books_new, rows=rows),
                nav=False,
                why=why,
                reqs=(
                    Req(
                        "POST",
                        f"__REDDIT__/sv/{sid}.json",
                        {"token": POSTMILL_TOKEN, "choice": "1"},
                        response={"netScore": int(rows[0 if title == newest else 1][3])},
                    ),
                ),
            ),
        )

    add(
        Recipe(
            404,
            fhome,
            upvote(newest, 124260, "The newest post is at the top; I'll click its upvote arrow."),
            variants={"wrong": upvote(second, 124259, "I'll upvote the newest discussion thread.")},
            finding="I upvoted the newest post in /f/books.",
        )
    )
    sidebar = "**New**, Classic, *Movies*, Post my novel, Random"
    create = forum(
        "/create_forum",
        "Create forum",
        "form",
        heading="Create forum",
        fields=(("Name", ""), ("Title", ""), ("Description", ""), ("Sidebar", "")),
        buttons=("Create",),
    )
    scifi = forum(
        "/f/sci_fi", "/f/sci_fi", "list", heading="/f/sci_fi", text="There are no submissions here yet."
    )

    def create_forum(side: str) -> tuple[Act, ...]:
        return (
            click("Create forum", create, why="There is a 'Create forum' link in the top bar."),
            typ("Name", "sci_fi", enter=False, why="Filling in the name."),
            typ("Title", "sci_fi", enter=False, why="The title is the same as the name."),
            typ(
                "Description", "A wild place for sci-fi enthusiasts", enter=False, why="Now the description."
            ),
            typ("Sidebar", side, enter=False, why="And the sidebar text."),
            click(
                "Create",
                scifi,
                why="Creating the forum.",
                reqs=(
                    form_post(
                        "__REDDIT__/create_forum",
                        {
                            "forum[name]": "sci_fi",
                            "forum[title]": "sci_fi",
                            "forum[description]": "A wild place for sci-fi enthusiasts",
                            "forum[sidebar]": side,
                            "forum[_token]": POSTMILL_TOKEN,
                        },
                        "__REDDIT__/f/sci_fi",
                    ),
                ),
            ),
        )

    add(
        Recipe(
            580,
            fhome,
            create_forum(sidebar),
            variants={"wrong": create_forum("New, Classic, Movies, Post my novel, Random")},
            finding="The forum sci_fi was created.",
        )
    )
    question = "what is the recommended console to buy these days?"
    submit = forum(
        "/submit",
        "Create submission",
        "form",
        heading="Create submission",
        fields=(("URL", ""), ("Title", ""), ("Body", ""), ("Forum", "Choose one")),
        buttons=("Create submission",),
    )
    posted = forum(
        "/f/consoles/137524/what-is-the-recommended-console-to-buy-these-days",
        question,
        "post",
        heading=question,
        text="",
        rows=(),
    )
    add(
        Recipe(
            600,
            fhome,
            (
                click("Forums", forums, why="I'll check which forum fits a console question."),
                click(
                    "Submit",
                    submit,
                    why="The consoles forum is the right place. I'll open the submission form.",
                ),
                typ("Title", question, enter=False, why="Typing the title."),
                typ("Forum", "consoles", enter=False, why="Choosing the consoles forum."),
                click(
                    "Create submission",
                    posted,
                    why="Posting.",
                    reqs=(
                        form_post(
                            "__REDDIT__/submit",
                            {
                                "submission[url]": "",
                                "submission[title]": question,
                                "submission[body]": "",
                                "submission[forum]": "10039",
                                "submission[_token]": POSTMILL_TOKEN,
                            },
                            "__REDDIT__/f/consoles/137524/what-is-the-recommended-console-to-buy-these-days",
                        ),
                    ),
                ),
            ),
            finding="The question is posted in /f/consoles.",
        )
    )

    # -- gitlab ------------------------------------------------------------------------------------
    ghome = gl(
        "/",
        "Projects · Dashboard",
        "list",
        heading="Projects",
        buttons=("Yours", "Personal", "Starred"),
        rows=(
            ("a11yproject / a11yproject.com", "Maintainer", "updated 1 year ago"),
            ("primer / design", "Developer", "updated 1 year ago"),
            ("byteblaze / gimmiethat.space", "Owner", "updated 1 year ago"),
            ("yjlou / 2019-nCov", "Developer", "updated 2 years ago"),
            ("byteblaze / millennials-to-snake-people", "Owner", "updated 2 years ago"),
        ),
    )
    personal_rows = (
        ("byteblaze / a11y-webring.club", "1 star", "updated 1 year ago"),
        ("byteblaze / millennials-to-snake-people", "4 stars", "updated 2 years ago"),
        ("byteblaze / dotfiles", "0 stars", "updated 2 years ago"),
        ("byteblaze / a11y-syntax-highlighting", "4 stars", "updated 2 years ago"),
        ("byteblaze / cloud-to-butt", "2 stars", "updated 3 years ago"),
    )
    personal = gl(
        "/dashboard/projects/personal",
        "Personal · Projects · Dashboard",
        "list",
        heading="Projects",
        buttons=("Yours", "Personal", "Starred", "Most stars"),
        rows=personal_rows,
        text="5 projects",
    )
    by_stars = replace(
        personal,
        url="__GITLAB__/dashboard/projects/personal?sort=stars_desc",
        rows=tuple(sorted(personal_rows, key=lambda r: -int(r[1].split()[0]))),
    )

    def project(slug: str, pid: int, stars: int) -> View:
        return gl(
            f"/byteblaze/{slug}",
            f"byteblaze / {slug}",
            "project",
            text=f"Project ID: {pid}",
            buttons=(f"Star {stars}", "Fork 0", "Clone"),
        )

    to_stars = (
        click("Personal", personal, why="I only need my personal projects."),
        click("Most stars", by_stars, why="Sorting them by number of stars."),
    )
    add(
        Recipe(
            169,
            ghome,
            (
                *to_stars,
                click(
                    "byteblaze / millennials-to-snake-people",
                    project("millennials-to-snake-people", 187, 4),
                    why="Two projects are tied with 4 stars; I need their IDs.",
                ),
                back(by_stars, why="Project ID 187. Now the other one."),
                click(
                    "byteblaze / a11y-syntax-highlighting",
                    project("a11y-syntax-highlighting", 183, 4),
                    why="Opening the second project with 4 stars.",
                ),
            ),
            answer=[187, 183],
            wrong_answer=[187],
            finding="The most starred personal projects (4 stars each) have IDs 187 and 183.",
            wrong_finding="My most starred personal project has ID 187.",
        )
    )
    add(
        Recipe(
            168,
            ghome,
            (*to_stars, scroll(why="The highest star count among my personal projects is 4.")),
            answer=None,
            wrong_answer=[187],
            finding="None of my personal projects has more than 100 stars; the most starred has 4.",
            wrong_finding="The project with the most stars is 187.",
        )
    )
    profile = gl(
        "/-/profile",
        "Edit Profile · User Settings",
        "settings",
        heading="Edit Profile",
        fields=(("Full name", "Byte Blaze"), ("Email", "byteblaze@gmail.com")),
        buttons=("Access Tokens", "Preferences", "Update profile settings"),
    )
    tokens = gl(
        "/-/profile/personal_access_tokens",
        "Personal Access Tokens · User Settings",
        "settings",
        heading="Personal Access Tokens",
        text="Your feed token authenticates you when your RSS reader loads a personalized RSS feed.",
        fields=(("Feed token", "TMN_bBn9Z48qVbUFZV45"), ("Incoming email token", "c2f1b7e4d0a98e3f")),
        buttons=("Reset this token",),
    )
    add(
        Recipe(
            259,
            ghome,
            (
                click(
                    "byteblaze",
                    replace(
                        ghome,
                        menu=(
                            "Byte Blaze @byteblaze",
                            "Set status",
                            "Edit profile",
                            "Preferences",
                            "Sign out",
                        ),
                    ),
                    nav=False,
                    why="Tokens are in the user settings; I'll open the avatar menu.",
                ),
                click("Edit profile", profile, why="Edit profile leads to the user settings."),
                click("Access Tokens", tokens, why="The feed token is shown on the Access Tokens page."),
            ),
            answer=["TMN_bBn9Z48qVbUFZV45"],
            wrong_answer=["c2f1b7e4d0a98e3f"],
            finding="My RSS feed token is TMN_bBn9Z48qVbUFZV45.",
        )
    )
    todos = gl(
        "/dashboard/todos",
        "To-Do List",
        "list",
        heading="To-Do List",
        buttons=("To Do 5", "Done"),
        rows=(
            ("Byte Blaze mentioned you on issue #8 'Add RSS link'", "a11y-webring.club", "1 year ago"),
            ("Review requested on !23 'Fix focus outline'", "a11yproject.com", "1 year ago"),
        ),
    )
    add(
        Recipe(
            44,
            ghome,
            (click("To-Do List", todos, why="The To-Do List link is in the top bar."),),
            finding="My To-Do List is open.",
        )
    )
    mr_menu = replace(ghome, menu=("Merge requests", "Assigned to you 4", "Review requests for you 2"))

    def mr_list(param: str) -> View:
        return gl(
            f"/dashboard/merge_requests?{param}=byteblaze",
            "Merge requests",
            "list",
            heading="Merge requests",
            buttons=("Open 4", "Merged", "Closed", "All"),
        )

    add(
        Recipe(
            156,
            ghome,
            (
                click("Merge requests", mr_menu, nav=False, why="The top bar has a Merge requests menu."),
                click(
                    "Assigned to you 4", mr_list("assignee_username"), why="I want the ones assigned to me."
                ),
            ),
            variants={
                "wrong": (
                    click("Merge requests", mr_menu, nav=False, why="The top bar has a Merge requests menu."),
                    click(
                        "Review requests for you 2",
                        mr_list("reviewer_username"),
                        why="These are the merge requests waiting for me.",
                    ),
                )
            },
            finding="The merge requests assigned to me are listed.",
        )
    )
    a11y = gl(
        "/a11yproject/a11yproject.com",
        "a11yproject / a11yproject.com",
        "project",
        text="The A11Y Project is a community-driven effort to make digital accessibility easier.",
        buttons=("Star 21", "Fork 0", "Clone"),
    )
    issue_rows = (
        ("Broken link on the contributors page", "#1523", "Eric Bailey", "bug"),
        ("Add dark mode toggle to the header", "#1519", "Scott O'Hara", "enhancement"),
        ("Search results do not announce count to screen readers", "#1510", "Sarah Miller", "bug"),
        ("Improve focus styles for keyboard users", "#1498", "Alex Thomas", "help wanted"),
    )
    issues_all = gl(
        "/a11yproject/a11yproject.com/-/issues",
        "Issues · a11yproject / a11yproject.com",
        "list",
        heading="Issues",
        buttons=("Open 48", "Closed", "All"),
        rows=issue_rows,
    )
    label_url = "/a11yproject/a11yproject.com/-/issues/?state=opened&label_name%5B%5D=bug"
    issues_bug = gl(
        label_url,
        "Issues · a11yproject / a11yproject.com",
        "list",
        heading="Issues",
        buttons=("Open 12", "Closed", "All"),
        query="Label = bug",
        rows=tuple(r for r in issue_rows if r[3] == "bug"),
    )
    search_url = "/a11yproject/a11yproject.com/-/issues/?search=bug&state=opened"
    issues_search = gl(
        search_url,
        "Issues · a11yproject / a11yproject.com",
        "list",
        heading="Issues",
        buttons=("Open 19", "Closed", "All"),
        query="bug",
    )
    add(
        Recipe(
            339,
            a11y,
            (
                click("Issues", issues_all, why="I'll open the project's issues."),
                click(
                    "bug", issues_bug, why="Clicking the 'bug' label filters the open issues by that label."
                ),
            ),
            variants={
                "wrong": (
                    click("Issues", issues_all, why="I'll open the project's issues."),
                    typ(
                        "Search or filter results...",
                        "bug",
                        issues_search,
                        why="I'll search the open issues for 'bug'.",
                    ),
                )
            },
            finding="The open issues labelled bug are listed.",
        )
    )
    status_form = replace(
        ghome,
        kind="form",
        heading="Set a status",
        menu=(),
        rows=(),
        buttons=("Set status", "Cancel"),
        fields=(
            ("What's your status?", ""),
            ("Set yourself as busy", "[ ]"),
            ("Clear status after", "Never"),
        ),
    )
    add(
        Recipe(
            418,
            ghome,
            (
                click(
                    "byteblaze",
                    replace(
                        ghome,
                        menu=(
                            "Byte Blaze @byteblaze",
                            "Set status",
                            "Edit profile",
                            "Preferences",
                            "Sign out",
                        ),
                    ),
                    nav=False,
                    why="The status is set from the avatar menu.",
                ),
                click("Set status", status_form, nav=False, why="I'll choose 'Set status'."),
                click("Set yourself as busy", text="[x]", why="Ticking 'Set yourself as busy'."),
                click(
                    "Set status",
                    replace(ghome, banner="Status updated: Busy"),
                    nav=False,
                    why="Saving the status.",
                    reqs=(
                        json_req(
                            "PUT",
                            "__GITLAB__/api/v4/user/status",
                            {"emoji": "", "message": "", "availability": "busy", "clear_status_after": None},
                            response={
                                "emoji": "",
                                "message": "",
                                "availability": "busy",
                                "clear_status_at": None,
                            },
                        ),
                    ),
                ),
            ),
            finding="My status is set to Busy.",
        )
    )
    design = gl(
        "/primer/design",
        "Primer / design",
        "project",
        text="Primer Design Guide",
        buttons=("Star 11", "Fork 0"),
    )
    mrs = gl(
        "/primer/design/-/merge_requests",
        "Merge requests · Primer / design",
        "list",
        heading="Merge requests",
        buttons=("Open 9", "Merged", "Closed", "All"),
        rows=(
            ("Add octovisuals page", "!450", "Cole Bemis"),
            ("Update color tokens", "!447", "Inayaili Leon"),
            ("Fix broken image links", "!441", "Shawn Allen"),
        ),
    )
    comment = "Thanks, working on reviews"
    mr = gl(
        "/primer/design/-/merge_requests/450",
        "Add octovisuals page (!450) · Merge requests · Primer / design",
        "mr",
        heading="Add octovisuals page",
        text="Adds a page describing the Octovisuals illustration style.",
        fields=(("Write a comment", ""),),
        buttons=("Comment",),
    )
    to_mr = (
        click("primer / design", design, why="The primer/design project is in my list."),
        click("Merge requests", mrs, why="I'll open its merge requests."),
        click("Add octovisuals page", mr, why="This merge request is about the octovisuals page."),
        typ("Write a comment", comment, enter=False, why="Typing the comment."),
    )
    add(
        Recipe(
            389,
            ghome,
            (
                *to_mr,
                click(
                    "Comment",
                    replace(mr, rows=(("Author", "Comment"), ("Byte Blaze", comment))),
                    nav=False,
                    why="Posting it.",
                    reqs=(
                        json_req(
                            "POST",
                            "__GITLAB__/primer/design/notes?target_id=139245&target_type=merge_request",
                            {
                                "view": "inline",
                                "line_type": "",
                                "merge_request_diff_head_sha": "6c2a1f0",
                                "target_type": "merge_request",
                                "target_id": 139245,
                                "return_discussion": True,
                                "note": {
                                    "note": comment,
                                    "noteable_type": "MergeRequest",
                                    "noteable_id": 139245,
                                    "commit_id": "",
                                    "type": None,
                                    "line_code": "",
                                },
                            },
                            response={"valid": True, "discussion": {"id": "d41d8cd9"}},
                        ),
                    ),
                ),
            ),
            variants={"missing": to_mr},
            finding="The comment is posted on !450.",
        )
    )
    ncov_search = gl(
        "/search?search=2019-nCov",
        "Search · GitLab",
        "list",
        heading="Search results",
        buttons=("Projects 1", "Issues", "Merge requests"),
        query="2019-nCov",
        rows=(("yjlou / 2019-nCov", "COVID-19 case data and dashboards", "updated 2 years ago"),),
    )
    ncov = gl(
        "/yjlou/2019-nCov",
        "yjlou / 2019-nCov",
        "project",
        text="Project ID: 79",
        buttons=("Star 0", "Fork 0", "Clone"),
    )
    fork_form = gl(
        "/yjlou/2019-nCov/-/forks/new",
        "Fork project · yjlou / 2019-nCov",
        "form",
        heading="Fork project",
        fields=(
            ("Project name", "2019-nCov"),
            ("Project URL", "byteblaze"),
            ("Project slug", "2019-nCov"),
            ("Visibility level", "Public"),
        ),
        buttons=("Fork project", "Cancel"),
    )
    forked = gl(
        "/byteblaze/2019-nCov",
        "byteblaze / 2019-nCov",
        "project",
        banner="The project was successfully forked.",
        text="Forked from yjlou / 2019-nCov",
        buttons=("Star 0", "Fork 0", "Clone"),
    )
    add(
        Recipe(
            394,
            ghome,
            (
                typ("Search GitLab", "2019-nCov", ncov_search, why="I'll search for the 2019-nCov project."),
                click("yjlou / 2019-nCov", ncov, why="Opening the project."),
                click("Fork 0", fork_form, why="I'll fork it."),
                click(
                    "Fork project",
                    forked,
                    why="The defaults put the fork in my namespace; forking.",
                    reqs=(
                        json_req(
                            "POST",
                            "__GITLAB__/api/v4/projects/79/fork",
                            {
                                "id": "79",
                                "name": "2019-nCov",
                                "namespace_id": 2505,
                                "path": "2019-nCov",
                                "description": "",
                                "visibility": "public",
                            },
                            status=201,
                            response={"id": 196, "path_with_namespace": "byteblaze/2019-nCov"},
                        ),
                    ),
                ),
            ),
            finding="2019-nCov is forked to byteblaze/2019-nCov.",
        )
    )

    # -- map (OpenStreetMap) ---------------------------------------------------------------------
    mhome = osm(
        "/",
        "",
        "home",
        text="Welcome to OpenStreetMap! OpenStreetMap is a map of the world, created by "
        "people like you and free to use under an open license.",
    )

    def osm_search(query: str, *rows: tuple[str, ...]) -> View:
        return osm(
            f"/search?query={quote(query)}",
            "",
            "search",
            heading="Search Results",
            query=query,
            rows=rows or (("No results found",),),
        )

    cmu = (
        "Carnegie Mellon University, Forbes Avenue, Squirrel Hill North, Pittsburgh, Allegheny County, "
        "15213, "
        "United States",
        "University",
    )
    cmu_search = osm_search(
        "Carnegie Mellon University",
        cmu,
        ("Carnegie Mellon University Athletics, Pittsburgh", "Sports Centre"),
    )
    cmu_page = osm(
        "/relation/2279034",
        "Relation: Carnegie Mellon University (2279034)",
        "feature",
        heading="Carnegie Mellon University",
        rows=(
            ("addr:city", "Pittsburgh"),
            ("addr:housenumber", "5000"),
            ("addr:postcode", "15213"),
            ("addr:state", "PA"),
            ("addr:street", "Forbes Avenue"),
            ("amenity", "university"),
            ("name", "Carnegie Mellon University"),
            ("wikidata", "Q190080"),
        ),
    )
    find_cmu = (
        typ(
            "Search",
            "Carnegie Mellon University",
            cmu_search,
            why="I'll search the map for Carnegie Mellon.",
            reqs=(
                Req(
                    "POST",
                    "__MAP__/geocoder/search_osm_nominatim?query=Carnegie+Mellon+University",
                    {"authenticity_token": GITLAB_TOKEN},
                ),
            ),
        ),
        click(cmu[0], cmu_page, why="The first result is the university itself."),
    )
    add(
        Recipe(
            70,
            mhome,
            (*find_cmu, scroll(why="The address tags include the postcode.")),
            answer=["15213"],
            wrong_answer=["15217"],
            finding="Carnegie Mellon University's zip code is 15213.",
        )
    )
    add(Recipe(370, mhome, find_cmu, finding="The map page of Carnegie Mellon University is open."))

    def directions(
        frm: str,
        to: str,
        mode: str,
        profile: str,
        coords: str,
        summary: str,
        steps: Rows,
        *,
        skip_mode: bool = False,
    ) -> tuple[Act, ...]:
        engine = {"car": "fossgis_osrm_car", "foot": "fossgis_osrm_foot"}[profile]
        empty = osm(
            "/directions",
            "Directions",
            "directions",
            fields=(("From", ""), ("To", ""), ("Mode", "Car (OSRM)")),
        )
        a, b = coords.split(";")
        route = f"{a.split(',')[1]}%2C{a.split(',')[0]}%3B{b.split(',')[1]}%2C{b.split(',')[0]}"
        done = osm(
            f"/directions?engine={engine}&route={route}",
            "Directions",
            "directions",
            heading="Directions",
            fields=(("From", frm), ("To", to), ("Mode", mode)),
            text=summary,
            rows=steps,
        )
        service = {"car": "routed-car/route/v1/driving", "foot": "routed-foot/route/v1/foot"}[profile]
        acts = [
            click("Directions", empty, nav=False, why="I'll open the directions panel."),
            typ("From", frm, enter=False, why=f"Start: {frm}."),
            typ("To", to, enter=False, why=f"Destination: {to}."),
        ]
        if not skip_mode:
            acts.append(typ("Mode", mode, enter=False, why=f"The route should use {mode}."))
        acts.append(
            click(
                "Go",
                done,
                nav=False,
                why="Computing the route.",
                reqs=(
                    Req(
                        "GET",
                        f"__MAP__/{service}/{coords}?overview=false&geometries=polyline&steps=true",
                        kind="fetch",
                        response={"code": "Ok", "routes": [{"distance": 0, "duration": 0}]},
                    ),
                ),
            )
        )
        return tuple(acts)

    add(
        Recipe(
            151,
            mhome,
            directions(
                "Carnegie Mellon University",
                "University of Pittsburgh",
                "Car (OSRM)",
                "car",
                "-79.9427192,40.4441897;-79.9532423,40.4443508",
                "Distance: 1.3km. Time: 0:04.",
                (
                    ("1.", "Start on Forbes Avenue"),
                    ("2.", "Continue onto Forbes Avenue"),
                    ("3.", "Turn right onto Bigelow Boulevard"),
                ),
                skip_mode=True,
            ),
            answer=["00:04:00"],
            wrong_answer=["00:06:00"],
            finding="By car it takes about 4 minutes (0:04).",
        )
    )
    add(
        Recipe(
            363,
            mhome,
            directions(
                "Carnegie Mellon University",
                "Carnegie Music Hall",
                "Foot (OSRM)",
                "foot",
                "-79.9427192,40.4441897;-79.9510465,40.4437747",
                "Distance: 748m. Time: 0:10.",
                (("1.", "Head west on Forbes Avenue"), ("2.", "Turn right onto Schenley Drive")),
            ),
            answer=["748m"],
            wrong_answer=["0.9km"],
            finding="Walking, the distance is 748 m.",
        )
    )
    cafe = ("Carnegie Mellon Cafe, 5032 Forbes Avenue, Pittsburgh, 15213, United States", "Cafe")
    cafe_page = osm(
        "/node/5178402620",
        "Node: Carnegie Mellon Café (5178402620)",
        "feature",
        heading="Carnegie Mellon Café",
        rows=(
            ("amenity", "cafe"),
            ("name", "Carnegie Mellon Café"),
            ("opening_hours", "Mo-Fr 08:00-16:00"),
            ("addr:street", "Forbes Avenue"),
        ),
    )
    add(
        Recipe(
            253,
            mhome,
            (
                typ(
                    "Search",
                    "Carnegie Mellon Café",
                    osm_search("Carnegie Mellon Café", cafe),
                    why="I'll search for the café.",
                ),
                click(cafe[0], cafe_page, why="Opening the café's map page to look for a phone tag."),
            ),
            answer=None,
            wrong_answer=["4122682000"],
            finding="The Carnegie Mellon Café has no phone number on the map; its tags list only name, hours "
            "and address.",
        )
    )
    hotels = osm_search(
        "hotels near Carnegie Mellon University",
        ("Hilton Garden Inn Pittsburgh University Place", "Hotel"),
        ("Residence Inn Pittsburgh Oakland/University Place", "Hotel"),
        ("The Oaklander Hotel", "Hotel"),
        ("Wyndham Pittsburgh University Center", "Hotel"),
    )
    add(
        Recipe(
            379,
            mhome,
            (
                typ(
                    "Search",
                    "hotels near Carnegie Mellon University",
                    hotels,
                    why="I'll search for hotels near CMU.",
                ),
            ),
            wrong_answer=[
                "Hilton Garden Inn Pittsburgh University Place",
                "The Oaklander Hotel",
                "Wyndham Pittsburgh University Center",
            ],
            finding="The map shows hotels near Carnegie Mellon University.",
        )
    )

    # -- wikipedia (Kiwix) with map and gitlab ---------------------------------------------------
    def wiki_search(pattern: str, *rows: tuple[str, str]) -> View:
        return View(
            f"__WIKIPEDIA__/search?content={WIKI_BOOK}&pattern={quote(pattern)}",
            f"Search: {pattern}",
            "search",
            query=pattern,
            rows=rows,
        )

    wiki_home = View(
        f"__WIKIPEDIA__/{WIKI_BOOK}/A/User:The_other_Kiwix_guy/Landing",
        "Wikipedia",
        "article",
        heading="Welcome to Wikipedia",
        text="The free encyclopedia that anyone can edit.",
    )
    scimago = wiki(
        "SCImago_Institutions_Rankings",
        rows=(("Type", "Ranking"), ("Publisher", "SCImago Lab"), ("Launched", "2009")),
        text="The SCImago Institutions Rankings (SIR) is a classification of academic and research-related "
        "institutions ranked by a composite indicator of research performance, innovation output and "
        "societal impact.\nIn the 2019 edition the top institutions worldwide were: 1. Chinese Academy "
        "of Sciences, 2. Harvard University, 3. Massachusetts Institute of Technology, 4. Max Planck "
        "Society, 5. Stanford University.",
    )
    add(
        Recipe(
            97,
            mhome,
            (
                visit(wiki_home, why="First I need the 2019 SCImago ranking from the wiki."),
                typ(
                    "Search 'Wikipedia'",
                    "SCImago Institutions Rankings",
                    wiki_search(
                        "SCImago Institutions Rankings",
                        (
                            "SCImago Institutions Rankings",
                            "The SCImago Institutions Rankings (SIR) is a classification of institutions...",
                        ),
                    ),
                    why="Searching the wiki for the ranking.",
                ),
                click("SCImago Institutions Rankings", scimago, why="Opening the article."),
                scroll(why="The 2019 edition lists MIT in third place."),
                memorize(
                    "3rd in SCImago 2019: Massachusetts Institute of Technology",
                    why="I'll remember that MIT is third in 2019.",
                ),
                visit(mhome, why="Now the driving distance on the map."),
                *directions(
                    "Carnegie Mellon University",
                    "Massachusetts Institute of Technology",
                    "Car (OSRM)",
                    "car",
                    "-79.9427192,40.4441897;-71.0921641,42.3582529",
                    "Distance: 914km. Time: 9:03.",
                    (
                        ("1.", "Head east on Forbes Avenue"),
                        ("2.", "Take I-76 E / Pennsylvania Turnpike"),
                        ("3.", "Take I-90 E / Massachusetts Turnpike"),
                    ),
                    skip_mode=True,
                ),
            ),
            answer=["914km"],
            wrong_answer=["925km"],
            variants={
                "wrong": (
                    visit(wiki_home, why="First I need the 2019 SCImago ranking from the wiki."),
                    visit(scimago, why="Opening the SCImago article directly."),
                    visit(mhome, why="Harvard is near the top; I'll get the driving distance to it."),
                    *directions(
                        "Carnegie Mellon University",
                        "Harvard University",
                        "Car (OSRM)",
                        "car",
                        "-79.9427192,40.4441897;-71.1166601,42.3770029",
                        "Distance: 925km. Time: 9:10.",
                        (("1.", "Head east on Forbes Avenue"),),
                        skip_mode=True,
                    ),
                )
            },
            finding="MIT is third in the 2019 SCImago ranking; the driving distance from CMU is 914 km.",
            wrong_finding="The driving distance from CMU to Harvard University is 925 km.",
        )
    )
    film = wiki(
        "A_Beautiful_Day_in_the_Neighborhood",
        rows=(
            ("Directed by", "Marielle Heller"),
            ("Release date", "November 22, 2019"),
            ("Country", "United States"),
        ),
        text="A Beautiful Day in the Neighborhood is a 2019 American drama film about Fred Rogers.\n"
        "Principal photography began in September 2018 in Pittsburgh, Pennsylvania, where the production "
        "recreated the set of Mister Rogers' Neighborhood at WQED.",
    )
    pgh = ("Pittsburgh, Allegheny County, Pennsylvania, United States", "City")
    add(
        Recipe(
            424,
            mhome,
            (
                visit(wiki_home, why="I'll look the film up on the wiki first."),
                typ(
                    "Search 'Wikipedia'",
                    "A Beautiful Day in the Neighborhood",
                    wiki_search(
                        "A Beautiful Day in the Neighborhood",
                        (
                            "A Beautiful Day in the Neighborhood",
                            "2019 American drama film directed by Marielle Heller",
                        ),
                    ),
                    why="Searching for the film.",
                ),
                click("A Beautiful Day in the Neighborhood", film, why="Opening the article."),
                scroll(why="The production section says it was filmed in Pittsburgh."),
                visit(mhome, why="Now I'll find Pittsburgh on the map."),
                typ(
                    "Search",
                    "Pittsburgh",
                    osm_search("Pittsburgh", pgh, ("Pittsburgh International Airport", "Aerodrome")),
                    why="Searching for Pittsburgh.",
                ),
                click(
                    pgh[0],
                    osm(
                        "/relation/188553",
                        "Relation: Pittsburgh (188553)",
                        "feature",
                        heading="Pittsburgh",
                        rows=(
                            ("admin_level", "8"),
                            ("boundary", "administrative"),
                            ("name", "Pittsburgh"),
                            ("population", "302971"),
                        ),
                    ),
                    why="The city result is the administrative boundary of Pittsburgh.",
                ),
            ),
            finding="The map page of Pittsburgh is open.",
        )
    )
    bridges = wiki(
        "List_of_longest_bridges",
        text="This list of longest bridges ranks bridges by total length.\nThe Lake Pontchartrain "
        "Causeway in southern Louisiana, at 38.35 km, is the longest bridge in the Western Hemisphere "
        "and the longest continuous bridge over water in the world.",
    )
    causeway = ("Lake Pontchartrain Causeway, St. Tammany Parish, Louisiana, United States", "Bridge")
    southbound = ("Lake Pontchartrain Causeway (southbound), Louisiana, United States", "Motorway")
    to_bridge = (
        visit(wiki_home, why="I'll check the wiki for the longest bridge in the Western hemisphere."),
        typ(
            "Search 'Wikipedia'",
            "longest bridges",
            wiki_search(
                "longest bridges",
                ("List of longest bridges", "This list of longest bridges ranks..."),
                ("List of longest suspension bridge spans", "Suspension bridges ranked by main span"),
            ),
            why="Searching for the list of longest bridges.",
        ),
        click("List of longest bridges", bridges, why="Opening the list."),
        memorize(
            "Longest bridge in the Western Hemisphere: Lake Pontchartrain Causeway",
            why="It is the Lake Pontchartrain Causeway.",
        ),
        visit(mhome, why="Now the map."),
        typ(
            "Search",
            "Lake Pontchartrain Causeway",
            osm_search("Lake Pontchartrain Causeway", causeway, southbound),
            why="Searching for the causeway.",
        ),
    )
    add(
        Recipe(
            425,
            mhome,
            (
                *to_bridge,
                click(
                    causeway[0],
                    osm(
                        "/relation/5475586",
                        "Relation: Lake Pontchartrain Causeway (5475586)",
                        "feature",
                        heading="Lake Pontchartrain Causeway",
                        rows=(("type", "bridge"), ("bridge:structure", "trestle")),
                    ),
                    why="The first result is the bridge relation.",
                ),
            ),
            variants={
                "wrong": (
                    *to_bridge,
                    click(
                        southbound[0],
                        osm(
                            "/way/25866573",
                            "Way: Lake Pontchartrain Causeway (25866573)",
                            "feature",
                            heading="Lake Pontchartrain Causeway",
                            rows=(("highway", "primary"), ("oneway", "yes")),
                        ),
                        why="I'll open the southbound roadway of the causeway.",
                    ),
                )
            },
            finding="The map page of the Lake Pontchartrain Causeway is open.",
        )
    )
    films = [
        "Following",
        "Memento",
        "Insomnia",
        "Batman Begins",
        "The Prestige",
        "The Dark Knight",
        "Inception",
        "The Dark Knight Rises",
        "Interstellar",
        "Dunkirk",
        "Tenet",
        "Oppenheimer",
    ]
    nolan = wiki(
        "Christopher_Nolan",
        rows=(("Born", "30 July 1970"), ("Occupation", "Filmmaker")),
        text="Christopher Edward Nolan is a British-American filmmaker.\nFeature films: Following (1998), "
        "Memento (2000), Insomnia (2002), Batman Begins (2005), The Prestige (2006), The Dark Knight "
        "(2008), Inception (2010), The Dark Knight Rises (2012), Interstellar (2014), Dunkirk (2017), "
        "Tenet (2020) and Oppenheimer (2023).\nShort films: Doodlebug (1997), Quay (2015).",
    )
    new_project = gl(
        "/projects/new",
        "New Project",
        "form",
        heading="Create blank project",
        fields=(("Project name", ""), ("Project slug", ""), ("Visibility Level", "Private")),
        buttons=("Create project", "Cancel"),
    )
    empty_repo = gl(
        "/byteblaze/nolan_honest_fans",
        "byteblaze / nolan_honest_fans",
        "project",
        banner="Project 'nolan_honest_fans' was successfully created.",
        text="The repository for this project is empty",
        buttons=("Web IDE", "Add README"),
        rows=(("Name", "Last commit", "Last update"),),
    )
    ide = gl(
        "/-/ide/project/byteblaze/nolan_honest_fans/edit/main/-/",
        "Web IDE · byteblaze / nolan_honest_fans",
        "ide",
        rows=(("New file",), ("New directory",)),
        buttons=("Create commit...",),
    )

    def readme(titles: Sequence[str]) -> tuple[Act, ...]:
        content = "# nolan_honest_fans\n\n" + "\n".join(f"- {t}" for t in titles)
        editor = replace(ide, rows=(("README.md",),))
        body = {
            "branch": "main",
            "commit_message": "Add README.md",
            "actions": [{"action": "create", "file_path": "README.md", "content": content}],
            "start_sha": "",
            "force": False,
        }
        return (
            visit(nolan, why="I need Nolan's theatrical feature films from the wiki."),
            scroll(why="The filmography lists the feature films; the short films must be left out."),
            memorize("Features: " + ", ".join(films), why="I'll keep the list of features."),
            visit(new_project, why="Now I'll create the repository in GitLab."),
            typ("Project name", "nolan_honest_fans", enter=False, why="Naming the project."),
            click(
                "Create project",
                empty_repo,
                why="Creating it.",
                reqs=(
                    form_post(
                        "__GITLAB__/projects",
                        {
                            "project[name]": "nolan_honest_fans",
                            "project[namespace_id]": "2505",
                            "project[path]": "nolan_honest_fans",
                            "project[visibility_level]": "0",
                            "project[initialize_with_readme]": "0",
                            "authenticity_token": GITLAB_TOKEN,
                        },
                        "__GITLAB__/byteblaze/nolan_honest_fans",
                    ),
                ),
            ),
            click("Web IDE", ide, why="The task asks for the Web IDE."),
            click("New file", editor, nav=False, why="Creating README.md."),
            typ("editor", content, enter=False, why="Writing the heading and the list of films."),
            click(
                "Create commit...",
                replace(editor, banner="Your changes have been committed."),
                nav=False,
                why="Committing to main.",
                reqs=(
                    json_req(
                        "POST",
                        "__GITLAB__/api/v4/projects/byteblaze%2Fnolan_honest_fans/repository/commits",
                        body,
                        status=201,
                        kind="fetch",
                        response={"id": "3f9c2e1a7b", "short_id": "3f9c2e1a", "title": "Add README.md"},
                    ),
                ),
            ),
        )

    add(
        Recipe(
            556,
            gl("/", "Projects · Dashboard", "list", heading="Projects"),
            readme(films),
            variants={"wrong": readme(["Doodlebug", *films])},
            finding="The repository nolan_honest_fans has a README listing Nolan's theatrical feature films.",
        )
    )
    return {r.task_id: r for r in recipes}


# ---------------------------------------------------------------------------------------------
# The plan: which scenario each model's trajectory of each task is built for
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Model:
    key: str
    system: str  # system.hash folder
    name: str  # model_prefix folder
    generation: str  # web_surfer.log generation: "fara" (structured OtherEvent) or "solver"
    run_start: datetime  # local time of the first task
    component: str  # token_usage key
    max_rounds: int


MODELS = (
    Model(
        "fara",
        "WebSurfer-fara-100-max_n_images-3",
        "fara-7b",
        "fara",
        datetime(2025, 11, 14, 13, 5, 0, tzinfo=LOCAL_TZ),
        "FaraAgent",
        100,
    ),
    Model(
        "som",
        "WebSurfer-som-100",
        "gpt-4o-som",
        "solver",
        datetime(2025, 11, 12, 9, 30, 0, tzinfo=LOCAL_TZ),
        "WebSurfer",
        100,
    ),
)
USER, EXEC_HASH, RUN_ID = "demo", "WebArenaVerified_sample", "0"


@dataclass(frozen=True)
class Scenario:
    status: str | None  # official verdict the trajectory must get (None: aborted, not scored)
    steps: str  # which step list: steps | wrong | missing | left | loop | truncated
    answer: str | None  # right | wrong | wrong_type | wrong_status | None (no answer)
    style: str  # how the answer text is written: plain | fenced | prose | action_results | malformed
    note: str


SCENARIOS: dict[str, Scenario] = {
    "right_answer": Scenario(
        "success", "steps", "right", "plain", "Right values; task_type/retrieved_data naming."
    ),
    "fenced_json": Scenario(
        "success", "steps", "right", "fenced", "Right answer inside a ```json fence after prose."
    ),
    "json_in_prose": Scenario(
        "success",
        "steps",
        "right",
        "prose",
        "Right answer as JSON inside a sentence (no fence): must be extracted from the prose.",
    ),
    "action_results_naming": Scenario(
        "success",
        "steps",
        "right",
        "action_results",
        "Right answer in the published schema's action/results naming, which the "
        "official library does not read; verdict after mapping to task_type/"
        "retrieved_data.",
    ),
    "not_found_correct": Scenario(
        "success",
        "steps",
        "right",
        "plain",
        "The task's expected status is NOT_FOUND_ERROR and the agent reports it.",
    ),
    "mutate_request_present": Scenario(
        "success",
        "steps",
        "right",
        "plain",
        "The HAR holds the request the task's network evaluator expects.",
    ),
    "navigate_right": Scenario(
        "success", "steps", "right", "plain", "The last document navigation is the right page."
    ),
    "wrong_values": Scenario("failure", "wrong", "wrong", "plain", "Right format, wrong retrieved values."),
    "lenient_pass": Scenario(
        "success",
        "wrong",
        "wrong",
        "plain",
        "A wrong answer the official evaluator accepts: distances compare with a 2% tolerance "
        "and the network check only asks for some routed-car request.",
    ),
    "wrong_task_type": Scenario(
        "failure", "steps", "wrong_type", "plain", "The answer names the wrong task type."
    ),
    "wrong_status": Scenario(
        "failure", "steps", "wrong_status", "plain", "Reports NOT_FOUND_ERROR although the data exists."
    ),
    "data_for_not_found": Scenario(
        "error",
        "steps",
        "wrong_status",
        "plain",
        "Returns SUCCESS with data for a task whose expected status is NOT_FOUND_ERROR. "
        "The official evaluator gives 'error', not 'failure': the task's results_schema "
        "is {type: null} and it cannot normalize the returned array.",
    ),
    "malformed": Scenario("failure", "steps", "right", "malformed", "The final answer is not JSON."),
    "no_answer": Scenario(
        "failure",
        "loop",
        None,
        "plain",
        "Over budget: max_rounds actions without terminate; final_answer '<no_answer>', "
        "is_aborted false (counted as 0).",
    ),
    "mutate_request_missing": Scenario(
        "failure",
        "missing",
        "right",
        "plain",
        "The agent claims success but the mutating request never happened.",
    ),
    "mutate_request_wrong": Scenario(
        "failure",
        "wrong",
        "right",
        "plain",
        "The mutating request happened with wrong data or to a wrong URL.",
    ),
    "navigate_wrong": Scenario(
        "failure", "wrong", "right", "plain", "The last document navigation is a wrong page."
    ),
    "navigate_left": Scenario(
        "failure",
        "left",
        "right",
        "plain",
        "Opened the right page, then went back before answering: the evaluator checks only the last"
        " page navigation (a known upstream limitation).",
    ),
    "har_missing": Scenario(
        "error",
        "steps",
        "right",
        "plain",
        "Answered, but network.har was not recorded: a mutate task cannot be checked.",
    ),
    "aborted": Scenario(
        None,
        "truncated",
        None,
        "plain",
        "Aborted by an environment error (is_aborted true): excluded from scores.",
    ),
    "crash_no_answer": Scenario(
        None,
        "truncated",
        None,
        "plain",
        "The run crashed: no answer file (and no HAR); excluded from scores.",
    ),
}


@dataclass(frozen=True)
class PlanRow:
    task_id: int
    fara: str  # scenario of the fara-7b trajectory
    som: str  # scenario of the gpt-4o-som trajectory
    fara_log: str = "fara"  # "text": this fara-7b folder holds an older text-only log


# One row per task: the 44 tasks span all six sites and the three task types (see README.md).
# fmt: off
PLAN: tuple[PlanRow, ...] = (
    #      task  fara-7b                   gpt-4o-som
    # shopping
    PlanRow(188, "right_answer",           "malformed",              fara_log="text"),
    PlanRow(191, "not_found_correct",      "data_for_not_found"),
    PlanRow(233, "json_in_prose",          "wrong_status"),
    PlanRow(124, "wrong_values",           "aborted"),
    PlanRow(260, "navigate_right",         "navigate_right"),
    PlanRow(275, "navigate_wrong",         "navigate_right"),
    PlanRow(238, "navigate_right",         "navigate_left"),
    PlanRow(465, "mutate_request_present", "mutate_request_present"),
    PlanRow(436, "mutate_request_wrong",   "mutate_request_missing"),
    # shopping_admin
    PlanRow(108, "right_answer",           "action_results_naming"),
    PlanRow(11,  "wrong_values",           "right_answer"),
    PlanRow(288, "fenced_json",            "wrong_values"),
    PlanRow(157, "navigate_right",         "wrong_task_type"),
    PlanRow(374, "navigate_wrong",         "navigate_right"),
    PlanRow(470, "mutate_request_present", "mutate_request_wrong"),
    PlanRow(458, "mutate_request_wrong",   "mutate_request_present"),
    PlanRow(487, "mutate_request_present", "har_missing"),
    PlanRow(492, "mutate_request_missing", "mutate_request_present"),
    # reddit
    PlanRow(27,  "right_answer",           "wrong_values",           fara_log="text"),
    PlanRow(66,  "no_answer",              "fenced_json"),
    PlanRow(723, "not_found_correct",      "wrong_task_type"),
    PlanRow(399, "mutate_request_present", "mutate_request_present"),
    PlanRow(404, "mutate_request_wrong",   "mutate_request_present"),
    PlanRow(580, "mutate_request_present", "mutate_request_wrong"),
    PlanRow(600, "malformed",              "mutate_request_present"),
    # gitlab
    PlanRow(169, "right_answer",           "wrong_values"),
    PlanRow(259, "action_results_naming",  "right_answer"),
    PlanRow(168, "data_for_not_found",     "not_found_correct"),
    PlanRow(44,  "navigate_right",         "navigate_right",         fara_log="text"),
    PlanRow(156, "aborted",                "navigate_wrong"),
    PlanRow(339, "navigate_right",         "navigate_wrong"),
    PlanRow(418, "mutate_request_present", "wrong_task_type"),
    PlanRow(389, "mutate_request_present", "mutate_request_missing"),
    PlanRow(394, "mutate_request_present", "mutate_request_present"),
    # map
    PlanRow(70,  "right_answer",           "json_in_prose",          fara_log="text"),
    PlanRow(151, "fenced_json",            "right_answer"),
    PlanRow(363, "crash_no_answer",        "right_answer"),
    PlanRow(253, "not_found_correct",      "malformed"),
    PlanRow(370, "navigate_right",         "navigate_right"),
    PlanRow(379, "wrong_task_type",        "navigate_right"),
    # wikipedia (with map / gitlab)
    PlanRow(97,  "right_answer",           "lenient_pass"),
    PlanRow(424, "navigate_right",         "crash_no_answer"),
    PlanRow(425, "navigate_wrong",         "navigate_right"),
    PlanRow(556, "mutate_request_wrong",   "aborted"),
)
# fmt: on

# What exactly goes wrong in a trajectory, when the scenario name does not say it all.
NOTES: dict[tuple[str, int], str] = {
    ("som", 188): "A plain sentence with the total, no JSON.",
    ("som", 191): "Reports a pending order's total as SUCCESS.",
    ("som", 233): "Claims there is no complete order.",
    ("fara", 124): "Min 9.99 instead of 0.01.",
    ("som", 124): "OpenAI rate limit.",
    ("fara", 275): "Searched 'xbox controller'.",
    ("som", 238): "Opened the Astro A50 page, then went back to the sorted list before answering.",
    (
        "fara",
        436,
    ): "Used the order's Reorder link (POST sales/order/reorder), a real reorder, but not the product "
    "page's add-to-cart request the evaluator expects.",
    ("som", 436): "Opened the order and stopped.",
    ("fara", 11): "Counted 5 reviews instead of 6.",
    ("som", 288): "The customer with the second most cancellations.",
    ("som", 157): "Answers RETRIEVE with customer names.",
    ("fara", 374): "Opened the Luma theme (id 3) instead of Blank (id 1).",
    ("som", 470): "Canceled order 301 instead of 302.",
    ("fara", 458): "Saved price 22.00 instead of 27.00.",
    ("fara", 492): "Typed the comment but never clicked Submit Comment.",
    ("som", 27): "Count 1 instead of 0.",
    ("fara", 66): "100 actions browsing the forum, never terminates.",
    ("som", 723): "Answers MUTATE / NOT_FOUND_ERROR.",
    ("fara", 404): "Upvoted the second newest post.",
    ("som", 580): "The sidebar lost its markdown.",
    ("fara", 600): "The request is right but the answer is a JS-style object, not JSON.",
    ("som", 169): "Only one of the two tied projects.",
    ("fara", 168): "Answers SUCCESS with project 187.",
    ("fara", 156): "Playwright timeout, retried, failed again; web_surfer.log is empty.",
    ("som", 156): "Review requests instead of merge requests assigned to me.",
    (
        "som",
        339,
    ): "Searched 'bug' instead of filtering by the bug label: the page matches, the GraphQL referer "
    "does not.",
    ("som", 418): "Answers NAVIGATE.",
    ("som", 389): "Typed the comment, never posted it.",
    (
        "fara",
        363,
    ): "The model's output could not be parsed (KeyError); a traceback follows the last log line.",
    ("som", 253): "Says there is no phone number, in plain text.",
    ("fara", 379): "Answers RETRIEVE with hotel names.",
    (
        "som",
        97,
    ): "Drove to Harvard (2nd in the ranking) instead of MIT (3rd): 925 km against 914 km expected.",
    ("som", 424): "The worker was killed: the last log line is cut off.",
    ("fara", 425): "Opened the southbound roadway (a way), not the bridge relation.",
    ("fara", 556): "The README also lists the short film Doodlebug.",
    ("som", 556): "The browser closed mid-run.",
}


# Environment errors of aborted / crashed runs (core.log [ERROR] line, exception, traceback frames).
ERRORS: dict[tuple[str, int], tuple[str, str, tuple[str, ...]]] = {
    ("fara", 156): (
        "Timeout 30000ms exceeded.",
        "playwright._impl._errors.TimeoutError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/webeval/src/webeval/systems/websurfer.py", line 212, in get_answer',
            "    final_answer, actions, observations = await agent.run(task.question)",
            'File "/opt/fara/src/fara/fara_agent.py", line 387, in run',
            "    ) = await self.execute_action(function_call)",
            'File "/opt/fara/src/fara/browser/playwright_controller.py", line 143, in click_coords',
            "    await page.wait_for_load_state()",
        ),
    ),
    ("fara", 363): (
        "'action'",
        "KeyError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/fara/src/fara/fara_agent.py", line 379, in run',
            '    action = action_args["action"]',
        ),
    ),
    ("som", 124): (
        "Error code: 429 - {'error': {'code': '429', 'message': 'Rate limit is exceeded. Try again in "
        "21 seconds.'}}",
        "openai.RateLimitError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/webeval/src/webeval/systems/websurfer_som.py", line 158, in get_answer',
            "    response = await self.client.create(messages)",
        ),
    ),
    ("som", 424): (
        "Worker process died unexpectedly (exit code -9)",
        "concurrent.futures.process.BrokenProcessPool",
        (
            'File "/opt/webeval/src/webeval/core.py", line 143, in run_eval_single_example',
            "    result = future.result(timeout=self.task_timeout)",
        ),
    ),
    ("som", 556): (
        "Target page, context or browser has been closed",
        "playwright._impl._errors.TargetClosedError",
        (
            'File "/opt/webeval/src/webeval/core.py", line 91, in run_single_task',
            "    answer = await system.get_answer(task, out_dir)",
            'File "/opt/webeval/src/webeval/systems/websurfer_som.py", line 201, in get_answer',
            "    screenshot = await page.screenshot()",
        ),
    ),
}


# ---------------------------------------------------------------------------------------------
# From a plan row to a trajectory: actions, frames, times, answer
# ---------------------------------------------------------------------------------------------

TERMINATE = Act("terminate")


@dataclass
class Step:
    act: Act
    before: Frame  # the page the action is taken on
    after: Frame  # the page afterwards
    box: Box | None  # where the acted-on element is (PNG pixels)
    mark: int  # set-of-marks id of that element (solver runs)
    t: int = 0  # µs since the epoch: the action's log line
    dur: int = 0  # µs from the action to its observation (the action runs, then a 3 s settle)
    thought: str = ""


@dataclass
class Trajectory:
    model: Model
    row: PlanRow
    scenario_name: str
    task: dict[str, Any]
    recipe: Recipe
    steps: list[Step]
    start: Frame
    answer_text: str | None  # final_answer; None when no answer file is written
    response: dict[str, Any] | None  # the structured response (task_type naming) behind answer_text
    is_aborted: bool
    start_us: int = 0
    end_us: int = 0
    entries: list[dict[str, Any]] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)  # screenshots in file order

    @property
    def scenario(self) -> Scenario:
        return SCENARIOS[self.scenario_name]

    @property
    def rel(self) -> str:
        m = self.model
        return f"runs/{m.system}/{m.name}/{USER}/{EXEC_HASH}/{RUN_ID}/traj/{self.task['task_id']}"


def expected_of(task: dict[str, Any]) -> dict[str, Any]:
    expected: dict[str, Any] = next(e for e in task["eval"] if e["evaluator"] == "AgentResponseEvaluator")[
        "expected"
    ]
    return expected


def acts_for(recipe: Recipe, scenario: Scenario, model: Model) -> list[Act]:
    """The agent's actions for a scenario (terminate not included)."""
    kind = scenario.steps
    if kind in ("wrong", "missing", "left") and kind in recipe.variants:
        acts = list(recipe.variants[kind])
    elif kind == "left":
        raise ValueError(f"task {recipe.task_id}: a 'left' scenario needs its own step list")
    elif kind == "missing":
        # Stop right before the first action that changes server state.
        acts = []
        for act in recipe.steps:
            if any(r.method != "GET" for r in act.reqs):
                break
            acts.append(act)
    elif kind == "loop":
        acts = looping(recipe, model.max_rounds)
    elif kind == "truncated":
        acts = list(recipe.steps[: max(1, (len(recipe.steps) * 3) // 5)])
    else:
        acts = list(recipe.steps)
    if model.generation == "solver":  # the set-of-marks solver has no memorize tool
        acts = [a for a in acts if a.kind != "memorize"]
    return acts


def looping(recipe: Recipe, rounds: int) -> list[Act]:
    """An agent that never decides: re-reads the same pages until it runs out of rounds."""
    opened = [a for a in recipe.steps if a.kind == "click" and a.view is not None and a.view.kind == "post"]
    listing = next(a.view for a in recipe.steps if a.kind == "back" and a.view is not None)
    doubts = (
        "Let me look at the list again to make sure I haven't missed a post that recommends a single book.",
        "I'm not sure whether this post counts; I'll scroll further.",
        "I should double check the remaining posts in the top 10.",
        "Let me re-read this post to see how many books it mentions.",
    )
    acts = list(recipe.steps)
    i = 0
    while len(acts) < rounds:
        post = opened[i % len(opened)]
        cycle = (
            scroll(why=doubts[i % 4]),
            scroll(why=doubts[(i + 1) % 4]),
            scroll(up=True, why=doubts[(i + 2) % 4]),
            scroll(up=True, why=doubts[(i + 3) % 4]),
            replace(post, why=doubts[3]),
            scroll(why=doubts[1]),
            back(listing, why=doubts[0]),
        )
        acts.extend(cycle)
        i += 1
    return acts[:rounds]


def build_response(
    recipe: Recipe, task: dict[str, Any], scenario: Scenario, model: Model
) -> dict[str, Any] | None:
    """The structured answer (task_type/retrieved_data naming) the agent means to give."""
    if scenario.answer is None:
        return None
    exp = expected_of(task)
    task_type, status = exp["task_type"], exp["status"]
    data: Any = recipe.answer if task_type == "retrieve" and status == "SUCCESS" else None
    details = None if status == "SUCCESS" else recipe.finding
    if scenario.answer == "wrong":
        data = recipe.wrong_answer
    elif scenario.answer == "wrong_type":
        task_type = {"retrieve": "mutate", "navigate": "retrieve", "mutate": "navigate"}[task_type]
        data = recipe.wrong_answer if task_type == "retrieve" else None
    elif scenario.answer == "wrong_status":
        if status == "SUCCESS":
            status, data, details = "NOT_FOUND_ERROR", None, recipe.wrong_finding or "Not found."
        else:
            status, data, details = "SUCCESS", recipe.wrong_answer, None
    upper = model.key == "fara"  # the two agents spell enum values differently; both are accepted
    return {
        "task_type": task_type.upper() if upper else task_type.lower(),
        "status": status,
        "retrieved_data": data,
        "error_details": details,
    }


def answer_text(resp: dict[str, Any], style: str, finding: str) -> str:
    body = json.dumps(resp, ensure_ascii=False)
    if style == "fenced":
        return f"{finding}\n\n```json\n{json.dumps(resp, indent=2, ensure_ascii=False)}\n```"
    if style == "prose":
        return f"{finding} My final response is {body} and the task is complete."
    if style == "action_results":
        published = {
            "action": resp["task_type"].lower(),
            "status": resp["status"],
            "results": resp["retrieved_data"],
            "error_details": resp["error_details"],
        }
        return json.dumps(published, ensure_ascii=False)
    if style == "malformed":
        if resp["task_type"].lower() == "mutate":
            return f"{{task_type: {resp['task_type']}, status: {resp['status']}, retrieved_data: null}}"
        return finding
    return body


def plan_trajectory(model: Model, row: PlanRow, task: dict[str, Any], recipe: Recipe) -> Trajectory:
    name = getattr(row, model.key)
    scenario = SCENARIOS[name]
    response = build_response(recipe, task, scenario, model)
    finding = recipe.wrong_finding if scenario.answer == "wrong" and recipe.wrong_finding else recipe.finding
    text = None if response is None else answer_text(response, scenario.style, finding)
    acts = acts_for(recipe, scenario, model)
    if text is not None:
        acts.append(TERMINATE)
    solver = model.generation == "solver"
    frame = Frame(recipe.start, marks=solver)
    start = frame
    steps: list[Step] = []
    for act in acts:
        targets = layout(frame)
        box, mark = None, -1
        if act.kind in ("click", "type"):
            if act.target not in targets:
                raise KeyError(
                    f"task {task['task_id']}: no '{act.target}' on {frame.view.url} ({sorted(targets)})"
                )
            box = targets[act.target]
            mark = list(targets).index(act.target)
        after = next_frame(frame, act, solver)
        steps.append(Step(act, frame, after, box, mark))
        frame = after
    return Trajectory(
        model, row, name, task, recipe, steps, start, text, response, is_aborted=name == "aborted"
    )


def next_frame(frame: Frame, act: Act, solver: bool) -> Frame:
    if act.view is not None:
        return Frame(act.view, marks=solver)
    if act.kind == "type" or (act.kind == "click" and act.text):
        filled = dict(frame.filled)
        filled[act.target] = act.text
        return replace(frame, filled=tuple(sorted(filled.items())))
    if act.kind == "scroll_down":
        return replace(frame, scroll=frame.scroll + 1)
    if act.kind == "scroll_up":
        return replace(frame, scroll=max(0, frame.scroll - 1))
    return frame


def think(step: Step, traj: Trajectory) -> str:
    act = step.act
    if act.kind == "terminate":
        return traj.answer_text or ""
    if act.why:
        return act.why
    return {
        "click": f"I'll click on '{act.target}'.",
        "type": f"I'll type '{act.text}' into the {act.target} field.",
        "scroll_down": "I'll scroll down to see more.",
        "scroll_up": "I'll scroll back up.",
        "back": "I'll go back to the previous page.",
        "visit_url": f"I'll go to {act.text}.",
        "memorize": f"I'll remember this: {act.text}",
    }.get(act.kind, "Continuing.")


def schedule(traj: Trajectory, start_us: int) -> None:
    """Give every step a time: 3-25 s between actions, each followed by a ~3 s settle and screenshot."""
    rng = random.Random(f"time:{traj.model.key}:{traj.task['task_id']}")
    traj.start_us = start_us
    t = start_us + rng.randint(2_500_000, 5_000_000)  # browser start and first page load
    for step in traj.steps:
        step.t = t
        step.dur = rng.randint(3_300_000, 5_200_000)
        step.thought = think(step, traj)
        t += step.dur + rng.randint(1_800_000, 17_000_000)  # the model thinks about the next action
    last = traj.steps[-1]
    traj.end_us = last.t + last.dur + rng.randint(400_000, 1_500_000)


def local(us: int) -> datetime:
    return (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)).astimezone(LOCAL_TZ)


def log_ts(us: int) -> str:
    """web_surfer.log timestamp: naive local ISO time (Python drops `.000000`)."""
    return local(us).replace(tzinfo=None).isoformat()


def core_ts(us: int) -> str:
    """logging's %(asctime)s: local time with milliseconds after a comma."""
    dt = local(us)
    return f"{dt:%Y-%m-%d %H:%M:%S},{dt.microsecond // 1000:03d}"


def har_ts(us: int) -> str:
    dt = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)
    return f"{dt:%Y-%m-%dT%H:%M:%S}.{dt.microsecond // 1000:03d}Z"


# ---------------------------------------------------------------------------------------------
# network.har (HAR 1.2 the way Playwright's recordHar writes it)
# ---------------------------------------------------------------------------------------------

UA = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 "
    "Safari/537.36"
)
DOC_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
    "application/signed-exchange;v=b3;q=0.7"
)
ASSETS = {
    "shopping": (
        "/static/version1681922233/frontend/Magento/luma/en_US/css/styles-m.css",
        "/static/version1681922233/frontend/Magento/luma/en_US/requirejs/require.js",
    ),
    "shopping_admin": (
        "/static/version1681922233/adminhtml/Magento/backend/en_US/css/styles.css",
        "/static/version1681922233/adminhtml/Magento/backend/en_US/requirejs/require.js",
    ),
    "reddit": ("/build/main.3b8f1d2e.css", "/build/main.7c41a9f0.js"),
    "gitlab": ("/assets/application-5d1c7e0f.css", "/assets/webpack/main.8a2f4b61.chunk.js"),
    "wikipedia": ("/skin/taskbar.css", "/skin/jquery-ui/jquery-ui.min.js"),
    "map": ("/assets/application-9e8d3a1c.css", "/tile/15/9293/12320.png"),
}


class HarBuilder:
    def __init__(self, traj: Trajectory) -> None:
        self.traj = traj
        self.rng = random.Random(f"har:{traj.model.key}:{traj.task['task_id']}")
        self.entries: list[tuple[int, dict[str, Any]]] = []

    def entry(
        self,
        t: int,
        method: str,
        url: str,
        *,
        kind: str,
        headers: list[tuple[str, str]],
        body: str | None = None,
        mime: str = "",
        status: int = 200,
        resp_mime: str = "text/html; charset=UTF-8",
        resp_text: str | None = None,
        size: int = 0,
        redirect: str = "",
    ) -> int:
        """Append one request; return the time it ended (µs)."""
        url = render_url(url).split("#")[0]
        split = urlsplit(url)
        query = [{"name": k, "value": v} for k, v in _parse_qsl(split.query)]
        wait = self.rng.uniform(8, 180 if kind == "document" else 60)
        receive = self.rng.uniform(0.2, 6)
        request: dict[str, Any] = {
            "method": method,
            "url": url,
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": [{"name": k, "value": v} for k, v in headers],
            "queryString": query,
            "headersSize": -1,
            "bodySize": len(body.encode()) if body else 0,
        }
        if body is not None:
            post: dict[str, Any] = {"mimeType": mime, "text": body}
            if mime.startswith("application/x-www-form-urlencoded"):
                post["params"] = [{"name": k, "value": v} for k, v in _parse_qsl(body)]
            request["postData"] = post
        content: dict[str, Any] = {
            "size": size if resp_text is None else len(resp_text.encode()),
            "mimeType": resp_mime,
        }
        if resp_text is not None:
            content["text"] = resp_text
        resp_headers = [("Content-Type", resp_mime)]
        if redirect:
            resp_headers.append(("Location", render_url(redirect)))
        port = split.port or 80
        entry = {
            "startedDateTime": har_ts(t),
            "time": round(wait + receive + 0.3, 3),
            "request": request,
            "response": {
                "status": status,
                "statusText": STATUS_TEXT[status],
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": [{"name": k, "value": v} for k, v in resp_headers],
                "content": content,
                "headersSize": -1,
                "bodySize": content["size"],
                "redirectURL": render_url(redirect) if redirect else "",
                "_transferSize": content["size"] + 240,
            },
            "cache": {},
            "timings": {
                "dns": -1,
                "connect": -1,
                "ssl": -1,
                "send": 0.3,
                "wait": round(wait, 3),
                "receive": round(receive, 3),
            },
            "pageref": "page@" + hashlib.sha1(self.traj.rel.encode()).hexdigest()[:32],
            "serverIPAddress": "127.0.0.1",
            "_serverPort": port,
            "_resourceType": kind,
        }
        self.entries.append((t, entry))
        return t + int((wait + receive + 0.3) * 1000)

    def page_load(
        self, t: int, view: View, referer: str | None, typed: bool, method_req: Req | None = None
    ) -> int:
        """A document navigation plus what the page pulls in (static files, a background XHR)."""
        headers = [("Accept", DOC_ACCEPT)]
        if referer:
            headers.append(("Referer", render_url(referer)))
        headers += [
            ("Sec-Fetch-Dest", "document"),
            ("Sec-Fetch-Mode", "navigate"),
            ("Sec-Fetch-Site", "none" if typed else "same-origin"),
        ]
        if not typed:  # a user gesture: Chromium adds Sec-Fetch-User
            headers.append(("Sec-Fetch-User", "?1"))
        headers += [("Upgrade-Insecure-Requests", "1"), ("User-Agent", UA)]
        end = self.entry(
            t, "GET", view.url, kind="document", headers=headers, size=self.rng.randint(9_000, 90_000)
        )
        base = render_url(view.url)
        root = f"{urlsplit(base).scheme}://{urlsplit(base).netloc}"
        t2 = end + 2_000
        for path in ASSETS[view.site]:
            dest = "style" if path.endswith(".css") else "image" if path.endswith(".png") else "script"
            mime = {"style": "text/css", "image": "image/png", "script": "application/javascript"}[dest]
            t2 = (
                self.entry(
                    t2,
                    "GET",
                    root + path,
                    kind="stylesheet" if dest == "style" else dest,
                    headers=[
                        ("Accept", "*/*"),
                        ("Referer", base),
                        ("Sec-Fetch-Dest", dest),
                        ("Sec-Fetch-Mode", "no-cors"),
                        ("User-Agent", UA),
                    ],
                    resp_mime=mime,
                    size=self.rng.randint(2_000, 60_000),
                )
                + 1_000
            )
        if view.site == "shopping":
            self.xhr(
                t2,
                Req(
                    "GET",
                    "__SHOPPING__/customer/section/load/?sections=cart%2Cmessages"
                    f"&force_new_section_timestamp=false&_={t // 1000}",
                    response={"cart": {"summary_count": 0}, "messages": {"messages": []}},
                ),
                base,
            )
        if view.site == "gitlab" and "/-/issues" in view.url:
            self.xhr(
                t2,
                json_req(
                    "POST",
                    "__GITLAB__/api/graphql",
                    {
                        "operationName": "getIssues",
                        "variables": {
                            "fullPath": urlsplit(base).path.split("/-/")[0].strip("/"),
                            "state": "opened",
                            "firstPageSize": 20,
                        },
                    },
                    response={"data": {"project": {"issues": {"count": len(view.rows)}}}},
                ),
                base,
            )
        return t2

    def xhr(self, t: int, req: Req, page: str) -> int:
        headers = [("Accept", "application/json, text/javascript, */*; q=0.01")]
        if req.body is not None:
            headers.append(("Content-Type", req.mime))
        headers += [
            ("Referer", page),
            ("Sec-Fetch-Dest", "empty"),
            ("Sec-Fetch-Mode", "cors"),
            ("Sec-Fetch-Site", "same-origin"),
            ("User-Agent", UA),
            ("X-Requested-With", "XMLHttpRequest"),
        ]
        headers += list(req.headers)
        body = req.body if isinstance(req.body, str) or req.body is None else urlencode(req.body)
        resp = None if req.response is None else json.dumps(req.response, separators=(",", ":"))
        return self.entry(
            t,
            req.method,
            req.url,
            kind=req.kind,
            headers=headers,
            body=body,
            mime=req.mime,
            status=req.status,
            resp_mime="application/json" if resp is not None else "text/html",
            resp_text=resp,
        )

    def form(self, t: int, req: Req, page: str) -> int:
        headers = [
            ("Accept", DOC_ACCEPT),
            ("Content-Type", req.mime.split(";")[0]),
            ("Origin", f"{urlsplit(page).scheme}://{urlsplit(page).netloc}"),
            ("Referer", page),
            ("Sec-Fetch-Dest", "document"),
            ("Sec-Fetch-Mode", "navigate"),
            ("Sec-Fetch-Site", "same-origin"),
            ("Sec-Fetch-User", "?1"),
            ("User-Agent", UA),
        ]
        body = req.body if isinstance(req.body, str) or req.body is None else urlencode(req.body)
        return self.entry(
            t,
            req.method,
            req.url,
            kind="document",
            headers=headers,
            body=body,
            mime=req.mime.split(";")[0],
            status=req.status,
            redirect=req.redirect,
        )

    def build(self) -> list[dict[str, Any]]:
        traj = self.traj
        page = traj.start.view
        self.page_load(traj.start_us + self.rng.randint(900_000, 1_800_000), page, None, typed=True)
        for step in traj.steps:
            act = step.act
            t = step.t + self.rng.randint(220_000, 420_000)
            here = render_url(step.before.view.url)
            loaded = False
            for req in act.reqs:
                if req.kind == "document":
                    t = self.form(t, req, here) + 3_000
                    if req.redirect and act.view is not None:
                        t = self.page_load(t, act.view, here, typed=False)
                        loaded = True
                else:
                    t = self.xhr(t, req, here) + 3_000
            if act.view is not None and act.nav and not loaded:
                typed = act.kind == "visit_url"
                t = self.page_load(t, act.view, None if typed else here, typed=typed)
            if t >= step.t + step.dur:
                raise ValueError(f"{traj.rel}: requests of step {act} run past its observation")
        self.entries.sort(key=lambda e: e[0])
        return [e for _, e in self.entries]


STATUS_TEXT = {200: "OK", 201: "Created", 302: "Found", 404: "Not Found"}


def _parse_qsl(query: str) -> list[tuple[str, str]]:
    return parse_qsl(query, keep_blank_values=True)


def har_document(traj: Trajectory, entries: list[dict[str, Any]]) -> dict[str, Any]:
    last_view = traj.steps[-1].after.view if traj.steps else traj.start.view
    return {
        "log": {
            "version": "1.2",
            "creator": {"name": "Playwright", "version": "1.49.1"},
            "browser": {"name": "chromium", "version": "131.0.6778.33"},
            "pages": [
                {
                    "startedDateTime": entries[0]["startedDateTime"],
                    "id": entries[0]["pageref"],
                    "title": last_view.title,
                    "pageTimings": {"onContentLoad": 412.8, "onLoad": 655.1},
                }
            ],
            "entries": entries,
        }
    }


# ---------------------------------------------------------------------------------------------
# web_surfer.log in its three generations
# ---------------------------------------------------------------------------------------------


def fara_args(step: Step) -> dict[str, Any]:
    """The Fara computer-use call of a step; coordinates in the model's 1428x896 space."""
    act = step.act
    coord: list[int] | None = None
    if step.box is not None:
        cx, cy = (step.box[0] + step.box[2]) / 2, (step.box[1] + step.box[3]) / 2
        coord = [round(cx * MODEL_W / VIEW_W), round(cy * MODEL_H / VIEW_H)]
    if act.kind == "click":
        return {"action": "left_click", "coordinate": coord}
    if act.kind == "type":
        existing = dict(step.before.filled).get(act.target) or dict(step.before.view.fields).get(
            act.target, ""
        )
        return {
            "action": "type",
            "coordinate": coord,
            "text": act.text,
            "press_enter": act.enter,
            "delete_existing_text": bool(existing),
        }
    if act.kind in ("scroll_down", "scroll_up"):
        return {
            "action": "scroll",
            "coordinate": [714, 448],
            "pixels": -600 if act.kind == "scroll_down" else 600,
        }
    if act.kind == "visit_url":
        return {"action": "visit_url", "url": act.text}
    if act.kind == "back":
        return {"action": "history_back"}
    if act.kind == "memorize":
        return {"action": "pause_and_memorize_fact", "fact": act.text}
    return {"action": "terminate", "status": "success"}


def fara_observation(step: Step, args: dict[str, Any]) -> str:
    act = step.act
    if act.kind == "click":
        x, y = args["coordinate"]
        return f"I clicked at coordinates ({x * VIEW_W / MODEL_W}, {y * VIEW_H / MODEL_H})."
    return {
        "type": f"I typed '{act.text}'.",
        "scroll_down": "I scrolled down one page in the browser.",
        "scroll_up": "I scrolled up one page in the browser.",
        "visit_url": f"I typed '{act.text}' into the browser address bar.",
        "back": "I clicked the browser back button.",
        "memorize": f"I memorized the following fact: {act.text}",
    }.get(act.kind, step.thought)


def solver_call(step: Step) -> tuple[str, dict[str, Any]]:
    """The set-of-marks solver's tool call: elements are named by the id drawn on the screenshot."""
    act = step.act
    if act.kind == "click":
        return "click", {"target_id": str(step.mark)}
    if act.kind == "type":
        return "input_text", {"input_field_id": str(step.mark), "text_value": act.text}
    if act.kind == "visit_url":
        return "visit_url", {"url": act.text}
    if act.kind in ("scroll_down", "scroll_up"):
        return act.kind, {}
    if act.kind == "back":
        return "history_back", {}
    return "stop_and_answer_question", {"answer": step.thought}


def web_surfer_log(traj: Trajectory, generation: str) -> list[str]:
    lines: list[str] = []
    for n, step in enumerate(traj.steps, 1):
        url = render_url(step.before.view.url)
        if generation == "solver":
            rng = random.Random(f"tokens:{traj.rel}:{n}")
            name, args = solver_call(step)
            lines.append(
                json.dumps(
                    {
                        "timestamp": log_ts(step.t - 1_800),
                        "prompt_tokens": rng.randint(5200, 9800),
                        "completion_tokens": rng.randint(40, 190),
                        "type": "LLMCallEvent",
                    }
                )
            )
            lines.append(
                json.dumps(
                    {
                        "timestamp": log_ts(step.t),
                        "type": "WebSurferEvent",
                        "source": "WebSurfer",
                        "message": f"{name}( {json.dumps(args)} )",
                        "url": url,
                        "action": name,
                        "arguments": args,
                    }
                )
            )
            lines.append(
                json.dumps(
                    {
                        "timestamp": log_ts(step.t + step.dur),
                        "type": "WebSurferEvent",
                        "source": "WebSurfer-SummarizedAction",
                        "message": f"Action {n}: URL={url}, {name}({args!r})",
                        "url": render_url(step.after.view.url),
                        "action": None,
                        "arguments": None,
                    }
                )
            )
            continue
        args = fara_args(step)
        plain = {k: v for k, v in args.items()}
        text = (
            f"\nThought #{n}: {step.thought}\nAction #{n}: executing tool '{args['action']}' with arguments "
            f"{json.dumps(plain)}"
        )
        lines.append(json.dumps({"message": text, "timestamp": log_ts(step.t), "type": "OtherEvent"}))
        if generation == "fara":
            structured = {**args, "thoughts": step.thought}
            lines.append(
                json.dumps(
                    {
                        "source": "FaraAgent",
                        "message": f"computer_use( {json.dumps(structured)} )",
                        "url": url,
                        "action": "computer_use",
                        "arguments": structured,
                        "timestamp": log_ts(step.t + 1_100 + n % 7 * 130),
                        "type": "OtherEvent",
                    }
                )
            )
        lines.append(
            json.dumps(
                {
                    "message": f"Observation#{n}: {fara_observation(step, args)}",
                    "timestamp": log_ts(step.t + step.dur),
                    "type": "OtherEvent",
                }
            )
        )
    if generation == "solver" and traj.answer_text is not None:
        final = render_url(traj.steps[-1].after.view.url)
        lines.append(
            json.dumps(
                {
                    "timestamp": log_ts(traj.end_us - 200_000),
                    "type": "WebSurferEvent",
                    "source": "WebSurfer",
                    "message": f"Web surfing done. Final target: {final}",
                    "url": final,
                    "action": None,
                    "arguments": None,
                }
            )
        )
    return lines


def traceback_text(error: tuple[str, str, tuple[str, ...]]) -> list[str]:
    message, exc, frames = error
    out = ["Traceback (most recent call last):"]
    out += [f"  {f}" if f.startswith("File") else f for f in frames]
    out.append(f"{exc}: {message}")
    return out


# ---------------------------------------------------------------------------------------------
# Writing one trajectory folder
# ---------------------------------------------------------------------------------------------


def token_usage(traj: Trajectory) -> dict[str, Any]:
    rng = random.Random(f"usage:{traj.rel}")
    calls = len(traj.steps)
    usage: dict[str, Any] = {
        "prompt_tokens": sum(rng.randint(3300, 9800) for _ in range(calls)),
        "completion_tokens": sum(rng.randint(40, 190) for _ in range(calls)),
    }
    if traj.task["task_id"] % 3 == 0:  # newer writers add these; readers must accept them
        usage["reasoning_tokens"] = 0 if traj.model.key == "fara" else rng.randint(200, 900)
        usage["num_calls"] = calls
    return {traj.model.component: usage}


def screenshot_frames(traj: Trajectory) -> list[tuple[str, Frame]]:
    if traj.model.generation == "solver":  # one per action, the page the action is taken on
        return [(f"screenshot_{i}.png", s.before) for i, s in enumerate(traj.steps, 1)]
    frames = [traj.start] + [s.after for s in traj.steps]  # before step 1, then after each step
    return [(f"screenshot{i}.png", f) for i, f in enumerate(frames)]


def write_json(path: Path, data: Any, *, indent: int | None = 2, newline: bool = True) -> None:
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    path.write_text(text + ("\n" if newline else ""), encoding="utf-8")


def write_trajectory(traj: Trajectory, out: Path, pngs: Mapping[Frame, bytes]) -> Path:
    folder = out / traj.rel
    folder.mkdir(parents=True, exist_ok=True)
    tid, key = traj.task["task_id"], traj.model.key
    crashed = traj.scenario_name == "crash_no_answer"

    shots = screenshot_frames(traj)
    for name, frame in shots:
        (folder / name).write_bytes(pngs[frame])

    generation = traj.model.generation
    if key == "fara" and traj.row.fara_log == "text":
        generation = "text"
    lines = web_surfer_log(traj, generation)
    error = ERRORS.get((key, tid))
    if key == "fara" and tid == 156:
        lines = []  # DEBUG lines filtered: an empty log is common in this generation
    if key == "som" and tid == 44:
        lines.insert(len(lines) // 2, "")  # a stray blank line
    log = "".join(line + "\n" for line in lines)
    if crashed and error and key == "fara":
        log += "\n".join(traceback_text(error)) + "\n"  # a traceback appended after the last JSON line
    if crashed and key == "som":
        log = (
            log[: log.rfind("\n", 0, len(log) - 1) + 1] + lines[-1][: len(lines[-1]) // 2]
        )  # killed mid-write
    (folder / "web_surfer.log").write_text(log, encoding="utf-8")

    if not crashed:
        answer = {
            "final_answer": traj.answer_text if traj.answer_text is not None else "<no_answer>",
            "env_state_json": "<no_answer>",
            "env_state_raw": "<no_answer>",
            "screenshots": [name for name, _ in shots],
            "is_aborted": traj.is_aborted,
            "is_rel_paths": True,
            "token_usage": token_usage(traj),
        }
        write_json(folder / f"{tid}_final_answer.json", answer, newline=False)
        write_json(
            folder / "times.json",
            {
                "start_time": traj.start_us / 1e6,
                "end_time": traj.end_us / 1e6,
                "duration": (traj.end_us - traj.start_us) / 1e6,
            },
            indent=None,
            newline=False,
        )
        if traj.scenario_name != "har_missing":
            write_json(folder / "network.har", har_document(traj, HarBuilder(traj).build()))
    for name, score in JUDGE_SCORES.get((key, tid), {}).items():
        (folder / "scores").mkdir(exist_ok=True)
        write_json(folder / "scores" / name, score, newline=False)
    return folder


def event_repr(traj: Trajectory, step: Step) -> str:
    url = render_url(step.before.view.url)
    if traj.model.generation == "solver":
        name, args = solver_call(step)
        return (
            f"WebSurferEvent(source='WebSurfer', message={f'{name}( {json.dumps(args)} )'!r}, url={url!r}, "
            f"action={name!r}, arguments={args!r})"
        )
    args = {**fara_args(step), "thoughts": step.thought}
    return (
        f"WebSurferEvent(source='FaraAgent', message={f'computer_use( {json.dumps(args)} )'!r}, url={url!r}, "
        f"action='computer_use', arguments={args!r})"
    )


def core_log(traj: Trajectory, verdict: str | None) -> str:
    """webeval.core's per-task log: execution (with retries on errors), the events, evaluation passes."""
    tid, key = traj.task["task_id"], traj.model.key
    name = f"webeval.core.{tid}"
    out: list[str] = []

    def log(us: int, level: str, message: str) -> None:
        out.append(f"{core_ts(us)} [{level}] {name} - {message}")

    error = ERRORS.get((key, tid))
    origin = f"/home/demo/webeval/runs/{traj.rel.removeprefix('runs/')}"
    if error and traj.scenario_name == "aborted":
        # An earlier attempt failed the same way and was retried (its files were deleted, core.log kept).
        first = traj.start_us - 240_000_000
        log(first, "INFO", f"[Execution {tid}] Start")
        log(first + 850_000, "INFO", "Launching browser (chromium, headless, viewport 1440x900)")
        log(first + 61_000_000, "ERROR", f"[Execution {tid}] Error running task: {error[0]}")
        out.extend(traceback_text(error))
        log(first + 61_200_000, "INFO", f"[Execution {tid}] Trajectory is not complete. Reexecuting...")
    log(traj.start_us - 650_000, "INFO", f"[Execution {tid}] Start")
    log(traj.start_us - 420_000, "INFO", "Launching browser (chromium, headless, viewport 1440x900)")
    log(traj.start_us + 1_900_000, "INFO", f"Browser ready: {render_url(traj.start.view.url)}")
    for step in traj.steps:
        if step.act.kind != "terminate" or traj.model.generation == "solver":
            log(step.t + 900, "INFO", event_repr(traj, step))
    end = traj.end_us
    if error:
        log(end + 300_000, "ERROR", f"[Execution {tid}] Error running task: {error[0]}")
        out.extend(traceback_text(error))
        if traj.scenario_name == "crash_no_answer":
            return "\n".join(out) + "\n"
        log(
            end + 500_000,
            "WARNING",
            f"[Execution {tid}] Giving up after 2 attempts; saving aborted trajectory",
        )
    log(end + 600_000, "INFO", "Closing browser...")
    log(end + 1_400_000, "INFO", f"[Execution {tid}] Completed")
    if verdict is None:  # aborted: not evaluated
        return "\n".join(out) + "\n"
    passes = [end + 2_100_000]
    if tid % 4 == 0:  # re-evaluated on a later day, appended to the same file
        passes.append(end + 5 * 86_400_000_000 + 3_723_000_000)
    for i, t in enumerate(passes):
        log(t, "INFO", f"[Evaluation {tid}] Start")
        log(t + 4_000, "INFO", f"[Evaluation {tid}] Loading from: {origin}")
        if verdict == "error":
            log(
                t + 31_000,
                "ERROR",
                f"[Evaluation {tid}] Error: Network trace file not found: {origin}/network.har",
            )
        else:
            score = 1.0 if verdict == "success" else 0.0
            duration = (traj.end_us - traj.start_us) / 1e6
            log(
                t + 27_000 + i * 5_000,
                "INFO",
                f"[Evaluation {tid}] Completed: score={score}, duration={duration:.2f}",
            )
    return "\n".join(out) + "\n"


# Verdicts of other judges (illustrative LLM-judge outputs, as Fara's pipelines write them) so the viewer
# has score files to show next to the official verdict; they are data, not something this script computes.
JUDGE_SCORES: dict[tuple[str, int], dict[str, dict[str, Any]]] = {
    ("fara", 108): {
        "gpt_eval.json": {
            "score": 1.0,
            "gpt_response_text": "Thoughts: The agent opened Reports > Orders, limited the period to "
            "January-May 2023, "
            "filtered on the Complete status and grouped by month. The monthly counts in its "
            'answer match the report rows shown in the last screenshot.\n\nStatus: "SUCCESS"',
        }
    },
    ("fara", 11): {
        "mmrubric_0.8-5-3.json": {
            "score": 0,
            "gpt_response_text": json.dumps(
                {
                    "is_success": 0,
                    "success_criterion": "outcome",
                    "final_answer": "[5]",
                    "outcome_success": False,
                    "outcome_reasoning": "The filtered review grid shows 6 records but the agent answered 5.",
                    "outcome_primary_intent": "Count reviews mentioning 'disappointed'",
                    "rubric_is_success": 0,
                    "rubric_items": [
                        {
                            "criterion": "Find the reviews",
                            "description": "Open Marketing > All Reviews",
                            "max_points": 2,
                            "earned_points": 2,
                            "justification": "Screenshot 2 shows the review grid.",
                        },
                        {
                            "criterion": "Filter by the term",
                            "description": "Filter reviews on 'disappointed'",
                            "max_points": 3,
                            "earned_points": 3,
                            "justification": "The keyword filter was applied.",
                        },
                        {
                            "criterion": "Report the count",
                            "description": "Answer with the number of matching reviews",
                            "max_points": 5,
                            "earned_points": 0,
                            "justification": "Answered 5; the grid says 6 records found.",
                        },
                    ],
                    "rubric_total_earned_points": 5,
                    "rubric_total_max_points": 10,
                    "first_point_of_failure": {"step": 4, "reason": "Miscounted the filtered rows"},
                    "is_ambiguous": False,
                    "is_invalid": False,
                },
                ensure_ascii=False,
            ),
        }
    },
    ("fara", 66): {
        "mmrubric_0.8-5-3.json": {
            "score": 0,
            "gpt_response_text": json.dumps(
                {"verifier_reasoning": 'The last action must be "terminate".', "verifier_success": False}
            ),
        }
    },
    ("som", 288): {
        "WebJudge_Online_Mind2Web_eval-3.json": {
            "score": 1.0,
            "gpt_response_text": "The agent filtered the orders to canceled ones, identified a customer with "
            "repeated "
            "cancellations and reported an email address from the customer grid. Key points "
            "satisfied.\nStatus: success",
        }
    },
}


# ---------------------------------------------------------------------------------------------
# The official evaluator checks the plan
# ---------------------------------------------------------------------------------------------


class Checker:
    """Runs the installed official evaluator (webarena_verified) on what was written."""

    def __init__(self, config: Path) -> None:
        import logging

        from webarena_verified.api import WebArenaVerified
        from webarena_verified.types.config import WebArenaVerifiedConfig

        for name in ("WebArena-Verified", "webarena_verified"):  # errors are results here, not noise
            logging.getLogger(name).setLevel(logging.CRITICAL)
        self.wa = WebArenaVerified(config=WebArenaVerifiedConfig.from_file(config))

    def verdict(self, task_id: int, response: Any, har: Path) -> str:
        from webarena_verified.types.tracing import NetworkTrace

        # A missing file is handed over as a path so the library reports it the way it always does.
        trace: Any = NetworkTrace.from_content(har) if har.exists() else har
        result = self.wa.evaluate_task(task_id=task_id, agent_response=response, network_trace=trace)
        return str(result.model_dump(mode="json")["status"])

    def tasks(self) -> dict[int, dict[str, Any]]:
        data = json.loads(Path(self.wa.config.test_data_file).read_text(encoding="utf-8"))
        return {t["task_id"]: t for t in data}


def check(checker: Checker, traj: Trajectory, folder: Path) -> tuple[str | None, str | None]:
    """(official verdict of the structured answer, official verdict of the raw final_answer text)."""
    if traj.scenario.status is None:
        return None, None
    tid = traj.task["task_id"]
    har = folder / "network.har"
    raw_text = traj.answer_text if traj.answer_text is not None else "<no_answer>"
    raw = checker.verdict(tid, raw_text, har)
    structured = checker.verdict(tid, traj.response, har) if traj.response is not None else raw
    if traj.scenario.style == "malformed":
        structured = raw  # nothing to extract: the text itself is what gets scored
    if structured != traj.scenario.status:
        raise SystemExit(
            f"{traj.rel}: planned {traj.scenario_name} -> {traj.scenario.status}, but the official "
            f"evaluator says {structured}"
        )
    return structured, raw


# ---------------------------------------------------------------------------------------------
# The whole sample
# ---------------------------------------------------------------------------------------------

CLI_TASKS = (108, 11, 260, 470, 259)  # copied from fara-7b into the official CLI layout


def generate(out: Path, jobs: int = 1) -> dict[str, Any]:
    if out.exists():
        if any(out.iterdir()) and not (out / "intended_verdicts.json").exists():
            raise SystemExit(
                f"{out} is not empty and does not look like a sample_runs folder; refusing to delete it"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True)
    config = {"environments": {key: {"urls": [url]} for key, url in SITE_URLS.items()}}
    write_json(out / "webarena-verified-config.json", config)
    checker = Checker(out / "webarena-verified-config.json")
    tasks = checker.tasks()
    recipes = build_recipes()
    trajectories: list[Trajectory] = []
    for model in MODELS:
        start = int(model.run_start.timestamp() * 1_000_000)
        rng = random.Random(f"run:{model.key}")
        for row in PLAN:
            traj = plan_trajectory(model, row, tasks[row.task_id], recipes[row.task_id])
            schedule(traj, start)
            start = traj.end_us + rng.randint(20_000_000, 95_000_000)
            trajectories.append(traj)
    pngs = render_all((f for t in trajectories for _, f in screenshot_frames(t)), jobs)
    verdicts: dict[str, dict[str, Any]] = {}
    for traj in trajectories:
        folder = write_trajectory(traj, out, pngs)
        status, raw = check(checker, traj, folder)
        (folder / "core.log").write_text(core_log(traj, status), encoding="utf-8")
        key = (traj.model.key, traj.row.task_id)
        verdicts[traj.rel] = {
            "task_id": traj.row.task_id,
            "model": traj.model.name,
            "scenario": traj.scenario_name,
            "expected_status": status,
            "raw_text_status": raw,
            "note": " ".join(p for p in (traj.scenario.note, NOTES.get(key, "")) if p),
        }
    by_rel = {t.rel: t for t in trajectories}
    for tid in CLI_TASKS:
        traj = by_rel[f"runs/{MODELS[0].system}/{MODELS[0].name}/{USER}/{EXEC_HASH}/{RUN_ID}/traj/{tid}"]
        folder = out / "webarena-verified-cli" / str(tid)
        folder.mkdir(parents=True)
        text = traj.answer_text or ""
        (folder / "agent_response.json").write_text(text + "\n", encoding="utf-8")
        shutil.copyfile(out / traj.rel / "network.har", folder / "network.har")
        raw = checker.verdict(tid, text, folder / "network.har")
        status = checker.verdict(tid, traj.response, folder / "network.har")
        verdicts[f"webarena-verified-cli/{tid}"] = {
            "task_id": tid,
            "model": traj.model.name,
            "scenario": traj.scenario_name,
            "expected_status": status,
            "raw_text_status": raw,
            "note": f"Official CLI layout, copied from {traj.rel}. {traj.scenario.note}",
        }
    write_json(out / "intended_verdicts.json", verdicts)
    (out / "README.md").write_text(readme(trajectories, tasks, verdicts), encoding="utf-8")
    return verdicts


def readme(
    trajectories: list[Trajectory], tasks: Mapping[int, dict[str, Any]], verdicts: Mapping[str, Any]
) -> str:
    lines = [
        "# sample_runs: demo data for the trajectory inspector",
        "",
        "Generated by `scripts/make_sample_runs.py` (deterministic; do not edit by hand, re-run the script).",
        "",
        f"- `runs/`: {len(PLAN)} real WebArena-Verified tasks run by two agents, in Fara's layout",
        "  `runs/<system.hash>/<model>/<user>/<exec_hash>/<run_id>/traj/<task_id>/`.",
        "- `webarena-verified-cli/`: five tasks in the official CLI layout (`agent_response.json`,",
        "  `network.har`).",
        "- `webarena-verified-config.json`: the site URLs used in every log, HAR and answer.",
        "- `intended_verdicts.json`: per trajectory, the scenario it was built for and the official verdict",
        "  (`expected_status`: of the structured answer after extraction and name mapping;",
        "  `raw_text_status`:",
        "  of the raw final_answer text; null = aborted, not scored). Both were computed with the installed",
        "  official evaluator while generating.",
        "- Score files under `scores/` are illustrative outputs of other (LLM) judges, not official",
        "  verdicts.",
        "- Web pages in screenshots are drawn, not captured; times are in UTC-08:00 local time in logs.",
        "",
        "| model | log generation | screenshots | trajectories | success | failure | error | not scored |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for model in MODELS:
        mine = [t for t in trajectories if t.model is model]
        counts = Counter(verdicts[t.rel]["expected_status"] for t in mine)
        naming = "screenshot0..N" if model.generation == "fara" else "screenshot_1..N"
        gen = "Fara structured (4 older text-only)" if model.key == "fara" else "solver WebSurferEvent"
        lines.append(
            f"| {model.name} | {gen} | {naming} | {len(mine)} | {counts['success']} | {counts['failure']} "
            f"| {counts['error']} | {counts[None]} |"
        )
    lines += [
        "",
        "| task | sites | type | " + " | ".join(m.name for m in MODELS) + " |",
        "|---|---|---|" + "---|" * len(MODELS),
    ]
    for row in PLAN:
        task = tasks[row.task_id]
        lines.append(
            f"| {row.task_id} | {', '.join(task['sites'])} | {expected_of(task)['task_type']} | "
            + " | ".join(getattr(row, m.key) for m in MODELS)
            + " |"
        )
    return "\n".join(lines) + "\n"


def tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: sample_runs/)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=min(8, os.cpu_count() or 1),
        help="processes drawing screenshots (the output is the same for any value)",
    )
    args = parser.parse_args(argv)
    began = time.perf_counter()
    verdicts = generate(args.out, args.jobs)
    counts = Counter(v["expected_status"] for v in verdicts.values())
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(
        f"wrote {len(verdicts)} trajectories to {args.out} ({size / 1e6:.1f} MB, "
        f"{time.perf_counter() - began:.1f} s); verdicts {dict(counts)}; tree sha256 {tree_digest(args.out)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
