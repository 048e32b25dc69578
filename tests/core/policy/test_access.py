"""The access policy: the host rule of `webeval app`, the policy read from the environment, and the
core's write paths (score files, the annotation store) refusing under a read-only policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webeval_core.policy.access import (
    READ_ONLY_ENV,
    ROLES_ENV,
    SIGN_IN_ENV,
    AccessPolicy,
    Role,
    RolesFileError,
    Write,
    WriteRefusedError,
    acting_as,
    current_policy,
    is_loopback,
    load_roles,
    serves_read_only,
)
from webeval_core.review import Annotation
from webeval_core.review.annotation_db import StoreError, open_store
from webeval_core.review.annotations import Shown
from webeval_core.runs.viewing import OUTSIDE_REVIEW


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST", "::1", "[::1]"])
def test_loopback_hosts_are_private(host: str) -> None:
    assert is_loopback(host)
    assert not serves_read_only(host, read_only=False, writable=False)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "inspector.example.org"])
def test_a_host_beyond_loopback_is_read_only_unless_writable_or_signed_in(host: str) -> None:
    assert not is_loopback(host)
    assert serves_read_only(host, read_only=False, writable=False)
    assert not serves_read_only(host, read_only=False, writable=True)
    assert not serves_read_only(host, read_only=False, writable=False, sign_in=True)


def test_read_only_asked_for_wins_everywhere() -> None:
    assert serves_read_only("127.0.0.1", read_only=True, writable=False)
    assert serves_read_only("0.0.0.0", read_only=True, writable=False, sign_in=True)


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("0", False), ("", False), ("yes", False)])
def test_the_policy_comes_from_the_environment(value: str, expected: bool) -> None:
    assert current_policy({READ_ONLY_ENV: value}).read_only is expected
    assert current_policy({}).read_only is False


def test_a_read_only_policy_refuses_every_write_and_says_why() -> None:
    policy = AccessPolicy(read_only=True)
    for write in Write:
        with pytest.raises(WriteRefusedError, match=f"This server is read-only: no {write.value} is written"):
            policy.check(write)
    AccessPolicy().check(Write.SCORE)  # the default writes


def _annotation() -> Annotation:
    from datetime import UTC, datetime

    return Annotation(
        run="run",
        task_id="1",
        reviewer="ann",
        stage="informed",
        outcome="success",
        justification="",
        created=datetime(2026, 1, 1, tzinfo=UTC),
    )


def test_a_read_only_store_creates_no_file_and_refuses_writes(tmp_path: Path) -> None:
    location = tmp_path / "data" / "annotations.sqlite"
    store = open_store(str(location), AccessPolicy(read_only=True))
    assert store.annotations(OUTSIDE_REVIEW) == []
    with pytest.raises(StoreError, match="read-only"):
        store.add(_annotation())
    with pytest.raises(StoreError, match="read-only"):
        store.add_record("queue", "{}")
    with pytest.raises(StoreError, match="read-only"):
        store.note_shown([("run", "1")], "ann", Shown.VERDICT)
    with pytest.raises(StoreError, match="read-only"):
        store.rename_run("a", "b", ["1"])
    assert not (tmp_path / "data").exists()


def test_a_read_only_store_reads_an_existing_file_and_leaves_its_bytes(tmp_path: Path) -> None:
    location = str(tmp_path / "annotations.sqlite")
    writable = open_store(location, AccessPolicy())
    writable.add(_annotation())
    writable.close()
    before = Path(location).read_bytes()
    store = open_store(location, AccessPolicy(read_only=True))
    assert [a.reviewer for a in store.annotations(OUTSIDE_REVIEW)] == ["ann"]
    with pytest.raises(WriteRefusedError):
        store.add(_annotation().model_copy(update={"reviewer": "bob"}))
    store.close()
    assert Path(location).read_bytes() == before


def test_a_read_only_process_writes_no_score_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.conftest import SAMPLE_RUNS, private_copy
    from tests.harness.builders import snapshot
    from webeval_core.runs.discovery import iter_trajectory_dirs
    from webeval_core.scoring import score_trajectory

    first = next(iter(iter_trajectory_dirs(SAMPLE_RUNS)))
    folder = private_copy(first, tmp_path / first.name)
    before = snapshot(folder)
    monkeypatch.setenv(READ_ONLY_ENV, "1")
    outcome = score_trajectory(folder, force=True)
    assert outcome.status == "error"
    assert "This server is read-only: no score file is written" in (outcome.reason or "")
    assert snapshot(folder) == before


ROLES_TOML = """
[roles]
"Ann@Example.org" = "reviewer"
"judge@example.org" = "adjudicator"
"ops@example.org" = "operator"
"viewer@example.org" = "viewer"
"""


@pytest.fixture
def roles_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A roles file named by the environment, as `webeval app --roles FILE` hands it to its server."""
    path = tmp_path / "roles.toml"
    path.write_text(ROLES_TOML, encoding="utf-8")
    monkeypatch.setenv(ROLES_ENV, str(path))
    monkeypatch.delenv(READ_ONLY_ENV, raising=False)
    return path


def test_roles_come_from_a_toml_file_and_anyone_unnamed_is_a_viewer(roles_file: Path) -> None:
    roles = load_roles(roles_file)
    assert roles.role_of("ann@example.org") is Role.REVIEWER  # case-insensitive
    assert roles.role_of(" OPS@example.org ") is Role.OPERATOR
    assert roles.role_of("someone@example.org") is Role.VIEWER
    assert roles.role_of("") is Role.VIEWER


@pytest.mark.parametrize(
    "text", ['[roles]\n"ann" = "admin"\n', "[roles\n", '[roles]\n"ann" = 3\n'], ids=["role", "toml", "type"]
)
def test_a_roles_file_that_is_not_one_is_refused_with_its_name(tmp_path: Path, text: str) -> None:
    path = tmp_path / "roles.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RolesFileError, match=r"roles\.toml"):
        load_roles(path)


