"""The map (OpenStreetMap): search, directions and a drawn map."""

from __future__ import annotations

import random

from ..canvas import Painter
from ..sites import CHROME_H, VIEW_H, VIEW_W


def paint(p: Painter) -> None:
    v, y0 = p.view, CHROME_H
    p.rect((0, y0, VIEW_W, y0 + 50), fill="#ffffff")
    p.draw.line((0, y0 + 50, VIEW_W, y0 + 50), fill="#cccccc")
    p.rect((20, y0 + 12, 46, y0 + 38), fill="#7ebc6f", radius=13)
    p.link((56, y0 + 14), "OpenStreetMap", 19, "#333333")
    for i, item in enumerate(("Edit", "History", "Export")):
        p.link((260 + i * 80, y0 + 17), item, 14, "#555555")
    for i, item in enumerate(("GPS Traces", "User Diaries", "Communities", "Copyright", "Help", "About")):
        p.link((760 + i * 100, y0 + 17), item, 13, "#555555")
    side = 360
    p.rect((0, y0 + 51, side, VIEW_H), fill="#ffffff")
    p.draw.line((side, y0 + 51, side, VIEW_H), fill="#cccccc")
    map_canvas(p, side, y0 + 51)
    y = y0 + 66
    if v.kind == "directions":
        for label, value in v.fields or (("From", ""), ("To", ""), ("Mode", "Car (OSRM)")):
            p.field((16, y), 300, label, value)
            y += 44
        p.button((262, y), "Go", "#7092ff")
        y += 52
    else:
        p.field((16, y), 260, "Search", v.query)
        p.button((282, y), "Go", "#7092ff")
        p.target("Directions", (326, y, 352, y + 34))
        p.draw.line((332, y + 26, 332, y + 12, 344, y + 12), fill="#333333", width=3)
        p.draw.polygon([(344, y + 6), (350, y + 12), (344, y + 18)], fill="#333333")
        y += 52
    if v.heading:
        p.text((16, y), v.heading, 20, "#333333", 330)
        y += 36
    if v.kind == "feature":
        feature = v.title.split(" | ")[0].split(":")[0] + " " + v.url.rsplit("/", 1)[-1]
        p.text((16, y), feature, 13, "#777777")
        p.text((16, y + 30), "Tags", 16, "#333333")
        y += 60
    if v.text:
        y = p.para((16, y), v.text, 14, 330, "#333333") + 10
    for row in v.rows[p.frame.scroll * 3 :]:
        if y > VIEW_H - 40:
            break
        if v.kind == "search":
            p.link((16, y), row[0], 14, "#0063bb", 330)
            if len(row) > 1:
                p.text((16, y + 20), row[1], 12, "#777777", 330)
            y += 48
        else:
            p.text((16, y), row[0], 13, "#333333", 150)
            if len(row) > 1:
                p.link((170, y), row[1], 13, "#333333", 180)
            y += 26


def map_canvas(p: Painter, x0: int, y0: int) -> None:
    """A plausible map: streets, a park, a river; a route and pins for directions/features."""
    r = random.Random(f"map:{p.view.heading}:{p.view.kind}")
    p.rect((x0 + 1, y0, VIEW_W, VIEW_H), fill="#f2efe9")
    for _ in range(3):
        px, py = r.randint(x0 + 40, 1300), r.randint(y0 + 40, 760)
        p.rect((px, py, px + r.randint(80, 200), py + r.randint(60, 140)), fill="#c8facc")
    river = [(x0, r.randint(y0 + 100, 700))]
    while river[-1][0] < VIEW_W:
        x, y = river[-1]
        river.append((x + 120, min(VIEW_H - 20, max(y0 + 20, y + r.randint(-50, 50)))))
    p.draw.line(river, fill="#aad3df", width=18)
    for _ in range(9):
        if r.random() < 0.5:
            yy = r.randint(y0, VIEW_H)
            p.draw.line((x0, yy, VIEW_W, yy + r.randint(-80, 80)), fill="#ffffff", width=6)
        else:
            xx = r.randint(x0, VIEW_W)
            p.draw.line((xx, y0, xx + r.randint(-80, 80), VIEW_H), fill="#ffffff", width=6)
    p.draw.line((x0, r.randint(y0, VIEW_H), VIEW_W, r.randint(y0, VIEW_H)), fill="#f9b29c", width=8)
    p.rect((VIEW_W - 44, y0 + 12, VIEW_W - 14, y0 + 72), fill="#ffffff", outline="#cccccc")
    p.text((VIEW_W - 34, y0 + 16), "+", 18, "#333333")
    p.text((VIEW_W - 33, y0 + 44), "-", 18, "#333333")
    if p.view.kind == "directions" and p.view.rows:
        pts = [(r.randint(x0 + 80, x0 + 300), r.randint(y0 + 80, 700))]
        for _ in range(6):
            pts.append((pts[-1][0] + r.randint(60, 140), pts[-1][1] + r.randint(-60, 60)))
        p.draw.line(pts, fill="#0000ff", width=5)
        for (px, py), color in ((pts[0], "#72b026"), (pts[-1], "#d63e2a")):
            p.draw.ellipse((px - 9, py - 24, px + 9, py - 6), fill=color)
    elif p.view.kind == "feature":
        px, py = (x0 + VIEW_W) // 2, (y0 + VIEW_H) // 2
        corners = [(px - 90, py - 60), (px + 110, py - 40), (px + 80, py + 70), (px - 70, py + 50)]
        p.draw.polygon(corners, outline="#ff6200", fill=None)
        p.draw.line([*corners, corners[0]], fill="#ff6200", width=3)
    p.text((VIEW_W - 300, VIEW_H - 22), "© OpenStreetMap contributors", 12, "#555555")
