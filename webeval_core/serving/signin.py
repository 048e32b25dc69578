"""Sign-in for `webeval app --auth FILE`: the OpenID Connect provider Streamlit signs users in with.

FILE is a TOML file with Streamlit's usual `[auth]` section (redirect_uri, cookie_secret,
client_id, client_secret, server_metadata_url; or the provider's keys in a `[auth.NAME]` table).
Without `--auth`, Streamlit's usual `.streamlit/secrets.toml` (the working folder's, then the home
folder's) is that file when it has an `[auth]` section (`usual_auth_file`): a provider configured
the usual way turns sign-in on, rather than leaving names typed while Streamlit offers a login.
`webeval app` hands Streamlit only its path (`--secrets.files`), so no secret is on a command line,
in the environment or in a URL; this module checks the file before the server starts and says what
is missing by key name, never by value. Streamlit does the rest (`st.login`, its signed cookie);
the pages act as the identity it verified (webeval_core.policy.access).

A session ends at its identity's next sign-out or when its sign-in is older than the maximum age
(`session_end`): Streamlit's cookie lives 30 days and a copy of it signs in anywhere, so every
request checks the sign-in's time (the ID token's `iat`) against the identity's last sign-out,
which the server records in the annotation store (shared by every server of a team and by every
tab and copied cookie).
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

DEFAULT_SESSION_HOURS = 12.0
"""How long a sign-in lasts by default (`webeval app --session-max-age`)."""
SESSION_AGE_ENV = "WEBEVAL_SESSION_MAX_AGE"
"""The server's maximum session age in hours, set by `webeval app`."""

SERVER_KEYS = ("redirect_uri", "cookie_secret")
"""Keys the `[auth]` section itself needs."""
PROVIDER_KEYS = ("client_id", "client_secret", "server_metadata_url")
"""Keys of the provider: in `[auth]` itself or in one `[auth.NAME]` table."""


USUAL_SECRETS = Path(".streamlit") / "secrets.toml"
"""Where Streamlit looks for secrets, under the working folder and under the home folder."""


def usual_auth_file(cwd: Path, home: Path) -> Path | None:
    """The first of Streamlit's usual secrets files that has an `[auth]` section; None when none has.

    A file that cannot be parsed is returned too, so that `check_auth_file` says what is wrong with it.
    """
    for folder in (cwd, home):
        path = folder / USUAL_SECRETS
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        try:
            has_auth = isinstance(tomllib.loads(text).get("auth"), dict)
        except tomllib.TOMLDecodeError:
            has_auth = "[auth" in text
        if has_auth:
            return path
    return None


class SignInFileError(ValueError):
    """An `--auth` file that cannot be used; the message names keys, never a value."""


def check_auth_file(path: Path) -> str | None:
    """Check the sign-in file; a warning to print (None: none), e.g. a file others may read.

    Raises:
        SignInFileError: When it cannot be read or lacks a key Streamlit needs.
    """
    try:
        raw = Path(path).read_bytes()
        mode = Path(path).stat().st_mode
        document = tomllib.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SignInFileError(f"{path}: {getattr(exc, 'strerror', None) or 'not UTF-8 text'}") from None
    except tomllib.TOMLDecodeError:
        # The parser's message may quote the line, and the line may be a secret.
        raise SignInFileError(f"{path}: not a TOML file") from None
    auth = document.get("auth")
    if not isinstance(auth, dict):
        raise SignInFileError(f"{path}: no [auth] section")
    missing = [key for key in SERVER_KEYS if not _text(auth, key)]
    if not _has_provider(auth):
        missing += [f"{key} (in [auth] or an [auth.NAME] table)" for key in PROVIDER_KEYS]
    if missing:
        raise SignInFileError(f"{path}: [auth] lacks {', '.join(missing)}")
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        return f"{path} holds secrets and others may read it (chmod 600 {path})"
    return None


def _text(table: Mapping[str, Any], key: str) -> bool:
    return isinstance(table.get(key), str) and bool(table[key].strip())


def _has_provider(auth: Mapping[str, Any]) -> bool:
    tables = [auth, *(value for value in auth.values() if isinstance(value, dict))]
    return any(all(_text(table, key) for key in PROVIDER_KEYS) for table in tables)


def max_session_age(environ: Mapping[str, str] | None = None) -> timedelta:
    """The server's maximum session age (`SESSION_AGE_ENV`, hours; the default when unset or unusable)."""
    text = (os.environ if environ is None else environ).get(SESSION_AGE_ENV, "")
    try:
        hours = float(text) if text else DEFAULT_SESSION_HOURS
    except ValueError:
        hours = DEFAULT_SESSION_HOURS
    return timedelta(hours=hours if hours > 0 else DEFAULT_SESSION_HOURS)


def session_end(
    issued: object, now: datetime, last_sign_out: datetime | None, max_age: timedelta
) -> str | None:
    """Why a session whose sign-in was issued at `issued` (the ID token's `iat`, seconds since the
    epoch) is over at `now`; None while it lasts. A sign-out ends every session issued before it
    (`iat` counts whole seconds: one issued in the second of the sign-out lasts).
    """
    if not isinstance(issued, int | float) or isinstance(issued, bool):
        return "the provider's sign-in carries no issue time (iat), so its age cannot be checked"
    started = datetime.fromtimestamp(issued, now.tzinfo)
    if last_sign_out is not None and int(issued) < int(last_sign_out.timestamp()):
        return "you signed out (in this or another tab or browser) after this sign-in"
    if now - started > max_age:
        return f"sign-ins last {max_age.total_seconds() / 3600:g} h here, and this one is older"
    return None
