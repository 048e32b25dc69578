"""A remote root (az://, s3://, gs://) in the app: its local mirror, synced once and on Reload.

The pages read the mirror as any folder; this only keeps the sync out of every rerun and says
what the sync could not do (a store that stopped answering, files it could not fetch).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from webeval_ui.untrusted import inert

if TYPE_CHECKING:
    from webeval_core.remote import OpenedRoot

# The mirror (fsspec and the stores' clients) is imported only for a remote root: a local root's
# first page load does not pay for it, nor for the stores' models (a tenth of a second): every
# store URL holds "://", so a folder is told apart without them.

__all__ = ["is_remote", "mirrored_root", "remote_folder", "show_remote_problems"]


def is_remote(text: str) -> bool:
    """Whether `text` names a remote root (webeval_core.remote.stores.is_remote), not a folder."""
    if "://" not in text:
        return False
    from webeval_core.remote import is_remote as store_url  # only for a URL

    return store_url(text)


@st.cache_resource(show_spinner="Listing the remote root…", max_entries=4)
def mirrored_root(url: str) -> OpenedRoot:
    """The mirror of `url`, brought up to date once per process (and again after Reload)."""
    from webeval_core.remote import open_root  # only for a remote root

    return open_root(url)


def remote_folder(url: str) -> Path:
    """The local folder the pages read for `url`; when the store cannot be reached, say so and stop."""
    from webeval_core.remote import RemoteUnavailableError  # only for a remote root

    try:
        return mirrored_root(url).path.resolve()
    except (RemoteUnavailableError, ValueError, ImportError) as exc:
        st.error(inert(str(exc)))
        st.stop()
    raise AssertionError("unreachable")  # st.stop raises


def show_remote_problems(url: str) -> None:
    """In the sidebar: the remote URL browsed and what its last sync could not do."""
    opened = mirrored_root(url)
    st.caption(f"Remote root: {inert(url)}")
    for problem in opened.problems[:5]:
        st.warning(inert(problem))
