"""The six WebArena sites as every log, HAR and answer of the sample names them, and the screen geometry.

URLs in views keep a site placeholder (`__SHOPPING__/...`); `render_url` turns them into what the browser
saw and `site_of` tells which site they belong to.
"""

from __future__ import annotations

from datetime import timedelta, timezone

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
