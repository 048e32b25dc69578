"""Mapping over forked workers: input order, progress, unpicklable functions, and no fork beside
another thread."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from webeval_core.support.parallel import chunk_size, iter_in_processes, map_in_processes, worker_count


def test_small_batches_run_in_this_process() -> None:
    seen: list[tuple[int, int]] = []
    pids = map_in_processes(
        lambda _: os.getpid(),
        [1, 2, 3],
        workers=2,
        parallel_from=8,
        on_progress=lambda d, t: seen.append((d, t)),
    )
    assert set(pids) == {os.getpid()}
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.one_thread
def test_large_batches_run_in_forked_workers_in_input_order() -> None:
    offset = 1000  # a closure: fork hands it to workers without pickling
    prepared: list[bool] = []
    seen: list[tuple[int, int]] = []
    items = list(range(40))
    results = map_in_processes(
        lambda i: (i + offset, os.getpid()),
        items,
        workers=2,
        parallel_from=8,
        on_progress=lambda d, t: seen.append((d, t)),
        before_fork=lambda: prepared.append(True),
    )
    assert [r[0] for r in results] == [i + offset for i in items]
    assert os.getpid() not in {r[1] for r in results}
    assert prepared == [True]
    assert seen[-1] == (40, 40) and len(seen) == 40


def test_worker_count() -> None:
    assert worker_count(4, 2) == 2
    assert worker_count(1, 100) == 1
    assert worker_count(0, 10_000) == (os.cpu_count() or 1)


@pytest.mark.one_thread
def test_results_stream_from_one_pool_in_input_order() -> None:
    items = list(range(300))
    stream = iter_in_processes(lambda i: (i * 2, os.getpid()), items, workers=2, parallel_from=8)
    first = [next(stream) for _ in range(10)]  # the rest is still being computed
    rest = list(stream)
    results = first + rest
    assert [r[0] for r in results] == [i * 2 for i in items]
    assert len({r[1] for r in results}) <= 2 and os.getpid() not in {r[1] for r in results}


@pytest.mark.one_thread
def test_a_stream_left_early_stops_its_workers() -> None:
    stream = iter_in_processes(lambda i: i, list(range(1000)), workers=2, parallel_from=8)
    assert next(stream) == 0
    stream.close()  # what a consumer's break or exception does
    assert multiprocessing.active_children() == []


def test_chunks_are_bounded_and_leave_every_worker_several() -> None:
    assert chunk_size(10, 2) == 1
    assert chunk_size(800, 2) == 50
    assert chunk_size(1_000_000, 2) == 64
    assert chunk_size(812, 2, max_chunk=8) == 8


@pytest.mark.one_thread
def test_workers_start_on_a_generator_before_it_ends(tmp_path: Path) -> None:
    """A walk that finds the items runs beside the workers: the generator here waits, before its
    last items, for a worker to have finished one (it would wait in vain if workers started only
    once every item was known).
    """
    done = tmp_path / "done"

    def mark(i: int) -> int:
        done.touch()
        return i * 3

    def found() -> Iterator[int]:
        yield from range(100)
        deadline = time.monotonic() + 30
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert done.exists(), "no worker ran while the items were still being found"
        yield from range(100, 150)

    stream = iter_in_processes(mark, found(), workers=2, parallel_from=8)
    assert list(stream) == [i * 3 for i in range(150)]


def test_a_short_generator_runs_here() -> None:
    stream = iter_in_processes(lambda i: (i, os.getpid()), (i for i in range(5)), workers=2, parallel_from=8)
    assert list(stream) == [(i, os.getpid()) for i in range(5)]


@pytest.mark.one_thread
def test_workers_freeze_what_they_inherit_and_collect_the_rest() -> None:
    """A worker's collections skip the parent's objects (the evaluator, the catalog) but still run."""
    import gc

    def collected(_: int) -> tuple[int, bool, int]:
        gc.collect()
        return gc.get_freeze_count(), gc.isenabled(), os.getpid()

    inherited = len(gc.get_objects())
    gc.disable()  # as a parent holding large tables may be
    try:
        results = map_in_processes(collected, list(range(16)), workers=2, parallel_from=8)
    finally:
        gc.enable()
    assert all(frozen >= inherited // 2 and enabled for frozen, enabled, _ in results)
    assert os.getpid() not in {pid for *_, pid in results}
    assert gc.get_freeze_count() == 0  # the parent's own objects are not frozen


_HELD = threading.Lock()  # what another thread holds while the pool starts (SQLite's mutex, say)


def _takes_the_held_lock(i: int) -> tuple[int, bool, int]:
    taken = _HELD.acquire(timeout=2)
    if taken:
        _HELD.release()
    return i, taken, os.getppid()


class _Holder:
    """Another thread of this process, holding `_HELD` until told to let go."""

    def __init__(self) -> None:
        self._go = threading.Event()
        self._held = threading.Event()
        self._thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        with _HELD:
            self._held.set()
            self._go.wait(60)

    def __enter__(self) -> None:
        self._thread.start()
        assert self._held.wait(10)

    def __exit__(self, *_: object) -> None:
        self._go.set()
        self._thread.join(10)


def test_beside_another_thread_workers_are_not_forked_from_here() -> None:
    """A child forked while another thread holds a lock finds it held for ever (the CI hang: a
    scoring worker stuck in `sqlite3.connect`); workers started beside a thread get a clean copy.
    """
    with _Holder():
        results = map_in_processes(_takes_the_held_lock, list(range(16)), workers=2, parallel_from=8)
    assert [i for i, _, _ in results] == list(range(16))
    assert all(taken for _, taken, _ in results), "a worker inherited the other thread's lock"
    assert os.getpid() not in {parent for *_, parent in results}


def test_beside_another_thread_an_unpicklable_function_runs_here() -> None:
    prepared: list[bool] = []
    with _Holder():
        results = map_in_processes(
            lambda i: (i, os.getpid()),
            list(range(16)),
            workers=2,
            parallel_from=8,
            before_fork=lambda: prepared.append(True),
        )
    assert results == [(i, os.getpid()) for i in range(16)]
    assert prepared == []  # nothing is forked, so nothing is loaded for workers


@pytest.mark.one_thread
def test_with_no_other_thread_workers_are_forked_from_here() -> None:
    assert threading.active_count() == 1
    results = map_in_processes(_takes_the_held_lock, list(range(16)), workers=2, parallel_from=8)
    assert {parent for *_, parent in results} == {os.getpid()}
