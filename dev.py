#!/usr/bin/env python3
"""One entry point for a fresh machine: `python3 dev.py app` and `python3 dev.py test`.

Both create `.venv/` with the pinned dependencies of `requirements.lock` the first time (and
again whenever the lock or pyproject changes), so a new user needs nothing but Python 3.11+.
Only the standard library is used here because this runs before anything is installed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".webeval-deps"
CHROMIUM = Path("/usr/bin/chromium")
POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")
# Microsoft's Azure Storage emulator, for the remote-root tests (tests/azurite.py finds it here).
AZURITE = "azurite@3.35.0"
NODE_PREFIX = ROOT / ".node"


def _deps_fingerprint() -> str:
    digest = hashlib.sha256()
    for name in ("requirements.lock", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def _run(*cmd: str | Path, **kwargs: object) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kwargs)  # type: ignore[call-overload]


def ensure_venv() -> None:
    """Create or refresh the virtualenv; a no-op when the pinned deps are already installed."""
    fingerprint = _deps_fingerprint()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == fingerprint:
        return
    if not PYTHON.exists():
        print(f"Creating virtual environment in {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    _run(PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", "requirements.lock")
    # The lock pins the build backend, so the editable install builds offline with it.
    _run(
        PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
        "--no-build-isolation", "-e", ".",
    )  # fmt: skip
    STAMP.write_text(fingerprint)


def _apt_install(package: str, what_is_missing: str, skipped: str) -> None:
    """Install a Debian package when we may (root + apt-get); else say which tests will be skipped."""
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        _run("apt-get", "update", "-qq", env=env)
        _run("apt-get", "install", "-y", "-qq", package, env=env)
    else:
        print(f"{what_is_missing} and cannot be installed (need root + apt-get); {skipped}.", flush=True)


def ensure_chromium() -> None:
    """Browser tests drive Debian's Chromium; Playwright cannot download its own browser here."""
    if CHROMIUM.exists() or os.environ.get("WEBEVAL_SKIP_BROWSER"):
        return
    _apt_install("chromium", "Chromium not found at /usr/bin/chromium", "browser tests will be skipped")


def ensure_postgresql() -> None:
    """The annotation store's tests also run against a throwaway PostgreSQL 15 server (Debian's)."""
    installed = (POSTGRES_BIN / "initdb").exists() or shutil.which("initdb")
    if installed or os.environ.get("WEBEVAL_SKIP_POSTGRES"):
        return
    _apt_install(
        "postgresql", "PostgreSQL's initdb not found", "the PostgreSQL store's tests will be skipped"
    )


def ensure_azurite() -> None:
    """Remote-root tests read runs from Azurite; install it with npm beside the checkout when missing."""
    if (NODE_PREFIX / "node_modules" / ".bin" / "azurite-blob").exists() or shutil.which("azurite-blob"):
        return
    npm = shutil.which("npm")
    if npm is None:
        print("npm not found: the remote-root (Azurite) tests will be skipped.", flush=True)
        return
    try:
        _run(npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", NODE_PREFIX, AZURITE)
    except subprocess.CalledProcessError:
        print("npm could not install azurite: the remote-root (Azurite) tests will be skipped.", flush=True)


def cmd_app(args: list[str]) -> int:
    """`dev.py app [ROOT] [webeval app options]`: the inspector on ROOT (default: sample_runs/)."""
    ensure_venv()
    root = args[0] if args else str(ROOT / "sample_runs")
    return subprocess.call([str(BIN / "webeval"), "app", root, *args[1:]], cwd=ROOT)


def cmd_test(args: list[str]) -> int:
    """`dev.py test [pytest args]`: lint, format check, types, layer contracts, then the tests."""
    ensure_venv()
    ensure_chromium()
    ensure_postgresql()
    ensure_azurite()
    steps = [
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "ruff"), "format", "--check", "."],
        [str(BIN / "mypy")],
        [str(BIN / "lint-imports")],
        [str(PYTHON), "-m", "pytest", *args],
    ]
    for step in steps:
        print("+", " ".join(step), flush=True)
        code = subprocess.call(step, cwd=ROOT)
        if code:
            return code
    return 0


def main() -> int:
    """Dispatch `python3 dev.py COMMAND ...`; the exit code."""
    commands = {"app": cmd_app, "test": cmd_test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print("usage: python3 dev.py app [ROOT] | python3 dev.py test [pytest args]", file=sys.stderr)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
