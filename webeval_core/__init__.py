"""webeval_core: read web-agent trajectory folders, score them with WebArena-Verified, aggregate runs.

UI-free on purpose: the CLI (`webeval`) and the Streamlit app are two faces of this package.
"""

__version__ = "0.1.0"
