"""The pieces every exported HTML page shares: its policy, its style and escaped building blocks.

Exported pages open offline in any browser and are sent to people who have no tool. Everything
an agent, a page, a log or a file wrote goes through `text` and is shown as text, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from webeval_core.presentation.tones import TONE_BACKGROUNDS, TONE_INKS

# Defence in depth: should an unescaped value ever slip through, the browser still runs no script
# and fetches nothing; only inline styles, embedded images and links between exported pages.
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

IMAGE_WIDTH = 1136
"""The widest a screenshot is shown by STYLE (1180 px of body, less an article's border and padding
and the image's border): exported frames are scaled down to it, never drawn larger than shown."""

STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f;
       max-width: 1180px; margin: 0 auto; padding: 1.5rem; background: #fafafa; }
h1 { margin: 0 0 .3rem; } h2 { margin: 0 0 .6rem; font-size: 1.2rem; }
section, article { background: #fff; border: 1px solid #ddd; border-radius: 8px;
                   padding: 1rem 1.2rem; margin: 1rem 0; }
.intent { font-size: 1.1rem; margin: .2rem 0 .8rem; }
.muted, figcaption, .caption { color: #666; font-size: .85rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .6rem 0; }
dt { font-weight: 600; color: #444; } dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font: 13px/1.4 ui-monospace, monospace;
      background: #f4f4f6; padding: .5rem .6rem; border-radius: 4px; }
.badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .85rem;
         margin: 0 .3rem .3rem 0; background: #e9e9ee; color: #333; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid #eee; padding: .3rem .4rem; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
ol.index { columns: 4 13rem; margin: 0; padding-left: 2.2rem; font-size: .9rem; }
figure { margin: 0 0 .6rem; } img { max-width: 100%; height: auto; border: 1px solid #ccc; }
.missing { background: #fff4e5; border: 1px dashed #e0a040; padding: 1.5rem; border-radius: 4px; }
.cards { display: flex; flex-wrap: wrap; gap: .8rem; }
.card { border: 1px solid #ddd; border-radius: 8px; padding: .6rem .9rem; min-width: 9rem; background: #fff; }
.card .value { font-size: 1.6rem; font-weight: 600; } .card .label { color: #555; font-size: .85rem; }
.bar { background: #e9e9ee; border-radius: 3px; height: .9rem; min-width: 8rem; }
.bar > span { display: block; height: 100%; border-radius: 3px; background: #2e7d32; }
""" + "".join(  # after .badge: a tone's colours win on a badge
    f".{tone} {{ background: {TONE_BACKGROUNDS[tone]}; color: {TONE_INKS[tone]}; }}\n" for tone in TONE_INKS
)


def text(value: object) -> str:
    """Any value as inert HTML text (quotes escaped too, so it is safe inside attributes)."""
    return escape(str(value), quote=True)


def badge(label: str, css: str = "") -> str:
    """A rounded label; `css` is one of our tones (good / partial / bad), never input text."""
    return f'<span class="{f"badge {css}" if css else "badge"}">{text(label)}</span>'


def facts(rows: Sequence[tuple[str, str]]) -> str:
    """Label / value pairs as a definition list."""
    return "<dl>" + "".join(f"<dt>{text(k)}</dt><dd>{text(v)}</dd>" for k, v in rows) + "</dl>"


def pre(value: str) -> str:
    """Preformatted text that wraps (answers, logs, JSON)."""
    return f"<pre>{text(value)}</pre>"


def table(
    headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: frozenset[int] = frozenset()
) -> str:
    """A table of cells that are already HTML (build them with `text`); `numeric` columns align right."""

    def cell(tag: str, index: int, content: str) -> str:
        return f'<{tag} class="num">{content}</{tag}>' if index in numeric else f"<{tag}>{content}</{tag}>"

    head = "".join(cell("th", i, text(h)) for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def page(title: str, parts: Iterable[str]) -> str:
    """A whole standalone page: policy, style, the escaped title and the (already built) parts."""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{text(title)}</title>",
            f"<style>{STYLE}</style>",
            "</head><body>",
            *(part for part in parts if part),
            "</body></html>",
            "",
        ]
    )
