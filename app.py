"""Streamlit entry point: `webeval app ROOT` (or `python3 dev.py app`) runs this file.

Pages are thin views over webeval_core; this file only wires navigation and the root picker.
"""

from __future__ import annotations

import streamlit as st

from pages.common import PAGES, root_picker

st.set_page_config(
    page_title="webeval · trajectory inspector", page_icon=":material/travel_explore:", layout="wide"
)
navigation = st.navigation(
    [
        st.Page(
            PAGES["overview"], title="Overview", icon=":material/insights:", url_path="overview", default=True
        ),
        st.Page(
            PAGES["trajectories"], title="Trajectories", icon=":material/table_rows:", url_path="trajectories"
        ),
        st.Page(PAGES["trajectory"], title="Trajectory", icon=":material/movie:", url_path="trajectory"),
        st.Page(PAGES["compare"], title="Compare runs", icon=":material/compare_arrows:", url_path="compare"),
        st.Page(PAGES["tasks"], title="Tasks", icon=":material/checklist:", url_path="tasks"),
    ]
)
root_picker()
navigation.run()
