"""What is removed before anything leaves: secrets in what the agent saw and sent.

A trajectory keeps what a browser exchanged and what an agent typed: Cookie, Set-Cookie and
Authorization headers in network.har, tokens in query strings and bodies, the password typed into a
login form, e-mail addresses in answers. Every export (HTML pages, CSV and JSON lines, ATIF, the
Evidence download) passes its text through one `Redactor`, which masks them and counts what it
masked, where (`RedactionReport`, written beside each export). `RedactionProfile` says what counts
as a secret: the default one, plus a user's patterns and names (`load_profile`).

A value masked under a password-like name (a login form's POST body) is remembered, so the same
value typed in web_surfer.log or repeated in an answer is masked there too.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, ValidationError

from webeval_core.reading.actionlog import Step
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.reading.trajectory_reader import Trajectory
from webeval_core.support.diagnostics import UnreadableError

__all__ = [
    "DEFAULT_PROFILE",
    "MASK",
    "REPORT_NAME",
    "RedactionCount",
    "RedactionProfile",
    "RedactionReport",
    "Redactor",
    "load_profile",
    "redact_trajectory",
    "redacted_page",
    "server_redactor",
]

MASK = "[redacted]"
"""What a secret is replaced with, everywhere."""
PROFILE_ENV = "WEBEVAL_REDACT"
"""The redaction profile file a server applies to what it lets leave (`webeval app --redact FILE`)."""
REPORT_NAME = "redaction-report.json"
"""The report every export writes beside what it wrote (inside a folder, or FILE.redaction.json)."""

_HEADERS = ("cookie", "set-cookie", "authorization", "proxy-authorization")
_NAME_WORDS = ("token", "key", "secret", "password", "passwd", "pwd", "session", "sig", "signature", "code")
_NAME_STARTS = ("token", "secret", "passw", "session", "auth", "apikey", "api_key", "access_key")
_NAME_ENDS = (
    "token",
    "secret",
    "password",
    "passwd",
    "apikey",
    "api_key",
    "access_key",
    "secret_key",
    "private_key",
    "form_key",
    "sessionid",
    "session_id",
)
_WEAK_WORDS = ("key", "code", "sig")
_PASSWORD_NAMES = ("password", "passwd", "pwd", "pass")
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_URL = re.compile(r"https?://[^\s\"'<>\\]+")
# In free text a narrower set: "code" or "key" alone name too much there ("status code: 200").
_TEXT_SECRET = re.compile(
    r"(?i)\b(bearer|basic)\s+([A-Za-z0-9._~+/=-]{8,})"
    r"|\b([A-Za-z_]*(?:token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|session[_-]?id|sessionid)"
    r"[A-Za-z_]*)[\"']?\s*[=:]\s*[\"']?([^\s\"'&,;<>]{3,})"
)


class RedactionProfile(BaseModel):
    """What counts as a secret."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    headers: tuple[str, ...] = _HEADERS
    """Request and response headers whose value is masked (names, any case)."""
    keys: tuple[str, ...] = _NAME_WORDS
    """Words that make a query parameter, form field or JSON key secret (a word of its name)."""
    emails: bool = True
    """Whether e-mail addresses are masked."""
    patterns: tuple[str, ...] = ()
    """The user's regular expressions: each match is masked."""
    names: tuple[str, ...] = ()
    """The user's names (accounts, people, hosts): each is masked wherever it appears, any case."""


DEFAULT_PROFILE = RedactionProfile()
"""What every export removes unless told otherwise."""


def load_profile(path: Path | str | None) -> RedactionProfile:
    """The default profile, plus a user's TOML file (`patterns`, `names`, `keys`, `headers` lists)."""
    if path is None:
        return DEFAULT_PROFILE
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UnreadableError(path, f"not a redaction profile ({exc})") from exc
    try:
        extra = RedactionProfile.model_validate(data)
        for pattern in extra.patterns:
            re.compile(pattern)
    except (ValidationError, re.error) as exc:
        raise UnreadableError(path, f"not a redaction profile ({str(exc).splitlines()[0]})") from exc
    return DEFAULT_PROFILE.model_copy(
        update={
            "headers": DEFAULT_PROFILE.headers + extra.headers
            if "headers" in data
            else DEFAULT_PROFILE.headers,
            "keys": DEFAULT_PROFILE.keys + extra.keys if "keys" in data else DEFAULT_PROFILE.keys,
            "emails": extra.emails,
            "patterns": extra.patterns,
            "names": extra.names,
        }
    )