@pytest.mark.parametrize(
    ("who", "allowed"),
    [
        # Anyone signed in may record their own sign-out (it ends their other sessions).
        ("", {Write.SIGN_OUT}),
        ("viewer@example.org", {Write.SIGN_OUT}),
        ("ann@example.org", {Write.ANNOTATION, Write.SHOWN, Write.QUEUE, Write.SIGN_OUT}),
        (
            "judge@example.org",
            {
                Write.ANNOTATION,
                Write.SHOWN,
                Write.QUEUE,
                Write.CORRECTION,
                Write.RECORD,
                Write.SIGN_OUT,
                Write.VERDICT_EDIT,
                Write.EXCLUSION,
            },
        ),
        ("ops@example.org", set(Write)),
    ],
)
def test_each_role_writes_what_it_may_and_no_more(roles_file: Path, who: str, allowed: set[Write]) -> None:
    with acting_as(who):
        policy = current_policy()
    assert {write for write in Write if policy.refusal(write) is None} == allowed


def test_a_refusal_by_role_is_refused_in_the_store_and_logged_with_who_and_what(
    roles_file: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from webeval_core.review import ReviewQueue, Stage, save_queue
    from webeval_core.review.corrections import CorrectionKind, TaskCorrection, save_correction
    from webeval_core.runs.trajectory_filter import TrajectoryFilter

    store = open_store(str(tmp_path / "annotations.sqlite"))
    correction = TaskCorrection(task_id=108, kind=CorrectionKind.AMBIGUOUS, reason="unclear", reviewer="ann")
    with acting_as("ann@example.org"):
        assert store.add(_annotation().model_copy(update={"reviewer": "ann@example.org"}))
        save_queue(store, ReviewQueue(name="q", stage=Stage.INFORMED, criteria=TrajectoryFilter()))
        with (
            caplog.at_level("WARNING", logger="webeval.access"),
            pytest.raises(StoreError, match="adjudicator"),
        ):
            save_correction(store, correction)
    assert "'ann@example.org' tried to write a task correction" in caplog.text
    with pytest.raises(StoreError, match="nobody named is a viewer here"):
        store.add(_annotation())  # nobody acting: a viewer
    with acting_as("judge@example.org"):
        save_correction(store, correction)
    assert [a.reviewer for a in store.annotations(OUTSIDE_REVIEW)] == ["ann@example.org"]


def test_a_read_only_server_ignores_roles(roles_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(READ_ONLY_ENV, "1")
    with acting_as("ops@example.org"):
        assert current_policy().refusal(Write.SCORE) == "This server is read-only: no score file is written."


def test_with_sign_in_every_write_needs_a_verified_identity(
    roles_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SIGN_IN_ENV, "1")
    with acting_as("ops@example.org"):  # typed, not verified: whatever the roles file says
        typed = current_policy()
    with acting_as("ops@example.org", verified=True):
        verified = current_policy()
    assert typed.sign_in and typed.signed_in is None
    assert (
        typed.refusal(Write.ANNOTATION) == "Sign in first: an annotation is written only by a signed-in user."
    )
    assert verified.signed_in == "ops@example.org"
    assert {write for write in Write if verified.refusal(write) is None} == set(Write)
    with acting_as("stranger@example.org", verified=True):
        assert current_policy().refusal(Write.ANNOTATION) == (
            "stranger@example.org is a viewer here: an annotation needs the reviewer role."
        )


def test_a_signed_in_user_writes_under_no_other_name(caplog: pytest.LogCaptureFixture) -> None:
    policy = AccessPolicy(sign_in=True).as_user("Ann@Example.org", verified=True)
    policy.check_author(Write.ANNOTATION, "ann@example.org")  # the same person, any case
    with caplog.at_level("WARNING", logger="webeval.access"), pytest.raises(WriteRefusedError, match="'bob'"):
        policy.check_author(Write.ANNOTATION, "bob")
    assert "'Ann@Example.org' (signed in) tried to write an annotation" in caplog.text
    AccessPolicy().as_user("ann").check_author(Write.ANNOTATION, "bob")  # without sign-in: a typed name


def test_a_signed_in_score_is_recorded_beside_the_score_file_whose_bytes_do_not_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.conftest import SAMPLE_RUNS, private_copy
    from webeval_core.runs.discovery import iter_trajectory_dirs
    from webeval_core.scoring import score_trajectory
    from webeval_core.scoring.score_writer import WRITERS_FILE

    first = next(iter(iter_trajectory_dirs(SAMPLE_RUNS)))
    anonymous = private_copy(first, tmp_path / "anonymous")
    signed = private_copy(first, tmp_path / "signed")
    monkeypatch.delenv(READ_ONLY_ENV, raising=False)
    score_trajectory(anonymous, force=True)
    monkeypatch.setenv(SIGN_IN_ENV, "1")
    with acting_as("ops@example.org", verified=True):
        outcome = score_trajectory(signed, force=True)
    assert outcome.status != "error", outcome.reason
    assert not (anonymous / "scores" / WRITERS_FILE).exists()
    written = outcome.score_file
    assert written is not None
    assert written.read_bytes() == (anonymous / "scores" / written.name).read_bytes()
    (line,) = (signed / "scores" / WRITERS_FILE).read_text().splitlines()
    record = json.loads(line)
    assert (record["file"], record["signed_in"]) == (written.name, "ops@example.org")
    with acting_as("ops@example.org"):  # typed: refused, nothing recorded
        assert score_trajectory(signed, force=True).status == "error"
    assert len((signed / "scores" / WRITERS_FILE).read_text().splitlines()) == 1
