"""Streamlit entry point: `webeval app ROOT` (or `python3 dev.py app`) runs this file.

Pages are thin views over webeval_core; this file only wires navigation and the root picker.
"""

from __future__ import annotations

import streamlit as st

from webeval_ui.page_links import PAGE_REGISTRY
from webeval_ui.review_mode import review_mode_bar
from webeval_ui.reviewer import needs_sign_in, reviewer_picker, sign_in_prompt
from webeval_ui.root_picker import root_picker

# An emoji icon: the browser draws it locally, where a ":material/...:" page icon is fetched from
# Google's font servers on every page load (the app must work, and stay silent, offline).
st.set_page_config(page_title="webeval · trajectory inspector", page_icon="🔎", layout="wide")
# With sign-in on, a visitor not signed in gets the prompt and nothing else (no page list either).
signing_in = needs_sign_in()
pages = [
    st.Page(page.script, title=page.title, icon=page.icon, url_path=page.url_path, default=at == 0)
    for at, page in enumerate(PAGE_REGISTRY.values())
]
overview = pages[0]


def _to_overview() -> None:
    # The default page is served at "/", so "/overview", the address people type or keep from
    # the sidebar's page names, would be "page not found": it leads to the Overview, query kept.
    st.switch_page(overview, query_params={key: st.query_params.get_all(key) for key in st.query_params})


navigation = st.navigation(
    [*pages, st.Page(_to_overview, title="Overview", url_path="overview", visibility="hidden")],
    position="hidden" if signing_in else "sidebar",
)
if signing_in:
    sign_in_prompt()  # stops the script
root_picker()
reviewer_picker()
review_mode_bar()
navigation.run()
