"""Streamlit entry point: `webeval app ROOT` (or `python3 dev.py app`) runs this file.

Pages are thin views over webeval_core; this file only wires navigation and the root picker.
"""

from __future__ import annotations

import streamlit as st

from webeval_ui.page_links import PAGES
from webeval_ui.review_mode import review_mode_bar
from webeval_ui.reviewer import needs_sign_in, reviewer_picker, sign_in_prompt
from webeval_ui.root_picker import root_picker

# An emoji icon: the browser draws it locally, where a ":material/...:" page icon is fetched from
# Google's font servers on every page load (the app must work, and stay silent, offline).
st.set_page_config(page_title="webeval · trajectory inspector", page_icon="🔎", layout="wide")
# With sign-in on, a visitor not signed in gets the prompt and nothing else (no page list either).
signing_in = needs_sign_in()
overview = st.Page(
    PAGES["overview"], title="Overview", icon=":material/insights:", url_path="home", default=True
)


def _to_overview() -> None:
    # The default page is served at "/", so "/overview", the address people type or keep from
    # the sidebar's page names, would be "page not found": it leads to the Overview, query kept.
    st.switch_page(overview, query_params={key: st.query_params.get_all(key) for key in st.query_params})


navigation = st.navigation(
    [
        overview,
        st.Page(
            PAGES["trajectories"], title="Trajectories", icon=":material/table_rows:", url_path="trajectories"
        ),
        st.Page(PAGES["trajectory"], title="Trajectory", icon=":material/movie:", url_path="trajectory"),
        st.Page(PAGES["compare"], title="Compare runs", icon=":material/compare_arrows:", url_path="compare"),
        st.Page(PAGES["tasks"], title="Tasks", icon=":material/checklist:", url_path="tasks"),
        st.Page(PAGES["review"], title="Review", icon=":material/rate_review:", url_path="review"),
        st.Page(PAGES["agreement"], title="Agreement", icon=":material/handshake:", url_path="agreement"),
        st.Page(
            PAGES["disagreements"],
            title="Judges disagree",
            icon=":material/call_split:",
            url_path="disagreements",
        ),
        st.Page(PAGES["published"], title="Results", icon=":material/leaderboard:", url_path="published"),
        st.Page(PAGES["live"], title="Live", icon=":material/monitor_heart:", url_path="live"),
        st.Page(PAGES["query"], title="Query", icon=":material/database:", url_path="query"),
        st.Page(_to_overview, title="Overview", url_path="overview", visibility="hidden"),
    ],
    position="hidden" if signing_in else "sidebar",
)
if signing_in:
    sign_in_prompt()  # stops the script
root_picker()
reviewer_picker()
review_mode_bar()
navigation.run()
