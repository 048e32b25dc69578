"""Pixel checks: the action mark lands where the step's point says, thumbnails keep the aspect."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.harness.builders import png_bytes
from webeval_core.presentation import overlay
from webeval_core.presentation.overlay import (
    MARK_COLOR,
    PLACEHOLDER_BACKGROUND,
    PLACEHOLDER_SIZE,
    frame_image,
    page_frame,
    prefetch_frame,
    prefetch_thumbnail,
    render_overlay,
    thumbnail,
    thumbnails,
)
from webeval_core.support.diagnostics import UnreadableError

GREY = (128, 128, 128)


@pytest.fixture
def screenshot(tmp_path: Path) -> Path:
    path = tmp_path / "screenshot1.png"
    Image.new("RGB", (1440, 900), GREY).save(path)
    return path


def _decode(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def _is_mark(pixel: object) -> bool:
    return isinstance(pixel, tuple) and pixel[:3] == MARK_COLOR


def test_point_is_drawn_at_its_pixel_and_nowhere_far(screenshot: Path) -> None:
    image = _decode(render_overlay(screenshot, point=(740.2, 82.4)))
    assert image.size == (1440, 900)
    assert _is_mark(image.getpixel((740, 82)))
    radius = 900 // 45
    # The ring passes through (x + radius, y) and the crosshair arm extends beyond it.
    assert any(_is_mark(image.getpixel((740 + radius + d, 82))) for d in (-2, -1, 0, 1, 2))
    assert any(_is_mark(image.getpixel((740 + int(radius * 1.4), 82 + d))) for d in (-1, 0, 1))
    for far in ((10, 890), (1430, 890), (300, 600), (740, 300)):
        assert image.getpixel(far) == GREY


def test_point_at_another_place_moves_the_mark(screenshot: Path) -> None:
    image = _decode(render_overlay(screenshot, point=(100, 800)))
    assert _is_mark(image.getpixel((100, 800)))
    assert image.getpixel((740, 82)) == GREY


def test_point_outside_the_image_is_clamped_to_the_edge(screenshot: Path) -> None:
    image = _decode(render_overlay(screenshot, point=(5000, -20)))
    assert _is_mark(image.getpixel((1439, 0))) or _is_mark(image.getpixel((1438, 1)))


def test_no_point_no_label_leaves_the_frame_unchanged(screenshot: Path) -> None:
    image = _decode(render_overlay(screenshot))
    assert image.getcolors() == [(1440 * 900, GREY)]


def test_an_action_aimed_nowhere_draws_no_label_over_the_page(screenshot: Path) -> None:
    """Typing or a key press has no point: its label would only hide the page's corner (the step's
    heading names the action)."""
    image = _decode(render_overlay(screenshot, label="type: 'hello'"))
    assert image.getcolors() == [(1440 * 900, GREY)]


def test_label_is_boxed_beside_the_point_inside_the_image(screenshot: Path) -> None:
    plain = _decode(render_overlay(screenshot, point=(1420, 880)))
    labelled = _decode(render_overlay(screenshot, point=(1420, 880), label="type: 'hello'"))
    changed = [
        (x, y)
        for x in range(0, 1440, 4)
        for y in range(0, 900, 4)
        if plain.getpixel((x, y)) != labelled.getpixel((x, y))
    ]
    assert changed
    # Near the bottom-right corner the box flips to the upper-left of the point.
    assert max(x for x, _ in changed) < 1420
    assert max(y for _, y in changed) < 880


def test_scroll_draws_an_arrow_in_its_direction(screenshot: Path) -> None:
    down = _decode(render_overlay(screenshot, point=(720, 450), scroll="down"))
    up = _decode(render_overlay(screenshot, point=(720, 450), scroll="up"))
    radius = 900 // 45
    below, above = (720, 450 + radius * 2), (720, 450 - radius * 2)
    assert _is_mark(down.getpixel(below)) and not _is_mark(down.getpixel((720, 450 - radius * 3)))
    assert _is_mark(up.getpixel(above)) and not _is_mark(up.getpixel((720, 450 + radius * 3)))


def test_scroll_without_point_starts_at_the_centre(screenshot: Path) -> None:
    image = _decode(render_overlay(screenshot, scroll="down"))
    assert _is_mark(image.getpixel((720, 450 + 900 // 45 * 2)))


def test_thumbnail_width_and_aspect(screenshot: Path) -> None:
    image = _decode(thumbnail(screenshot, width=192))
    assert image.size == (192, 120)
    assert _decode(thumbnail(screenshot, width=100)).size == (100, 62)


def test_thumbnail_dot_is_scaled_with_the_image(screenshot: Path) -> None:
    image = _decode(thumbnail(screenshot, width=144, point=(1000, 500)))
    assert _is_mark(image.getpixel((100, 50)))
    assert image.getpixel((10, 10)) == GREY


def test_broken_and_missing_files_raise_unreadable(tmp_path: Path) -> None:
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    with pytest.raises(UnreadableError, match="not a readable image"):
        render_overlay(broken, point=(1, 1))
    with pytest.raises(UnreadableError, match="not found"):
        thumbnail(tmp_path / "missing.png")


def test_jpeg_output_keeps_the_mark_in_place(screenshot: Path) -> None:
    data = render_overlay(screenshot, point=(740, 82), fmt="JPEG")
    assert data.startswith(b"\xff\xd8")
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (1440, 900)
    red, green, blue = image.getpixel((740, 82))  # type: ignore[misc]
    assert red > 180 and green < 90 and blue < 110  # lossy, but still the mark's red
    assert image.getpixel((300, 600)) == pytest.approx(GREY, abs=3)


def test_frame_image_is_memoized_per_file_state(screenshot: Path) -> None:
    first = frame_image(screenshot, point=(10, 10), label="type: 'a'")
    assert first == render_overlay(screenshot, point=(10, 10), label="type: 'a'", fmt="JPEG")
    assert frame_image(screenshot, point=(10, 10), label="type: 'a'") is first
    assert frame_image(screenshot, point=(11, 10), label="type: 'a'") is not first
    Image.new("RGB", (1280, 800), (0, 0, 0)).save(screenshot)  # rewritten: size and mtime change
    assert frame_image(screenshot, point=(10, 10), label="type: 'a'") != first


def test_prefetched_frame_is_served_from_the_memo(screenshot: Path) -> None:
    future = prefetch_frame(screenshot, point=(700, 400), scroll="down")
    assert future is not None
    rendered = future.result(timeout=30)
    assert frame_image(screenshot, point=(700, 400), scroll="down") is rendered
    assert prefetch_frame(screenshot, point=(700, 400), scroll="down") is None  # memoized already


def test_thumbnails_of_a_window_are_memoized_and_errors_stay_per_frame(
    screenshot: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.png"
    Image.new("RGB", (1440, 900), (10, 200, 10)).save(other)
    first, second, missing = thumbnails(
        [(screenshot, (100, 100)), (other, None), (tmp_path / "gone.png", None)], 120
    )
    assert isinstance(first, bytes) and _decode(first).size == (120, 75)
    assert isinstance(second, bytes) and _decode(second).getpixel((60, 37)) == (10, 200, 10)
    assert isinstance(missing, UnreadableError)
    again = thumbnails([(screenshot, (100, 100))], 120)[0]
    assert again is first


def test_prefetched_thumbnail_is_served_from_the_memo(screenshot: Path) -> None:
    prefetch_thumbnail(screenshot, 96)
    made = thumbnails([(screenshot, None)], 96)[0]  # waits for the rendering under way
    assert isinstance(made, bytes) and _decode(made).size == (96, 60)
    assert thumbnails([(screenshot, None)], 96)[0] is made


def test_memoized_rendering_reports_missing_files(tmp_path: Path) -> None:
    with pytest.raises(UnreadableError, match="not found"):
        frame_image(tmp_path / "gone.png")
    prefetch_thumbnail(tmp_path / "gone.png")  # nothing to start, nothing raised


# --- the pixel cap: a small file declaring a huge image is never decoded --------------------


@pytest.fixture
def bomb(tmp_path: Path) -> Path:
    """A ~20 KB PNG declaring 10,000 x 17,000 pixels (510 MB as RGB once decoded)."""
    path = tmp_path / "screenshot2.png"
    path.write_bytes(png_bytes(10_000, 17_000))
    assert path.stat().st_size < 100_000
    return path


def test_a_frame_above_the_cap_is_a_placeholder(bomb: Path) -> None:
    image = Image.open(io.BytesIO(render_overlay(bomb, point=(5000, 8000), label="click")))

    assert image.size == PLACEHOLDER_SIZE
    assert image.convert("RGB").getpixel((PLACEHOLDER_SIZE[0] // 2, 10)) == PLACEHOLDER_BACKGROUND


def test_a_thumbnail_above_the_cap_is_a_placeholder(bomb: Path) -> None:
    image = _decode(thumbnail(bomb, width=120))
    assert image.width == 120


def test_the_cap_counts_declared_pixels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(overlay, "MAX_DECODED_PIXELS", 1_000)
    under, over = tmp_path / "under.png", tmp_path / "over.png"
    Image.new("RGB", (30, 30), GREY).save(under)  # 900 pixels
    Image.new("RGB", (40, 30), GREY).save(over)  # 1,200 pixels

    assert _decode(render_overlay(under)).size == (30, 30)
    assert _decode(render_overlay(over)).size == PLACEHOLDER_SIZE


def _jpeg(data: bytes) -> Image.Image:
    assert data.startswith(b"\xff\xd8")
    return Image.open(io.BytesIO(data)).convert("RGB")


def _near_mark(pixel: object) -> bool:  # JPEG blurs colours a little
    return isinstance(pixel, tuple) and pixel[0] > 180 and pixel[1] < 90 and pixel[2] < 110


def test_zoom_view_enlarges_the_region_around_the_action(tmp_path: Path) -> None:
    path = tmp_path / "halves.png"
    image = Image.new("RGB", (1440, 900), GREY)
    image.paste((255, 255, 255), (0, 0, 720, 900))  # left half white, right half grey
    image.save(path)
    zoomed = _jpeg(overlay.zoom_view(path, point=(1000, 450), zoom=2))
    assert zoomed.size == (1440, 900)  # the region is drawn at the frame's size
    # A 720x450 region centred on (1000, 450): x 640..1360, so the white edge (x=720) sits at 160.
    assert zoomed.getpixel((100, 600))[0] > 240 and abs(zoomed.getpixel((300, 600))[0] - 128) < 10
    assert _near_mark(zoomed.getpixel((720, 450)))  # the action is in the middle


def test_zoom_view_near_an_edge_stays_inside_the_frame(screenshot: Path) -> None:
    zoomed = _jpeg(overlay.zoom_view(screenshot, point=(5, 5), zoom=3))
    assert zoomed.size == (1440, 900)
    assert _near_mark(zoomed.getpixel((15, 15)))  # the region starts at the corner: the mark is at 3x


def test_zoom_view_unmarked_centres_on_the_point_without_drawing(screenshot: Path) -> None:
    zoomed = _jpeg(overlay.zoom_view(screenshot, point=(1000, 450), zoom=2, marked=False))
    assert all(abs(channel - 128) < 6 for channel in zoomed.getpixel((720, 450)))


def test_a_page_frame_is_a_jpeg_scaled_to_the_width_shown(screenshot: Path) -> None:
    data, mime = page_frame(screenshot, 1136, point=(720, 450))
    image = Image.open(io.BytesIO(data))
    assert (mime, image.format, image.size) == ("image/jpeg", "JPEG", (1136, 710))
    red, green, _ = image.convert("RGB").getpixel((568 + 12, 355))  # on the ring, scaled with it
    assert red > 180 and green < 90


def test_a_page_frame_of_a_palette_screenshot_keeps_its_palette_and_size(tmp_path: Path) -> None:
    path = tmp_path / "drawn.png"
    Image.new("RGB", (1440, 900), GREY).convert("P", palette=Image.Palette.ADAPTIVE, colors=16).save(path)

    data, mime = page_frame(path, 1136, point=(720, 450), label="typed")
    marked = Image.open(io.BytesIO(data))

    assert (mime, marked.format, marked.mode, marked.size) == ("image/png", "PNG", "P", (1440, 900))
    assert any(_is_mark(pixel) for pixel in _row(marked.convert("RGB"), 450, range(700, 740)))
    assert len(data) < len(page_frame(screenshot_rgb(tmp_path), 1136, point=(720, 450))[0])


def screenshot_rgb(tmp_path: Path) -> Path:
    """The same flat screenshot stored as RGB, which a page frame makes a JPEG of."""
    path = tmp_path / "rgb.png"
    Image.new("RGB", (1440, 900), GREY).save(path)
    return path


def _row(image: Image.Image, y: int, xs: range) -> list[object]:
    return [image.getpixel((x, y)) for x in xs]
