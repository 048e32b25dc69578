"""The sidebar's root folder: a link's root opened when allowed, another typed in, reloaded from disk."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from webeval_ui import remote_root
from webeval_ui.loaders import forget_loaded_data
from webeval_ui.page_links import PAGES
from webeval_ui.roots import chosen_root_url, current_root, forget_root_state, refusal
from webeval_ui.state import Key
from webeval_ui.untrusted import inert
from webeval_ui.widgets import lazy_expander


def root_picker() -> None:
    """The root in the URL and the sidebar: a link's root is opened when allowed, the URL names the root.

    A root the server may not open (webeval_core.serving.server.allowed_roots) is refused with the reason,
    and the root browsed so far is kept.
    """
    _follow_link()
    root = current_root()
    url = chosen_root_url()
    st.query_params[Key.ROOT_IN_URL] = url or str(root)  # every page's URL names its root: links share it
    with st.sidebar:
        if url is not None:
            remote_root.show_remote_problems(url)
        # Drawn only when opened: a text box costs every page load about 0.2 s of the browser's
        # time (its widget code loads and runs), and the root changes rarely.
        box = lazy_expander(f"Root folder: {inert(root.name or str(root))}", key=Key.ROOT_BOX)
        if box is not None:
            with box:
                _root_input(root, url)
        if st.button("Reload from disk", help="Re-read folders changed since the last load."):
            forget_loaded_data()
            st.rerun()


def _follow_link() -> None:
    """Open the root the URL names (a shared link, the browser's address bar) when it differs."""
    wanted = st.query_params.get(Key.ROOT_IN_URL)
    if not wanted or wanted == chosen_root_url():
        return
    local = not remote_root.is_remote(wanted)
    if local and Path(wanted).resolve() == current_root():
        return
    why = refusal(wanted)
    if why is not None:
        st.error(inert(f"The link's root folder was not opened: {why}"))
        return
    forget_root_state()
    st.session_state[Key.ROOT] = str(Path(wanted).resolve()) if local else wanted


def _root_input(root: Path, url: str | None) -> None:
    typed = st.text_input(
        "Root folder",
        value=url or str(root),
        key=Key.ROOT_TYPED,
        help="Any folder holding trajectory folders, or a store URL (az://, s3://, gs://).",
    )
    if remote_root.is_remote(typed):
        if typed != url:
            if (why := refusal(typed)) is not None:
                st.error(inert(why))
                return
            remote_root.remote_folder(typed)  # unreachable: says so and stops, root kept
            _browse(typed)
        return
    candidate = Path(typed).expanduser().resolve() if typed else root
    if candidate == root:
        return
    if not candidate.is_dir():
        st.error(f"Not a folder: {inert(typed)}")
    elif (why := refusal(str(candidate))) is not None:
        st.error(inert(why))
    else:
        _browse(str(candidate))


def _browse(root: str) -> None:
    """Open the overview of another root with a clean slate.

    Runs, tasks and filters chosen in the old root (widget state and the URL's query) name
    nothing in the new one, and a run picker keeping them would show an empty page.
    """
    forget_root_state()
    st.session_state[Key.ROOT] = root
    # An explicit query naming the new root: without one, switch_page calls
    # st.query_params.clear(), which refuses while parameters bound to widgets are in the URL.
    st.switch_page(PAGES["overview"], query_params={Key.ROOT_IN_URL.value: root})
