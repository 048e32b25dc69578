"""The review store a command opens: `--annotations PATH_OR_URL` or `--annotations-file FILE`.

A store URL's password must never be in a process's argv (anyone on the machine reads it with
`ps`, for the server's whole life), so a URL with a password on the command line is refused with
the ways to give it instead: `$WEBEVAL_ANNOTATIONS`, a file (`--annotations-file`, its first line),
or a `~/.pgpass` / `PGPASSFILE` entry or a `service=` name (libpq reads them; the URL then has no
password).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webeval_core.review import AnnotationStore

PASSWORD_REFUSED = (
    "the store URL holds a password, which every user of this machine could read in the process"
    " list; give the URL in $WEBEVAL_ANNOTATIONS or a file (--annotations-file FILE), or leave the"
    " password out and keep it in ~/.pgpass (or PGPASSFILE)"
)


class StoreArgumentError(ValueError):
    """A store given on the command line that is not used; the message says why and what to do."""


def add_store_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """`--annotations PATH_OR_URL` and `--annotations-file FILE`; `what` says what the store is for."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--annotations",
        metavar="PATH_OR_URL",
        help=f"{what}: a SQLite file or a postgresql:// URL without its password"
        " (default: $WEBEVAL_ANNOTATIONS, else the user's data folder)",
    )
    group.add_argument(
        "--annotations-file",
        metavar="FILE",
        help="a file whose first line is that path or URL (a URL's password may be in it)",
    )


def chosen_store(args: argparse.Namespace) -> str | None:
    """The store location the arguments give (None: the default).

    Raises:
        StoreArgumentError: A URL with a password in argv, or a file that cannot be read or is empty.
    """
    from webeval_core.review import has_password

    given = getattr(args, "annotations", None)
    if given:
        if has_password(given):
            raise StoreArgumentError(f"--annotations: {PASSWORD_REFUSED}")
        return str(given)
    path = getattr(args, "annotations_file", None)
    if not path:
        return None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreArgumentError(f"--annotations-file {path}: cannot be read ({exc})") from None
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise StoreArgumentError(f"--annotations-file {path}: empty (its first line names the store)")
    return lines[0]


def store_for(args: argparse.Namespace, root: Path, command: str) -> AnnotationStore | None:
    """The review store the arguments name, with earlier JSON-lines annotations imported, under the
    roles of `--roles FILE` when the command has it (the process's policy otherwise); None when it
    cannot be opened (said why on stderr).
    """
    import os

    from webeval_core.cli._output import complain, say
    from webeval_core.policy import ROLES_ENV, RolesFileError, current_policy
    from webeval_core.review import StoreError, open_annotations

    roles = getattr(args, "roles", None)
    try:
        # Read from the roles file named, never by setting the process's environment.
        policy = current_policy({**os.environ, ROLES_ENV: os.path.abspath(roles)}) if roles else None
        store, problems = open_annotations(chosen_store(args), root, policy)
    except (StoreArgumentError, StoreError, RolesFileError) as exc:
        complain(command, "the review store", exc)
        return None
    say(sys.stderr, *(f"webeval {command}: {problem}" for problem in problems))
    return store
