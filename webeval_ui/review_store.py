"""The annotation store as the pages use it, the reviewer, and what was shown to them.

The store is opened once per location for the whole server (SQLite file or PostgreSQL URL from
`WEBEVAL_ANNOTATIONS`); errors are shown with the password masked. The reviewer is chosen once in
the sidebar and kept in the URL (`?reviewer=`), so a save never clears it.

What is shown to a reviewer is recorded by the core's gate (webeval_ui/review_mode.gate), never here.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from webeval_core.review import (
    Annotation,
    AnnotationStore,
    LabelViewer,
    StoreError,
    default_location,
    open_annotations,
)
from webeval_ui.roots import current_root
from webeval_ui.untrusted import inert


@st.cache_resource(show_spinner=False, max_entries=4)
def _store(location: str, root: str) -> AnnotationStore:
    store, _problems = open_annotations(location, Path(root))
    return store


def review_store() -> AnnotationStore | None:
    """The annotation store; None (with the reason shown) when it cannot be opened."""
    try:
        return _store(default_location(), str(current_root()))
    except StoreError as exc:
        st.error(f"The annotation store cannot be opened: {inert(str(exc))}")
        return None


def all_annotations(store: AnnotationStore, viewer: LabelViewer) -> list[Annotation] | None:
    """Every annotation `viewer` may see (its own, others' as it discloses them); None (with the
    reason shown) when the store cannot be read.
    """
    try:
        return store.annotations(viewer)
    except StoreError as exc:
        st.error(f"The annotation store cannot be read: {inert(str(exc))}")
        return None


def review_store_quiet() -> AnnotationStore | None:
    """The annotation store, or None when it cannot be opened (nothing said on the page)."""
    try:
        return _store(default_location(), str(current_root()))
    except StoreError:
        return None
