"""`webeval app [ROOT]`: serve the Streamlit inspector on ROOT until stopped (webeval_core/serving/server.py).

A server bound beyond loopback is read-only unless sign-in (`--auth FILE`, webeval_core/serving/signin.py)
or `--writable` says otherwise (without sign-in anyone who reaches it could write under any name);
`--read-only` asks for it anywhere. `--roles FILE` says who may write what (webeval_core/policy/access.py):
with sign-in, by the identity the provider verified.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import say
from webeval_core.cli._roots import opened
from webeval_core.cli._store import StoreArgumentError, add_store_arguments, chosen_store
from webeval_core.serving import DEFAULT_SESSION_HOURS, SESSION_AGE_ENV

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """`app [ROOT] [--host H] [--port P] [--annotations PATH_OR_URL] [--allow-root PATH]...
    [--read-only | --writable] [--roles FILE] [--auth FILE] [--reload]`.
    """
    app = sub.add_parser("app", help="open the Streamlit inspector on a folder")
    app.add_argument(
        "root",
        nargs="?",
        help="folder to browse (default: a checkout's sample_runs/, else the current folder)",
    )
    app.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    app.add_argument("--port", type=int, default=8501, help="port to serve on (default: 8501)")
    add_store_arguments(app, "the review store")
    app.add_argument(
        "--session-max-age",
        type=float,
        default=DEFAULT_SESSION_HOURS,
        metavar="HOURS",
        help=f"with --auth: a sign-in older than this is signed out (default: {DEFAULT_SESSION_HOURS:g})",
    )
    app.add_argument(
        "--allow-root",
        action="append",
        default=[],
        metavar="PATH",
        help="another folder the app may open (from the sidebar or a link's ?root=); repeatable."
        " By default only ROOT and folders under it",
    )
    mode = app.add_mutually_exclusive_group()
    mode.add_argument(
        "--read-only",
        action="store_true",
        help="write nothing: no score file, annotation, queue or correction (the default beyond loopback)",
    )
    mode.add_argument(
        "--writable",
        action="store_true",
        help="allow writes on a --host beyond loopback, where anyone who reaches the server can write",
    )
    app.add_argument(
        "--roles",
        metavar="FILE",
        help='a TOML file of roles ([roles] "ann@example.org" = "reviewer"; viewer, reviewer, adjudicator,'
        " operator): who may annotate, propose corrections, re-score; anyone not named is a viewer",
    )
    app.add_argument(
        "--auth",
        metavar="FILE",
        help="sign users in with OpenID Connect: a TOML file with Streamlit's [auth] section (redirect_uri,"
        " cookie_secret, client_id, client_secret, server_metadata_url); only its path is passed on",
    )
    app.add_argument(
        "--redact",
        metavar="PROFILE",
        help="a redaction profile (TOML: names, patterns, keys, headers) that every download of the"
        " server applies on top of the default one (Evidence page, run report, static bundle)",
    )
    app.add_argument(
        "--reload",
        action="store_true",
        help="for working on the app: rerun it when its code changes (by default the server watches no file)",
    )
    app.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Serve the inspector until stopped; 1 when the root, a folder allowed or the port is unusable."""
    from webeval_core.remote import is_remote
    from webeval_core.serving import (
        AppServer,
        app_file,
        default_root,
        root_environment,
        streamlit_command,
    )

    args.auth = args.auth or _usual_auth(out)
    url = args.root if args.root and is_remote(args.root) else None
    given = opened(args.root, "app") if args.root else None
    if args.root and given is None:
        return 1
    root = given.path.resolve() if given is not None else default_root()
    allowed = [Path(path).resolve() for path in args.allow_root]
    try:
        location = chosen_store(args)
    except StoreArgumentError as exc:
        say(sys.stderr, f"webeval app: {exc}")
        return 2
    problem = (
        _refusal(root, allowed, args.host, args.port)
        or _roles_refusal(args.roles)
        or _auth_refusal(args.auth)
        or _redact_refusal(args.redact)
    )
    if problem is not None:
        say(sys.stderr, f"webeval app: {problem}")
        return 1
    try:
        script = app_file()
    except FileNotFoundError as exc:  # a broken install: say what is missing, not a traceback
        say(sys.stderr, f"webeval app: {exc}")
        return 1
    secrets = Path(args.auth).resolve() if args.auth else None
    command = streamlit_command(script, args.host, args.port, reload=args.reload, secrets=secrets)
    # A URL root: the app mirrors it itself (its Reload lists the store again); the sync above made it warm.
    env = {**os.environ, **root_environment(url or str(root), allowed), **_access_environment(args, out)}
    env[SESSION_AGE_ENV] = f"{args.session_max_age:g}"
    if args.redact:  # what the server's downloads remove besides the default
        from webeval_core.presentation import PROFILE_ENV

        env[PROFILE_ENV] = str(Path(args.redact).resolve())
    if location:  # the server's review pages open this store (never printed: it may hold a password)
        from webeval_core.review import (
            ENV_VARIABLE,  # SQLAlchemy: only `app --annotations` pays
        )

        env[ENV_VARIABLE] = location
    say(out, f"Opening {url or root} at http://{args.host}:{args.port}")
    out.flush()
    return AppServer(command, env).run()


