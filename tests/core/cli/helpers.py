"""Running `webeval` in the test process (its output captured) or as a server in a process group."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from tests.browser.streamlit_server import free_port
from tests.harness.builders import fara_folder
from webeval_core.cli import main


def run_cli(*argv: str) -> tuple[int, str]:
    """`webeval ARGV...` in this process: its exit code and what it wrote to stdout."""
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def start_app(tmp_path: Path, *options: str) -> tuple[Path, int, Path, subprocess.Popen[bytes]]:
    """`webeval app` on a one-trajectory root, in a process group of its own: the test can see (and
    at worst kill) every process it started, Streamlit (the child of `webeval app`) included."""
    root = tmp_path / "root"
    fara_folder(root)
    port = free_port()
    log = tmp_path / "app.log"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "webeval_core.cli", "app", str(root), "--port", str(port), *options]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return root, port, log, process
