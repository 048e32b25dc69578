"""A static site of runs that needs no server: `webeval bundle ROOT -o SITE`.

The site is `index.html`, the viewer's script and style (`bundle_assets/`, shipped in the site) and
data files the script loads as `<script>` elements (so it opens from `file://` as from any static
host, and a strict CSP allows nothing but the site's own files):

- `data/runs.js`: every run's headline figures, its success by site, and the list's chunk count;
- `data/list-<k>.js`: the trajectory list, `CHUNK` rows a file, loaded on demand (a list of
  100,000 shows its first rows as soon as its first chunk is in);
- `data/t/<n>.js`: one trajectory: the exported page's sections above the steps (header, verdict,
  judges, answer, expected vs actual with the network checks) and its steps (action, thought,
  URL, the point aimed at, the screenshot);
- `img/<digest>.webp` (or `.jpg`): screenshots re-encoded, each distinct frame once (and kept by
  the process, `_Encodings`, so a second bundle of the same runs encodes none again).

Every text passes through the export's `Redactor` first; figures and results are the index's own
(`metrics.trajectory_frame`, `metrics.headline`), so the site says what the app says.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import threading
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from PIL import Image
from pydantic import BaseModel, ConfigDict

from webeval_core.presentation.frames import Frame, frames_of, step_point
from webeval_core.presentation.redaction import REPORT_NAME, Redactor, redact_trajectory
from webeval_core.presentation.trajectory_document import trajectory_sections
from webeval_core.reading.screenshots import frame_bytes
from webeval_core.reading.task_catalog import TaskCatalog
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory
from webeval_core.runs.judges import available_judges, default_judge, judge_label
from webeval_core.runs.listing.list_columns import bundle_records, plain_cell
from webeval_core.runs.metrics import breakdown, headline, trajectory_frame
from webeval_core.runs.summary import RootIndex, TrajectorySummary
from webeval_core.support.diagnostics import UnreadableError

__all__ = ["CHUNK", "BundleOptions", "BundleReport", "ImageFormat", "bundle_zip", "write_bundle"]

CHUNK = 2000
"""Rows of the trajectory list per data file."""
ImageFormat = Literal["webp", "jpeg"]
_ASSETS = ("index.html", "app.js", "style.css")
Writer = Callable[[str, bytes], None]
"""Writes one file of the site by its path relative to the site (a local folder or a store)."""


class BundleReport(BaseModel):
    """What a bundle holds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    trajectories: int
    """Trajectories listed."""
    pages: int
    """Trajectory pages written (the readable ones)."""
    images: int
    """Screenshots re-encoded."""
    bytes_written: int
    """The site's size."""