def server_redactor() -> Redactor:
    """A redactor with the server's profile (`PROFILE_ENV`), else the default one: what the app's
    downloads pass through.
    """
    return Redactor(load_profile(os.environ.get(PROFILE_ENV) or None))


class RedactionCount(BaseModel):
    """How many secrets of one kind were masked in one place."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    """What was masked: header, query, body, typed password, e-mail, token in text, pattern, name."""
    where: str
    """The place: a trajectory and its file (e.g. "run/0 · 108: network.har")."""
    count: int
    """How many were masked there."""


class RedactionReport(BaseModel):
    """What an export removed (or that it removed nothing, when told not to)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    redacted: bool
    """False when the export was written with --no-redact: nothing was removed."""
    counts: tuple[RedactionCount, ...] = ()
    """Each kind and place, by place then kind."""

    def by_kind(self) -> dict[str, int]:
        """How many of each kind, in all."""
        totals: Counter[str] = Counter()
        for count in self.counts:
            totals[count.kind] += count.count
        return dict(totals)

    def summary(self) -> str:
        """One line: what was removed, or that nothing was."""
        if not self.redacted:
            return "not redacted (--no-redact): secrets the agent saw or sent are in the export"
        kinds = self.by_kind()
        if not kinds:
            return "redacted: no secret found"
        return "redacted: " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))

    def write(self, path: Path) -> Path:
        """The report as JSON at `path`."""
        path.write_text(self.model_dump_json(indent=2), encoding="utf-8")
        return path


