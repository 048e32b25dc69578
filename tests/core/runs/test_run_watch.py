"""A run watched while a writer writes it: every task's state matches the writer's truth at every
instant sampled, no rate ever counts an unfinished task, and a watch re-reads only what changed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.harness.live_writer import LiveWriter, Script
from webeval_core.reading.task_state import count_states, task_progress
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.listing.queries import IndexQueries
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.run_watch import RunWatch
from webeval_core.runs.trajectory_filter import UNFINISHED
from webeval_core.runs.viewing import OUTSIDE_REVIEW

WINDOW_S = 1.5
EDGE_S = (
    0.15  # an instant this close to a task's window edge is left out: mtimes and the truth's clock differ
)
FARA_SCRIPTS: dict[str, Script] = {
    "1": "finish",
    "2": "hang",
    "3": "crash",
    "4": "resume",
    "5": "finish",
    "6": "finish",
}
WAV_SCRIPTS: dict[str, Script] = {"101": "finish", "102": "hang", "103": "finish", "104": "finish"}


def _on_edge(writer: LiveWriter, now: float) -> bool:
    return any(abs(now - t.last_write - WINDOW_S) < EDGE_S for t in writer.truth.values())


def _check_instant(writer: LiveWriter, watch: RunWatch, now: float) -> int:
    """The core's state of every task written so far equals the truth; the watch's counts too."""
    truth = {name: t.state(now, WINDOW_S) for name, t in writer.truth.items()}
    for name, expected in truth.items():
        assert task_progress(writer.tasks_dir / name, now, WINDOW_S).state == expected, (name, now)
    progress = watch.look(now)
    counts = count_states(truth.values())
    assert (progress.finished, progress.aborted, progress.crashed, progress.running, progress.stalled) == (
        counts.finished,
        counts.aborted,
        counts.crashed,
        counts.running,
        counts.stalled,
    )
    return len(truth)


def _check_rates(writer: LiveWriter, root: Path, cache: Path) -> None:
    """The index lists every unfinished task as unfinished, never counted in a rate."""
    store = IndexStore(root, cache)
    refresh_index(store, workers=1)
    page = IndexQueries(store, None, viewer=OUTSIDE_REVIEW).page(None)
    for row in page.rows:
        truth = writer.truth.get(row.task_id)
        if truth is not None and not truth.finished and not truth.crashed:
            assert row.result == UNFINISHED and row.value is None, row
        if row.result == UNFINISHED:
            assert truth is not None and not truth.finished
    head = IndexQueries(store, None, viewer=OUTSIDE_REVIEW).headline(None, None)
    assert head.counted <= sum(t.finished for t in writer.truth.values())


@pytest.mark.slow
@pytest.mark.parametrize(("layout", "scripts"), [("fara", FARA_SCRIPTS), ("webarena-verified", WAV_SCRIPTS)])
def test_states_match_the_writers_truth_at_every_instant(
    tmp_path: Path, layout: str, scripts: dict[str, Script]
) -> None:
    root = tmp_path / "root"
    run_dir = root / "runs" / "live" / "0"
    writer = LiveWriter(run_dir, layout, scripts, parallel=3)  # type: ignore[arg-type]
    watch = RunWatch(run_dir, window_s=WINDOW_S, expected=len(scripts))
    writer.start()
    sampled = checked_rates = 0
    stop_at: float | None = None
    try:
        while stop_at is None or time.time() < stop_at:
            if stop_at is None and writer.done:
                stop_at = time.time() + WINDOW_S + 0.5  # the hung task turns stalled before the end
            with writer.lock:
                now = time.time()
                if not _on_edge(writer, now):
                    sampled += _check_instant(writer, watch, now) > 0
                if layout == "fara" and sampled // 8 > checked_rates:
                    checked_rates += 1
                    _check_rates(writer, root, tmp_path / "cache")
            time.sleep(0.07)
        final = watch.look()
    finally:
        watch.close()
    assert sampled > 30
    assert final.done is False  # the hung task never finishes
    assert [t.task_id for t in final.stalled_tasks] == [n for n, s in scripts.items() if s == "hang"]
    if layout == "fara":
        assert checked_rates > 2
        # Task 4 replays sample 156, whose harness gave up and saved an aborted answer: aborted.
        assert (final.finished, final.aborted, final.crashed, final.restarted) == (3, 2, 1, 1)
        assert final.stalled_tasks[0].steps >= 1 and final.stalled_tasks[0].last_step
        assert [e.task_id for e in final.errors] == [
            "3",
            "4",
        ]  # the crash, and the resumed task's first attempt


def test_a_watch_reads_again_only_the_folders_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = tmp_path / "run"
    writer = LiveWriter(
        run_dir, "fara", {str(k): "finish" for k in range(1, 7)}, pace=(0.0, 0.01), parallel=6
    )
    writer.start().join()
    from webeval_core.runs import run_watch

    read: list[str] = []
    real = run_watch._read
    monkeypatch.setattr(run_watch, "_read", lambda folder, *a: read.append(folder.name) or real(folder, *a))
    for events in (True, False):
        watch = RunWatch(run_dir, events=events)
        try:
            assert watch.look().over == 6 and len(read) == 6
            read.clear()
            assert watch.look().over == 6 and read == []  # nothing changed: nothing read
            (writer.tasks_dir / "3" / f"eval_result_{events}.json").write_text("{}")
            time.sleep(0.3)  # the event arrives
            assert watch.look().over == 6 and read == ["3"]
            read.clear()
        finally:
            watch.close()
