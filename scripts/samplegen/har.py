"""network.har (HAR 1.2 the way Playwright's recordHar writes it) of one trajectory."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from .sites import SITES, render_url
from .trajectory import Trajectory, har_ts
from .web import Req, View, json_req

UA = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 "
    "Safari/537.36"
)
DOC_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
    "application/signed-exchange;v=b3;q=0.7"
)


class HarBuilder:
    def __init__(self, traj: Trajectory) -> None:
        self.traj = traj
        self.rng = random.Random(f"har:{traj.model.key}:{traj.task['task_id']}")
        self.entries: list[tuple[int, dict[str, Any]]] = []

    def entry(
        self,
        t: int,
        req: Req,
        headers: list[tuple[str, str]],
        resp_mime: str = "text/html; charset=UTF-8",
        resp_text: str | None = None,
        size: int = 0,
    ) -> int:
        """Append one request; return the time it ended (µs)."""
        body = req.body if isinstance(req.body, str) or req.body is None else urlencode(req.body)
        url = render_url(req.url).split("#")[0]
        split = urlsplit(url)
        wait = self.rng.uniform(8, 180 if req.kind == "document" else 60)
        receive = self.rng.uniform(0.2, 6)
        http, query = "HTTP/1.1", _pairs(_parse_qsl(split.query))
        request: dict[str, Any] = {"method": req.method, "url": url, "httpVersion": http, "cookies": []}
        request |= {"headers": _pairs(headers), "queryString": query, "headersSize": -1}
        request["bodySize"] = len(body.encode()) if body else 0
        if body is not None:
            post: dict[str, Any] = {"mimeType": req.mime, "text": body}
            if req.mime.startswith("application/x-www-form-urlencoded"):
                post["params"] = _pairs(_parse_qsl(body))
            request["postData"] = post
        length = size if resp_text is None else len(resp_text.encode())
        content: dict[str, Any] = {"size": length, "mimeType": resp_mime}
        if resp_text is not None:
            content["text"] = resp_text
        moved = render_url(req.redirect) if req.redirect else ""
        resp_headers = [("Content-Type", resp_mime), *([("Location", moved)] if moved else [])]
        status = req.status
        response: dict[str, Any] = {"status": status, "statusText": STATUS_TEXT[status], "httpVersion": http}
        response |= {"cookies": [], "headers": _pairs(resp_headers), "content": content, "headersSize": -1}
        response |= {"bodySize": length, "redirectURL": moved, "_transferSize": length + 240}
        timings = {"dns": -1, "connect": -1, "ssl": -1, "send": 0.3, "wait": round(wait, 3)}
        timings["receive"] = round(receive, 3)
        entry: dict[str, Any] = {"startedDateTime": har_ts(t), "time": round(wait + receive + 0.3, 3)}
        entry |= {"request": request, "response": response, "cache": {}, "timings": timings}
        entry["pageref"] = "page@" + hashlib.sha1(self.traj.rel.encode()).hexdigest()[:32]
        entry |= {"serverIPAddress": "127.0.0.1", "_serverPort": split.port or 80, "_resourceType": req.kind}
        self.entries.append((t, entry))
        return t + int((wait + receive + 0.3) * 1000)

    def page_load(self, t: int, view: View, referer: str | None, typed: bool) -> int:
        """A document navigation plus what the page pulls in (static files, a background XHR)."""
        headers = [("Accept", DOC_ACCEPT), *([("Referer", render_url(referer))] if referer else [])]
        headers += [("Sec-Fetch-Dest", "document"), ("Sec-Fetch-Mode", "navigate")]
        headers.append(("Sec-Fetch-Site", "none" if typed else "same-origin"))
        if not typed:  # a user gesture: Chromium adds Sec-Fetch-User
            headers.append(("Sec-Fetch-User", "?1"))
        headers += [("Upgrade-Insecure-Requests", "1"), ("User-Agent", UA)]
        document = Req("GET", view.url, kind="document")
        end = self.entry(t, document, headers, size=self.rng.randint(9_000, 90_000))
        base = render_url(view.url)
        root = f"{urlsplit(base).scheme}://{urlsplit(base).netloc}"
        t2 = end + 2_000
        for path in SITES[view.site]["assets"]:
            dest = "style" if path.endswith(".css") else "image" if path.endswith(".png") else "script"
            mime = {"style": "text/css", "image": "image/png", "script": "application/javascript"}[dest]
            asset = Req("GET", root + path, kind="stylesheet" if dest == "style" else dest)
            headers = [("Accept", "*/*"), ("Referer", base), ("Sec-Fetch-Dest", dest)]
            headers += [("Sec-Fetch-Mode", "no-cors"), ("User-Agent", UA)]
            t2 = self.entry(t2, asset, headers, mime, size=self.rng.randint(2_000, 60_000)) + 1_000
        if view.site == "shopping":
            query = f"sections=cart%2Cmessages&force_new_section_timestamp=false&_={t // 1000}"
            cart = {"cart": {"summary_count": 0}, "messages": {"messages": []}}
            self.xhr(t2, Req("GET", f"__SHOPPING__/customer/section/load/?{query}", response=cart), base)
        if view.site == "gitlab" and "/-/issues" in view.url:
            project = urlsplit(base).path.split("/-/")[0].strip("/")
            variables = {"fullPath": project, "state": "opened", "firstPageSize": 20}
            body = {"operationName": "getIssues", "variables": variables}
            count = {"data": {"project": {"issues": {"count": len(view.rows)}}}}
            self.xhr(t2, json_req("POST", "__GITLAB__/api/graphql", body, response=count), base)
        return t2

    def xhr(self, t: int, req: Req, page: str) -> int:
        headers = [("Accept", "application/json, text/javascript, */*; q=0.01")]
        if req.body is not None:
            headers.append(("Content-Type", req.mime))
        headers += [("Referer", page), ("Sec-Fetch-Dest", "empty"), ("Sec-Fetch-Mode", "cors")]
        headers += [("Sec-Fetch-Site", "same-origin"), ("User-Agent", UA)]
        headers += [("X-Requested-With", "XMLHttpRequest"), *req.headers]
        resp = None if req.response is None else json.dumps(req.response, separators=(",", ":"))
        return self.entry(t, req, headers, "application/json" if resp is not None else "text/html", resp)

    def form(self, t: int, req: Req, page: str) -> int:
        mime, origin = req.mime.split(";")[0], f"{urlsplit(page).scheme}://{urlsplit(page).netloc}"
        headers = [("Accept", DOC_ACCEPT), ("Content-Type", mime), ("Origin", origin), ("Referer", page)]
        headers += [("Sec-Fetch-Dest", "document"), ("Sec-Fetch-Mode", "navigate")]
        headers += [("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-User", "?1"), ("User-Agent", UA)]
        return self.entry(t, replace(req, mime=mime), headers)

    def build(self) -> list[dict[str, Any]]:
        traj = self.traj
        page = traj.start.view
        self.page_load(traj.start_us + self.rng.randint(900_000, 1_800_000), page, None, typed=True)
        for step in traj.steps:
            act = step.act
            t = step.t + self.rng.randint(220_000, 420_000)
            here = render_url(step.before.view.url)
            loaded = False
            for req in act.reqs:
                if req.kind == "document":
                    t = self.form(t, req, here) + 3_000
                    if req.redirect and act.view is not None:
                        t = self.page_load(t, act.view, here, typed=False)
                        loaded = True
                else:
                    t = self.xhr(t, req, here) + 3_000
            if act.view is not None and act.nav and not loaded:
                typed = act.kind == "visit_url"
                t = self.page_load(t, act.view, None if typed else here, typed=typed)
            if t >= step.t + step.dur:
                raise ValueError(f"{traj.rel}: requests of step {act} run past its observation")
        self.entries.sort(key=lambda e: e[0])
        return [e for _, e in self.entries]


STATUS_TEXT = {200: "OK", 201: "Created", 302: "Found", 404: "Not Found"}


def _parse_qsl(query: str) -> list[tuple[str, str]]:
    return parse_qsl(query, keep_blank_values=True)


def _pairs(items: list[tuple[str, str]]) -> list[dict[str, str]]:
    """Headers, query or form parameters the way HAR lists them."""
    return [{"name": k, "value": v} for k, v in items]


def har_document(traj: Trajectory, entries: list[dict[str, Any]]) -> dict[str, Any]:
    title = (traj.steps[-1].after.view if traj.steps else traj.start.view).title
    page = {"startedDateTime": entries[0]["startedDateTime"], "id": entries[0]["pageref"], "title": title}
    page["pageTimings"] = {"onContentLoad": 412.8, "onLoad": 655.1}
    tools = {"creator": {"name": "Playwright", "version": "1.49.1"}}
    tools["browser"] = {"name": "chromium", "version": "131.0.6778.33"}
    return {"log": {"version": "1.2", **tools, "pages": [page], "entries": entries}}
