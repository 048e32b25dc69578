"""The evaluator's own steps made cheaper by `scoring.shortcuts` give exactly what the steps give.

The seam keeps pure results the library recomputes (a URL's normalization, the dataset's checksum,
a request URL's path) and builds trace events without pydantic's constructor. Each shortcut is
compared here with the library's own function, one by one and over every sample trajectory.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import random
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.harness.har_builders import CONFIG, GITLAB, SHOPPING, document, entry, xhr
from webeval_core.reading.network import Har
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.scoring import UrlConfig, official, score_trajectory, shortcuts

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_RUNS = ROOT / "sample_runs"

URLS = [
    "http://h",
    "http://h/",
    "http://h/a/b.css?x",
    "http://h/a;b/c",
    "http://h/a/b;c.js",
    "http://h?q/x.js",
    "http://h#f/x.png",
    "http://u:p@h:80/x.svg",
    "HTTP://h/x.js",
    "https://h/x%20y.woff2",
    "http://[::1]/a.js",
    "http://[::1/a",
    "http://h]/a",
    "http:/x.css",
    " http://h/a.css",
    "http://h\t/a.css",
    "http://h/a\t.css",
    "http://h/a?\t.css",
    "http://hé/a.css",
    "http://h/é.css",
    "http:///p.ico",
    "https://h/a#b?c",
    "http://h/a?b#c",
    "ftp://h/a;b",
    "//h/a.js",
    "/a/b.js",
    "",
    "http://h/a\x00b",
    "http://h:99999/x",
    "javascript:alert(1)",
    "http://h/%3b;x",
    "http://h\n/a",
]


def _path_or_error(function: Any, url: str) -> tuple[str, str]:
    try:
        return "path", function(url)
    except ValueError as exc:
        return "error", str(exc)


def test_url_path_is_urlparse_path() -> None:
    rng = random.Random(25)
    alphabet = "hts:/?#;[]@é\t\n\r .aAcsj%0x"
    fuzz = [
        rng.choice(["http://", "https://", "", "HTTP://", "http:/"])
        + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        for _ in range(20_000)
    ]
    for url in URLS + fuzz:
        assert _path_or_error(shortcuts.url_path, url) == _path_or_error(lambda u: urlparse(u).path, url), url


def test_events_are_what_the_library_constructs() -> None:
    from webarena_verified.types.tracing import NetworkEvent

    entries = [entry(url) for url in (f"{GITLAB}/a.css", f"{GITLAB}/dashboard?x=1", f"{SHOPPING}/x;y.js")]
    for made, raw in zip(shortcuts.events(entries), entries, strict=True):
        library = NetworkEvent.model_construct(data=MappingProxyType(raw))
        assert isinstance(made, NetworkEvent)
        assert made.__getstate__() == library.__getstate__()
        assert made.data["request"] is raw["request"]
        for name in ("url", "url_path", "http_method", "is_evaluation_event", "is_navigation_event"):
            assert getattr(made, name) == getattr(library, name), name


def _url_state(value: Any) -> Any:
    """A normalized URL as plain values (its type, each alternative, its rendering), to compare."""
    alternatives = getattr(value, "alternatives", None)
    if alternatives is None:
        return value
    forms = [alt.model_dump() | {"regex": alt.is_regex} for alt in alternatives]
    return type(value).__name__, forms, str(value)


def _checks(task_id: int, entries: list[dict[str, Any]]) -> list[official.NetworkCheck]:
    engine = official.engine_for(load_catalog(), UrlConfig.from_dict(CONFIG))
    trace = official.trace_of(Har(path=Path("network.har"), sha256="", entries=tuple(entries)))
    effective = official.effective_config(engine, task_id, trace)
    return official.network_checks(engine, task_id, None, trace, effective)


_URL_OPTIONS = ("ignored_query_params", "ignored_query_params_patterns", "decode_base64_query")


def _tasks_with_url_options() -> list[int]:
    """Tasks whose network checks ignore query parameters or decode base64 queries, and a few plain ones."""
    found = []
    for task in load_catalog().tasks.values():
        options = [
            [c.get(k) for k in _URL_OPTIONS]
            for c in task.evaluators
            if c.get("evaluator") == "NetworkEventEvaluator"
        ]
        if any(any(o) for o in options) or (options and len(found) < 3):
            found.append(task.task_id)
    return found[:12]


@pytest.mark.parametrize("task_id", _tasks_with_url_options())
def test_remembered_url_normalization_is_the_evaluators(task_id: int) -> None:
    urls = [
        f"{GITLAB}/a/b?x=1&y=2&sort=asc",
        f"{GITLAB}/a/b/?y=2&x=1",
        f"{SHOPPING}/admin/sales/order/index/?paging=3&namespace=sales_order_grid",
        f"{SHOPPING}/catalog/product/view/id/7/",
        "__GITLAB__/explore",
        "not a url",
        "http://[::1",
    ]
    checks = _checks(task_id, [document(f"{GITLAB}/", at=1), xhr(f"{GITLAB}/api/x", at=2)])
    assert checks
    for check in checks:
        for url in urls:
            for strict in (False, True):
                _same_normalization(check, url, strict=strict)


def _same_normalization(check: official.NetworkCheck, url: str, *, strict: bool) -> None:
    """The remembered normalization of `url` is the evaluator's own, and handed back again."""
    ev, cfg, context = check._ev, check._cfg, check._context
    original = type(ev)._normalized_url.__wrapped__
    expected = _path_or_error(lambda u: _url_state(original(ev, u, context, cfg, strict)), url)
    assert _path_or_error(lambda u: _url_state(ev._normalized_url(u, context, cfg, strict)), url) == expected
    if expected[0] == "path":
        again = ev._normalized_url(url, context=context, config=cfg, strict=strict)
        assert again is ev._normalized_url(url, context, cfg, strict)


