"""Mapping a function over many items in worker processes, with progress.

Scoring a run and indexing a root both do the same per-folder work thousands of times. Workers
are forked, so they inherit what the parent already loaded (the evaluator, the task catalog) and
the function itself, which is never pickled. Small batches run in the calling process: starting
workers costs more than it saves.

Forking is only safe from a process that runs no other thread: a child inherits every lock as it
was at the fork, and one held by another thread (SQLite's, inside a background refresh or a
remote mirror's prefetch) is never let go in it; the child hangs at its first `sqlite3.connect`.
So a caller with other threads alive (the app's server, a remote root's prefetch, a test beside
them) gets workers forked from a clean server process (`forkserver`), which are handed the
function pickled and load what it needs themselves (scoring the sample's 109 trajectories on two
workers: 3.2-3.8 s against 2.2 s forked); a function that cannot be pickled then runs in the
calling process. As with Python 3.14's default start method, such workers import the main script
again, so a script that scores beside its own threads keeps the `if __name__ == "__main__"` guard.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

ProgressCallback = Callable[[int, int], None]
"""Called with (done, total) as items finish."""

_worker_function: Callable[[Any], Any] | None = None
_MAX_CHUNK = 64
_CHUNKS_EACH = 8  # chunks per worker at least, so the last one does not finish alone


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
    max_chunk: int = _MAX_CHUNK,
) -> list[Result]:
    """`function` applied to every item, results in input order (`iter_in_processes`, collected)."""
    results: list[Result] = []
    total = len(items)
    for result in iter_in_processes(
        function,
        items,
        workers=workers,
        parallel_from=parallel_from,
        before_fork=before_fork,
        max_chunk=max_chunk,
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
    max_chunk: int = _MAX_CHUNK,
) -> Iterator[Result]:
    """`function` applied to every item, yielded in input order as they finish.

    Every item is taken from `items` before this returns. In workers that happens while the first
    items are already being worked on, so a generator that finds them (a walk of folders) runs
    beside the workers instead of before them. With fewer than `parallel_from` items or a single
    worker, everything runs here, as the results are asked for; otherwise in `workers` forked
    processes (one pool for all items), in chunks. `before_fork` runs first in that case, to load
    what workers should inherit (only when they can: see the module's docstring). Ctrl-C is the
    parent's: it cancels what has not started, waits for the items in progress (so none is left
    half-done) and is raised again; so does leaving the results early. `max_chunk` bounds the
    items sent to a worker at once (`chunk_size`).
    """
    source = iter(items)
    head = list(itertools.islice(source, parallel_from))
    context = _worker_context(function) if workers > 1 and len(head) >= parallel_from else None
    if context is None:
        return map(function, head + list(source))
    if before_fork is not None and context.get_start_method() == "fork":
        before_fork()
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(function,)
    )
    total = len(items) if isinstance(items, Sized) else None
    try:
        chunks = _chunks(itertools.chain(head, source), workers, total, max_chunk)
        futures = [pool.submit(_run_chunk, chunk) for chunk in chunks]
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    return _drain(pool, futures)


def _chunks(
    items: Iterator[Item], workers: int, total: int | None, max_chunk: int = _MAX_CHUNK
) -> Iterator[list[Item]]:
    """`items` in chunks of `chunk_size`; without a total, sized by how many came so far (small
    first, so the workers start at once; as large as they get once a thousand items have come).
    """
    taken = 0
    while True:
        size = chunk_size(total if total is not None else taken, workers, max_chunk)
        chunk = list(itertools.islice(items, size))
        if not chunk:
            return
        taken += len(chunk)
        yield chunk


def _drain(pool: ProcessPoolExecutor, futures: list[Future[list[Result]]]) -> Iterator[Result]:
    futures.reverse()  # popped in input order: each result is let go once handed on
    try:
        while futures:
            yield from futures.pop().result()
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()


def chunk_size(total: int, workers: int, max_chunk: int = _MAX_CHUNK) -> int:
    """Items per message to a worker: large enough that pickling and pipes cost little per item,
    small enough that every worker gets several chunks (and the last one does not finish alone).
    """
    return max(1, min(max_chunk, total // (workers * _CHUNKS_EACH)))


def _worker_context(function: Callable[[Any], Any]) -> Any:
    """How workers start: forked from here when nothing else runs here, else from a clean server
    process with `function` pickled; None when neither is safe (the function cannot be pickled).
    """
    methods = multiprocessing.get_all_start_methods()
    if threading.active_count() == 1 and "fork" in methods:
        return multiprocessing.get_context("fork")
    if not _picklable(function):
        return None
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # The server imports the function's module once (taken when it first starts); every worker is
    # forked from it with those imports done.
    context.set_forkserver_preload([getattr(function, "func", function).__module__])
    return context


def _picklable(function: Callable[[Any], Any]) -> bool:
    try:
        pickle.dumps(function)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


def _init_worker(function: Callable[[Any], Any]) -> None:
    # Ctrl-C is the parent's to handle (see map_in_processes); a worker finishes its item.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # What the worker inherited (the evaluator, the task catalog) lives as long as it does: frozen,
    # collections never scan it again; a full collection over it costs a scoring worker more than
    # a task. The parent may have paused collection while it holds large tables; workers make garbage.
    gc.freeze()
    gc.enable()
    global _worker_function  # noqa: PLW0603 - the pool's only way to hand a worker its unpicklable function
    _worker_function = function


def _run_chunk(chunk: list[Any]) -> list[Any]:
    function = _worker_function
    assert function is not None, "worker used before its initializer ran"
    return [function(item) for item in chunk]
