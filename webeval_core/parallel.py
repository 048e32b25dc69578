"""Mapping a function over many items in worker processes, with progress.

Scoring a run and indexing a root both do the same per-folder work thousands of times. Workers
are forked, so they inherit what the parent already loaded (the evaluator, the task catalog) and
the function itself, which is never pickled. Small batches run in the calling process: starting
workers costs more than it saves.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

ProgressCallback = Callable[[int, int], None]
"""Called with (done, total) as items finish."""

_worker_function: Callable[[Any], Any] | None = None
_MAX_CHUNK = 64
_STREAM_CHUNK = 16  # items per message when their number is not known yet


def worker_count(jobs: int, total: int) -> int:
    """Workers for `total` items when `jobs` are asked for (0: one per core)."""
    return min(jobs if jobs > 0 else os.cpu_count() or 1, total)


def map_in_processes(
    function: Callable[[Item], Result],
    items: Sequence[Item],
    *,
    workers: int,
    parallel_from: int,
    on_progress: ProgressCallback | None = None,
    before_fork: Callable[[], None] | None = None,
) -> list[Result]:
    """`function` applied to every item, results in input order (`iter_in_processes`, collected)."""
    results: list[Result] = []
    total = len(items)
    for result in iter_in_processes(
        function, items, workers=workers, parallel_from=parallel_from, before_fork=before_fork
    ):
        results.append(result)
        if on_progress:
            on_progress(len(results), total)
    return results


def iter_in_processes(
    function: Callable[[Item], Result],
    items: Iterable[Item],
    *,
    workers: int,
    parallel_from: int,
    before_fork: Callable[[], None] | None = None,
) -> Iterator[Result]:
    """`function` applied to every item, yielded in input order as they finish.

    Every item is taken from `items` before this returns. In workers that happens while the first
    items are already being worked on, so a generator that finds them (a walk of folders) runs
    beside the workers instead of before them. With fewer than `parallel_from` items or a single
    worker, everything runs here, as the results are asked for; otherwise in `workers` forked
    processes (one pool for all items), in chunks. `before_fork` runs first in that case, to load
    what workers should inherit. Ctrl-C is the parent's: it cancels what has not started, waits
    for the items in progress (so none is left half-done) and is raised again; so does leaving
    the results early.
    """
    source = iter(items)
    head = list(itertools.islice(source, parallel_from))
    if workers <= 1 or len(head) < parallel_from:
        return map(function, head + list(source))
    if before_fork is not None:
        before_fork()
    # A generator's length is unknown until it ends, which is the point of taking it as it comes.
    chunk = chunk_size(len(items), workers) if isinstance(items, Sized) else _STREAM_CHUNK
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=_fork_context(), initializer=_init_worker, initargs=(function,)
    )
    try:
        results = pool.map(_run, itertools.chain(head, source), chunksize=chunk)
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    return _drain(pool, results)


def _drain(pool: ProcessPoolExecutor, results: Iterator[Result]) -> Iterator[Result]:
    try:
        yield from results
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()


def chunk_size(total: int, workers: int) -> int:
    """Items per message to a worker: large enough that pickling and pipes cost little per item,
    small enough that every worker gets several chunks (and the last one does not finish alone).
    """
    return max(1, min(_MAX_CHUNK, total // (workers * 8)))


def _fork_context() -> Any:
    # Forked workers inherit the function and what it closes over; where fork is unavailable the
    # default start method pickles them instead.
    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _init_worker(function: Callable[[Any], Any]) -> None:
    # Ctrl-C is the parent's to handle (see map_in_processes); a worker finishes its item.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.enable()  # the parent may have paused collection while it holds large tables; workers make garbage
    global _worker_function  # noqa: PLW0603 - the pool's only way to hand a worker its unpicklable function
    _worker_function = function


def _run(item: Any) -> Any:
    assert _worker_function is not None, "worker used before its initializer ran"
    return _worker_function(item)
