"""The local mirror of a remote root, on fsspec's in-process `memory://` store (the same code path
as az://, s3:// and gs://: only the filesystem class differs)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fsspec
import pytest
from fsspec.implementations.memory import MemoryFileSystem

from tests.harness.builders import png_bytes
from webeval_core.reading.screenshots import discover_screenshots, read_image_bytes, set_image_source
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.remote import RemoteReadError, open_root
from webeval_core.remote.mirror import sync
from webeval_core.remote.stores import RemoteLocation
from webeval_core.runs.discovery import iter_trajectory_dirs

SAMPLE = Path(__file__).resolve().parents[3] / "sample_runs"


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    cache = tmp_path / "remote-cache"
    monkeypatch.setenv("WEBEVAL_REMOTE_CACHE", str(cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    yield cache
    set_image_source(None)


def _bucket() -> tuple[MemoryFileSystem, str]:
    """A fresh prefix of the in-memory store (its contents live for the whole process)."""
    fs = fsspec.filesystem("memory")
    return fs, f"/b{uuid.uuid4().hex[:12]}/runs"


def _folder(fs: MemoryFileSystem, base: str, frames: int = 3, size: tuple[int, int] = (40, 30)) -> str:
    """One Fara-shaped trajectory folder in the store: answer, log, frames; its relative path."""
    rel = "run/traj/7"
    fs.pipe_file(f"{base}/{rel}/7_final_answer.json", b'{"final_answer": "done", "screenshots": []}')
    fs.pipe_file(f"{base}/{rel}/web_surfer.log", b"")
    for k in range(frames):
        fs.pipe_file(f"{base}/{rel}/screenshot{k}.png", png_bytes(*size))
    return rel


def test_sample_runs_read_the_same_from_the_mirror() -> None:
    fs, base = _bucket()
    for path in SAMPLE.rglob("*"):
        if path.is_file():
            fs.pipe_file(f"{base}/{path.relative_to(SAMPLE).as_posix()}", path.read_bytes())
    opened = open_root(f"memory://{base}")
    assert opened.problems == ()
    local = {p.relative_to(SAMPLE): load_trajectory(p) for p in iter_trajectory_dirs(SAMPLE)}
    mirrored = {p.relative_to(opened.path): load_trajectory(p) for p in iter_trajectory_dirs(opened.path)}
    assert mirrored.keys() == local.keys()
    for key, trajectory in local.items():
        other = mirrored[key]
        assert (other.task_id, other.outcome, len(other.steps)) == (
            trajectory.task_id,
            trajectory.outcome,
            len(trajectory.steps),
        )
        assert other.screenshots == trajectory.screenshots
        assert other.warnings == trajectory.warnings
    # Screenshots were listed, not fetched: the mirror holds none of them yet.
    assert not list(opened.path.rglob("*.png"))


def test_screenshots_are_listed_before_and_fetched_when_read() -> None:
    fs, base = _bucket()
    rel = _folder(fs, base, frames=3, size=(40, 30))
    opened = open_root(f"memory://{base}")
    folder = opened.path / rel
    assert not (folder / "screenshot0.png").exists()
    shots, problems = discover_screenshots(folder)
    assert problems == []
    assert [(s.name, s.number, s.width, s.height) for s in shots.frames] == [
        (f"screenshot{k}.png", k, 40, 30) for k in range(3)
    ]
    data = read_image_bytes(folder / "screenshot1.png")
    assert data == png_bytes(40, 30)
    assert (folder / "screenshot1.png").is_file()


def test_unchanged_objects_are_not_fetched_again_and_changed_ones_are() -> None:
    fs, base = _bucket()
    rel = _folder(fs, base)
    first = open_root(f"memory://{base}")
    assert (first.fetched, first.unchanged) == (2, 0)
    again = open_root(f"memory://{base}")
    assert (again.fetched, again.unchanged) == (0, 2)
    fs.pipe_file(f"{base}/{rel}/7_final_answer.json", b'{"final_answer": "changed answer"}')
    third = open_root(f"memory://{base}")
    assert (third.fetched, third.unchanged) == (1, 1)
    assert b"changed answer" in (third.path / rel / "7_final_answer.json").read_bytes()


def test_removed_objects_leave_the_mirror_but_local_score_files_stay() -> None:
    fs, base = _bucket()
    rel = _folder(fs, base)
    opened = open_root(f"memory://{base}")
    local_score = opened.path / rel / "scores" / "local.json"
    local_score.parent.mkdir()
    local_score.write_text('{"score": 1}')
    fs.rm_file(f"{base}/{rel}/web_surfer.log")
    open_root(f"memory://{base}")
    assert not (opened.path / rel / "web_surfer.log").exists()
    assert local_score.is_file()


def test_names_leaving_the_folder_are_skipped_with_a_problem() -> None:
    fs, base = _bucket()
    _folder(fs, base)
    fs.pipe_file(f"{base}/run/../../escape.json", b"{}")  # a store keeps such a name as it is
    opened = open_root(f"memory://{base}")
    assert not (opened.path.parent / "escape.json").exists()
    assert not (opened.path.parent.parent / "escape.json").exists()
    assert len(opened.problems) == 1
    assert "leave the folder" in opened.problems[0]


def test_fetched_images_are_bounded_least_recently_read_first(monkeypatch: pytest.MonkeyPatch) -> None:
    fs, base = _bucket()
    rel = _folder(fs, base, frames=6, size=(400, 300))
    frame_bytes = len(png_bytes(400, 300))
    # Room for about two frames: reading four of them evicts the oldest.
    monkeypatch.setenv("WEBEVAL_REMOTE_IMAGE_CACHE_BYTES", str(int(2.5 * frame_bytes)))
    opened = open_root(f"memory://{base}")
    folder = opened.path / rel
    for k in (0, 2, 4):  # not neighbours, so the one-ahead prefetch does not blur the order
        read_image_bytes(folder / f"screenshot{k}.png")
    held = sorted(p.name for p in folder.glob("*.png"))
    assert "screenshot0.png" not in held
    assert "screenshot4.png" in held
    # An evicted frame is still listed and comes back when read again.
    assert read_image_bytes(folder / "screenshot0.png") == png_bytes(400, 300)


class _RacingStore(MemoryFileSystem):
    """An in-memory store where another writer replaces every object just after it is listed."""

    protocol = "racingmemory"

    @classmethod
    def _strip_protocol(cls, path: Any) -> Any:
        return super()._strip_protocol(str(path).replace("racingmemory://", "memory://", 1))

    def cat(self, path: Any, recursive: bool = False, on_error: str = "raise", **kwargs: Any) -> Any:
        for name in path if isinstance(path, list) else [path]:
            self.pipe_file(name, self.cat_file(name) + b" (rewritten meanwhile)")
        return super().cat(path, recursive=recursive, on_error=on_error, **kwargs)


def test_an_object_changed_between_list_and_read_is_fetched_again_next_refresh() -> None:
    fsspec.register_implementation("racingmemory", _RacingStore, clobber=True)
    fs = fsspec.filesystem("racingmemory")
    base = f"/b{uuid.uuid4().hex[:12]}/runs"
    fs.pipe_file(f"{base}/a/notes.json", b"{}")
    location = RemoteLocation(url=f"racingmemory://{base}", protocol="racingmemory")
    first = sync(location)
    assert first.fetched == 1
    # The copy is the newer content, but not recorded as the listed version: fetched again.
    second = sync(location)
    assert second.fetched == 1


def test_an_unreachable_store_without_a_copy_is_an_error_naming_the_url() -> None:
    from webeval_core.remote import RemoteUnavailableError

    with pytest.raises(RemoteUnavailableError, match=r"memory:///nothing-here"):
        open_root("memory:///nothing-here")


def test_an_image_gone_from_the_store_is_an_error_naming_it() -> None:
    fs, base = _bucket()
    rel = _folder(fs, base)
    opened = open_root(f"memory://{base}")
    fs.rm_file(f"{base}/{rel}/screenshot2.png")
    with pytest.raises(RemoteReadError, match=r"screenshot2\.png"):
        read_image_bytes(opened.path / rel / "screenshot2.png")


def test_local_paths_are_returned_as_given(tmp_path: Path) -> None:
    assert open_root(tmp_path).path == tmp_path
    assert open_root(str(tmp_path)).url is None


def _recorded_sizes(opened_path: Path) -> list[tuple[int | None, int | None]]:
    from webeval_core.remote import manifest

    with manifest.connect(opened_path.parent) as db:
        return [(o.width, o.height) for o in manifest.all_objects(db).values() if o.path.endswith(".png")]


def test_a_sync_reads_no_screenshot_header_and_the_index_counts_frames_by_name() -> None:
    from webeval_core.reading.glance import glance_trajectory

    fs, base = _bucket()
    rel = _folder(fs, base, frames=4)
    opened = open_root(f"memory://{base}")
    assert _recorded_sizes(opened.path) == [(None, None)] * 4
    assert glance_trajectory(opened.path / rel).screenshots == 4
    assert _recorded_sizes(opened.path) == [(None, None)] * 4  # counting read nothing either


def test_a_folder_s_sizes_are_read_once_when_its_frames_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    fs, base = _bucket()
    rel = _folder(fs, base, frames=3, size=(64, 48))
    fs.pipe_file(f"{base}/{rel}/screenshot3.png", b"not a png at all, but named like one")
    opened = open_root(f"memory://{base}")
    shots, _ = discover_screenshots(opened.path / rel)
    assert [(s.name, s.width, s.height) for s in shots.frames] == [
        (f"screenshot{k}.png", 64, 48) for k in range(3)
    ]
    assert sorted(_recorded_sizes(opened.path)) == [(0, 0)] + [(64, 48)] * 3
    # Measured sizes are kept: with the store gone, the folder still lists its frames.
    calls: list[str] = []
    monkeypatch.setattr(MemoryFileSystem, "cat_ranges", lambda *a, **k: calls.append("cat_ranges") or [])
    fs.rm(f"{base}/{rel}/screenshot3.png")
    assert len(discover_screenshots(opened.path / rel)[0].frames) == 3
    assert calls == []


def test_sizes_the_store_cannot_give_are_a_clear_error_naming_the_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fs, base = _bucket()
    rel = _folder(fs, base, frames=2)
    opened = open_root(f"memory://{base}")

    def refuse(*_: Any, **__: Any) -> Any:
        raise ConnectionError("the store stopped answering")

    monkeypatch.setattr(MemoryFileSystem, "cat_ranges", refuse)
    with pytest.raises(RemoteReadError, match=rf"{base}/{rel}: screenshot sizes could not be read"):
        discover_screenshots(opened.path / rel)
