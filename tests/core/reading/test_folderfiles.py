"""Safe reads of a trajectory folder's files: paths stay inside, bad bytes become warnings."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from webeval_core.reading.folderfiles import (
    NotReadableFileError,
    decode_text,
    read_file,
    read_head,
    read_json_file,
    resolve_inside,
)


def test_resolve_inside(tmp_path: Path) -> None:
    folder = tmp_path / "traj"
    folder.mkdir()
    (folder / "a.png").write_bytes(b"x")
    (folder / "loop").symlink_to(folder / "loop")
    assert resolve_inside(folder, "a.png") == (folder / "a.png").resolve()
    assert resolve_inside(folder, str(folder / "a.png")) == (folder / "a.png").resolve()
    assert resolve_inside(folder, "sub/../a.png") == (folder / "a.png").resolve()
    assert resolve_inside(folder, "../traj/a.png") == (folder / "a.png").resolve()
    assert resolve_inside(folder, "../other.png") is None
    assert resolve_inside(folder, "/etc/passwd") is None
    assert resolve_inside(folder, "loop") is None


def test_decode_text_replaces_bad_bytes_and_names_the_line() -> None:
    text, problems = decode_text(b"fine\nalso fine\nbad \xff\xfe here\nok\n", "web_surfer.log")
    assert text.split("\n")[2] == "bad \ufffd\ufffd here"
    assert [(p.file, p.line) for p in problems] == [("web_surfer.log", 3)]
    assert problems[0].message == "invalid UTF-8 bytes on 1 line(s) replaced with U+FFFD"


def test_read_json_file_reports_empty_and_invalid_files(tmp_path: Path) -> None:
    (tmp_path / "empty.json").write_text("  \n")
    (tmp_path / "bad.json").write_text('{\n  "a": 1,\n  "b": \n}')
    (tmp_path / "good.json").write_text('{"a": [1, 2]}')
    assert read_json_file(tmp_path / "good.json", "good.json") == ({"a": [1, 2]}, [])
    value, problems = read_json_file(tmp_path / "empty.json", "empty.json")
    assert value is None
    assert [str(p) for p in problems] == ["empty.json: is empty"]
    value, problems = read_json_file(tmp_path / "bad.json", "bad.json")
    assert value is None
    assert [(p.line, p.message) for p in problems] == [(4, "is not valid JSON (Expecting value)")]
    value, problems = read_json_file(tmp_path / "none.json", "none.json")
    assert value is None
    assert problems[0].message.startswith("cannot be read")


def test_read_json_file_survives_a_bom_and_absurd_nesting(tmp_path: Path) -> None:
    (tmp_path / "bom.json").write_bytes(b'\xef\xbb\xbf{"a": 1}')
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    assert read_json_file(tmp_path / "bom.json", "bom.json") == ({"a": 1}, [])
    value, problems = read_json_file(tmp_path / "deep.json", "deep.json")
    assert value is None
    assert [str(p) for p in problems] == ["deep.json: is nested too deeply to read"]


@pytest.fixture
def no_hang() -> Iterator[None]:
    """Fail, instead of waiting forever, if a test opens a FIFO for reading."""

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("a read blocked: a FIFO was opened")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(5)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_special_files_are_refused_without_blocking(tmp_path: Path, no_hang: None) -> None:
    os.mkfifo(tmp_path / "web_surfer.log")
    (tmp_path / "folder").mkdir()
    (tmp_path / "real.json").write_text("{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    reasons = {}
    for name in ("web_surfer.log", "folder", "link.json"):
        with pytest.raises(NotReadableFileError) as caught:
            read_file(tmp_path / name)
        reasons[name] = caught.value.reason
    with pytest.raises(NotReadableFileError) as device:
        read_file("/dev/zero", 10)
    assert reasons == {
        "web_surfer.log": "is a FIFO, not a regular file; not opened",
        "folder": "is a folder, not a regular file; not opened",
        "link.json": "is a symlink; not followed",
    }
    assert device.value.reason == "is a character device, not a regular file; not opened"
    value, problems = read_json_file(tmp_path / "web_surfer.log", "times.json")
    assert value is None and [str(p) for p in problems] == [
        "times.json: is a FIFO, not a regular file; not opened"
    ]
    assert read_file(tmp_path / "real.json") == b"{}"


def test_huge_files_are_read_only_up_to_a_limit(tmp_path: Path) -> None:
    huge = tmp_path / "network.har"
    with huge.open("wb") as handle:  # sparse: 10 GB on paper, nothing on disk
        handle.write(b'{"log": ')
        handle.truncate(10 * 1024**3)
    head, size = read_head(huge, 8)
    assert (head, size) == (b'{"log": ', 10 * 1024**3)
    with pytest.raises(NotReadableFileError) as caught:
        read_file(huge)
    assert caught.value.reason == "is 10.0 GB, more than 256.0 MB; not read"
    assert read_file(huge, 4) == b'{"lo'


def test_numbers_json_cannot_carry_become_null_with_their_field(tmp_path: Path) -> None:
    (tmp_path / "times.json").write_text('{"start_time": NaN, "end": [1, Infinity], "big": 1e999, "ok": 1.5}')
    value, problems = read_json_file(tmp_path / "times.json", "times.json")
    assert value == {"start_time": None, "end": [1, None], "big": None, "ok": 1.5}
    assert [str(p) for p in problems] == [
        "times.json: not a finite number, read as null: big (1e999), end[1] (Infinity), start_time (NaN)"
    ]
    assert json.dumps(value, allow_nan=False)


def test_an_integer_beyond_the_digit_limit_is_a_reason_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"n": ' + "9" * 5000 + "}")
    value, problems = read_json_file(tmp_path / "a.json", "a.json")
    assert value is None
    assert problems[0].message.startswith("cannot be read as JSON (Exceeds the limit (4300 digits)")


def test_resolve_inside_refuses_nul_bytes_and_overlong_names(tmp_path: Path) -> None:
    assert resolve_inside(tmp_path, "a\x00b.png") is None
    assert resolve_inside(tmp_path, "x" * 6000 + ".png") in (None, tmp_path.resolve() / ("x" * 6000 + ".png"))
