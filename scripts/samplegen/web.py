"""What an agent sees and does: page states, requests, actions and the recipe of a task.

`plan` reads them from the recipe files of `data/recipes/`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .sites import site_of

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
    another one). `answer` is the retrieved data of a right answer and `wrong_answer` what a mistaken
    agent returns.
    """

    task_id: int
    start: View
    steps: tuple[Act, ...]
    answer: Any = None
    wrong_answer: Any = None
    variants: Mapping[str, tuple[Act, ...]] = field(default_factory=dict)
    finding: str = ""  # one sentence the agent says when it is done
    wrong_finding: str = ""
    doubts: tuple[str, ...] = ()  # what the agent of a "loop" scenario keeps telling itself
    task_data: Mapping[str, Any] = field(default_factory=dict)  # a live-web task's task_data.json


def json_req(method: str, url: str, body: Any, **fields: Any) -> Req:
    """A request with a JSON body, compact as a page's script sends it (`fields`: the rest of `Req`)."""
    return Req(method, url, json.dumps(body, separators=(",", ":")), "application/json", **fields)
