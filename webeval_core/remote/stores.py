"""Which object store a root URL names, and the fsspec filesystem that reads it.

Every remote scheme goes through one path: `fsspec.core.url_to_fs`, with the store's credentials
taken only from its usual environment (adlfs: AZURE_STORAGE_CONNECTION_STRING, account name + key,
SAS token or DefaultAzureCredential; s3fs: the AWS variables and files; gcsfs: Google's default
credentials). Nothing here prints a credential: `mask_secrets` cleans every message we show.
"""

from __future__ import annotations

import os
import re
from typing import Any

from pydantic import BaseModel, ConfigDict

REMOTE_SCHEMES = ("az", "abfs", "abfss", "s3", "s3a", "gs", "gcs", "memory")
"""URL schemes read through fsspec; `memory` is fsspec's in-process store (tests and demos)."""
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*)://", re.IGNORECASE)
# Seconds before a store that stops answering is given up on (WEBEVAL_REMOTE_TIMEOUT overrides).
_DEFAULT_TIMEOUT = 60
_SECRET_ENV = (
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_ACCOUNT_KEY",
    "AZURE_STORAGE_SAS_TOKEN",
    "AZURE_STORAGE_CLIENT_SECRET",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
)
# Secrets that may sit inside a message: a connection string's key, a SAS signature, a token.
_SECRET_PATTERNS = (
    re.compile(r"(AccountKey=)[^;\s'\"]+", re.IGNORECASE),
    re.compile(r"(SharedAccessSignature=)[^;\s'\"]+", re.IGNORECASE),
    re.compile(r"([?&]sig=)[^&\s'\"]+", re.IGNORECASE),
    re.compile(r"(Authorization:\s*)\S+", re.IGNORECASE),
)


class RemoteLocation(BaseModel):
    """A remote root named by URL: the store's scheme and the path inside it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str
    """The URL as given, without a trailing slash (e.g. "az://runs/fara-7b")."""
    protocol: str
    """The fsspec protocol that reads it, lower case (e.g. "az", "s3", "gs")."""

    @property
    def name(self) -> str:
        """The last component of the URL (the folder's name), or the bucket's."""
        return self.url.split("://", 1)[1].rstrip("/").rsplit("/", 1)[-1] or self.protocol


def is_remote(text: str | os.PathLike[str]) -> bool:
    """Whether `text` names a remote root (`az://`, `abfs://`, `s3://`, `gs://`, ...), not a local path."""
    match = _SCHEME.match(str(text))
    return bool(match) and match.group(1).lower() in REMOTE_SCHEMES  # type: ignore[union-attr]


def parse_location(url: str) -> RemoteLocation:
    """The location a remote URL names.

    Raises:
        ValueError: when `url` is not a URL of a supported store.
    """
    match = _SCHEME.match(url)
    if not match or match.group(1).lower() not in REMOTE_SCHEMES:
        supported = ", ".join(f"{s}://" for s in REMOTE_SCHEMES)
        raise ValueError(f"{url}: not a remote root URL (supported: {supported})")
    return RemoteLocation(url=url.rstrip("/") or url, protocol=match.group(1).lower())


def call_timeout() -> float:
    """Seconds one call to a store may take before it is given up on (`$WEBEVAL_REMOTE_TIMEOUT`, or 60)."""
    return float(os.environ.get("WEBEVAL_REMOTE_TIMEOUT") or _DEFAULT_TIMEOUT)


def storage_options(protocol: str) -> dict[str, Any]:
    """Options that make a store that stops answering fail in seconds rather than retry for minutes.

    Credentials stay in each filesystem's own environment; only Azure's connection string is
    passed on from it, so that a changed one opens a new client (fsspec caches by options).
    """
    timeout = int(call_timeout())
    if protocol in ("az", "abfs", "abfss"):
        options: dict[str, Any] = {"connection_timeout": timeout, "read_timeout": timeout, "timeout": timeout}
        if os.environ.get("AZURE_STORAGE_CONNECTION_STRING"):
            options["connection_string"] = os.environ["AZURE_STORAGE_CONNECTION_STRING"]
        return options
    if protocol in ("s3", "s3a"):
        return {
            "config_kwargs": {
                "connect_timeout": timeout,
                "read_timeout": timeout,
                "retries": {"max_attempts": 2},
            }
        }
    if protocol in ("gs", "gcs"):
        return {"timeout": timeout}
    return {}


def filesystem_class(location: RemoteLocation) -> type[Any]:
    """The fsspec filesystem class a location is read with (imported, never instantiated).

    Raises:
        ImportError: when that store's package (adlfs, s3fs, gcsfs) is not installed; the message
            names it.
    """
    import fsspec

    try:
        return fsspec.get_filesystem_class(location.protocol)  # type: ignore[no-any-return]
    except (ImportError, ValueError) as exc:
        raise ImportError(f"{location.url}: {mask_secrets(str(exc))}") from None


def open_filesystem(location: RemoteLocation) -> tuple[Any, str]:
    """The filesystem reading `location` and the location's path inside it (fsspec's own form)."""
    from fsspec.core import url_to_fs

    filesystem_class(location)  # a missing package is named before anything else is tried
    fs, path = url_to_fs(location.url, **storage_options(location.protocol))
    return fs, str(path).rstrip("/")


def mask_secrets(text: str) -> str:
    """`text` with every credential we know of replaced by `***` (for messages we show)."""
    for name in _SECRET_ENV:
        value = os.environ.get(name)
        if value and len(value) >= 8:
            text = text.replace(value, "***")
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(r"\1***", text)
    return text
