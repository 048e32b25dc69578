"""Lists of trajectories too long for a link, kept beside a root's index and named by their content.

A list opened from a query's rows or a judges-disagree cell travels in the Trajectory page's URL
key by key while it is short. A longer one is saved once here, in a file named by the digest of its
keys, and the link names the digest: every session of the same server (a shared link included)
reads the same list back. A digest names one content, so two sessions saving the same list write
the same bytes, and a file is never changed once written.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from webeval_core.runs.index_db import IndexStore

__all__ = ["load_list", "save_list"]

_FOLDER = "lists"
_DIGEST_CHARS = 32  # hex digits of SHA-256: a name, not a secret


def save_list(store: IndexStore, keys: Sequence[str]) -> str:
    """Keep `keys` (trajectory keys, in their order) for `store`'s root; the list's name."""
    data = json.dumps(list(keys), ensure_ascii=False, separators=(",", ":")).encode()
    name = hashlib.sha256(data).hexdigest()[:_DIGEST_CHARS]
    target = _file(store, name)
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        # Written whole under another name, then renamed: a reader never sees half a list.
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".list-", delete=False) as temp:
            temp.write(data)
        os.replace(temp.name, target)
    return name


def load_list(store: IndexStore, name: str) -> list[str] | None:
    """The keys saved under `name` for `store`'s root; None when there is no such list (a cache
    cleared since, a name mistyped) or its file is not one this module wrote.
    """
    if len(name) != _DIGEST_CHARS or any(c not in "0123456789abcdef" for c in name):
        return None  # never a path: the name comes from a URL
    try:
        keys = json.loads(_file(store, name).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
        return None
    return keys


def _file(store: IndexStore, name: str) -> Path:
    # One folder per index file: a key means something only under the root it was listed from.
    return store.path.parent / _FOLDER / store.path.stem / f"{name}.json"
