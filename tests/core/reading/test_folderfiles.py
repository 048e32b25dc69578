"""Safe reads of a trajectory folder's files: paths stay inside, bad bytes become warnings."""

from __future__ import annotations

import json
import math
import os
import random
import signal
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from webeval_core.reading.folderfiles import (
    UNDECIDED,
    NotReadableFileError,
    decode_text,
    fast_loads,
    read_file,
    read_head,
    read_json_file,
    read_listed,
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


@pytest.mark.parametrize("size", [0, 1, 65_535, 65_536, 65_537, 3 * 1024 * 1024 + 7])
def test_a_listed_file_is_read_whole_up_to_its_limit(tmp_path: Path, size: int) -> None:
    data = random.Random(size).randbytes(size)
    (tmp_path / "web_surfer.log").write_bytes(data)
    path = str(tmp_path / "web_surfer.log")
    assert read_listed(path, size) == data  # exactly at the limit
    assert read_listed(path, size + 100) == data
    if size:
        with pytest.raises(NotReadableFileError) as caught:
            read_listed(path, size - 1)
        assert caught.value.path == path and "holds more than" in caught.value.reason


def test_a_listed_file_is_never_followed_nor_blocks(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_bytes(b"{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(OSError, match="Too many levels of symbolic links"):  # O_NOFOLLOW's ELOOP
        read_listed(str(tmp_path / "link.json"), 100)
    # A FIFO swapped in after the listing opens and reads as empty, without blocking: the quick
    # summary's listing declines such a folder, and an empty file is no JSON.
    assert read_listed(str(tmp_path / "fifo.json"), 100) == b""
    with pytest.raises(IsADirectoryError):
        read_listed(str(tmp_path), 100)


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


def _same(a: object, b: object) -> bool:
    """Equal and of the same types all the way down, dict keys in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


_TRICKY = [
    '{"a": 1, "a": 2, "b": [1, 2]}',
    '"\\ud800"',
    '"\\udc00\\ud800"',
    '"\\ud83d\\ude00 \\u00e9 \\u0000"',
    "1e400",
    "-1e400",
    "1" + "0" * 400 + ".0",
    "[1.5e-400, -0.0, 0.1, 1.7976931348623157e308]",
    "18446744073709551616",
    "-9223372036854775809",
    "9223372036854775807",
    '{"n": 123456789012345678901234567890}',
    '{"id": "d65275660814663375028e9017e1f929"}',
    "NaN",
    '{"x": Infinity}',
    '{"a": 1} trailing',
    "[" * 1100 + "]" * 1100,
    '"tab\tinside"',
    "\ufeff{}",
    "[1,]",
    "01",
    ' \n {"a": [true, false, null]} \r\n',
    '"\u2028\u2029"',
]


@pytest.mark.parametrize("text", _TRICKY)
def test_fast_loads_reads_as_json_does_or_leaves_it_to_json(text: str) -> None:
    try:
        expected: object = json.loads(text)
    except (ValueError, RecursionError):
        expected = UNDECIDED
    for given in (text, text.encode("utf-8", "surrogatepass")):
        got = fast_loads(given)
        assert got is UNDECIDED or _same(got, expected), (text[:60], got)


def test_fast_loads_takes_the_common_texts_and_leaves_long_integers() -> None:
    assert fast_loads('{"engine": {"data_checksum": "d65275660814663375028e9017e1f929"}}') is not UNDECIDED
    assert fast_loads('{"n": 12345678901234567890}') is UNDECIDED
    # Past 64 bits orjson makes a float: what `long_numbers=False` accepts when numbers do not matter.
    assert fast_loads('{"n": 123456789012345678901234}', long_numbers=False) == {"n": 1.2345678901234568e23}
    assert fast_loads("[1e400]") is UNDECIDED and fast_loads("NaN") is UNDECIDED


def _text(rng: random.Random) -> str:
    return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0xD7FF)])) for _ in range(8))


def _document(rng: random.Random, depth: int = 0) -> object:
    makers = [
        lambda: rng.choice([None, True, False]),
        lambda: rng.randint(-(10 ** rng.randrange(1, 25)), 10 ** rng.randrange(1, 25)),
        lambda: rng.uniform(-1, 1) * 10 ** rng.randrange(-320, 308),
        lambda: struct.unpack("d", rng.randbytes(8))[0],  # any double: subnormals, inf and nan too
        lambda: _text(rng),
    ]
    if depth < 4:
        makers += [
            lambda: [_document(rng, depth + 1) for _ in range(rng.randrange(4))],
            lambda: {f"k{rng.randrange(5)}": _document(rng, depth + 1) for _ in range(rng.randrange(4))},
        ]
    return rng.choice(makers)()


def test_fast_loads_equals_json_on_random_documents() -> None:
    rng = random.Random(12)
    decided = 0
    for _ in range(3000):
        text = json.dumps(_document(rng), ensure_ascii=rng.random() < 0.5)
        got = fast_loads(text)
        decided += got is not UNDECIDED
        assert got is UNDECIDED or _same(got, json.loads(text)), text[:200]
    assert decided > 1500  # most are taken by orjson: the test compares something


def test_a_lone_surrogate_escape_reads_as_the_replacement_character_with_a_warning(tmp_path: Path) -> None:
    """`json` reads "\\ud800" alone into text no page, index or score file can hold in UTF-8."""
    path = tmp_path / "answer.json"
    path.write_text(
        '{"final_answer": "Half \\ud800 Dome", "pair": "\\ud83d\\ude00", "k\\udfffey": ["\\udc00", 1]}'
    )
    value, problems = read_json_file(path, "answer.json")
    assert value == {"final_answer": "Half \ufffd Dome", "pair": "\U0001f600", "k\ufffdey": ["\ufffd", 1]}
    (problem,) = problems
    assert problem.file == "answer.json"
    assert problem.message == (
        "text that is not Unicode (a lone surrogate escape), shown as U+FFFD:"
        " final_answer, k\ufffdey, k\ufffdey[0]"
    )
    json.dumps(value).encode()  # every text is now valid Unicode
    path.write_text('{"pair": "\\ud83d\\ude00", "escaped": "\\\\ud800"}')  # a pair, and a backslash
    assert read_json_file(path, "answer.json") == ({"pair": "\U0001f600", "escaped": "\\ud800"}, [])
