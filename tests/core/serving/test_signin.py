"""The sign-in file of `webeval app --auth`: what it must hold, said by key name and never by value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webeval_core.serving.signin import SignInFileError, check_auth_file

SECRET = "s3cr3t-value-never-shown"
COMPLETE = f"""[auth]
redirect_uri = "http://127.0.0.1:8501/oauth2callback"
cookie_secret = "{SECRET}-cookie"
client_id = "webeval"
client_secret = "{SECRET}"
server_metadata_url = "https://idp.example.org/.well-known/openid-configuration"
"""


def _file(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "auth.toml"
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def test_a_complete_private_file_passes(tmp_path: Path) -> None:
    assert check_auth_file(_file(tmp_path, COMPLETE)) is None


def test_the_provider_may_sit_in_a_named_table(tmp_path: Path) -> None:
    lines = COMPLETE.splitlines()
    text = "\n".join([*lines[:3], "[auth.team]", *lines[3:]])
    assert check_auth_file(_file(tmp_path, text)) is None


def test_a_file_others_may_read_is_warned_of(tmp_path: Path) -> None:
    warning = check_auth_file(_file(tmp_path, COMPLETE, 0o644))
    assert warning is not None and "chmod 600" in warning


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (COMPLETE.replace("client_secret", "secret_of_client"), "client_secret"),
        (COMPLETE.replace("cookie_secret", "cookie"), "cookie_secret"),
        ("[other]\n", "no [auth] section"),
        (COMPLETE.replace(f'client_secret = "{SECRET}"', f"client_secret = {SECRET}"), "not a TOML file"),
    ],
    ids=["provider key", "server key", "no section", "not toml"],
)
def test_a_file_that_cannot_be_used_is_named_without_its_values(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(SignInFileError, match=re.escape(said)) as caught:
        check_auth_file(_file(tmp_path, text))
    assert SECRET not in str(caught.value)


def test_the_usual_secrets_file_is_found_when_it_configures_a_provider(tmp_path: Path) -> None:
    from webeval_core.serving.signin import USUAL_SECRETS, usual_auth_file

    cwd, home = tmp_path / "work", tmp_path / "home"
    assert usual_auth_file(cwd, home) is None
    (home / USUAL_SECRETS).parent.mkdir(parents=True)
    (home / USUAL_SECRETS).write_text(COMPLETE, encoding="utf-8")
    assert usual_auth_file(cwd, home) == home / USUAL_SECRETS
    (cwd / USUAL_SECRETS).parent.mkdir(parents=True)
    (cwd / USUAL_SECRETS).write_text('api_key = "other secrets, no provider"\n', encoding="utf-8")
    assert usual_auth_file(cwd, home) == home / USUAL_SECRETS  # the working folder's has no [auth]
    (cwd / USUAL_SECRETS).write_text(COMPLETE, encoding="utf-8")
    assert usual_auth_file(cwd, home) == cwd / USUAL_SECRETS  # Streamlit's own order: cwd first


def test_a_session_ends_at_the_next_sign_out_of_its_identity_or_when_too_old() -> None:
    from datetime import UTC, datetime, timedelta

    from webeval_core.serving.signin import max_session_age, session_end

    now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    issued = (now - timedelta(hours=1)).timestamp()
    day = timedelta(hours=12)
    assert session_end(issued, now, None, day) is None
    assert session_end(issued, now, now - timedelta(minutes=5), day) is not None  # signed out since
    assert session_end(issued, now, now - timedelta(hours=2), day) is None  # signed in again after
    assert session_end(int(issued), now, datetime.fromtimestamp(int(issued), UTC), day) is None
    assert "12 h" in str(session_end((now - timedelta(hours=13)).timestamp(), now, None, day))
    assert "iat" in str(session_end(None, now, None, day))
    assert max_session_age({"WEBEVAL_SESSION_MAX_AGE": "0.5"}) == timedelta(minutes=30)
    assert max_session_age({"WEBEVAL_SESSION_MAX_AGE": "x"}) == timedelta(hours=12)