class BundleOptions(BaseModel):
    """What a bundle holds and how its screenshots are encoded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    runs: frozenset[str] = frozenset()
    """The runs it shows (their keys); empty: every run of the root."""
    image_format: ImageFormat = "webp"
    """Screenshots re-encoded as WebP or JPEG."""
    quality: int = 60
    """Their quality, 1-100 (lossy WebP and JPEG)."""


DEFAULT_OPTIONS = BundleOptions()
"""Every run, lossy WebP at 60 (lossless for flat frames)."""
Annotations = Mapping[tuple[str, str], Mapping[str, object]]
"""What the review store says of each trajectory, by run and task id."""


def write_bundle(
    index: RootIndex,
    write: Writer,
    catalog: TaskCatalog | None,
    redactor: Redactor,
    options: BundleOptions = DEFAULT_OPTIONS,
    *,
    annotations: Annotations | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> BundleReport:
    """Write the site of `index` (the runs `options` name) through `write`; its redaction report too.
    `annotations` (by run and task id): what a trajectory's page says of its published verdict and
    reviews, its texts redacted.
    """
    runs = options.runs
    chosen = RootIndex(
        root=index.root,
        runs=tuple(r for r in index.runs if not runs or r.key in runs),
        summaries=tuple(s for s in index.summaries if not runs or s.run_key in runs),
    )
    site = _Site(write, catalog, redactor, options.image_format, options.quality)
    judge = default_judge(available_judges(index))  # the root's, as the app's pages take it
    frame = trajectory_frame(chosen, catalog, judge).reset_index(drop=True)
    assets = resources.files("webeval_core.presentation").joinpath("bundle_assets")
    for name in _ASSETS:
        site.write(name, assets.joinpath(name).read_bytes())
    rows = _annotated(_rows(frame, chosen), annotations or {}, redactor)
    chunks = [rows[k : k + CHUNK] for k in range(0, len(rows), CHUNK)] or [[]]
    site.write("data/runs.js", _script("runs", _runs(chosen, frame, len(chunks), len(rows), judge)))
    for k, chunk in enumerate(chunks):
        site.write(f"data/list-{k}.js", _script(f"list-{k}", chunk))
    pages = images = 0
    summaries = {s.key: s for s in chosen.summaries}
    # Threads: decoding and encoding screenshots leave the GIL, so every core works.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="webeval-bundle") as pool:
        made = pool.map(
            lambda item: site.trajectory(summaries.get(item[1]["key"]), item[1], item[0]), enumerate(rows)
        )
        for done, written in enumerate(made, start=1):
            pages += written is not None
            images += written or 0
            if on_progress is not None:
                on_progress(done, len(rows))
    site.write(REPORT_NAME, redactor.report().model_dump_json(indent=2).encode())
    return BundleReport(trajectories=len(rows), pages=pages, images=images, bytes_written=site.bytes)


class _Site:
    """The site being written: its files, counted, and how a trajectory's page and frames are made."""

    def __init__(
        self,
        write: Writer,
        catalog: TaskCatalog | None,
        redactor: Redactor,
        image_format: ImageFormat,
        quality: int,
    ) -> None:
        self._write = write
        self.catalog = catalog
        self.redactor = redactor
        self.image_format = image_format
        self.quality = quality
        self.bytes = 0
        self._lock = threading.Lock()
        self._claimed: set[str] = set()

    def write(self, path: str, data: bytes) -> None:
        self._write(path, data)
        with self._lock:
            self.bytes += len(data)

    def trajectory(self, summary: TrajectorySummary | None, row: dict[str, Any], number: int) -> int | None:
        """One trajectory's page data and frames; how many frames, or None when it cannot be read."""
        if summary is None or summary.unreadable:
            return None
        try:
            trajectory = load_trajectory(summary.path)
        except UnreadableError:
            return None
        # A redactor of its own: what one trajectory's login form taught masks that trajectory only,
        # whatever the threads' order; its counts join the site's report.
        own = Redactor(self.redactor.profile)
        shown = redact_trajectory(trajectory, own, f"{summary.run_key} · {summary.task_id}")
        task = self.catalog.get(trajectory.task_id) if self.catalog is not None else None
        steps = [self._step(shown, frame) for frame in frames_of(shown)]
        sections = list(trajectory_sections(shown, task))
        data = {"number": number, "row": row, "sections": sections, "steps": steps}
        self.write(f"data/t/{number}.js", _script(f"t-{number}", data))
        with self._lock:
            self.redactor.absorb(own.report())
        return sum(1 for step in steps if step["image"])

    def _step(self, trajectory: Trajectory, frame: Frame) -> dict[str, Any]:
        step = frame.step
        image, size = self._image(trajectory, frame.screenshot)
        point = step_point(step)
        return {
            "n": frame.number,
            "action": step.action if step else None,
            "thought": step.thought if step else None,
            "url": step.url if step else None,
            "typed": step.typed_text if step else None,
            "image": image,
            "point": [point[0] / size[0], point[1] / size[1]] if point and size else None,
        }

    def _image(self, trajectory: Trajectory, name: str | None) -> tuple[str | None, tuple[int, int] | None]:
        """A screenshot re-encoded into the site: its path there and its size; (None, None) without one."""
        if not name:
            return None, None
        try:
            data = frame_bytes(trajectory.path / name)  # a file, or an image kept inside a step file
        except OSError:
            return None, None
        # Named by the source's bytes: an identical frame (Fara repeats a trajectory's last one, runs
        # share pages) is one file, whichever thread meets it first, and a site's bytes never
        # depend on the threads' order.
        suffix = "jpg" if self.image_format == "jpeg" else "webp"
        path = f"img/{hashlib.sha1(data).hexdigest()[:20]}.{suffix}"
        with self._lock:
            first = path not in self._claimed
            self._claimed.add(path)
        if not first:
            size = _size(data)
            return (path, size) if size else (None, None)
        done = (path, self.quality)
        encoded = _ENCODED.get(done)
        if encoded is None:
            encoded = _encoded(data, self.image_format, self.quality)
            if encoded is None:
                return None, None
            _ENCODED.keep(done, encoded)
        picture, size = encoded
        self.write(path, picture)
        return path, size


Encoded = tuple[bytes, tuple[int, int]]
"""An image's bytes and its size."""


class _Encodings:
    """Screenshots this process encoded lately, by their path in a site (the source's digest and
    the format) and quality, within a budget of bytes, the least recently used dropped first.

    Encoding is nearly all of a bundle's time, and the same frames are encoded again and again: the
    app's server makes a bundle at each download, and a team re-publishes a run after a review.
    """

    def __init__(self, budget: int) -> None:
        self._budget = budget
        self._kept: OrderedDict[tuple[str, int], Encoded] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> Encoded | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def keep(self, key: tuple[str, int], encoded: Encoded) -> None:
        size = len(encoded[0])
        with self._lock:
            if key in self._kept or size > self._budget:
                return
            self._kept[key] = encoded
            self._bytes += size
            while self._bytes > self._budget:
                _, (dropped, _) = self._kept.popitem(last=False)
                self._bytes -= len(dropped)