class Redactor:
    """Masks secrets in text and structures, counting each; one per export (it learns as it goes)."""

    def __init__(self, profile: RedactionProfile | None = DEFAULT_PROFILE) -> None:
        self.profile = profile
        self._counts: Counter[tuple[str, str]] = Counter()
        self._learned: set[str] = set()
        self._custom = [re.compile(p) for p in profile.patterns] if profile else []
        names = sorted((n for n in profile.names if n), key=len, reverse=True) if profile else []
        self._names = re.compile("|".join(re.escape(n) for n in names), re.IGNORECASE) if names else None

    @property
    def active(self) -> bool:
        """Whether anything is masked (False with --no-redact)."""
        return self.profile is not None

    def report(self) -> RedactionReport:
        """What was masked so far."""
        found = sorted(self._counts.items(), key=lambda item: (item[0][1], item[0][0]))  # by place, then kind
        counts = tuple(RedactionCount(kind=k, where=w, count=n) for (k, w), n in found)
        return RedactionReport(redacted=self.active, counts=counts)

    def absorb(self, report: RedactionReport) -> None:
        """Count what another redactor (a worker's) masked as if this one had."""
        for count in report.counts:
            self._counts[count.kind, count.where] += count.count

    # --- learning: the secrets of a trajectory, before its text is masked -------------------

    def learn_har(self, har: Any) -> None:
        """Remember the values a HAR sends under password-like names (its login forms)."""
        if not self.active or not isinstance(har, dict):
            return
        for entry in _har_entries(har):
            post = (
                entry.get("request", {}).get("postData") if isinstance(entry.get("request"), dict) else None
            )
            if isinstance(post, dict):
                for name, value in _form_pairs(post):
                    if _is_password(name) and len(value) >= 3:
                        self._learned.add(value)

    def learn(self, values: Iterable[str]) -> None:
        """Remember secret values to mask wherever they appear (a typed password)."""
        if self.active:
            self._learned.update(v for v in values if len(v) >= 3)

    # --- masking ------------------------------------------------------------------------------

    def text(self, text: str | None, where: str) -> str | None:
        """Free text (an answer, a thought, a log line) with its secrets masked."""
        if not text or not self.active:
            return text
        for value in sorted(self._learned, key=len, reverse=True):
            if value in text:
                self._counts["typed password", where] += text.count(value)
                text = text.replace(value, MASK)
        text = _URL.sub(lambda m: self.url(m.group(0), where), text)
        text = _TEXT_SECRET.sub(lambda m: self._text_secret(m, where), text)
        text = self._user_rules(text, where)
        if self.profile is not None and self.profile.emails:
            text = self._count_sub(_EMAIL, text, "e-mail", where)
        return text

    def url(self, url: str, where: str) -> str:
        """A URL with its secret query parameters' values masked."""
        if not self.active or "?" not in url:
            return url
        try:
            parts = urlsplit(url)
        except ValueError:
            return url
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        if not any(self._secret_name(name) and value for name, value in pairs):
            return url
        return urlunsplit(parts._replace(query=self._pairs(pairs, "query", where)))

    def _pairs(self, pairs: list[tuple[str, str]], kind: str, where: str) -> str:
        """Name=value pairs (a query string, a form) encoded again, secret values masked."""
        encoded = []
        for name, value in pairs:
            if self._secret_name(name) and value:
                self._counts[kind, where] += 1
                shown = MASK
            else:
                shown = self.text(value, where) or ""
            encoded.append(f"{quote(name, safe='')}={quote(shown, safe='[]')}")
        return "&".join(encoded)

    def value(self, data: Any, where: str, key: str | None = None) -> Any:
        """A JSON-like value: strings masked as text, values under secret keys masked whole."""
        if not self.active:
            return data
        if isinstance(data, dict):
            return {k: self.value(v, where, k) for k, v in data.items()}
        if isinstance(data, list):
            return [self.value(item, where, key) for item in data]
        if isinstance(data, str):
            if key is not None and self._secret_name(key) and data:
                self._counts["body", where] += 1
                return MASK
            return self.text(data, where)
        return data

    def har(self, har: Any, where: str) -> Any:
        """A HAR document with secret headers, cookies, query values and body fields masked."""
        if not self.active or not isinstance(har, dict):
            return har
        self.learn_har(har)
        log = dict(har.get("log", {})) if isinstance(har.get("log"), dict) else {}
        log["entries"] = [self._entry(entry, where) for entry in _har_entries(har)]
        return {**har, "log": log}

    def har_bytes(self, data: bytes, where: str) -> bytes:
        """A HAR file's bytes, masked; bytes that are not JSON are masked as text."""
        if not self.active:
            return data
        try:
            har = json.loads(data)
        except ValueError:
            return (self.text(data.decode("utf-8", "replace"), where) or "").encode()
        return json.dumps(self.har(har, where), ensure_ascii=False).encode()

    # --- the parts ----------------------------------------------------------------------------

    def _entry(self, entry: Any, where: str) -> Any:
        if not isinstance(entry, dict):
            return entry
        out = dict(entry)
        for side in ("request", "response"):
            part = entry.get(side)
            if isinstance(part, dict):
                out[side] = self._message(part, where)
        return out

    def _message(self, part: dict[str, Any], where: str) -> dict[str, Any]:
        out = dict(part)
        if isinstance(part.get("url"), str):
            out["url"] = self.url(part["url"], where)
        if isinstance(part.get("headers"), list):
            out["headers"] = [self._header(h, where) for h in part["headers"]]
        if isinstance(part.get("cookies"), list):
            out["cookies"] = [self._cookie(c, where) for c in part["cookies"]]
        if isinstance(part.get("queryString"), list):
            out["queryString"] = [self._field(q, where, "query") for q in part["queryString"]]
        if isinstance(part.get("postData"), dict):
            out["postData"] = self._post(part["postData"], where)
        if isinstance(part.get("content"), dict) and isinstance(part["content"].get("text"), str):
            out["content"] = {**part["content"], "text": self._body(part["content"]["text"], where)}
        if isinstance(part.get("redirectURL"), str):
            out["redirectURL"] = self.url(part["redirectURL"], where)
        return out

    def _header(self, header: Any, where: str) -> Any:
        if not isinstance(header, dict) or not isinstance(header.get("name"), str):
            return header
        name = header["name"].lower()
        if self.profile is not None and name in self.profile.headers and header.get("value"):
            self._counts["header", where] += 1
            return {**header, "value": MASK}
        if isinstance(header.get("value"), str):
            if name in ("referer", "location", "origin"):
                return {**header, "value": self.url(header["value"], where)}
            return {**header, "value": self.text(header["value"], where)}
        return header

    def _cookie(self, cookie: Any, where: str) -> Any:
        if isinstance(cookie, dict) and cookie.get("value"):
            self._counts["header", where] += 1
            return {**cookie, "value": MASK}
        return cookie

    def _field(self, field: Any, where: str, kind: str) -> Any:
        if not isinstance(field, dict) or not isinstance(field.get("name"), str):
            return field
        if self._secret_name(field["name"]) and field.get("value"):
            self._counts[kind, where] += 1
            return {**field, "value": MASK}
        if isinstance(field.get("value"), str):
            return {**field, "value": self.text(field["value"], where)}
        return field

    def _post(self, post: dict[str, Any], where: str) -> dict[str, Any]:
        out = dict(post)
        if isinstance(post.get("params"), list):
            out["params"] = [self._field(p, where, "body") for p in post["params"]]
        if isinstance(post.get("text"), str):
            out["text"] = self._body(post["text"], where, post.get("mimeType"))
        return out

    def _body(self, text: str, where: str, mime: Any = None) -> str:
        """A body: JSON masked by key, a form by field name, anything else as text."""
        stripped = text.lstrip()
        if stripped.startswith(("{", "[")):
            try:
                return json.dumps(self.value(json.loads(text), where), ensure_ascii=False)
            except ValueError:
                pass
        if (isinstance(mime, str) and "urlencoded" in mime) or _looks_like_form(text):
            return self._pairs(parse_qsl(text, keep_blank_values=True), "body", where)
        return self.text(text, where) or ""

    def _text_secret(self, match: re.Match[str], where: str) -> str:
        self._counts["token in text", where] += 1
        if match.group(1):  # "Bearer <token>"
            return f"{match.group(1)} {MASK}"
        name = match.group(3)
        return match.group(0)[: match.group(0).index(match.group(4), len(name))] + MASK

    def _user_rules(self, text: str, where: str) -> str:
        for pattern in self._custom:
            text = self._count_sub(pattern, text, "pattern", where)
        if self._names is not None:
            text = self._count_sub(self._names, text, "name", where)
        return text

    def _count_sub(self, pattern: re.Pattern[str], text: str, kind: str, where: str) -> str:
        masked, n = pattern.subn(MASK, text)
        if n:
            self._counts[kind, where] += n
        return masked

    def _secret_name(self, name: str) -> bool:
        """Whether a parameter, field or key of this name holds a secret."""
        lowered = name.lower()
        parts = [part for part in re.split(r"[^a-z0-9]+", lowered) if part]
        words = self.profile.keys if self.profile is not None else ()
        # "key", "code" and "sig" name a secret alone (an OAuth code, an API key), not as one word of
        # a longer name ("error_code", "sort_key").
        if parts == [lowered] and lowered in words:
            return True
        if any(part in words and part not in _WEAK_WORDS for part in parts):
            return True
        return lowered.startswith(_NAME_STARTS) or lowered.endswith(_NAME_ENDS)


