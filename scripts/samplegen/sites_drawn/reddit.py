"""The forum (Postmill, WebArena's reddit): front page, forums, posts and their forms."""

from __future__ import annotations

import random

from ..canvas import Painter
from ..sites import CHROME_H, VIEW_H, VIEW_W


def paint(p: Painter) -> None:
    v, y0 = p.view, CHROME_H
    p.rect((0, y0, VIEW_W, y0 + 52), fill="#ffffff")
    p.draw.line((0, y0 + 52, VIEW_W, y0 + 52), fill="#dddddd")
    p.link((40, y0 + 12), "Postmill", 24, "#2a7ab0")
    p.link((190, y0 + 17), "Forums", 15, "#333333")
    p.link((270, y0 + 17), "Wiki", 15, "#333333")
    p.field((360, y0 + 9), 360, "Search query", v.query)
    p.link((1040, y0 + 17), "Submit", 15, "#333333")
    p.link((1120, y0 + 17), "Create forum", 15, "#333333")
    p.link((1250, y0 + 17), "MarvelsGrantMan136", 15, "#333333")
    y = p.banner((40, y0 + 76, 1020, y0 + 116), 20, "#dff0d8", "#3c763d")
    y = p.heading((40, y), 26, 960, "#222222", 48)
    # sidebar
    p.rect((1080, y0 + 76, 1400, y0 + 330), fill="#f7f7f7", outline="#e2e2e2")
    p.text((1100, y0 + 94), v.heading or "Postmill", 18, "#222222", 280)
    about = "A place to discuss, share and learn. Be kind and stay on topic."
    p.para((1100, y0 + 126), about, 13, 280, "#555555")
    p.button((1100, y0 + 200), "Subscribe", "#2a7ab0")
    kind = v.kind
    if kind == "list":
        tabs = ("Hot", "New", "Active", "Top", "Controversial", "Most commented")
        p.links((40, y), tabs, 14, "#2a7ab0", 22)
        y += 34
        if v.text and not v.rows:
            p.text((40, y + 10), v.text, 15, "#555555")

        def post(r: random.Random) -> tuple[str, ...]:
            title, user = p.pick("posts"), p.pick("users")
            return title, user, f"{r.randint(0, 90)} comments", str(r.randint(-3, 120))

        rows = p.rows(8, post)
        for row in rows[p.frame.scroll * 4 :]:
            if y > VIEW_H - 80:
                break
            score = row[3] if len(row) > 3 else "1"
            p.draw.polygon([(42, y + 14), (50, y + 2), (58, y + 14)], fill="#999999")
            p.target(f"upvote {row[0]}", (40, y, 60, y + 16))
            p.text((42, y + 20), score, 13, "#333333")
            p.draw.polygon([(42, y + 40), (50, y + 52), (58, y + 40)], fill="#999999")
            p.link((90, y), row[0], 17, "#2a7ab0", 960)
            meta = f"Submitted by {row[1] if len(row) > 1 else 'someone'}"
            p.text((90, y + 26), meta, 13, "#777777")
            if len(row) > 2:
                p.link((90, y + 46), row[2], 13, "#777777")
            y += 84
    elif kind == "post":
        p.para((40, y), v.text or "", 15, 980, "#222222")
        y += 40 + 21 * max(1, len(v.text) // 110)
        p.text((40, y), f"{len(v.rows)} comments", 16, "#222222")
        y += 36
        for author, body in v.rows[p.frame.scroll * 3 :]:
            if y > VIEW_H - 60:
                break
            p.text((60, y), author, 13, "#2a7ab0")
            y = p.para((60, y + 20), body, 14, 940, "#333333") + 16
    elif kind == "form":
        p.buttons((300, p.form((20, y), v.fields)), v.buttons, "#2a7ab0")
    else:
        p.generic(y)
