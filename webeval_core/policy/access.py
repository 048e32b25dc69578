"""What a server may write: the access policy the core's write paths check before writing.

A server shown to an audience must not change anything, whatever its pages offer: the policy is
read from the process environment (`WEBEVAL_READ_ONLY`, set by `webeval app` for its Streamlit
child), so every write of the core (an annotation, a `shown` record, a queue or task correction,
a score file, a corrected task file) refuses in that process, even one reached by a crafted query
parameter or a button a page forgot to hide. Reading, scoring in memory and the index cache (a
private cache, not the root) stay allowed.

Roles (`webeval app --roles FILE`, `WEBEVAL_ROLES`) narrow what a writable server lets each user
write: a TOML file maps identities to viewer, reviewer, adjudicator or operator (each role may do
what the roles before it may), and anyone it does not name is a viewer. The identity is the one
the page acts as (`acting_as`): a typed reviewer name without sign-in (roles then guard against
mistakes, not against someone typing another's name), the identity the OpenID Connect provider
verified with sign-in (`webeval app --auth FILE` sets `WEBEVAL_SIGN_IN`: every write then needs a
verified identity, and what it writes records it). A refusal is logged with who and what.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import tomllib
from collections.abc import Iterator, Mapping
from enum import StrEnum
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

READ_ONLY_ENV = "WEBEVAL_READ_ONLY"
"""The environment variable that makes a process read-only when it is "1"."""
ROLES_ENV = "WEBEVAL_ROLES"
"""The environment variable naming the roles file (TOML) of a server."""
SIGN_IN_ENV = "WEBEVAL_SIGN_IN"
"""The environment variable that makes every write need a signed-in (verified) identity when "1"."""
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""Hosts that only this machine can reach: binding them keeps a server private."""
READ_ONLY_TEXT = "This server is read-only"
"""How every refusal and every replaced button begins."""


_log = logging.getLogger("webeval.access")
_acting: contextvars.ContextVar[tuple[str, bool]] = contextvars.ContextVar(
    "webeval_acting", default=("", False)
)


class Write(StrEnum):
    """A kind of write the core does for the app."""

    ANNOTATION = "annotation"
    SHOWN = "record of what was shown"
    QUEUE = "review queue"
    CORRECTION = "task correction"
    RECORD = "review record"
    SCORE = "score file"
    TASK_FILE = "task file"
    REVIEWER_NAME = "reviewer's name change"
    SIGN_OUT = "record of a sign-out"
    VERDICT_EDIT = "verdict edit"
    EXCLUSION = "exclusion"
    BUNDLE = "static bundle"


class Role(StrEnum):
    """What a user may write; each role may also do what the roles listed before it may."""

    VIEWER = "viewer"
    REVIEWER = "reviewer"
    ADJUDICATOR = "adjudicator"
    OPERATOR = "operator"

    @property
    def rank(self) -> int:
        """Its place in the order viewer < reviewer < adjudicator < operator."""
        return list(Role).index(self)


NEEDED: Mapping[Write, Role] = {
    Write.ANNOTATION: Role.REVIEWER,
    Write.SHOWN: Role.REVIEWER,
    # Anyone signed in may end their own sessions.
    Write.SIGN_OUT: Role.VIEWER,
    Write.QUEUE: Role.REVIEWER,
    Write.RECORD: Role.ADJUDICATOR,
    Write.CORRECTION: Role.ADJUDICATOR,
    # What a team publishes: a person overrules a judge or leaves a result out, on the record.
    Write.VERDICT_EDIT: Role.ADJUDICATOR,
    Write.EXCLUSION: Role.ADJUDICATOR,
    Write.SCORE: Role.OPERATOR,
    Write.TASK_FILE: Role.OPERATOR,
    # Moving one reviewer's judgements under another's name changes every agreement figure.
    Write.REVIEWER_NAME: Role.OPERATOR,
    # A site for anyone: what leaves the server whole (redacted), decided by who runs it.
    Write.BUNDLE: Role.OPERATOR,
}
"""The least role each write needs."""


