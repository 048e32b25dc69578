"""Writing a static site to a store (`webeval bundle ... -o az://container/site`): the one write to
a store besides `score --write-remote`, through the same fsspec stores and credentials as remote roots.
"""

from __future__ import annotations

from collections.abc import Callable

from webeval_core.remote.mirror import RemoteReadError
from webeval_core.remote.stores import mask_secrets, open_filesystem, parse_location


def store_writer(url: str) -> Callable[[str, bytes], None]:
    """Writes files under a store URL by their path relative to it (each a whole object)."""
    fs, base = open_filesystem(parse_location(url))

    def write(path: str, data: bytes) -> None:
        try:
            fs.pipe_file(f"{base}/{path}", data)
        except Exception as exc:  # any client error: say which object, never the credentials
            reason = mask_secrets(f"{type(exc).__name__}: {str(exc).strip()[:300]}")
            raise RemoteReadError(f"{url.rstrip('/')}/{path}: could not be written ({reason})") from None

    return write
