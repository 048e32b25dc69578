"""Safe reads of a trajectory folder's files: paths stay inside, bad bytes become warnings."""

from __future__ import annotations

from pathlib import Path

from webeval_core.reading.folderfiles import decode_text, read_json_file, resolve_inside


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