class Roles(BaseModel):
    """Who holds which role (a roles file's `[roles]` table); anyone not named is a viewer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    roles: dict[str, Role] = Field(default_factory=dict)
    """Identity (an email or a subject, compared case-insensitively) -> role."""

    def role_of(self, who: str) -> Role:
        """The role of `who` (a viewer when unnamed or not listed)."""
        wanted = who.strip().casefold()
        found = {name.strip().casefold(): role for name, role in self.roles.items()}
        return found.get(wanted, Role.VIEWER) if wanted else Role.VIEWER


class WriteRefusedError(PermissionError):
    """A write the access policy does not allow; the message says which and why."""


class AccessPolicy(BaseModel):
    """What this process may write."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    read_only: bool = False
    """Nothing may be written (a demo, or a server reachable beyond this machine without sign-in)."""
    roles: Roles | None = None
    """Who may write what; None: no roles file, everyone may write what a writable server allows."""
    who: str = ""
    """The identity acting (see `acting_as`); empty when nobody is named."""
    sign_in: bool = False
    """Writes need a signed-in identity (`verified`): the server signs its users in."""
    verified: bool = False
    """`who` was verified by the sign-in provider (an email or subject), not typed by someone."""

    @property
    def signed_in(self) -> str | None:
        """The verified identity acting, which the store and score files record; None when none."""
        return self.who.strip() if self.verified and self.who.strip() else None

    def role(self) -> Role | None:
        """The acting identity's role (None when no roles are configured)."""
        return None if self.roles is None else self.roles.role_of(self.who)

    def refusal(self, write: Write) -> str | None:
        """Why `write` is refused (None: it is allowed)."""
        if self.read_only:
            return f"{READ_ONLY_TEXT}: no {write.value} is written."
        if self.sign_in and self.signed_in is None:
            return f"Sign in first: {_a(write.value)} is written only by a signed-in user."
        role = self.role()
        if role is None or role.rank >= NEEDED[write].rank:
            return None
        who = self.who.strip() or "nobody named"
        return f"{who} is {_a(role.value)} here: {_a(write.value)} needs the {NEEDED[write].value} role."

    def as_user(self, who: str, *, verified: bool = False) -> AccessPolicy:
        """This policy for another acting identity (`verified`: signed in as `who`)."""
        return self.model_copy(update={"who": who, "verified": verified})

    def as_acting(self) -> AccessPolicy:
        """This policy for the identity `acting_as` set (verified or not)."""
        who, verified = _acting.get()
        return self.as_user(who, verified=verified)

    def check(self, write: Write) -> None:
        """Raise when `write` is refused.

        Raises:
            WriteRefusedError: When the policy does not allow it.
        """
        reason = self.refusal(write)
        if reason is not None:
            self._refuse(write, reason)

    def check_author(self, write: Write, author: str) -> None:
        """`check(write)`, and with a signed-in identity acting, that `author` (the name a row is
        stored under) is that identity: a signed-in user writes under no other name.

        Raises:
            WriteRefusedError: When the policy does not allow it.
        """
        self.check(write)
        signed_in = self.signed_in
        if signed_in is not None and author.strip().casefold() != signed_in.casefold():
            self._refuse(write, f"{signed_in} is signed in: nothing is written under the name {author!r}.")

    def _refuse(self, write: Write, reason: str) -> None:
        # The server's log keeps who tried what (repr: a typed name cannot forge a log line).
        _log.warning(
            "refused: %r%s tried to write %s: %s",
            self.who.strip() or "nobody named",
            " (signed in)" if self.signed_in else "",
            _a(write.value),
            reason,
        )
        raise WriteRefusedError(reason)


def _a(noun: str) -> str:
    """The noun with its indefinite article ("an annotation", "a score file")."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


class RolesFileError(ValueError):
    """A roles file that cannot be read or is not a `[roles]` table of known roles."""


def load_roles(path: Path) -> Roles:
    """The roles of a TOML file: `[roles]` then `"ann@example.org" = "reviewer"` lines.

    Raises:
        RolesFileError: When the file cannot be read or names an unknown role.
    """
    try:
        document = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        return Roles.model_validate({"roles": document.get("roles", {})})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RolesFileError(f"{path}: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise RolesFileError(f"{path}: {where}: {first['msg']}") from None


@cache
def _roles_cached(path: str, _mtime_ns: int) -> Roles:
    return load_roles(Path(path))


def current_policy(environ: Mapping[str, str] | None = None) -> AccessPolicy:
    """The policy of this process (or of `environ`): read-only when `READ_ONLY_ENV` is "1", roles
    from the file `ROLES_ENV` names, acting as `acting_as` says.

    Raises:
        RolesFileError: When the roles file named cannot be read: writes refuse rather than run unchecked.
    """
    values = os.environ if environ is None else environ
    read_only = values.get(READ_ONLY_ENV, "") == "1"
    sign_in = values.get(SIGN_IN_ENV, "") == "1"
    roles_file = values.get(ROLES_ENV, "")
    roles = None
    if roles_file and not read_only:
        try:
            mtime = Path(roles_file).stat().st_mtime_ns
        except OSError as exc:
            raise RolesFileError(f"{roles_file}: {exc.strerror}") from None
        roles = _roles_cached(roles_file, mtime)
    return AccessPolicy(read_only=read_only, roles=roles, sign_in=sign_in).as_acting()


@contextlib.contextmanager
def acting_as(who: str, *, verified: bool = False) -> Iterator[None]:
    """Writes within this block are made by `who` (the roles decide what they may write);
    `verified`: `who` is the identity the sign-in provider verified, which the writes record.
    """
    token = _acting.set((who, verified))
    try:
        yield
    finally:
        _acting.reset(token)


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
