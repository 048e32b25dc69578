"""GitLab: projects, repository files, issues, merge requests and settings."""

from __future__ import annotations

from urllib.parse import urlsplit

from ..canvas import Painter
from ..sites import CHROME_H, SITES, VIEW_H, VIEW_W, render_url


def paint(p: Painter) -> None:
    v, y0 = p.view, CHROME_H
    p.rect((0, y0, VIEW_W, y0 + 44), fill="#292961")
    p.rect((16, y0 + 10, 40, y0 + 34), fill="#fc6d26", radius=4)
    p.link((50, y0 + 12), "GitLab", 18, "#ffffff")
    p.link((140, y0 + 14), "Menu", 14, "#ffffff")
    p.field((560, y0 + 7), 320, "Search GitLab", v.query if "/search" in v.url else "", 30)
    for i, item in enumerate(("Issues", "Merge requests", "To-Do List")):
        p.link((1000 + i * 120, y0 + 14), item, 13, "#ffffff")
    p.rect((1380, y0 + 8, 1408, y0 + 36), fill="#6666c4", radius=14)
    p.target("byteblaze", (1380, y0 + 8, 1408, y0 + 36))
    path = urlsplit(render_url(v.url)).path.strip("/").split("/-/")[0]
    in_project = v.url.count("/") >= 4 and not path.startswith(("dashboard", "explore", "projects", "-"))
    x0 = 40
    if in_project:
        p.rect((0, y0 + 44, 230, VIEW_H), fill="#fbfafd")
        p.draw.line((230, y0 + 44, 230, VIEW_H), fill="#dbdbdb")
        p.text((16, y0 + 60), path.split("/")[-1], 15, "#303030", 200)
        for i, item in enumerate(SITES["gitlab"]["project_menu"]):
            p.link((24, y0 + 100 + i * 36), item, 14, "#303030")
        x0 = 260
    crumbs = " / ".join(p for p in path.split("/")[:3] if p) or "Dashboard"
    p.text((x0, y0 + 64), crumbs, 13, "#666666", 900)
    y = p.banner((x0, y0 + 94, 1400, y0 + 134), 16, "#ecf4ee", "#24663b", 14)
    y = p.heading((x0, y), 24, 1100, "#303030", 46)
    kind = v.kind
    if kind == "list":
        p.links((x0, y), v.buttons or ("Open", "Closed", "All"), 14, "#303030", 24)
        p.field((x0 + 420, y - 6), 560, "Search or filter results...", v.query, 30)
        y += 40
        rows = p.rows(9, lambda r: (p.pick("issues"), f"#{r.randint(10, 1600)}", p.pick("people")))
        for row in rows[p.frame.scroll * 5 :]:
            if y > VIEW_H - 60:
                break
            p.draw.line((x0, y, 1400, y), fill="#ececef")
            p.link((x0 + 4, y + 10), row[0], 15, "#303030", 900)
            meta = " · ".join(p for p in row[1:3])
            p.text((x0 + 4, y + 34), meta, 13, "#666666", 900)
            if len(row) > 3 and row[3]:
                p.rect((x0 + 940, y + 10, x0 + 1040, y + 30), fill="#dbe9f8", radius=10)
                p.text((x0 + 950, y + 13), row[3], 12, "#1f5a96", 86)
                p.target(row[3], (x0 + 940, y + 10, x0 + 1040, y + 30))
            y += 64
    elif kind == "project":
        p.rect((x0, y, x0 + 64, y + 64), fill="#e7e4f2", radius=6)
        p.text((x0 + 24, y + 18), path.split("/")[-1][:1].upper(), 24, "#6b4fbb")
        p.text((x0 + 80, y + 4), v.text or path, 14, "#666666", 900)
        for i, label in enumerate(v.buttons):
            p.button((x0 + 80 + i * 120, y + 30), label, "#fafafa", "#303030", 13)
        y += 96
        p.table((x0, y, 1400), v.rows or tuple(map(tuple, SITES["gitlab"]["repo_files"])))
    elif kind in ("form", "mr", "settings"):
        if v.text:
            y = p.para((x0, y), v.text, 14, 1000, "#303030") + 14
        for label, value in v.fields:
            p.text((x0, y), label, 14, "#303030")
            big = label in ("Comment", "Content", "Description")
            p.field((x0, y + 24), 900, label, value, 120 if big else 34)
            y += 150 if big else 74
        p.buttons((x0, y), v.buttons, "#1f75cb")
        if v.rows:
            p.table((x0, y + 60, 1400), v.rows)
    elif kind == "ide":
        p.rect((x0 - 30, y, x0 + 250, VIEW_H - 20), fill="#f6f6f6")
        for i, row in enumerate(v.rows):
            p.link((x0 - 10, y + 14 + i * 30), row[0], 14, "#303030")
        p.rect((x0 + 260, y, 1400, VIEW_H - 20), fill="#fdfdfd", outline="#e5e5e5")
        content = p.filled.get("editor", v.text)
        for i, line in enumerate(content.split("\n")[:26]):
            p.text((x0 + 280, y + 14 + i * 22), f"{i + 1:>3}  {line}", 14, "#303030", 1000)
        p.target("editor", (x0 + 260, y, 1400, VIEW_H - 20))
        p.buttons((x0 + 260, VIEW_H - 70), v.buttons, "#1f75cb")
    else:
        p.generic(y)
