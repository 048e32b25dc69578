"""The redactor: every kind of secret masked and counted where it was, nothing else touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webeval_core.presentation.redaction import MASK, Redactor, load_profile
from webeval_core.support.diagnostics import UnreadableError


def _har() -> dict[str, object]:
    login = {
        "method": "POST",
        "url": "http://localhost:7780/admin/login?form_key=abc123XYZ&page=2",
        "headers": [
            {"name": "Cookie", "value": "admin=opaque-cookie-value"},
            {"name": "Authorization", "value": "Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig"},
            {"name": "Accept", "value": "text/html"},
        ],
        "cookies": [{"name": "admin", "value": "opaque-cookie-value"}],
        "queryString": [{"name": "form_key", "value": "abc123XYZ"}, {"name": "page", "value": "2"}],
        "postData": {
            "mimeType": "application/x-www-form-urlencoded",
            "text": "login%5Busername%5D=admin&login%5Bpassword%5D=Sup3rS3cret%21",
            "params": [{"name": "login[password]", "value": "Sup3rS3cret!"}],
        },
    }
    response = {
        "status": 302,
        "headers": [{"name": "Set-Cookie", "value": "admin=new-session; path=/"}],
        "content": {
            "mimeType": "application/json",
            "text": json.dumps({"access_token": "tok-9f8e7d", "n": 3}),
        },
    }
    return {"log": {"version": "1.2", "entries": [{"request": login, "response": response}]}}


def test_a_har_keeps_its_shape_and_loses_its_secrets() -> None:
    redactor = Redactor()
    masked = redactor.har(_har(), "t: network.har")
    text = json.dumps(masked)
    for secret in (
        "opaque-cookie-value",
        "eyJhbGci",
        "abc123XYZ",
        "Sup3rS3cret",
        "new-session",
        "tok-9f8e7d",
    ):
        assert secret not in text, secret
    entry = masked["log"]["entries"][0]
    assert entry["request"]["headers"][2] == {"name": "Accept", "value": "text/html"}
    assert "page=2" in entry["request"]["url"] and entry["request"]["method"] == "POST"
    assert json.loads(entry["response"]["content"]["text"])["n"] == 3
    kinds = redactor.report().by_kind()
    assert kinds["header"] == 4 and kinds["query"] == 2 and kinds["body"] >= 3


def test_a_password_sent_is_masked_where_it_was_typed_and_repeated() -> None:
    redactor = Redactor()
    redactor.learn_har(_har())
    typed = redactor.text('{"action": "type", "text": "Sup3rS3cret!"}', "t: web_surfer.log")
    assert typed is not None and "Sup3rS3cret!" not in typed and MASK in typed
    assert redactor.report().by_kind() == {"typed password": 1}


def test_free_text_loses_addresses_and_tokens_but_keeps_codes() -> None:
    redactor = Redactor()
    said = redactor.text(
        "Mail ann.lee@example.com; api_key=AKIA12345678 and Authorization: Bearer abcdefgh12345678;"
        " error code: 4.2, see http://x.test/cb?code=oauthcode1&q=shoes",
        "t: core.log",
    )
    assert said is not None
    for secret in ("ann.lee@example.com", "AKIA12345678", "abcdefgh12345678", "oauthcode1"):
        assert secret not in said, secret
    assert "error code: 4.2" in said and "q=shoes" in said
    assert redactor.value({"error_code": "1.2", "sort_key": "date", "key": "k-123"}, "t") == {
        "error_code": "1.2",
        "sort_key": "date",
        "key": MASK,
    }


def test_a_user_profile_adds_names_and_patterns(tmp_path: Path) -> None:
    profile = tmp_path / "team.toml"
    profile.write_text('names = ["Acme Corp"]\npatterns = ["EMP-\\\\d{5}"]\nemails = false\n')
    redactor = Redactor(load_profile(profile))
    said = redactor.text("ACME corp employee EMP-12345 wrote to bob@example.com", "t")
    assert said == f"{MASK} employee {MASK} wrote to bob@example.com"
    assert redactor.report().by_kind() == {"name": 1, "pattern": 1}
    (tmp_path / "bad.toml").write_text('patterns = ["(unclosed"]\n')
    with pytest.raises(UnreadableError, match="not a redaction profile"):
        load_profile(tmp_path / "bad.toml")


def test_no_redact_changes_nothing_and_says_so() -> None:
    redactor = Redactor(None)
    assert redactor.text("ann@example.com token=abcdef", "t") == "ann@example.com token=abcdef"
    assert redactor.har(_har(), "t") == _har()
    assert redactor.report().summary().startswith("not redacted (--no-redact)")
