"""`webeval app [ROOT]`: serve the Streamlit inspector on ROOT until stopped (webeval_core/server.py)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import say
from webeval_core.cli._roots import opened

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers


def add_parser(sub: Subparsers) -> None:
    """`app [ROOT] [--host H] [--port P] [--annotations PATH_OR_URL] [--allow-root PATH]... [--reload]`."""
    app = sub.add_parser("app", help="open the Streamlit inspector on a folder")
    app.add_argument(
        "root",
        nargs="?",
        help="folder to browse (default: a checkout's sample_runs/, else the current folder)",
    )
    app.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    app.add_argument("--port", type=int, default=8501)
    app.add_argument(
        "--annotations",
        metavar="PATH_OR_URL",
        help="the review store, a SQLite file or postgresql:// URL (default: $WEBEVAL_ANNOTATIONS)",
    )
    app.add_argument(
        "--allow-root",
        action="append",
        default=[],
        metavar="PATH",
        help="another folder the app may open (from the sidebar or a link's ?root=); repeatable."
        " By default only ROOT and folders under it",
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
    from webeval_core.server import AppServer, app_file, default_root, root_environment, streamlit_command

    url = args.root if args.root and is_remote(args.root) else None
    given = opened(args.root, "app") if args.root else None
    if args.root and given is None:
        return 1
    root = given.path.resolve() if given is not None else default_root()
    allowed = [Path(path).resolve() for path in args.allow_root]
    problem = _refusal(root, allowed, args.host, args.port)
    if problem is not None:
        say(sys.stderr, f"webeval app: {problem}")
        return 1
    try:
        script = app_file()
    except FileNotFoundError as exc:  # a broken install: say what is missing, not a traceback
        say(sys.stderr, f"webeval app: {exc}")
        return 1
    command = streamlit_command(script, args.host, args.port, reload=args.reload)
    # A URL root: the app mirrors it itself (its Reload lists the store again); the sync above made it warm.
    env = {**os.environ, **root_environment(url or str(root), allowed)}
    if args.annotations:  # the server's review pages open this store (never printed: it may hold a password)
        from webeval_core.review.store import ENV_VARIABLE  # SQLAlchemy: only `app --annotations` pays

        env[ENV_VARIABLE] = args.annotations
    say(out, f"Opening {url or root} at http://{args.host}:{args.port}")
    out.flush()
    return AppServer(command, env).run()


def _refusal(root: Path, allowed: list[Path], host: str, port: int) -> str | None:
    """Why the server cannot start: the root or a folder allowed is none, or the port is taken."""
    from webeval_core.server import port_in_use

    if not root.is_dir():
        return f"{root}: not a folder"
    for path in allowed:
        if not path.is_dir():
            return f"{path}: not a folder (--allow-root)"
    if port_in_use(host, port):
        return f"port {port} on {host} is already in use (another `webeval app`?); choose another with --port"
    return None
