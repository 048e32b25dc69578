"""What the Streamlit pages share: session and root state, cached core objects, widgets, tables,
the review mode and the trajectory page's tabs.

The pages (`pages/`) only draw; every rule deciding what is shown lives in webeval_core, which
this package and the pages import only through its layer facades (`lint-imports`: `app-facades`).
"""
