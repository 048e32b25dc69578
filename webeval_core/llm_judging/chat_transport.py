"""One Chat Completions request sent as the profile says, through the official `openai` client.

The client's own retries are off (`max_retries=0`): what is retried is decided here. A 429 is waited
out (its Retry-After, else a doubling wait), a 5xx reply or a cut connection is retried a bounded
number of times with a doubling back-off, and a timeout, a refusal or a reply without text is a
`JudgeCallError` whose reason says which. At most the profile's concurrency is in flight, and no
more requests start in a minute than it allows. Replies are kept in the `ReplyCache` by the
request's digest, so the same request is never sent twice (unless the cache is off).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from webeval_core.llm_judging.endpoints import EndpointProfile, Provider
from webeval_core.llm_judging.image_parts import image_part, jpeg_data_url
from webeval_core.llm_judging.reply_cache import CachedReply, ReplyCache

if TYPE_CHECKING:
    import openai

_MAX_WAIT_S = 120.0  # the longest single wait a Retry-After is trusted for


class JudgeCallError(Exception):
    """A request that got no usable reply; `reason` says why in plain words (never the key)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ImageRef(BaseModel):
    """A screenshot a request carries, named by its identity (encoded only when sent)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The PNG."""
    folder: Path
    """The trajectory folder it lies in (reads stay inside it)."""
    size: int
    """Its size in bytes when the request was made (part of its identity)."""
    mtime_ns: int
    """Its modification time (part of its identity)."""

    @classmethod
    def of(cls, path: Path, folder: Path) -> ImageRef:
        """The screenshot's reference now (size and time 0 when it cannot be stat'ed: sending says why)."""
        try:
            found = path.stat()
        except OSError:
            return cls(path=path, folder=folder, size=0, mtime_ns=0)
        return cls(path=path, folder=folder, size=found.st_size, mtime_ns=found.st_mtime_ns)


