"""Refreshing a root's index in the background, so a viewer never waits for it.

A `BackgroundRefresh` owns one thread per root. Asked to refresh, the thread runs the refresh in
a child process (`python -m webeval_core.runs.background ROOT`): the viewer's process keeps its
cores and memory for pages, and the child forks its own workers safely (forking a process that
runs server threads is not). The child reports progress as JSON lines; meanwhile readers see
each committed batch in the index file.

Between refreshes the thread looks at the cache's `scores-written` marker every
`watch_every_s` (one `stat`): score files written by another process (`webeval score` in a terminal)
start a refresh at once, so an open page shows their verdicts within seconds, not at the next
periodic refresh, and the status says that figures changed. Score files of programs that know
nothing of the marker (Fara's verifier) are seen by the `scores/` folders' mtimes
(`runs.score_watch`, one `stat` a trajectory), looked at every `folders_every_s`.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.refresh import RefreshReport, refresh_index
from webeval_core.runs.score_watch import ScoreWatch
from webeval_core.support.user_cache import scores_written_stamp

__all__ = ["BackgroundRefresh", "RefreshStatus"]

_PROGRESS_EVERY = 200  # folders between two progress lines of the child


class RefreshStatus(BaseModel):
    """Where the background refresh of one root stands."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    running: bool = False
    """A refresh is under way."""
    done: int = 0
    """Folders read so far by the refresh under way."""
    total: int = 0
    """Folders the refresh under way has to read (0 until the walk is over)."""
    finished: int = 0
    """How many refreshes have finished since the viewer started."""
    last: RefreshReport | None = None
    """What the last finished refresh found."""
    error: str | None = None
    """Why the last refresh failed, when it did."""
    for_scores: bool = False
    """The refresh under way was started by new score files (written by any process)."""
    scores_read_at: datetime | None = None
    """When a refresh started by new score files last finished (UTC): figures changed then."""


class BackgroundRefresh:
    """One root's refresh thread: `request()` starts a refresh unless one ran a moment ago."""

    def __init__(
        self,
        root: Path,
        cache_dir: Path | None = None,
        min_interval_s: float = 10.0,
        first_delay_s: float = 0.0,
        watch_every_s: float = 2.0,
        folders_every_s: float = 4.0,
    ) -> None:
        self.root = Path(root)
        """The root refreshed."""
        self.cache_dir = cache_dir
        """Where its index file lives (None: the default cache folder)."""
        self.min_interval_s = min_interval_s
        """A request this soon after the last refresh finished is ignored (unless forced)."""
        self.first_delay_s = first_delay_s
        """How long the first refresh waits: a viewer's first page is drawn before it competes."""
        self.watch_every_s = watch_every_s
        """How often the `scores-written` marker is looked at between refreshes."""
        self.folders_every_s = folders_every_s
        """How often every trajectory's `scores/` folder is looked at (score files of other programs)."""
        self._scores_stamp = scores_written_stamp()
        self._folders_at = time.monotonic()
        self._watch: ScoreWatch | None = None
        self._status = RefreshStatus()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._finished_at = 0.0
        self._pending = False
        self._thread = threading.Thread(
            target=self._loop, name=f"webeval-index {self.root.name}", daemon=True
        )
        self._thread.start()

    def status(self) -> RefreshStatus:
        """The refresh's state now."""
        with self._lock:
            return self._status

    def request(self, *, force: bool = False) -> None:
        """Ask for a refresh; ignored while one waits or runs, or soon after one finished unless `force`."""
        with self._lock:
            if self._pending or self._status.running:
                return
            if (
                not force
                and time.monotonic() - self._finished_at < self.min_interval_s
                and self._status.finished
            ):
                return
            self._pending = True
        self._wake.set()

    def _loop(self) -> None:
        time.sleep(self.first_delay_s)
        while True:
            asked = self._wake.wait(self.watch_every_s)
            for_scores = self._scores_written()
            if not (asked or for_scores):
                continue
            self._wake.clear()
            with self._lock:
                self._pending = False
                self._status = self._status.model_copy(
                    update={"running": True, "done": 0, "total": 0, "for_scores": for_scores}
                )
            try:
                report, error = self._run_child(), None
            except Exception as exc:  # the viewer shows it; the next request tries again
                report, error = None, f"{type(exc).__name__}: {exc}"
            with self._lock:
                self._finished_at = time.monotonic()
                update: dict[str, object] = {
                    "running": False,
                    "for_scores": False,
                    "finished": self._status.finished + 1,
                    "last": report or self._status.last,
                    "error": error,
                }
                if for_scores and report is not None and report.read:
                    update["scores_read_at"] = datetime.now(UTC)
                self._status = self._status.model_copy(update=update)

    def _scores_written(self) -> bool:
        """Whether score files were written since the last look: the marker's mtime moved, or
        (every `folders_every_s`) a trajectory's `scores/` folder did.
        """
        stamp = scores_written_stamp()
        if stamp != self._scores_stamp:
            self._scores_stamp = stamp
            return True
        if time.monotonic() - self._folders_at < self.folders_every_s:
            return False
        self._folders_at = time.monotonic()
        try:
            if self._watch is None:  # its baseline is what the index saw
                self._watch = ScoreWatch(IndexStore(self.root, self.cache_dir))
            return self._watch.changed()
        except (OSError, sqlite3.Error):  # no index yet, or being rebuilt: the next look
            self._watch = None
            return False

    def _run_child(self) -> RefreshReport:
        command = [sys.executable, "-m", "webeval_core.runs.background", str(self.root)]
        if self.cache_dir is not None:
            command += ["--cache-dir", str(self.cache_dir)]
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        report: RefreshReport | None = None
        assert child.stdout is not None
        for line in child.stdout:
            message = json.loads(line)
            if "report" in message:
                fields = message["report"]
                report = RefreshReport(**{**fields, "misnamed": tuple(fields.get("misnamed", ()))})
            else:
                with self._lock:
                    self._status = self._status.model_copy(update=message)
        _, errors = child.communicate()
        if child.returncode or report is None:
            raise RuntimeError((errors.strip().splitlines() or [f"exit status {child.returncode}"])[-1])
        return report


def _child(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Refresh a root's index, reporting progress as JSON lines.")
    parser.add_argument("root", type=Path)
    parser.add_argument("--cache-dir", type=Path)
    args = parser.parse_args(argv)

    parent = os.getppid()

    def progress(done: int, total: int) -> None:
        if os.getppid() != parent:  # the viewer is gone: nobody waits for this refresh any more
            raise SystemExit(1)
        if done % _PROGRESS_EVERY == 0 or done == total:
            print(json.dumps({"done": done, "total": total}), flush=True)

    report = refresh_index(IndexStore(args.root, args.cache_dir), on_progress=progress)
    print(json.dumps({"report": report._asdict()}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(_child())
