"""The web_surfer.log excerpt shown as raw evidence: cut at a limit, bad bytes replaced, read only inside."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.builders import record_opens
from webeval_core.reading.logexcerpt import EXCERPT_BYTES, read_log_excerpt


def test_a_short_log_is_read_whole(tmp_path: Path) -> None:
    (tmp_path / "web_surfer.log").write_bytes(b"line 1\nbad \xff byte\n")
    excerpt = read_log_excerpt(tmp_path)
    assert excerpt is not None
    assert excerpt.text == "line 1\nbad \ufffd byte\n"
    assert (excerpt.limit, excerpt.truncated) == (EXCERPT_BYTES, False)


def test_a_long_log_is_cut_at_the_limit(tmp_path: Path) -> None:
    (tmp_path / "web_surfer.log").write_bytes(b"x" * 11)
    excerpt = read_log_excerpt(tmp_path, limit=10)
    assert excerpt is not None
    assert (excerpt.text, excerpt.truncated) == ("x" * 10, True)
    exact = read_log_excerpt(tmp_path, limit=11)
    assert exact is not None and not exact.truncated


def test_no_log_gives_none(tmp_path: Path) -> None:
    assert read_log_excerpt(tmp_path) is None
    (tmp_path / "web_surfer.log").mkdir()
    assert read_log_excerpt(tmp_path) is None


def test_a_log_leading_outside_the_folder_is_not_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    folder = tmp_path / "traj"
    folder.mkdir()
    (folder / "web_surfer.log").symlink_to(secret)
    opened = record_opens(monkeypatch)
    assert read_log_excerpt(folder) is None
    assert opened == []
