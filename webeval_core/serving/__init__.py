"""Serving and sign-in: the Streamlit server behind `webeval app` (which roots it may open, how it
starts and stops: server) and the OpenID Connect sign-in it may require (the `[auth]` file checked,
when a session is over: signin).

May import: nothing of the core's layers (it stands apart, used by the CLI and the app).
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "DEFAULT_SESSION_HOURS",
    "ROOT_ENV",
    "SESSION_AGE_ENV",
    "AppServer",
    "SignInFileError",
    "allowed_roots",
    "app_file",
    "check_auth_file",
    "default_root",
    "max_session_age",
    "port_in_use",
    "root_environment",
    "root_refusal",
    "session_end",
    "streamlit_command",
    "usual_auth_file",
]

if TYPE_CHECKING:
    from webeval_core.serving.server import (
        ROOT_ENV,
        AppServer,
        allowed_roots,
        app_file,
        default_root,
        port_in_use,
        root_environment,
        root_refusal,
        streamlit_command,
    )
    from webeval_core.serving.signin import (
        DEFAULT_SESSION_HOURS,
        SESSION_AGE_ENV,
        SignInFileError,
        check_auth_file,
        max_session_age,
        session_end,
        usual_auth_file,
    )
else:
    __getattr__ = lazy_getattr(__name__, __file__)
