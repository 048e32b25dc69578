"""The shopping admin (Magento back office): dashboard, grids, reports and forms."""

from __future__ import annotations

from ..canvas import Painter, font
from ..sites import CHROME_H, SITES, VIEW_H


def paint(p: Painter) -> None:
    v, y0 = p.view, CHROME_H
    p.rect((0, y0, 88, VIEW_H), fill="#373330")
    p.rect((22, y0 + 14, 66, y0 + 54), fill="#eb5202", radius=4)
    for i, item in enumerate(SITES["shopping_admin"]["menu"]):
        yy = y0 + 80 + i * 64
        p.rect((36, yy, 52, yy + 16), outline="#aaa6a0")
        w = p.draw.textlength(item.upper(), font=font(10))
        p.text((44 - int(w) // 2, yy + 24), item.upper(), 10, "#aaa6a0")
        p.target(item, (0, yy - 6, 88, yy + 40))
    x0, y = 120, y0 + 24
    p.text((x0, y), v.heading or v.title.split(" / ")[0], 28, "#41362f", 800)
    p.text((1310, y + 6), "admin", 14, "#41362f")
    y = p.banner((x0, y + 70, 1400, y + 114), 20, "#e5efe5", "#185b00")
    if v.buttons:
        p.right_buttons(1400, y, v.buttons, ("Save", "Save Page", "Show Report", "Save Config"))
        y += 60
    kind = v.kind
    if kind == "dashboard":
        for i, (label, value) in enumerate((("Lifetime Sales", "$0.00"), ("Average Order", "$0.00"))):
            p.text((x0 + i * 260, y), label, 14, "#41362f")
            p.text((x0 + i * 260, y + 24), value, 22, "#eb5202")
        p.rect((x0, y + 80, 900, y + 330), fill="#f8f8f8", outline="#e3e3e3")
        p.text((x0 + 20, y + 96), "Orders  Amounts  Tax  Shipping  Quantity", 13, "#41362f")
        p.text((x0, y + 350), "Last Orders", 18, "#41362f")
        p.table((x0, y + 380, 1400), v.rows or (("Customer", "Items", "Total"),))
    elif kind in ("grid", "report"):
        if kind == "report":
            for i, (label, value) in enumerate(v.fields):
                p.text((x0 + 20, y + 8 + i * 46), label, 14, "#303030")
                p.field((x0 + 200, y + i * 46), 300, label, value)
            y += max(1, len(v.fields)) * 46 + 20
        else:
            p.field((x0, y), 340, "Search by keyword", v.query)
            p.button((x0 + 350, y), "Search", "#e3e3e3", "#333333")
            p.text((1220, y + 8), "Filters   Columns", 14, "#007bdb")
            y += 54
        p.table((x0, y, 1400), v.rows, minimum=0 if kind == "report" else 12, header_bg="#514943")
    elif kind == "form":
        y = p.form((x0, y), v.fields)
        p.generic(y + 20)
    elif kind == "order":
        p.text((x0, y), "Order & Account Information", 20, "#41362f")
        p.table((x0, y + 36, 1400), v.rows, minimum=0, header_bg="#514943")
        y += 40 + 38 * (len(v.rows) + 1)
        if v.fields:
            p.text((x0, y + 10), "Notes for this Order", 20, "#41362f")
            y = p.form((x0, y + 46), v.fields)
            p.button((x0 + 300, y), "Submit Comment", "#eb5202")
        if v.text:
            p.para((x0, y + 70), v.text, 14, 1200, "#303030")
    else:
        p.generic(y)