@pytest.mark.parametrize(
    "url",
    [
        *URLS,
        "http://Bücher.example/ä?q=1",
        "http://xn--bcher-kva.example/",
        "http://a..b/",
        "http://EXAMPLE.com./x",
    ],
)
def test_memoized_url_normalize_is_url_normalize(url: str) -> None:
    official.engine_for(load_catalog(), UrlConfig.from_dict(CONFIG))
    from webarena_verified.core.evaluation.data_types import url as url_type

    normalizer = importlib.import_module("url_normalize.url_normalize")

    memoized, original = url_type.url_normalize, url_type.url_normalize.__wrapped__
    for _ in range(2):  # computed, then remembered
        assert _path_or_error(memoized, url) == _path_or_error(original, url)
    _, host = _path_or_error(lambda u: urlparse(u).hostname or u, url)
    assert _path_or_error(normalizer.normalize_host, host) == _path_or_error(
        normalizer.normalize_host.__wrapped__, host
    )


def test_the_dataset_checksum_follows_the_file(tmp_path: Path) -> None:
    official.engine_for(load_catalog(), UrlConfig.from_dict(CONFIG))
    from webarena_verified.api.internal import evaluator

    data = tmp_path / "tasks.json"
    for content in (b"[1]", b"[1]", b"[1, 2]", b"[3, 4]"):
        data.write_bytes(content)
        assert evaluator.compute_data_file_checksum(data) == hashlib.sha256(content).hexdigest()
    data.unlink()
    with pytest.raises(FileNotFoundError):
        evaluator.compute_data_file_checksum(data)


def _dataset_jsonpaths() -> list[str]:
    from webarena_verified.core.utils.jsonpath_utils import is_jsonpath_key

    found: set[str] = set()
    pending: list[Any] = [json.loads(load_catalog().path.read_text())]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            found.update(k for k in item if is_jsonpath_key(k))
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and is_jsonpath_key(item):
            found.add(item)
    return sorted(found)


_ODD_JSONPATHS = ["$", "$..a", "$.a[*].b", "$.a[1:3]", "$['a b'].c", "$.a[?(@.b > 1)]", "$.[", "$.a..", "$$"]


def test_one_jsonpath_parser_parses_as_a_new_one_each_time() -> None:
    """The shared parser gives what the library's own parse (a parser built per call) gives, for
    every JSONPath of the dataset and odd ones, errors included, and is not left broken by them."""
    official.engine_for(load_catalog(), UrlConfig.from_dict(CONFIG))
    from jsonpath_ng.ext import parse as library_parse
    from webarena_verified.core.utils import jsonpath_utils

    shared = inspect.unwrap(jsonpath_utils.parse, stop=lambda f: not hasattr(f, "cache_info"))
    paths = _dataset_jsonpaths()
    assert len(paths) > 100
    data = {"a": [{"b": 2}, {"b": 0}, {"c": "x"}], "a b": {"c": 1}}
    for path in [*_ODD_JSONPATHS, *paths, *_ODD_JSONPATHS]:
        expected = _parsed_or_error(library_parse, path, data)
        assert _parsed_or_error(shared, path, data) == expected, path
        assert _parsed_or_error(jsonpath_utils.parse, path, data) == expected, path
    assert any(_parsed_or_error(library_parse, p, data)[0] == "error" for p in _ODD_JSONPATHS)


