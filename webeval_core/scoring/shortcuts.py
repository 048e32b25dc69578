"""Part of the seam to `webarena_verified` (see `scoring.official`, which lists every name used here
in its RELIES_ON): the library's own steps made cheaper, never changed.

Scoring a folder repeats pure work the library does not keep: a URL normalized once per network
check and again for each request compared, the dataset file hashed on every evaluation, a
JSONPath parser rebuilt, every request's URL parsed to tell static assets. `install()` memoizes
those steps (each result kept under all that decides it) when the engine is built; `events` and
`trace_class` build a trace's events without pydantic's constructor.
tests/core/scoring/test_official_shortcuts.py compares each with the library's own function, and
every sample verdict with and without them.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlparse

# Each barred when not loaded, and only when those it names are barred too: pint imports dask.array
# with dask loaded, and that needs numpy.
_UNUSED_IMPORTS: dict[str, tuple[str, ...]] = {"dask": (), "aiohttp": (), "numpy": ("dask",)}


@contextlib.contextmanager
def lean_import() -> Iterator[None]:
    """Import the library without the packages its dependencies load and it never uses.

    pint, which the library imports for distances, imports dask and dask.array whenever they are
    installed (they are, for `score --cluster`): half a second of every `webeval score`, spent
    before any worker starts, for arrays the library never gives pint; and numpy, a fifth of a
    second more, for the same arrays (it reads each distance's text into a Python number). geopy,
    of which the library uses `Point` alone, imports aiohttp for its asynchronous geocoders: a
    fifth more. Inside this block importing them fails, as if they were not installed (each
    takes that as "not available"); after it, they import as usual. One already loaded (a
    cluster's worker or client has dask, a blob root's reader aiohttp, a page pandas and numpy)
    is left alone, and numpy too while dask is loaded (its arrays need numpy).
    """
    barred: list[str] = []
    for name, needs in _UNUSED_IMPORTS.items():
        if name not in sys.modules and all(other in barred for other in needs):
            barred.append(name)
    for name in barred:
        sys.modules[name] = None  # type: ignore[assignment]  # None here makes `import name` fail
    try:
        yield
    finally:
        for name in barred:
            if sys.modules.get(name, "") is None:
                del sys.modules[name]


def install() -> None:
    """Memoize the library's pure steps in this process (once; again is harmless)."""
    _cache_jsonpath_parser()
    _cache_url_normalize()
    _remember_filtered_events()
    _remember_normalized_urls()
    _remember_data_checksums()


def _remember_filtered_events() -> None:
    # The provenance replays each network check's URL/method/referer filter, which the verdict
    # has just run on the same events with the same check: a URL normalization per request, most
    # of a mutate task's time. The filter is a pure function of those objects, so its last results
    # are kept while one trace is scored (held, so no id is reused) and given back to the replay.
    from webarena_verified.core.evaluation.evaluators.network_event_evaluator import NetworkEventEvaluator

    original = NetworkEventEvaluator._filter_events_by_criteria
    if getattr(original, "remembers", False):
        return
    kept: dict[tuple[int, ...], tuple[Any, ...]] = {}
    lock = threading.Lock()

    @functools.wraps(original)
    def filtered(self: Any, events: Any, context: Any, config: Any) -> Any:
        inputs = (events, config, context.task, context.config)
        key = tuple(map(id, inputs))
        with lock:
            hit = kept.get(key)
        if hit is not None and all(a is b for a, b in zip(hit, inputs, strict=False)):
            return hit[-1]
        result = original(self, events, context, config)
        with lock:
            if any(held[0] is not events for held in kept.values()):
                kept.clear()  # another trace: only the one being scored is held
            kept[key] = (*inputs, result)
        return result

    filtered.remembers = True  # type: ignore[attr-defined]
    NetworkEventEvaluator._filter_events_by_criteria = filtered


_URLS_KEPT = 10_000  # normalized URLs a process keeps (a few HARs' worth, tens of MB), then starts again


def _remember_normalized_urls() -> None:
    # The network evaluator normalizes every request URL it searches once per check, and again for
    # each request it compares; the provenance replays the same steps: a URL normalization is most
    # of a mutate task's time. It is a pure function of the URL, `strict`, the check's URL options,
    # the task's sites and the URL config, so the result is kept under exactly those (the config
    # and schema objects held, so no id is reused) and the same immutable object handed back.
    from webarena_verified.core.evaluation.evaluators.network_event_evaluator import NetworkEventEvaluator

    original = NetworkEventEvaluator._normalized_url
    if getattr(original, "remembers", False):
        return
    kept: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}
    lock = threading.Lock()

    @functools.wraps(original)
    def normalized(
        self: Any, url: Any, context: Any, config: Any, strict: bool, query_params: Any = None
    ) -> Any:
        if query_params is not None or not isinstance(url, str):
            return original(self, url, context, config, strict, query_params)  # expected values: rare
        schema = config.query_params_schema
        key = (
            url,
            strict,
            config.decode_base64_query,
            config.ignored_query_params,
            config.ignored_query_params_patterns,
            id(schema),
            id(context.config),
            context.task.sites,
        )
        try:
            with lock:
                hit = kept.get(key)
        except TypeError:  # an option of a type that cannot be a key: normalized as given
            return original(self, url, context, config, strict, query_params)
        if hit is not None and hit[0] is context.config and hit[1] is schema:
            return hit[2]
        result = original(self, url, context, config, strict, query_params)
        with lock:
            if len(kept) >= _URLS_KEPT:
                kept.clear()
            kept[key] = (context.config, schema, result)
        return result

    normalized.remembers = True  # type: ignore[attr-defined]
    NetworkEventEvaluator._normalized_url = normalized