class ChatRequest(BaseModel):
    """One request: a system message and a user message of texts and screenshots."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    system: str
    """The system message (the judge's instructions)."""
    parts: tuple[str | ImageRef, ...]
    """The user message's parts in order: texts and screenshots."""
    json_reply: bool = False
    """Whether the reply must be a JSON object (sent as JSON mode when the profile allows it)."""

    @property
    def images(self) -> int:
        """How many screenshots it carries."""
        return sum(isinstance(part, ImageRef) for part in self.parts)

    def digest(self, profile: EndpointProfile) -> str:
        """What makes two requests the same: the model, the parameters, texts and screenshots."""
        shown = [part if isinstance(part, str) else part.model_dump(mode="json") for part in self.parts]
        identity = {
            "model": profile.model,
            "parameters": request_parameters(profile, json_reply=self.json_reply),
            "image": [profile.image_detail, profile.image_quality],
            "system": self.system,
            "parts": shown,
        }
        return hashlib.sha256(json.dumps(identity, sort_keys=True).encode("utf-8")).hexdigest()

    def messages(self, profile: EndpointProfile) -> list[dict[str, Any]]:
        """The Chat Completions messages, screenshots encoded now.

        Raises:
            JudgeCallError: a screenshot cannot be read.
        """
        content: list[dict[str, Any]] = []
        for part in self.parts:
            if isinstance(part, str):
                content.append({"type": "text", "text": part})
                continue
            try:
                url = jpeg_data_url(part.path, part.folder, profile.image_quality, (part.size, part.mtime_ns))
            except OSError as exc:
                raise JudgeCallError(f"screenshot {part.path.name} cannot be read ({exc})") from None
            content.append(image_part(url, profile.image_detail))
        return [{"role": "system", "content": self.system}, {"role": "user", "content": content}]


def request_parameters(profile: EndpointProfile, *, json_reply: bool) -> dict[str, Any]:
    """The request's parameters besides the messages (what the profile sets)."""
    parameters: dict[str, Any] = {"temperature": profile.temperature, "max_tokens": profile.max_tokens}
    if profile.seed is not None:
        parameters["seed"] = profile.seed
    if json_reply and profile.json_mode:
        parameters["response_format"] = {"type": "json_object"}
    return parameters


class ChatReply(BaseModel):
    """A reply's text and what it cost."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    """The reply's text."""
    prompt_tokens: int = 0
    """Prompt tokens (the reply's usage; 0 when it gave none)."""
    completion_tokens: int = 0
    """Completion tokens."""
    cached: bool = False
    """Answered from the cache: nothing was sent and nothing spent."""


class TransportCounts(BaseModel):
    """What a transport did so far (a run's figures)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sent: int
    """Requests sent (retries included)."""
    cached: int
    """Requests answered from the cache."""
    prompt_tokens: int
    """Prompt tokens of the replies received (cached ones not counted: they cost nothing now)."""
    completion_tokens: int
    """Completion tokens of those replies."""


class ChatTransport:
    """Sends `ChatRequest`s to one endpoint, at most `concurrency` at once; thread-safe."""

    def __init__(
        self,
        profile: EndpointProfile,
        *,
        cache: ReplyCache | None = None,
        concurrency: int | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.profile = profile
        """The endpoint and its parameters."""
        self.cache = cache
        """Where replies are kept; None: every request is sent."""
        self._slots = threading.BoundedSemaphore(concurrency or profile.concurrency)
        self._lock = threading.Lock()
        self._next_start = 0.0
        self._sleep = sleep
        self._client: openai.OpenAI | None = None
        self._sent = self._cached = self._prompt = self._completion = 0

    def counts(self) -> TransportCounts:
        """Requests sent and answered from the cache, tokens spent."""
        with self._lock:
            return TransportCounts(
                sent=self._sent,
                cached=self._cached,
                prompt_tokens=self._prompt,
                completion_tokens=self._completion,
            )

    def send(self, request: ChatRequest) -> ChatReply:
        """The reply to `request`, from the cache or the endpoint.

        Raises:
            JudgeCallError: no usable reply (the reason says why).
        """
        digest = request.digest(self.profile)
        kept = self.cache.get(digest) if self.cache is not None else None
        if kept is not None:
            with self._lock:
                self._cached += 1
            return ChatReply(**kept.model_dump(), cached=True)
        messages = request.messages(self.profile)
        with self._slots:
            reply = self._with_retries(messages, request.json_reply)
        if self.cache is not None:
            self.cache.put(digest, CachedReply(**reply.model_dump(exclude={"cached"})))
        return reply

    def _with_retries(self, messages: list[dict[str, Any]], json_reply: bool) -> ChatReply:
        import openai

        failures = waits = 0
        while True:
            self._pace()
            try:
                return self._once(messages, json_reply)
            except openai.RateLimitError as exc:
                waits += 1
                if waits > self.profile.rate_limit_waits:
                    raise JudgeCallError(f"still rate-limited (429) after {waits - 1} wait(s)") from None
                self._sleep(_retry_after(exc) or min(_MAX_WAIT_S, self.profile.backoff_s * 2 ** (waits - 1)))
            except (openai.InternalServerError, openai.APIConnectionError) as exc:
                if isinstance(exc, openai.APITimeoutError):
                    raise JudgeCallError(f"no reply within {self.profile.timeout_s:g} s (timeout)") from None
                failures += 1
                if failures > self.profile.retries:
                    raise JudgeCallError(
                        f"{_describe(exc)}, {failures} time(s) (retried {failures - 1})"
                    ) from None
                self._sleep(self.profile.backoff_s * 2 ** (failures - 1))
            except openai.APIStatusError as exc:
                raise JudgeCallError(_refused(exc)) from None

    def _once(self, messages: list[dict[str, Any]], json_reply: bool) -> ChatReply:
        completion = self._openai().chat.completions.create(
            model=self.profile.model,
            messages=messages,  # type: ignore[arg-type]
            timeout=self.profile.timeout_s,
            **request_parameters(self.profile, json_reply=json_reply),
        )
        usage = completion.usage
        with self._lock:
            self._sent += 1
            if usage is not None:
                self._prompt += usage.prompt_tokens
                self._completion += usage.completion_tokens
        text = completion.choices[0].message.content if completion.choices else None
        if not text or not text.strip():
            raise JudgeCallError("the reply has no text")
        return ChatReply(
            text=text,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
        )

    def _pace(self) -> None:
        """Wait for this request's start under the profile's requests-per-minute limit."""
        if self.profile.requests_per_minute is None:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next_start)
            self._next_start = start + 60.0 / self.profile.requests_per_minute
        if start > now:
            self._sleep(start - now)

    def _openai(self) -> openai.OpenAI:
        with self._lock:
            if self._client is None:
                self._client = make_client(self.profile)
            return self._client


def make_client(profile: EndpointProfile) -> openai.OpenAI:
    """The official client for a profile, its own retries off (ours decide)."""
    import openai

    if profile.provider is Provider.AZURE:
        return openai.AzureOpenAI(
            azure_endpoint=profile.base_url,
            api_key=profile.api_key(),
            api_version=profile.api_version,
            max_retries=0,
            timeout=profile.timeout_s,
        )
    return openai.OpenAI(
        base_url=profile.base_url, api_key=profile.api_key(), max_retries=0, timeout=profile.timeout_s
    )


def _retry_after(exc: Any) -> float | None:
    """The wait a 429 asks for (Retry-After seconds, or retry-after-ms), capped."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name, unit in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            value = float(str(headers.get(name)))
        except ValueError:
            continue
        return max(0.0, min(_MAX_WAIT_S, value * unit))
    return None


def _describe(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    return f"the endpoint failed ({status})" if status else "the connection was cut"


def _refused(exc: Any) -> str:
    status = exc.status_code
    if status in (401, 403):
        # Never the server's text: it may quote part of the key.
        return f"the endpoint refused the key ({status})"
    message = str(getattr(exc, "message", "") or "")[:200]
    return f"the endpoint refused the request ({status}: {message})"
