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
# Debian's headless shell (Chromium without its windowing layers, what Playwright itself drives
# headless), the one browser the tests drive: the full browser spent a quarter more CPU.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")
# Microsoft's Azure Storage emulator, for the remote-root tests (tests/harness/azurite.py finds it here).
AZURITE = "azurite@3.35.0"
# A real OpenID Connect provider for the sign-in tests (tests/harness/oidc_provider.py finds it here).
OIDC_PROVIDER = "oidc-provider@9.13.3"
NODE_PREFIX = ROOT / ".node"
# How long an install waits for another apt or dpkg to finish (an unattended upgrade takes minutes).
APT_LOCK_TIMEOUT_S = 300


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


def _apt_install(package: str, what_is_missing: str, skipped: str, skip_variable: str) -> None:
    """Install a Debian package when we may (root + apt-get); else say which tests will be skipped."""
    apt_get = shutil.which("apt-get")
    if apt_get and hasattr(os, "geteuid") and os.geteuid() == 0:
        apt_get_install(apt_get, package, skip_variable)
    else:
        print(f"{what_is_missing} and cannot be installed (need root + apt-get); {skipped}.", flush=True)


def apt_get_install(
    apt_get: str, package: str, skip_variable: str, lock_timeout_s: int = APT_LOCK_TIMEOUT_S
) -> None:
    """`apt-get update` and `install PACKAGE`, each waiting up to `lock_timeout_s` for another apt or
    dpkg (unattended upgrades, a second install) to let go of its lock; a failure ends dev.py with
    one line naming the package and how to install it by hand.
    """
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    wait = f"DPkg::Lock::Timeout={lock_timeout_s}"
    try:
        _run(apt_get, "-o", wait, "update", "-qq", env=env)
        _run(apt_get, "-o", wait, "install", "-y", "-qq", package, env=env)
    except subprocess.CalledProcessError as exc:
        raise SystemExit(
            f"dev.py: could not install {package}: apt-get failed (exit {exc.returncode}; another apt or"
            f" dpkg may have held its lock for over {lock_timeout_s} s). Install it by hand"
            f" (`sudo apt-get install {package}`) and run again, or set {skip_variable}=1 to skip its tests."
        ) from None


def ensure_chromium() -> None:
    """Browser tests drive Debian's Chromium headless shell; Playwright cannot download its own here."""
    if CHROMIUM.exists() or os.environ.get("WEBEVAL_SKIP_BROWSER"):
        return
    _apt_install(
        "chromium-headless-shell",
        f"Chromium not found at {CHROMIUM}",
        "browser tests will be skipped",
        "WEBEVAL_SKIP_BROWSER",
    )


def ensure_postgresql() -> None:
    """The annotation store's tests also run against a throwaway PostgreSQL 15 server (Debian's)."""
    installed = (POSTGRES_BIN / "initdb").exists() or shutil.which("initdb")
    if installed or os.environ.get("WEBEVAL_SKIP_POSTGRES"):
        return
    _apt_install(
        "postgresql",
        "PostgreSQL's initdb not found",
        "the PostgreSQL store's tests will be skipped",
        "WEBEVAL_SKIP_POSTGRES",
    )