def _remember_data_checksums() -> None:
    # The evaluator hashes the whole dataset file (over a megabyte) on every evaluate_task to record
    # its checksum in the result: most of a millisecond a task. The checksum is kept per file for as
    # long as the file's identity, size and times are those seen before and after hashing it.
    from webarena_verified.api.internal import evaluator

    original = evaluator.compute_data_file_checksum
    if getattr(original, "remembers", False):
        return
    kept: dict[str, tuple[tuple[int, ...], str]] = {}
    lock = threading.Lock()

    @functools.wraps(original)
    def checksum(file_path: str | Path) -> str:
        name = str(file_path)
        seen = _file_identity(name)
        with lock:
            hit = kept.get(name)
        if seen is not None and hit is not None and hit[0] == seen:
            return hit[1]
        value: str = original(file_path)
        if seen is not None and _file_identity(name) == seen:
            with lock:
                kept[name] = (seen, value)
        return value

    checksum.remembers = True  # type: ignore[attr-defined]
    evaluator.compute_data_file_checksum = checksum


def _file_identity(name: str) -> tuple[int, ...] | None:
    try:
        found = os.stat(name)
    except OSError:
        return None
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


def _cache_jsonpath_parser() -> None:
    # jsonpath-ng builds a new LALR parser, tables and all, for every parse (tens of milliseconds,
    # once per JSONPath key of every request compared). The tables depend on the grammar alone, so
    # one parser serves every parse of the process, built here, before the pool forks, so workers
    # inherit it; and parsing is a pure function of the path, so each path is parsed once.
    from jsonpath_ng.ext.parser import ExtentedJsonPathParser
    from webarena_verified.core.utils import jsonpath_utils

    original = jsonpath_utils.parse
    if hasattr(original, "cache_info"):
        return
    parser = ExtentedJsonPathParser()
    lock = threading.Lock()  # a PLY parser keeps its stacks on itself: one parse at a time

    @functools.wraps(original)
    def parse(path: str) -> Any:
        with lock:
            return parser.parse(path)

    jsonpath_utils.parse = functools.lru_cache(maxsize=4096)(parse)


def _cache_url_normalize() -> None:
    # The library's URL type runs url_normalize twice on every URL it normalizes (for its
    # components, then for its query), and url_normalize encodes the host with IDNA every time:
    # half of a URL's normalization. Both are pure functions of their strings (what they raise,
    # they raise again), so both are memoized: no verdict can change.
    from webarena_verified.core.evaluation.data_types import url as url_type

    # The module, not the function its package re-exports under the same name.
    normalizer: Any = importlib.import_module("url_normalize.url_normalize")
    if not hasattr(url_type.url_normalize, "cache_info"):
        url_type.url_normalize = functools.lru_cache(maxsize=8192)(url_type.url_normalize)
    if not hasattr(normalizer.normalize_host, "cache_info"):
        normalizer.normalize_host = functools.lru_cache(maxsize=1024)(normalizer.normalize_host)


def events(entries: Sequence[dict[str, Any]]) -> tuple[Any, ...]:
    """What `load_trace_from_content` builds for HAR entries, without validating each event again
    (its only field is the entry, taken as is); our reader has checked every entry.

    Each is exactly what `model_construct(data=MappingProxyType(entry))` makes (the test of this
    module compares their state), its four attributes set directly: a third of the time, for a
    few hundred events a HAR.
    """
    event_class = _event_class()
    new, assign = object.__new__, object.__setattr__
    events = []
    for entry in entries:
        event = new(event_class)
        assign(event, "__dict__", {"data": MappingProxyType(entry)})
        assign(event, "__pydantic_fields_set__", {"data"})
        assign(event, "__pydantic_extra__", None)
        assign(event, "__pydantic_private__", None)
        events.append(event)
    return tuple(events)


@functools.cache
def _event_class() -> Any:
    """The library's NetworkEvent, its `url_path` (what `is_evaluation_event` tests against the
    static-asset suffixes, for every request of a trace) computed by `url_path` below.
    """
    from webarena_verified.types.tracing import NetworkEvent

    class _Event(NetworkEvent):  # type: ignore[misc]
        @property
        def url_path(self) -> str:
            return url_path(self.url)

    return _Event


# An absolute http(s) URL whose path urlparse finds where it starts and ends: no tab or newline
# (removed first) in its host or path, no IPv6 or non-ASCII host (checked), no `;params` (split off).
_PLAIN_URL = re.compile(r"https?://[^/?#\[\]\t\r\n\x80-\U0010ffff]*((?:/[^?#;\t\r\n]*)?)(?=[?#]|\Z)")


def url_path(url: str) -> str:
    """`urllib.parse.urlparse(url).path`, without urlparse's work for the usual absolute URL.

    Any other URL is given to urlparse itself (which raises as it does for the library).
    """
    plain = _PLAIN_URL.match(url)
    return plain.group(1) if plain is not None else urlparse(url).path


@functools.cache
def trace_class() -> Any:
    """The library's NetworkTrace, its `evaluation_events` computed once per trace.

    The library recomputes them (a URL parse per request) on each access: once per network check,
    and again for the provenance, most of a mutate task's time. They are a pure function of the
    trace's frozen events, so keeping them changes no verdict.
    """
    from webarena_verified.types.tracing import NetworkTrace

    class _OnceTrace(NetworkTrace):  # type: ignore[misc]
        @functools.cached_property
        def evaluation_events(self) -> tuple[Any, ...]:
            return NetworkTrace.evaluation_events.fget(self)  # type: ignore[no-any-return]

    return _OnceTrace
