"""The shopping site (Magento Luma storefront): home, categories, product pages, cart and checkout."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..canvas import Painter
from ..sites import CHROME_H, SITES, VIEW_H, VIEW_W


def paint(p: Painter) -> None:
    v, y0 = p.view, CHROME_H
    p.rect((0, y0, VIEW_W, y0 + 34), fill="#f6f6f6")
    p.text((920, y0 + 9), "Welcome, Emma Lopez!", 13, "#333333")
    p.link((1090, y0 + 9), "My Account", 13, "#333333")
    p.link((1190, y0 + 9), "My Wish List", 13, "#333333")
    p.link((1300, y0 + 9), "Sign Out", 13, "#333333")
    p.rect((40, y0 + 52, 78, y0 + 90), fill="#ff7f32", radius=6)
    p.link((92, y0 + 54), "One Stop Market", 28, "#1979c3")
    p.field((980, y0 + 54), 360, "Search entire store here...", v.query)
    p.target("Search", (1340, y0 + 54, 1380, y0 + 88))
    p.text((1396, y0 + 58), "Cart", 13, "#555555")
    p.rect((0, y0 + 110, VIEW_W, y0 + 150), fill="#f0f0f0")
    p.links((40, y0 + 122), SITES["shopping"]["menu"], 13, "#575757", 22)
    y = p.banner((40, y0 + 172, 1400, y0 + 212), 20, "#e5efe5", "#006400")
    y = p.heading((40, y), 30, 1340, "#333333", 56)
    kind = v.kind
    if kind in ("grid", "home"):
        if kind == "home" and p.frame.scroll == 0:
            p.rect((40, y, 1400, y + 150), fill="#eaf3fb")
            p.text((70, y + 40), "Product Showcases", 26, "#1979c3")
            p.text((70, y + 84), "New arrivals in every department, picked for you.", 16, "#555555")
            y += 180
        else:
            if v.buttons and p.frame.scroll == 0:  # sub-categories ("Shop By")
                p.links((40, y), v.buttons, 15, "#1979c3", 28)
                y += 34
            p.text((40, y), f"Items 1-12 of {p.rng.randint(40, 400)}", 13, "#555555")
            p.link((1000, y), "Sort By", 13, "#555555")
            order = "Price" if "product_list_order=price" in v.url else "Relevance"
            p.text((1060, y), order, 13, "#333333")
            p.link((1140, y), "Set Descending Direction", 12, "#1979c3")
            y += 34
        rows = p.rows(12, lambda r: (p.pick("products"), f"${r.uniform(5, 120):.2f}"))
        cards(p, rows[p.frame.scroll * 4 :], y)
    elif kind == "product":
        name, price = (v.rows[0] + ("", ""))[:2] if v.rows else ("Product", "$0.00")
        p.rect((40, y, 560, y + 460), fill="#f3f3f3")
        p.rect((200, y + 130, 400, y + 330), fill="#d9d9d9", radius=20)
        p.para((600, y), name, 26, 780, "#333333")
        stars(p, (600, y + 112), 4)
        p.text((700, y + 110), "12 Reviews   Add Your Review", 14, "#555555")
        p.text((600, y + 150), price, 34, "#333333")
        p.text((1200, y + 160), "IN STOCK", 13, "#555555")
        p.text((600, y + 220), "Qty", 14)
        p.field((600, y + 244), 70, "Qty", "1")
        p.button((690, y + 242), "Add to Cart", size=16)
        p.link((600, y + 310), "Add to Wish List", 14, "#1979c3")
        p.link((780, y + 310), "Add to Compare", 14, "#1979c3")
        details = v.text or "Product details, dimensions and shipping information."
        p.para((600, y + 370), details, 14, 780, "#555555")
    elif kind in ("orders", "order"):
        for i, item in enumerate(SITES["shopping"]["account_menu"]):
            p.link((40, y + i * 34), item, 14, "#333333" if item != "My Orders" else "#1979c3")
        if v.text:
            y = p.para((320, y), v.text, 15, 1060, "#333333") + 10
        header = ("Order #", "Date", "Order Total", "Status", "Action")
        y = p.table((320, y, 1400), v.rows or (header,))
        x = 320
        for label in v.buttons:  # pagination / order actions
            x = p.button((x, y + 16), label, "#e8e8e8", "#333333", 13)[2] + 8
    else:
        p.generic(y)


def stars(p: Painter, xy: tuple[int, int], n: int) -> None:
    for i in range(5):
        cx, cy = xy[0] + 8 + i * 17, xy[1] + 7
        pts = []
        for k in range(10):
            radius = 8 if k % 2 == 0 else 3.5
            angle = -1.5708 + k * 0.6283
            pts.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        p.draw.polygon(pts, fill="#ff5501" if i < n else "#cccccc")


def cards(p: Painter, rows: Sequence[tuple[str, ...]], y: int) -> None:
    for i, row in enumerate(rows[:8]):
        x, yy = 40 + (i % 4) * 345, y + (i // 4) * 330
        if yy > VIEW_H - 120:
            break
        p.rect((x, yy, x + 310, yy + 180), fill="#f3f3f3")
        p.rect((x + 110, yy + 45, x + 200, yy + 135), fill="#dcdcdc", radius=12)
        p.link((x, yy + 192), row[0], 14, "#333333", 310)
        stars(p, (x, yy + 218), 3 + len(row[0]) % 3)
        p.text((x, yy + 240), row[1] if len(row) > 1 else "", 18, "#333333")