def _npm_install(package: str, tests: str) -> None:
    """`npm install PACKAGE` beside the checkout (`.node/`); without npm, or when it fails, say which
    tests will be skipped.
    """
    npm = shutil.which("npm")
    if npm is None:
        print(f"npm not found: the {tests} tests will be skipped.", flush=True)
        return
    try:
        _run(npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", NODE_PREFIX, package)
    except subprocess.CalledProcessError:
        print(f"npm could not install {package}: the {tests} tests will be skipped.", flush=True)


def ensure_azurite() -> None:
    """Remote-root tests read runs from Azurite; install it with npm beside the checkout when missing."""
    if (NODE_PREFIX / "node_modules" / ".bin" / "azurite-blob").exists() or shutil.which("azurite-blob"):
        return
    _npm_install(AZURITE, "remote-root (Azurite)")


def ensure_oidc_provider() -> None:
    """Sign-in tests sign in at a real OpenID Connect provider; install it with npm beside the checkout."""
    if (NODE_PREFIX / "node_modules" / "oidc-provider" / "package.json").exists():
        return
    _npm_install(OIDC_PROVIDER, "sign-in (OpenID Connect)")


def cmd_app(args: list[str]) -> int:
    """`dev.py app [ROOT] [webeval app options]`: the inspector on ROOT (default: sample_runs/);
    `--reload` reruns the app when its code changes (for working on it).
    """
    ensure_venv()
    root = [] if args and not args[0].startswith("-") else [str(ROOT / "sample_runs")]
    command = [str(BIN / "webeval"), "app", *root, *args]
    if os.name != "nt":
        # This process becomes `webeval app`: a stop signal (an IDE's stop button, a process manager)
        # reaches it, and it stops its Streamlit server before exiting; no parent is left to orphan it.
        os.chdir(ROOT)
        sys.stdout.flush()
        os.execv(command[0], command)
    return subprocess.call(command, cwd=ROOT)


QUICK = "not browser and not service and not slow"
"""The tests `dev.py test --quick` runs: none that starts Chromium, a service or many processes."""
WORKERS = ["-n", "auto"]
"""Tests share no server, port or folder (each worker starts its own services on free ports), so
pytest-xdist runs them on every core."""
SUITE_WORKERS = ["-n", str((os.cpu_count() or 1) + 1)]
"""The whole suite's tests outside tests/browser on one worker more than cores: its service tests
wait on servers (Azurite, a Dask cluster, PostgreSQL), and the extra worker fills those waits
(322 s -> 289 s on two cores, same CPU). The quick tests alone wait on nothing: one more worker
only adds its imports there (benchmarks/results/test_suite.txt)."""
BROWSER_WORKERS = [*WORKERS, "--dist", "loadfile"]
"""The browser tests on every core too, a file's tests on one worker: a module's server is started
once. A browser test mostly waits for a rerun, so two at once finish sooner than one after the
other (benchmarks/results/test_suite.txt)."""


def cmd_test(args: list[str]) -> int:
    """`dev.py test [--quick] [pytest args]`: lint, format check, types, layer contracts, then the
    tests: all of them (what CI runs), or with `--quick` those that start nothing (`QUICK`).
    """
    quick = "--quick" in args
    args = [a for a in args if a != "--quick"]
    ensure_venv()
    if not quick:
        ensure_chromium()
        ensure_postgresql()
        ensure_azurite()
        ensure_oidc_provider()
    pytest = [str(PYTHON), "-m", "pytest"]
    checks = [
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "ruff"), "format", "--check", "."],
        [str(BIN / "mypy")],
        [str(BIN / "lint-imports")],
    ]
    for step in checks:
        if code := _step(step):
            return code
    env = test_environment()
    # A quick run makes a service its tests start fail them (a missing mark). The whole suite runs
    # every test outside tests/browser first, then the browser tests.
    if quick:
        ran = [_step([*pytest, "-m", QUICK, *WORKERS, *args], {**env, "WEBEVAL_TEST_QUICK": "1"})]
    else:
        ran = [
            _step([*pytest, "-m", "not browser", *SUITE_WORKERS, *args], env),
            _step([*pytest, "-m", "browser", *BROWSER_WORKERS, *args], env),
        ]
    failed = [code for code in ran if code not in (0, NO_TESTS)]
    return failed[0] if failed else (NO_TESTS if all(code == NO_TESTS for code in ran) else 0)


PYCACHE = VENV / "pycache"
"""Where the tests' processes keep compiled modules (`PYTHONPYCACHEPREFIX`): out of the tree, and
gone with the virtualenv it was compiled for."""


def test_environment() -> dict[str, str]:
    """The tests' environment: compiled modules kept (`PYCACHE`) even where this shell asks for
    none (PYTHONDONTWRITEBYTECODE), so pytest rewrites a test file's asserts once, not at every
    run in every worker, and each of the hundreds of processes the tests start (the CLI, servers,
    index workers) loads the project compiled instead of compiling it again.
    """
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(PYCACHE)}


NO_TESTS = 5
"""pytest's exit code when a selection holds no test (`dev.py test tests/browser` has no quick one)."""


def _step(command: list[str], env: dict[str, str] | None = None) -> int:
    print("+", " ".join(command), flush=True)
    return subprocess.call(command, cwd=ROOT, env=env)


def main() -> int:
    """Dispatch `python3 dev.py COMMAND ...`; the exit code."""
    commands = {"app": cmd_app, "test": cmd_test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(
            "usage: python3 dev.py app [ROOT] | python3 dev.py test [--quick] [pytest args]", file=sys.stderr
        )
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