def _parsed_or_error(parse: Any, path: str, data: Any) -> tuple[str, str]:
    try:
        expression = parse(path)
    except Exception as exc:
        return "error", f"{type(exc).__name__}: {exc}"
    return repr(expression), repr([match.value for match in expression.find(data)])


def _sample_evaluations() -> dict[Path, Any]:
    evaluations = {}
    for folder in iter_trajectory_dirs(SAMPLE_RUNS):
        outcome = score_trajectory(folder, config_root=SAMPLE_RUNS, force=True, write=False)
        if outcome.evaluation is not None:
            evaluations[folder] = outcome.evaluation.model_dump(mode="json")
    return evaluations


def test_every_sample_verdict_is_the_one_without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    with_shortcuts = _sample_evaluations()
    assert len(with_shortcuts) > 50
    from webarena_verified.api.internal import evaluator
    from webarena_verified.core.evaluation.data_types import url as url_type

    normalizer = importlib.import_module("url_normalize.url_normalize")
    from webarena_verified.core.evaluation.evaluators.network_event_evaluator import NetworkEventEvaluator
    from webarena_verified.core.utils import jsonpath_utils
    from webarena_verified.types.tracing import NetworkEvent

    for owner, name in (
        (NetworkEventEvaluator, "_normalized_url"),
        (NetworkEventEvaluator, "_filter_events_by_criteria"),
        (evaluator, "compute_data_file_checksum"),
        (jsonpath_utils, "parse"),
        (url_type, "url_normalize"),
        (normalizer, "normalize_host"),
    ):
        monkeypatch.setattr(owner, name, inspect.unwrap(getattr(owner, name)))
    monkeypatch.setattr(
        shortcuts,
        "events",
        lambda entries: tuple(NetworkEvent.model_construct(data=MappingProxyType(e)) for e in entries),
    )
    assert _sample_evaluations() == with_shortcuts


_ENGINE_THEN_IMPORT = """
import sys
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.scoring import official
module, first = sys.argv[1], sys.argv[2] == "first"
if first:
    __import__(module)
official.engine_for(load_catalog(), None)
import geopy.adapters, pint.compat
loaded = module in sys.modules
__import__(module)  # importable as usual once the engine is built
seen = {
    "dask": pint.compat.HAS_DASK, "numpy": pint.compat.HAS_NUMPY, "aiohttp": geopy.adapters.aiohttp_available
}[module]
print(loaded, seen, sys.modules[module].__name__)
"""


@pytest.mark.parametrize("module", ["dask", "aiohttp", "numpy"])
@pytest.mark.parametrize(("order", "expected"), [("after", "False False"), ("first", "True True")])
def test_the_engine_is_imported_without_unused_packages_unless_loaded(
    module: str, order: str, expected: str
) -> None:
    """pint would import dask (half a second) and numpy (a fifth), geopy aiohttp (a fifth), for
    what the library never asks of them; a process that loaded them first keeps them, seen by both."""
    run = subprocess.run(
        [sys.executable, "-c", _ENGINE_THEN_IMPORT, module, order],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.split() == [*expected.split(), module]


# Distances as agents and tasks write them, and ones pint refuses or reads oddly.
_DISTANCES = (
    "5 km",
    "100 m",
    "3.5 miles",
    "110k",
    "2500 ft",
    "1e3 m",
    "0.1 mi",
    "12 yards",
    "1/3 km",
    "-2 km",
    "3 km + 200 m",
    "2 km * 3",
    "10**20 m",
    "0.30000000000000004 km",
    "5 kg",
    "5 foo",
    "NaN km",
    "inf m",
    "1 light_year",
    "7",
    "",
)
_NORMALIZE_DISTANCES = """
import json, sys
if sys.argv[1] == "first":
    import numpy
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.scoring import official
official.engine_for(load_catalog(), None)
import pint.compat
from webarena_verified.core.evaluation.data_types.distance import Distance
out = []
for text in json.loads(sys.argv[2]):
    try:
        out.append(str(Distance(text).alternatives))
    except Exception as exc:
        out.append(f"{type(exc).__name__}: {exc}")
print(json.dumps([pint.compat.HAS_NUMPY, out]))
"""


def test_distances_read_the_same_with_or_without_numpy() -> None:
    """The only use the library makes of pint is reading distances: barring numpy must not change one."""
    seen = {}
    for order in ("after", "first"):
        run = subprocess.run(
            [sys.executable, "-c", _NORMALIZE_DISTANCES, order, json.dumps(_DISTANCES)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        seen[order] = json.loads(run.stdout)
    assert [seen["after"][0], seen["first"][0]] == [False, True]
    assert seen["after"][1] == seen["first"][1]
    assert sum("Error" not in value for value in seen["after"][1]) >= 10
