"""Sign-in in the app (WEBEVAL_SIGN_IN=1): a visitor not signed in sees only the prompt; a signed-in
user is the reviewer whatever a link says, sees their role and "Sign out", and saves as themselves.
The provider round trip itself is tested in Chromium (tests/browser/test_sign_in_browser.py).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP
from tests.conftest import Sample
from webeval_core.policy.access import READ_ONLY_ENV, ROLES_ENV, SIGN_IN_ENV, AccessPolicy, acting_as
from webeval_core.review import OFFICIAL, judge_verdicts, open_store
from webeval_core.runs.index import build_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_ui.state import Key, label_key, review_field_key
from webeval_ui.untrusted import inert

TRAJECTORY = "pages/trajectory.py"


@pytest.fixture
def signed_in_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sample: Sample) -> Path:
    """A server with sign-in and a roles file (ann reviews); the store's file."""
    roles = tmp_path / "roles.toml"
    roles.write_text('[roles]\n"ann@example.org" = "reviewer"\n', encoding="utf-8")
    location = tmp_path / "annotations.sqlite"
    for name, value in {
        SIGN_IN_ENV: "1",
        ROLES_ENV: str(roles),
        READ_ONLY_ENV: "0",
        "WEBEVAL_ANNOTATIONS": str(location),
        "WEBEVAL_ROOT": str(sample.root),
    }.items():
        monkeypatch.setenv(name, value)
    return location


def _run(user: dict[str, Any], page: str | None = None, **query: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    # A signed-in user's claims, as the provider's ID token gives them: when it was issued, too.
    at.user = {"iat": int(time.time()), **user} if user.get("is_logged_in") else user
    for key, value in query.items():
        at.query_params[key] = value
    if page is not None:
        at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _item(sample: Sample) -> tuple[str, str]:
    judged = judge_verdicts(build_index(sample.root))
    return min(item for item, verdicts in judged.items() if OFFICIAL in verdicts)


def test_a_visitor_not_signed_in_sees_only_the_sign_in_prompt(signed_in_server: Path, sample: Sample) -> None:
    run, task = _item(sample)
    at = _run({"is_logged_in": False}, TRAJECTORY, run=run, task=task, reviewer="ann@example.org")
    assert [b.label for b in at.button] == ["Sign in"]
    assert "This server signs its users in" in " ".join(m.value for m in at.markdown)
    assert not at.sidebar.text_input  # no reviewer box, no root picker: nothing but the prompt
    assert not signed_in_server.exists()


def test_the_signed_in_identity_is_the_reviewer_whatever_a_link_names(
    signed_in_server: Path, sample: Sample
) -> None:
    run, task = _item(sample)
    user = {"is_logged_in": True, "email": "ann@example.org", "sub": "ann"}
    at = _run(user, TRAJECTORY, run=run, task=task, tab="Annotate", reviewer="mallory")
    sidebar = " ".join(c.value for c in at.sidebar.caption)
    assert f"**{inert('ann@example.org')}** (signed in)" in sidebar and "Role: reviewer" in sidebar
    assert "mallory" not in sidebar and "reviewer" not in at.query_params
    assert Key.SIGN_OUT in {b.key for b in at.sidebar.button}
    at.button(key=label_key(review_field_key(Key.REVIEW_OUTCOME, run, task), "failure")).click().run()
    at.button(key=Key.REVIEW_SAVE).click().run()
    assert not at.exception, [e.value for e in at.exception]
    store = open_store(str(signed_in_server), AccessPolicy(read_only=True))
    assert [(a.reviewer, a.signed_in) for a in store.annotations(OUTSIDE_REVIEW)] == [
        ("ann@example.org", "ann@example.org")
    ]
    store.close()


def test_a_user_the_roles_file_does_not_name_is_a_viewer_and_the_subject_names_one_without_email(
    signed_in_server: Path, sample: Sample
) -> None:
    run, task = _item(sample)
    at = _run({"is_logged_in": True, "sub": "user-42"}, TRAJECTORY, run=run, task=task, tab="Annotate")
    assert "Role: viewer" in " ".join(c.value for c in at.sidebar.caption)
    assert Key.REVIEW_SAVE not in {b.key for b in at.button}
    assert inert("user-42 is a viewer here") in " ".join(c.value for c in at.caption)


def test_a_sign_in_older_than_the_last_sign_out_or_the_maximum_age_is_signed_out(
    signed_in_server: Path,
) -> None:
    """The rule as each request meets it (the browser journey: tests/browser/test_sign_in_browser.py)."""
    user = {"is_logged_in": True, "email": "ann@example.org", "sub": "ann"}
    assert "(signed in)" in " ".join(c.value for c in _run(user).sidebar.caption)
    too_old = _run({**user, "iat": int(time.time()) - 13 * 3600})
    assert [b.label for b in too_old.button] == ["Sign in"]
    hour_ago = {**user, "iat": int(time.time()) - 3600}
    with acting_as("ann@example.org", verified=True):
        open_store(str(signed_in_server)).record_sign_out("ANN@example.org", datetime.now(UTC))
    assert [b.label for b in _run(hour_ago).button] == ["Sign in"]
    assert "(signed in)" in " ".join(c.value for c in _run(user).sidebar.caption)  # signed in since
