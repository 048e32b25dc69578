"""The six WebArena sites as every log, HAR and answer of the sample names them, and the screen geometry.

The sites and what their pages always show are data (`data/sites.toml`).

URLs in views keep a site placeholder (`__SHOPPING__/...`); `render_url` turns them into what the browser
saw and `site_of` tells which site they belong to.
"""

from __future__ import annotations

import tomllib
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any

_DATA = tomllib.loads((Path(__file__).parent / "data" / "sites.toml").read_text(encoding="utf-8"))
SITES: dict[str, dict[str, Any]] = _DATA["sites"]  # name -> placeholder, url, colour, menus, assets
FILLER: dict[str, list[str]] = _DATA["filler"]
SITE_URLS: dict[str, str] = {site["placeholder"]: site["url"] for site in SITES.values()}
SITE_NAMES = {site["placeholder"]: name for name, site in SITES.items()}

# The machine that "ran" the agents logged naive local time in UTC-08:00 (ARCHITECTURE.md, "Time").
LOCAL_TZ = timezone(timedelta(hours=-8))
VIEW_W, VIEW_H = 1440, 900  # browser viewport == PNG size
MODEL_W, MODEL_H = 1428, 896  # what the Fara model sees; its coordinates live in this space
CHROME_H = 84  # tab strip + address bar drawn at the top of every screenshot


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
