"""Replies to identical requests, kept on disk: a re-run, or a run resumed after a kill, sends
only the requests never answered.

An entry is keyed by the request's digest (`ChatRequest.digest`: the model, the parameters, the
texts and each screenshot's identity), written atomically (temp file, then rename), one file per
reply under `$WEBEVAL_JUDGE_CACHE`, else `$XDG_CACHE_HOME/webeval/judge-replies` (~/.cache).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from webeval_core.support.user_cache import cache_home

CACHE_ENV = "WEBEVAL_JUDGE_CACHE"
"""The environment variable naming the reply cache's folder."""


class CachedReply(BaseModel):
    """A reply as kept: its text and the tokens it cost when it was asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    """The reply's text."""
    prompt_tokens: int = 0
    """Prompt tokens the endpoint counted."""
    completion_tokens: int = 0
    """Completion tokens the endpoint counted."""


def replies_folder() -> Path:
    """Where replies are kept: `$WEBEVAL_JUDGE_CACHE`, else `judge-replies` in the user's cache folder."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    return cache_home() / "judge-replies"


class ReplyCache:
    """The replies kept in one folder (made when the first is stored)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or replies_folder()
        """The cache's folder."""

    def _path(self, digest: str) -> Path:
        return self.folder / digest[:2] / f"{digest}.json"

    def get(self, digest: str) -> CachedReply | None:
        """The reply kept for that request; None when there is none (or it is unreadable)."""
        try:
            return CachedReply.model_validate_json(self._path(digest).read_bytes())
        except (OSError, ValueError, ValidationError):
            return None

    def put(self, digest: str, reply: CachedReply) -> None:
        """Keep a reply (a cache that cannot be written is skipped: the run goes on)."""
        target = self._path(digest)
        temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(json.dumps(reply.model_dump(), sort_keys=True), encoding="utf-8")
            os.replace(temp, target)
        except BaseException as exc:
            # Also on Ctrl-C: no stray temp file; a full disk only costs the reply being asked again.
            with contextlib.suppress(OSError):
                temp.unlink()
            if not isinstance(exc, OSError):
                raise
