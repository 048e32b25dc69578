"""A real OpenID Connect provider on loopback for the sign-in tests (tests/harness/oidc_provider.mjs).

It is the npm package `oidc-provider`, which `python3 dev.py test` installs with npm beside the
checkout (`.node/`); where it or node is missing the tests that need it are skipped with the reason.
Its development login page signs anyone in: the login name typed is the subject, and the email is
that name when it holds an "@". The client secret and cookie secret are fresh random values each
run, so a test can grep logs and pages for them.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / ".node" / "node_modules" / "oidc-provider"
SCRIPT = Path(__file__).with_name("oidc_provider.mjs")
CLIENT_ID = "webeval-inspector"
START_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class OidcProvider:
    """A running provider with one client registered for one app."""

    issuer: str
    """Its base URL (http://127.0.0.1:PORT); the discovery document is under it."""
    client_secret: str
    """The registered client's secret (random per run)."""
    cookie_secret: str
    """The cookie secret the app is configured with (random per run)."""
    redirect_uri: str
    """The app's callback the client is registered for."""

    @property
    def metadata_url(self) -> str:
        """The discovery document Streamlit reads the endpoints and keys from."""
        return f"{self.issuer}/.well-known/openid-configuration"

    def secrets_toml(self) -> str:
        """The `[auth]` section of the app's secrets file for this provider.

        Streamlit asks for `prompt=select_account` unless told otherwise, a prompt this provider's
        development pages do not offer (it refuses the request): `login` is asked for instead.
        """
        return (
            "[auth]\n"
            f'redirect_uri = "{self.redirect_uri}"\n'
            f'cookie_secret = "{self.cookie_secret}"\n'
            f'client_id = "{CLIENT_ID}"\n'
            f'client_secret = "{self.client_secret}"\n'
            f'server_metadata_url = "{self.metadata_url}"\n'
            'client_kwargs = { prompt = "login" }\n'
        )


def require_provider() -> tuple[str, Path]:
    """node and the package's entry file, or skip with the reason."""
    node = shutil.which("node")
    entry = PACKAGE / "lib" / "index.js"
    if node is None or not entry.is_file():
        pytest.skip(
            "oidc-provider is not installed (npm package `oidc-provider`): `python3 dev.py test`"
            " installs it with npm into .node/; without node and npm the sign-in tests cannot run"
        )
    return node, entry


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_ready(process: subprocess.Popen[bytes], issuer: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"oidc-provider exited:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{issuer}/.well-known/openid-configuration", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"oidc-provider did not answer in {START_TIMEOUT_S:.0f} s")


@contextmanager
def running_provider(app_base_url: str, log: Path) -> Iterator[OidcProvider]:
    """The provider on a free loopback port, its client registered for the app at `app_base_url`."""
    from tests.conftest import refuse_in_quick_run

    refuse_in_quick_run("OpenID Connect provider")
    node, entry = require_provider()
    port = _free_port()
    provider = OidcProvider(
        issuer=f"http://127.0.0.1:{port}",
        client_secret=secrets.token_urlsafe(24),
        cookie_secret=secrets.token_urlsafe(24),
        redirect_uri=f"{app_base_url}/oauth2callback",
    )
    env = {
        **os.environ,
        "OIDC_MODULE": str(entry),
        "OIDC_PORT": str(port),
        "OIDC_CLIENT_ID": CLIENT_ID,
        "OIDC_CLIENT_SECRET": provider.client_secret,
        "OIDC_REDIRECT_URI": provider.redirect_uri,
        # Streamlit's st.logout sends its redirect URI as the place to come back to.
        "OIDC_POST_LOGOUT_URIS": f"{provider.redirect_uri} {app_base_url}/",
        "OIDC_COOKIE_KEY": secrets.token_urlsafe(24),
    }
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [node, str(SCRIPT)], env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        _wait_ready(process, provider.issuer, log)
        yield provider
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