_ENCODED = _Encodings(budget=128 * 2**20)  # some 5,000 frames of a 1280x720 run at quality 60


def _encoded(data: bytes, image_format: ImageFormat, quality: int) -> Encoded | None:
    """A screenshot re-encoded: WebP (lossless for a palette image, whose flat colours lossy coding
    only blurs and grows; lossy at `quality` otherwise) or JPEG; None when it is no image.
    """
    try:
        with Image.open(io.BytesIO(data)) as source:
            flat = source.mode in ("P", "L", "1")
            picture = source.convert("RGB")
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    buffer = io.BytesIO()
    if image_format == "jpeg":
        picture.save(buffer, "JPEG", quality=quality, optimize=True)
    elif flat:
        picture.save(buffer, "WEBP", lossless=True, quality=20, method=2)
    else:
        picture.save(buffer, "WEBP", quality=quality, method=4)
    return buffer.getvalue(), picture.size


def _size(data: bytes) -> tuple[int, int] | None:
    """An image's size from its header (nothing decoded)."""
    try:
        with Image.open(io.BytesIO(data)) as source:
            return source.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


def _script(name: str, data: Any) -> bytes:
    """A data file: a script handing its JSON to the viewer (a `<script>` loads from file:// too)."""
    # "</" never closes a script early, whatever a text holds.
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str).replace("</", "<\\/")
    return f"webeval.put({json.dumps(name)},{payload});\n".encode()


def _rows(frame: pd.DataFrame, index: RootIndex) -> list[dict[str, Any]]:
    """The list: a row per trajectory, its bundled columns as the app's list says them (result,
    tags, site, intent: `runs.list_columns`), and each judge's score.
    """
    keys = {s.key: s for s in index.summaries}
    rows = bundle_records(frame)
    for row in rows:
        summary = keys.get(str(row["key"]))
        row["judges"] = dict(summary.scores) if summary is not None else {}
    return rows


def _annotated(
    rows: list[dict[str, Any]],
    annotations: Mapping[tuple[str, str], Mapping[str, object]],
    redactor: Redactor,
) -> list[dict[str, Any]]:
    """The rows with what the review store says of each, its texts redacted."""
    for row in rows:
        said = annotations.get((row["run"], str(row["task_id"])))
        if said:
            where = f"{row['run']} · {row['task_id']}: annotations"
            row["annotations"] = {
                k: redactor.text(v, where) if isinstance(v, str) else v for k, v in said.items()
            }
    return rows


def _runs(
    index: RootIndex, frame: pd.DataFrame, chunks: int, total: int, judge: str | None
) -> dict[str, Any]:
    """Each run's headline (the app's numbers: `metrics.headline`), under the one judge named."""
    by_site = breakdown(frame, "site") if len(frame) else pd.DataFrame()
    runs = []
    for run in index.runs:
        head = headline(frame[frame["run"] == run.key])
        sites = by_site[by_site["run"] == run.key] if len(by_site) else by_site
        runs.append(
            {
                "key": run.key,
                "label": run.label,
                "trajectories": head.trajectories,
                "finished": head.finished,
                "crashed": head.crashed,
                "counted": head.counted,
                "passed": head.passed,
                "rate": head.success_rate,
                "unfinished": head.unfinished,
                "aborted": head.aborted,
                "sites": [
                    {"site": str(r["site"]), "rate": plain_cell(r["success_rate"]), "n": int(r["counted"])}
                    for r in sites.to_dict("records")
                ],
            }
        )
    return {
        "runs": runs,
        "chunks": chunks,
        "chunk": CHUNK,
        "total": total,
        "judge": judge,
        "judge_label": judge_label(judge) if judge is not None else None,
    }


def bundle_zip(
    index: RootIndex,
    catalog: TaskCatalog | None,
    redactor: Redactor,
    options: BundleOptions = DEFAULT_OPTIONS,
) -> bytes:
    """A bundle as one zip (the app's download): unzip, open index.html."""
    buffer = io.BytesIO()
    lock = threading.Lock()  # the site's pages are written from threads
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:

        def write(path: str, data: bytes) -> None:
            with lock:
                archive.writestr(path, data)

        write_bundle(index, write, catalog, redactor, options)
    return buffer.getvalue()


def folder_writer(site: Path) -> Writer:
    """Writes a site into a local folder."""

    def write(path: str, data: bytes) -> None:
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    return write


def clear_folder(site: Path) -> None:
    """An existing site folder emptied before a new bundle is written into it."""
    if site.exists():
        shutil.rmtree(site)
