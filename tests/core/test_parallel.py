"""Mapping over forked workers: input order, progress, and unpicklable functions."""

from __future__ import annotations

import multiprocessing
import os

from webeval_core.parallel import chunk_size, iter_in_processes, map_in_processes, worker_count


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


def test_results_stream_from_one_pool_in_input_order() -> None:
    items = list(range(300))
    stream = iter_in_processes(lambda i: (i * 2, os.getpid()), items, workers=2, parallel_from=8)
    first = [next(stream) for _ in range(10)]  # the rest is still being computed
    rest = list(stream)
    results = first + rest
    assert [r[0] for r in results] == [i * 2 for i in items]
    assert len({r[1] for r in results}) <= 2 and os.getpid() not in {r[1] for r in results}


def test_a_stream_left_early_stops_its_workers() -> None:
    stream = iter_in_processes(lambda i: i, list(range(1000)), workers=2, parallel_from=8)
    assert next(stream) == 0
    stream.close()  # what a consumer's break or exception does
    assert multiprocessing.active_children() == []


def test_chunks_are_bounded_and_leave_every_worker_several() -> None:
    assert chunk_size(10, 2) == 1
    assert chunk_size(800, 2) == 50
    assert chunk_size(1_000_000, 2) == 64
