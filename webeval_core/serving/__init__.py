"""Serving and sign-in: the Streamlit server behind `webeval app` (which roots it may open, how it
starts and stops: server) and the OpenID Connect sign-in it may require (the `[auth]` file checked,
when a session is over: signin).

May import: nothing of the core's layers (it stands apart, used by the CLI and the app).
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "ROOT_ENV",
    "allowed_roots",
    "max_session_age",
    "root_refusal",
    "session_end",
]

if TYPE_CHECKING:
    from webeval_core.serving.server import ROOT_ENV, allowed_roots, root_refusal
    from webeval_core.serving.signin import max_session_age, session_end
else:
    __getattr__ = lazy_getattr(__name__, __file__)
