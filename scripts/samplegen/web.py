"""What an agent sees and does: page states, requests, actions and the recipe of a task.

Also the short constructors (`shop`, `click`, `form_post`, ...) the recipes are written with, and the
fixed CSRF tokens the sites hand out (the same in every recipe, as in one browser session).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .sites import WIKI_BOOK, render_url, site_of

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
