"""Roles and policy: what this process may write (read-only from WEBEVAL_READ_ONLY, roles from the
TOML file WEBEVAL_ROLES names, the identity a write acts as, verified when signed in): access.

May import: support. Checked by every write path of the core (the annotation store, score files).
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "READ_ONLY_ENV",
    "READ_ONLY_TEXT",
    "ROLES_ENV",
    "SIGN_IN_ENV",
    "RolesFileError",
    "Write",
    "acting_as",
    "current_policy",
    "is_loopback",
    "load_roles",
    "serves_read_only",
]

if TYPE_CHECKING:
    from webeval_core.policy.access import (
        READ_ONLY_ENV,
        READ_ONLY_TEXT,
        ROLES_ENV,
        SIGN_IN_ENV,
        RolesFileError,
        Write,
        acting_as,
        current_policy,
        is_loopback,
        load_roles,
        serves_read_only,
    )
else:
    __getattr__ = lazy_getattr(__name__, __file__)
