"""Wikipedia (WebArena's offline copy through Kiwix): an article page."""

from __future__ import annotations

from ..canvas import Painter
from ..sites import CHROME_H, FILLER, VIEW_H, VIEW_W


def paint(p: Painter) -> None:
    v, y0 = p.view, CHROME_H
    p.rect((0, y0, VIEW_W, y0 + 46), fill="#f8f9fa")
    p.draw.line((0, y0 + 46, VIEW_W, y0 + 46), fill="#c8ccd1")
    p.link((30, y0 + 13), "Home", 15, "#3366cc")
    p.field((110, y0 + 7), 420, "Search 'Wikipedia'", v.query, 32)
    p.link((560, y0 + 13), "Random", 15, "#3366cc")
    x0, y = 160, y0 + 80
    if v.kind == "search":
        p.text((x0, y), f'Results 1-{len(v.rows)} for "{v.query}"', 18, "#202122")
        y += 48
        for title, snippet in v.rows:
            p.link((x0, y), title, 18, "#3366cc")
            y = p.para((x0, y + 28), snippet, 14, 1000, "#54595d") + 18
        return
    if p.frame.scroll == 0:
        p.text((x0, y), v.heading or v.title, 32, "#000000", 1100)
        p.draw.line((x0, y + 46, 1300, y + 46), fill="#a2a9b1")
        p.text((x0, y + 56), "From Wikipedia, the free encyclopedia", 13, "#54595d")
        y += 90
    if v.rows:  # infobox
        p.rect((1000, y, 1300, y + 40 + 30 * len(v.rows)), fill="#f8f9fa", outline="#a2a9b1")
        for i, (key, value) in enumerate(v.rows):
            p.text((1012, y + 16 + i * 30), key, 13, "#202122", 110)
            p.link((1130, y + 16 + i * 30), value, 13, "#3366cc", 160)
    paragraphs = [line for line in v.text.split("\n") if line]
    while len(paragraphs) < 6:
        paragraphs.append(" ".join(p.rng.sample(FILLER["sentences"], 3)))
    for paragraph in paragraphs[p.frame.scroll * 2 :]:
        if y > VIEW_H - 60:
            break
        y = p.para((x0, y), paragraph, 16, 800, "#202122", 8) + 16
