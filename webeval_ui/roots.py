"""Which root the app browses and whether it may open one: the session's choice, the server's
root, a store URL's mirror; files served only from inside it.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from webeval_core.serving import ROOT_ENV, allowed_roots, root_refusal
from webeval_ui import remote_root
from webeval_ui.state import KEPT_ACROSS_ROOTS, Key
from webeval_ui.untrusted import inert

REPO = Path(__file__).resolve().parent.parent


DEFAULT_ROOT = REPO / "sample_runs"


def current_root() -> Path:
    """The folder the app browses: chosen in the sidebar or a link, else `WEBEVAL_ROOT`, else sample_runs/.

    A store URL is browsed through its local mirror (webeval_ui/remote_root.py).
    """
    chosen = chosen_root()
    if remote_root.is_remote(chosen):
        return remote_root.remote_folder(chosen)
    return Path(chosen).resolve()


def chosen_root() -> str:
    """The root as chosen (a folder or a store URL): the session's, else the server's, else the sample."""
    return str(st.session_state.get(Key.ROOT) or os.environ.get(ROOT_ENV) or DEFAULT_ROOT)


def chosen_root_url() -> str | None:
    """The root as chosen when it is a store URL (None: a folder)."""
    chosen = chosen_root()
    return chosen if remote_root.is_remote(chosen) else None


def refusal(candidate: str) -> str | None:
    """Why the app will not open `candidate`, a folder or a store URL (None: it may).

    Folders: webeval_core.serving.server.root_refusal. A store URL only when it is the one the server was
    started on: a shared link must not make the server fetch from any store its credentials reach.
    """
    if remote_root.is_remote(candidate):
        if candidate == os.environ.get(ROOT_ENV):
            return None
        return f"{candidate} is not the store this server was started on"
    return root_refusal(Path(candidate), allowed_roots(os.environ, DEFAULT_ROOT))


def other_roots(root: Path) -> list[Path]:
    """The roots this server may open besides `root` and the folders under it (`--allow-root`'s)."""
    allowed = allowed_roots(os.environ, DEFAULT_ROOT)
    return [other for other in allowed if other != root and root not in other.parents]


def another_root(root: Path) -> None:
    """What a root without trajectories offers instead (its subfolders hold none either): a button
    for each other root this server may open, else how to start it on another folder.
    """
    others = other_roots(root)
    if not others:
        st.markdown(
            f"This server opens only {inert(str(root))} and the folders under it. To browse another"
            " folder, start the app on it (`webeval app FOLDER`), or start this one again with"
            " `--allow-root FOLDER` and type FOLDER in the sidebar's **Root folder**."
        )
        return
    st.markdown("Open another root folder this server may open:")
    for other in others:
        if st.button(inert(str(other)), icon=":material/folder_open:"):
            forget_root_state()  # as the sidebar's root box does: nothing chosen here names it
            st.session_state[Key.ROOT] = str(other)
            st.query_params[Key.ROOT_IN_URL] = str(other)
            st.rerun()


def forget_root_state() -> None:
    """Drop what was chosen in the old root: its runs, tasks and filters name nothing in another."""
    for key in list(st.session_state):
        if key not in KEPT_ACROSS_ROOTS:
            del st.session_state[key]


def inside_root(path: Path, root: Path | None = None) -> Path | None:
    """`path` resolved, or None when it lies outside the root: files are served only from inside it."""
    base = (root or current_root()).resolve()
    try:
        resolved = path.resolve()
    except OSError:
        return None
    return resolved if resolved == base or base in resolved.parents else None