def _access_environment(args: argparse.Namespace, out: TextIO) -> dict[str, str]:
    """The server's access policy as its environment (`READ_ONLY_ENV`), said on `out` when it matters."""
    from webeval_core.policy import (
        READ_ONLY_ENV,
        ROLES_ENV,
        SIGN_IN_ENV,
        is_loopback,
        serves_read_only,
    )

    sign_in = bool(args.auth)
    read_only = serves_read_only(args.host, read_only=args.read_only, writable=args.writable, sign_in=sign_in)
    if read_only and not args.read_only:
        say(
            out,
            f"Read-only: {args.host} is reachable beyond this machine"
            " (start with --writable to allow writes)",
        )
    elif args.writable and not is_loopback(args.host):
        say(
            sys.stderr,
            f"webeval app: warning: --writable on {args.host}: anyone who reaches this server can write"
            " annotations under any name, re-score and overwrite score files",
        )
    if sign_in and not args.roles:
        say(
            out,
            "Sign-in without --roles: every signed-in user may annotate, propose corrections and re-score",
        )
    # Always set: a value inherited from the caller's environment must not decide it.
    return {
        READ_ONLY_ENV: "1" if read_only else "0",
        ROLES_ENV: str(Path(args.roles).resolve()) if args.roles else "",
        SIGN_IN_ENV: "1" if sign_in else "0",
    }


def _roles_refusal(roles: str | None) -> str | None:
    """Why the roles file cannot be used (None: none given, or it reads)."""
    from webeval_core.policy import RolesFileError, load_roles

    if roles is None:
        return None
    try:
        load_roles(Path(roles))
    except RolesFileError as exc:
        return f"--roles {exc}"
    return None


def _usual_auth(out: TextIO) -> str | None:
    """Streamlit's usual secrets file when it configures a provider (`signin.usual_auth_file`), said."""
    from webeval_core.serving import usual_auth_file

    found = usual_auth_file(Path.cwd(), Path.home())
    if found is not None:
        say(out, f"Sign-in: the [auth] section of {found}")
    return str(found) if found is not None else None


def _redact_refusal(profile: str | None) -> str | None:
    """Why the redaction profile cannot be used (None: none given, or it reads)."""
    from webeval_core.presentation import load_profile
    from webeval_core.support import UnreadableError

    if profile is None:
        return None
    try:
        load_profile(profile)
    except UnreadableError as exc:
        return f"--redact {exc.path}: {exc.reason}"
    return None


def _auth_refusal(auth: str | None) -> str | None:
    """Why the sign-in file cannot be used (None: none given, or it reads); its warning is printed."""
    from webeval_core.serving import SignInFileError, check_auth_file

    if auth is None:
        return None
    try:
        warning = check_auth_file(Path(auth))
    except SignInFileError as exc:
        return f"--auth {exc}"
    if warning is not None:
        say(sys.stderr, f"webeval app: warning: {warning}")
    return None


def _refusal(root: Path, allowed: list[Path], host: str, port: int) -> str | None:
    """Why the server cannot start: the root or a folder allowed is none, or the port is taken."""
    from webeval_core.cli._roots import folder_problem
    from webeval_core.serving import port_in_use

    if problem := folder_problem(root):
        return f"{root}: {problem}"
    for path in allowed:
        if problem := folder_problem(path):
            return f"{path}: {problem} (--allow-root)"
    if port_in_use(host, port):
        return f"port {port} on {host} is already in use (another `webeval app`?); choose another with --port"
    return None
