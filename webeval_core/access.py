"""What a server may write: the access policy the core's write paths check before writing.

A server shown to an audience must not change anything, whatever its pages offer: the policy is
read from the process environment (`WEBEVAL_READ_ONLY`, set by `webeval app` for its Streamlit
child), so every write of the core (an annotation, a `shown` record, a queue or task correction,
a score file, a corrected task file) refuses in that process, even one reached by a crafted query
parameter or a button a page forgot to hide. Reading, scoring in memory and the index cache (a
private cache, not the root) stay allowed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

READ_ONLY_ENV = "WEBEVAL_READ_ONLY"
"""The environment variable that makes a process read-only when it is "1"."""
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""Hosts that only this machine can reach: binding them keeps a server private."""
READ_ONLY_TEXT = "This server is read-only"
"""How every refusal and every replaced button begins."""


class Write(StrEnum):
    """A kind of write the core does for the app."""

    ANNOTATION = "annotation"
    SHOWN = "record of what was shown"
    RECORD = "queue or task correction"
    SCORE = "score file"
    TASK_FILE = "task file"


class WriteRefusedError(PermissionError):
    """A write the access policy does not allow; the message says which and why."""


class AccessPolicy(BaseModel):
    """What this process may write."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    read_only: bool = False
    """Nothing may be written (a demo, or a server reachable beyond this machine without sign-in)."""

    def refusal(self, write: Write) -> str | None:
        """Why `write` is refused (None: it is allowed)."""
        if self.read_only:
            return f"{READ_ONLY_TEXT}: no {write.value} is written."
        return None

    def check(self, write: Write) -> None:
        """Raise when `write` is refused.

        Raises:
            WriteRefusedError: When the policy does not allow it.
        """
        reason = self.refusal(write)
        if reason is not None:
            raise WriteRefusedError(reason)


def current_policy(environ: Mapping[str, str] | None = None) -> AccessPolicy:
    """The policy of this process (or of `environ`): read-only when `READ_ONLY_ENV` is "1"."""
    values = os.environ if environ is None else environ
    return AccessPolicy(read_only=values.get(READ_ONLY_ENV, "") == "1")


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only."""
    return host.strip().strip("[]").lower() in LOOPBACK_HOSTS


def serves_read_only(host: str, *, read_only: bool, writable: bool, sign_in: bool = False) -> bool:
    """Whether a server on `host` is read-only: asked for, or bound beyond loopback without
    sign-in and not explicitly `--writable` (an open URL must not let anyone write).
    """
    if read_only:
        return True
    return not writable and not sign_in and not is_loopback(host)