def _har_entries(har: dict[str, Any]) -> list[Any]:
    log = har.get("log")
    entries = log.get("entries") if isinstance(log, dict) else None
    return entries if isinstance(entries, list) else []


def _form_pairs(post: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = [
        (param["name"], param["value"])
        for param in post.get("params") or []
        if isinstance(param, dict)
        and isinstance(param.get("name"), str)
        and isinstance(param.get("value"), str)
    ]
    text = post.get("text")
    if isinstance(text, str) and _looks_like_form(text):
        pairs.extend(parse_qsl(text, keep_blank_values=True))
    elif isinstance(text, str) and text.lstrip().startswith("{"):
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        if isinstance(body, dict):
            pairs.extend((k, v) for k, v in body.items() if isinstance(v, str))
    return pairs


def _looks_like_form(text: str) -> bool:
    return "=" in text and " " not in text.strip() and not text.lstrip().startswith(("{", "[", "<"))


def _is_password(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in _PASSWORD_NAMES)


def redact_trajectory(
    trajectory: Trajectory, redactor: Redactor, where: str, scratch: Path | None = None
) -> Trajectory:
    """A copy of a trajectory with its secrets masked: answer, steps (thoughts, arguments, typed
    text, URLs, observations), core.log, judges' texts, eval_result.json, task data; its HAR read,
    masked and written into `scratch` (the copy points there; without `scratch` it has no HAR).

    The HAR is learned first: a password a login form sent is masked where the agent typed it. A
    `type` action whose thought or arguments speak of a password has its text masked too.
    """
    if not redactor.active:
        return trajectory
    har_path = _redacted_har(trajectory, redactor, where, scratch)
    answer = trajectory.final_answer
    if answer is not None:
        answer = answer.model_copy(
            update={
                "final_answer": redactor.text(answer.final_answer, f"{where}: answer"),
                "env_state_json": redactor.value(answer.env_state_json, f"{where}: answer"),
                "env_state_raw": redactor.value(answer.env_state_raw, f"{where}: answer"),
            }
        )
    return trajectory.model_copy(
        update={
            "final_answer": answer,
            "final_answer_text": redactor.text(trajectory.final_answer_text, f"{where}: answer"),
            "steps": tuple(_step(step, redactor, f"{where}: web_surfer.log") for step in trajectory.steps),
            "core_log": tuple(
                line.model_copy(update={"message": redactor.text(line.message, f"{where}: core.log")})
                for line in trajectory.core_log
            ),
            "scores": {
                name: _score(sf, redactor, f"{where}: scores/{name}.json")
                for name, sf in trajectory.scores.items()
            },
            "eval_result": redactor.value(trajectory.eval_result, f"{where}: eval_result.json"),
            "task_data": redactor.value(trajectory.task_data, f"{where}: task_data.json"),
            "har_path": har_path,
            "crash_reason": redactor.text(trajectory.crash_reason, f"{where}: core.log"),
        }
    )


def _redacted_har(
    trajectory: Trajectory, redactor: Redactor, where: str, scratch: Path | None
) -> Path | None:
    path = trajectory.har_path
    if path is None or path.suffix != ".har":
        return None  # a Playwright trace archive is not carried into an export
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if scratch is None:  # nothing of the HAR leaves: only what it teaches (a password sent)
        with contextlib.suppress(ValueError):
            redactor.learn_har(json.loads(data))
        return None
    masked = redactor.har_bytes(data, f"{where}: {path.name}")
    scratch.mkdir(parents=True, exist_ok=True)
    target = scratch / f"{abs(hash((str(trajectory.path), path.name)))}-{path.name}"
    target.write_bytes(masked)
    return target


def _step(step: Step, redactor: Redactor, where: str) -> Step:
    typed = step.typed_text
    if typed and _speaks_of_password(step):
        redactor.learn([typed])
    return step.model_copy(
        update={
            "thought": redactor.text(step.thought, where),
            "arguments": redactor.value(step.arguments, where),
            "url": redactor.url(step.url, where) if step.url else step.url,
            "observation": redactor.text(step.observation, where),
            "typed_text": redactor.text(typed, where),
        }
    )


def _speaks_of_password(step: Step) -> bool:
    said = " ".join(str(part) for part in (step.thought, step.arguments) if part).lower()
    return any(word in said for word in ("password", "passwd", "passcode"))


def _score(score: ScoreFile, redactor: Redactor, where: str) -> ScoreFile:
    return score.model_copy(
        update={
            "response_text": redactor.text(score.response_text, where),
            "response": redactor.value(score.response, where),
        }
    )


def redacted_page(
    trajectory: Trajectory, build: Callable[[Trajectory], str], redactor: Redactor, where: str
) -> str:
    """A page `build` draws of the trajectory with its secrets masked (its HAR masked in a scratch
    folder for the time of drawing).
    """
    if not redactor.active:
        return build(trajectory)
    with tempfile.TemporaryDirectory(prefix="webeval-redacted-") as scratch:
        return build(redact_trajectory(trajectory, redactor, where, Path(scratch)))
