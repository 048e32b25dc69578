"""Screenshot discovery (both namings), safe paths, PNG headers and coordinate scaling."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.builders import png_bytes, record_opens, write_screenshots
from webeval_core.reading.coordinates import MODEL_SIZE, Scaling
from webeval_core.reading.folderfiles import read_file
from webeval_core.reading.screenshots import discover_screenshots, png_size


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    return record_opens(monkeypatch)


def test_png_size_reads_the_header(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(png_bytes(1440, 900))
    (tmp_path / "b.png").write_bytes(png_bytes(2880, 1800))
    (tmp_path / "c.png").write_bytes(b"GIF89a not a png at all")
    (tmp_path / "d.png").write_bytes(png_bytes()[:20])
    assert png_size(tmp_path / "a.png") == (1440, 900)
    assert png_size(tmp_path / "b.png") == (2880, 1800)
    assert png_size(tmp_path / "c.png") is None
    assert png_size(tmp_path / "d.png") is None
    assert png_size(tmp_path / "missing.png") is None


def test_scaling_maps_model_space_to_png_pixels() -> None:
    scaling = Scaling(model_width=MODEL_SIZE[0], model_height=MODEL_SIZE[1], png_width=1440, png_height=900)
    point = scaling.to_png(734, 82)
    assert point.x == pytest.approx(740.168, abs=1e-3)
    assert point.y == pytest.approx(82.366, abs=1e-3)
    assert str(scaling) == "model 1428x896 -> PNG 1440x900"


def test_fara_naming_puts_action_k_on_screenshot_k_minus_1(tmp_path: Path) -> None:
    write_screenshots(tmp_path, 3, "fara")
    found, problems = discover_screenshots(tmp_path)
    assert problems == []
    assert found.naming == "fara"
    assert [f.name for f in found.frames] == [f"screenshot{i}.png" for i in range(4)]
    frames = found.frames_for_actions(3)
    assert [f.name if f else None for f in frames] == [
        "screenshot0.png",
        "screenshot1.png",
        "screenshot2.png",
    ]


def test_solver_naming_puts_action_k_on_screenshot_k(tmp_path: Path) -> None:
    write_screenshots(tmp_path, 3, "solver")
    found, problems = discover_screenshots(tmp_path)
    assert problems == []
    assert found.naming == "solver"
    frames = found.frames_for_actions(4)
    assert [f.name if f else None for f in frames] == [
        "screenshot_1.png",
        "screenshot_2.png",
        "screenshot_3.png",
        None,
    ]


def test_frames_sort_numerically_and_gaps_stay_gaps(tmp_path: Path) -> None:
    for n in (0, 1, 2, 10):
        (tmp_path / f"screenshot{n}.png").write_bytes(png_bytes())
    found, _ = discover_screenshots(tmp_path)
    assert [f.number for f in found.frames] == [0, 1, 2, 10]
    assert [f.name if f else None for f in found.frames_for_actions(4)] == [
        "screenshot0.png",
        "screenshot1.png",
        "screenshot2.png",
        None,
    ]


def test_symlinks_between_the_namings_are_fine(tmp_path: Path) -> None:
    write_screenshots(tmp_path, 2, "fara")
    for n in (1, 2):
        (tmp_path / f"screenshot_{n}.png").symlink_to(f"screenshot{n}.png")
    found, problems = discover_screenshots(tmp_path)
    assert problems == []
    assert found.naming == "fara"
    assert len(found.frames) == 3


def test_distinct_files_under_both_namings_are_reported(tmp_path: Path) -> None:
    write_screenshots(tmp_path, 2, "fara")
    write_screenshots(tmp_path, 2, "solver")
    found, problems = discover_screenshots(tmp_path)
    assert found.naming == "fara"
    assert len(problems) == 1
    assert "both screenshot namings" in problems[0].message
    assert "screenshot_1.png, screenshot_2.png" in problems[0].message


def test_a_file_that_is_not_a_png_is_skipped_with_a_warning(tmp_path: Path) -> None:
    write_screenshots(tmp_path, 2, "fara")
    (tmp_path / "screenshot1.png").write_bytes(b"<html>error page</html>")
    found, problems = discover_screenshots(tmp_path)
    assert [f.name for f in found.frames] == ["screenshot0.png", "screenshot2.png"]
    assert [(p.file, p.message) for p in problems] == [
        ("screenshot1.png", "is not a PNG image (or cannot be read); skipped")
    ]


def test_a_symlink_leading_out_is_never_opened(tmp_path: Path, opened: list[Path]) -> None:
    folder = tmp_path / "traj"
    folder.mkdir()
    outside = tmp_path / "secret.png"
    outside.write_bytes(png_bytes())
    write_screenshots(folder, 1, "fara")
    (folder / "screenshot2.png").symlink_to(outside)
    found, problems = discover_screenshots(folder)
    assert [f.name for f in found.frames] == ["screenshot0.png", "screenshot1.png"]
    assert [p.file for p in problems] == ["screenshot2.png"]
    assert "outside the trajectory folder" in problems[0].message
    assert outside.resolve() not in opened
    assert (folder / "screenshot1.png").resolve() in opened


def test_listed_paths_outside_the_folder_are_never_opened(tmp_path: Path, opened: list[Path]) -> None:
    folder = tmp_path / "traj"
    folder.mkdir()
    outside = tmp_path / "outside.png"
    outside.write_bytes(png_bytes())
    (folder / "link.png").symlink_to(outside)
    write_screenshots(folder, 1, "solver")
    listed = ["screenshot_1.png", "../outside.png", str(outside), "link.png"]
    found, problems = discover_screenshots(folder, listed, "t_final_answer.json")
    assert [f.name for f in found.frames] == ["screenshot_1.png"]
    assert len(problems) == 1
    assert problems[0].file == "t_final_answer.json"
    assert problems[0].message == (
        f"listed screenshots ../outside.png, {outside}, link.png "
        "lead outside the trajectory folder; not opened"
    )
    assert outside.resolve() not in opened


def test_listed_screenshots_missing_or_not_png_are_reported(tmp_path: Path) -> None:
    write_screenshots(tmp_path, 1, "fara")
    (tmp_path / "notes.png").write_text("not an image")
    listed = ["screenshot0.png", "screenshot1.png", "screenshot7.png", "notes.png"]
    found, problems = discover_screenshots(tmp_path, listed, "t_final_answer.json")
    assert len(found.frames) == 2
    assert [p.message for p in problems] == [
        "listed screenshots screenshot7.png do not exist",
        "listed screenshots notes.png are not PNG images",
    ]


def test_listed_files_are_the_frames_when_no_naming_matches(tmp_path: Path) -> None:
    (tmp_path / "frames").mkdir()
    for name in ("b.png", "a.png"):
        (tmp_path / "frames" / name).write_bytes(png_bytes(800, 600))
    found, problems = discover_screenshots(tmp_path, ["frames/b.png", "frames/a.png"])
    assert problems == []
    assert found.naming is None
    assert [(f.name, f.width) for f in found.frames] == [("frames/b.png", 800), ("frames/a.png", 800)]
    assert [f.name if f else None for f in found.frames_for_actions(3)] == [
        "frames/b.png",
        "frames/a.png",
        None,
    ]


def test_a_frame_that_links_inside_the_folder_is_named_by_its_target(tmp_path: Path) -> None:
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "first.png").write_bytes(png_bytes())
    (tmp_path / "screenshot0.png").symlink_to("frames/first.png")
    shots, problems = discover_screenshots(tmp_path)
    assert [f.name for f in shots.frames] == ["frames/first.png"] and problems == []
    assert read_file(tmp_path / shots.frames[0].name) == png_bytes()
