"""The one place the app reaches into Streamlit's internals: leaving the legacy `pages/` mode.

Because a folder named `pages/` lies beside app.py, Streamlit (1.67 still) starts every server in
its first multipage mode: `PagesManager.uses_pages_directory` becomes True when the first session
starts, and until some script calls `st.navigation` (which sets it to False) a request runs the
`pages/` file matching its URL on its own, without app.py. So a deep link that is the first
request after start-up would show the bare page: no navigation, layout or root picker.
`require_app_shell` leaves that mode and reruns, and app.py routes the same URL to the page.

tests/app/test_shell.py checks that Streamlit still behaves this way, and fails naming what
changed when a new version does not.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from webeval_ui.state import Key

LEGACY_MODE_FLAG = "uses_pages_directory"
"""The class attribute of `PagesManager` that selects the legacy pages-folder mode."""


def in_legacy_pages_mode() -> bool:
    """Whether Streamlit runs scripts in its legacy pages-folder mode (page files without app.py)."""
    return bool(getattr(PagesManager, LEGACY_MODE_FLAG))


def require_app_shell() -> None:
    """Run this page through app.py: leave the legacy pages-folder mode once, then rerun."""
    # Once per session: a rerun drops pending widget events, so it must not repeat on every run
    # (AppTest resets the mode before each run).
    if in_legacy_pages_mode() and not st.session_state.get(Key.APP_SHELL_CHECKED):
        st.session_state[Key.APP_SHELL_CHECKED] = True
        setattr(PagesManager, LEGACY_MODE_FLAG, False)
        st.rerun()
