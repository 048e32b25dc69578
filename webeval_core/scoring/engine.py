"""WebArena-Verified scoring: the official evaluator's verdict plus where each network check looked.

The verdict is always what the installed `webarena_verified` library computes; it is imported
lazily (it takes most of a second) and kept once per process and URL config. Around it we add
what its result does not say: for every NetworkEventEvaluator config, the HAR entries it
considered, the one it kept, field-by-field differences after normalization and the agent step
during which each request fired. That provenance is computed with the evaluator's own
filtering, extraction, normalization and comparison methods, so it cannot drift from the verdict.

Verdicts are written to `scores/<eval_hash>.json` in the Fara score-file shape; the name pins the
engine version, its checksum, the dataset checksum and the URL config, so a different engine or
config never overwrites an older verdict.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import multiprocessing
import os
import signal
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, computed_field

from webeval_core.diagnostics import UnreadableError
from webeval_core.reading.network import Har, TimedStep, read_har, step_for_time
from webeval_core.reading.response import AgentResponse, parse_agent_response
from webeval_core.reading.scorefiles import SCORES_DIR
from webeval_core.reading.tasks import SITES, Task, TaskCatalog, load_catalog
from webeval_core.reading.trajectory import Trajectory, load_trajectory

if TYPE_CHECKING:
    from webarena_verified.types.eval import TaskEvalContext
    from webarena_verified.types.task import NetworkEventEvaluatorCfg
    from webarena_verified.types.tracing import NetworkEvent as EngineEvent
    from webarena_verified.types.tracing import NetworkTrace

ENGINE_NAME = "webarena-verified"
CONFIG_FILE_NAME = "webarena-verified-config.json"
RUN_CONFIG_FILE_NAME = "run_config.json"  # the official CLI's per-task config, beside agent_response.json

Status = Literal["success", "failure", "error", "excluded"]
ProgressCallback = Callable[[int, int], None]

# Keys of the official WebArenaVerifiedConfig / EnvironmentConfig; anything else is a typo the
# official loader would silently ignore.
_CONFIG_KEYS = {
    "environments",
    "test_data_file",
    "agent_response_file_name",
    "trace_file_name",
    "eval_result_file_name",
    "storage_state_file_name",
}
_ENVIRONMENT_KEYS = {"urls", "active_url_idx", "use_header_login", "credentials", "extra", "container"}
_PLACEHOLDERS = {f"__{site.upper()}__": site for site in SITES}


# --- URL config -----------------------------------------------------------------------------


class UrlConfig(BaseModel):
    """A site URL mapping in the official shape: placeholder -> environment (urls, ...)."""

    model_config = ConfigDict(frozen=True)

    environments: dict[str, dict[str, Any]]
    """Keyed by placeholder, e.g. "__GITLAB__"."""
    path: Path | None = None
    """The file it was read from."""
    test_data_file: Path | None = None
    warnings: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, raw: Any, path: Path | None = None) -> UrlConfig:
        """Validate the official config shape; raises ValueError with a plain reason."""
        if not isinstance(raw, dict):
            raise ValueError("the config must be a JSON object")
        unknown = sorted(set(raw) - _CONFIG_KEYS)
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_CONFIG_KEYS))})")
        environments = raw.get("environments") or {}
        if not isinstance(environments, dict):
            raise ValueError("'environments' must be an object keyed by site placeholder")
        parsed: dict[str, dict[str, Any]] = {}
        warnings = []
        for key, env in environments.items():
            placeholder = _placeholder(key)
            if placeholder is None:
                raise ValueError(f"unknown site {key!r} (known: {', '.join(sorted(_PLACEHOLDERS))})")
            if not isinstance(env, dict):
                raise ValueError(f"{key}: expected an object with 'urls'")
            bad = sorted(set(env) - _ENVIRONMENT_KEYS)
            if bad:
                raise ValueError(
                    f"{key}: unknown key {bad[0]!r} (known: {', '.join(sorted(_ENVIRONMENT_KEYS))})"
                )
            urls = env.get("urls")
            if not isinstance(urls, list) or not urls or not all(isinstance(u, str) and u for u in urls):
                raise ValueError(f"{key}: 'urls' must be a non-empty list of URLs")
            if placeholder == "__SHOPPING_ADMIN__" and not any("/admin" in u for u in urls):
                warnings.append(
                    "the __SHOPPING_ADMIN__ URL has no /admin path, "
                    "so admin URLs will not map to the placeholder"
                )
            parsed[placeholder] = env
        data_file = raw.get("test_data_file")
        if data_file is not None and not isinstance(data_file, str):
            raise ValueError("'test_data_file' must be a path")
        return cls(
            environments=parsed,
            path=path,
            test_data_file=Path(data_file) if data_file else None,
            warnings=tuple(warnings),
        )

    def urls(self) -> dict[str, list[str]]:
        return {placeholder: list(env["urls"]) for placeholder, env in sorted(self.environments.items())}

    def identity(self) -> str:
        """What in the config can change a verdict: the URLs and which one is active."""
        return json.dumps(
            {
                p: {"urls": env["urls"], "active_url_idx": env.get("active_url_idx") or 0}
                for p, env in self.environments.items()
            },
            sort_keys=True,
        )


def _placeholder(key: Any) -> str | None:
    # The official WebArenaSite accepts "__GITLAB__", "gitlab" and "GITLAB".
    if not isinstance(key, str):
        return None
    stripped = key.strip("_").lower()
    return f"__{stripped.upper()}__" if stripped in SITES else None


_config_cache: dict[tuple[Path, int, int], UrlConfig] = {}
_config_lock = threading.Lock()


def load_url_config(path: Path | str) -> UrlConfig:
    """Read a config file (cached until it changes); raises UnreadableError with a plain reason."""
    file = Path(path).resolve()
    try:
        stat = file.stat()
    except OSError:
        raise UnreadableError(file, "config file not found") from None
    key = (file, stat.st_mtime_ns, stat.st_size)
    with _config_lock:
        cached = _config_cache.get(key)
    if cached is not None:
        return cached
    try:
        raw = json.loads(file.read_bytes())
    except (OSError, UnicodeDecodeError) as exc:
        raise UnreadableError(file, f"config file cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise UnreadableError(file, f"config file is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    try:
        config = UrlConfig.from_dict(raw, path=file)
    except ValueError as exc:
        raise UnreadableError(file, str(exc)) from None
    with _config_lock:
        _config_cache[key] = config
    return config


def find_url_config(trajectory_dir: Path, root: Path | None = None) -> Path | None:
    """The config that applies to a trajectory folder when none is given explicitly.

    `run_config.json` in the folder (what the official CLI uses per task), else the nearest
    `webarena-verified-config.json` in the folder or its ancestors, up to `root` when given.
    """
    folder = Path(trajectory_dir).resolve()
    run_config = folder / RUN_CONFIG_FILE_NAME
    if run_config.is_file():
        return run_config
    stop = Path(root).resolve() if root is not None else None
    for directory in (folder, *folder.parents):
        candidate = directory / CONFIG_FILE_NAME
        if candidate.is_file():
            return candidate
        if directory == stop:
            break
    return None


# --- the engine -----------------------------------------------------------------------------


class _Engine:
    """One official evaluator for one dataset and URL config (built once per process)."""

    def __init__(self, catalog: TaskCatalog, config: UrlConfig | None) -> None:
        from webarena_verified.api.internal.data_reader import TOTAL_TASK_COUNT, WebArenaVerifiedDataReader
        from webarena_verified.api.internal.evaluator import WebArenaVerifiedEvaluator
        from webarena_verified.core.evaluation.evaluators.network_event_evaluator import NetworkEventEvaluator
        from webarena_verified.core.utils.checksum import compute_evaluator_checksum
        from webarena_verified.types.config import WebArenaVerifiedConfig
        from webarena_verified.types.data import TaskSubset
        from webarena_verified.types.eval import WEBARENA_VERIFIED_VERSION

        _quiet_engine_logs()
        _cache_jsonpath_parser()
        environments = dict(config.environments) if config else None
        self.config = WebArenaVerifiedConfig(test_data_file=catalog.path, environments=environments)
        ids = sorted(catalog.tasks)
        # The reader insists on exactly 812 tasks unless given a subset; another dataset file
        # is read as a subset of all its own ids.
        subset = (
            None
            if len(ids) == TOTAL_TASK_COUNT
            else TaskSubset(task_ids=ids, checksum=TaskSubset.compute_checksum(ids))
        )
        try:
            self.reader = WebArenaVerifiedDataReader(self.config, subset=subset)
        except ValueError as exc:
            raise UnreadableError(catalog.path, f"the evaluator rejects this dataset file: {exc}") from None
        self.evaluator = WebArenaVerifiedEvaluator(config=self.config, reader=self.reader)
        self.network = NetworkEventEvaluator()
        self.version = WEBARENA_VERIFIED_VERSION
        self.evaluator_checksum = compute_evaluator_checksum()
        self.data_checksum = catalog.checksum
        digest = hashlib.sha256(
            "\n".join(
                (self.evaluator_checksum, self.data_checksum, config.identity() if config else "guess")
            ).encode()
        ).hexdigest()
        self.eval_hash = f"{ENGINE_NAME}-{self.version}-{digest[:8]}"


_engines: dict[tuple[str, str], _Engine] = {}
_engines_lock = threading.Lock()


def _engine(catalog: TaskCatalog, config: UrlConfig | None) -> _Engine:
    key = (f"{catalog.path}:{catalog.checksum}", config.identity() if config else "")
    with _engines_lock:
        engine = _engines.get(key)
        if engine is None:
            engine = _engines[key] = _Engine(catalog, config)
    return engine


def _quiet_engine_logs() -> None:
    # The library logs every evaluation and prints tracebacks for inputs it rejects; those
    # outcomes reach the user through the result instead, so its loggers get a null handler.
    for name in ("WebArena-Verified", "webarena_verified"):
        logger = logging.getLogger(name)
        if not logger.handlers:
            logger.addHandler(logging.NullHandler())
            logger.propagate = False


def _cache_jsonpath_parser() -> None:
    # jsonpath-ng rebuilds its LALR parser tables on every parse (tens of milliseconds, once per
    # JSONPath key of every request compared). Parsing is a pure function of the path, so the
    # evaluator's parse is memoized: no verdict can change, mutate tasks score several times faster.
    from webarena_verified.core.utils import jsonpath_utils

    if not hasattr(jsonpath_utils.parse, "cache_info"):
        jsonpath_utils.parse = functools.lru_cache(maxsize=4096)(jsonpath_utils.parse)


def _empty_trace() -> NetworkTrace:
    from webarena_verified.types.tracing import NetworkTrace

    return NetworkTrace.model_construct(is_playwright=False, src_file=Path("<no trace>"), events=())


# --- provenance models ----------------------------------------------------------------------


class FieldDiff(BaseModel):
    """One expected field of a network check against one request, after normalization."""

    model_config = ConfigDict(frozen=True)

    field: str
    """E.g. "url", "response_status", "post_data.title", "headers.referer"."""
    expected: Any
    actual: Any
    matches: bool
    message: str | None = None


class Candidate(BaseModel):
    """A HAR entry that passed the evaluator's URL/method/referer filter for one network check."""

    model_config = ConfigDict(frozen=True)

    har_index: int | None
    started: datetime | None
    method: str
    url: str
    status: int | None
    step: int | None
    """Agent step during which the request fired."""
    is_document: bool
    """A page navigation by the evaluator's rule."""
    kept: bool
    """Compared by the evaluator (only the last one when last_event_only)"""
    matched: bool | None
    """All fields match (None when it could not be normalized)"""
    fields: tuple[FieldDiff, ...] = ()
    error: str | None = None


class NetworkCheckTrace(BaseModel):
    """What one NetworkEventEvaluator config looked at and why it passed or failed."""

    model_config = ConfigDict(frozen=True)

    position: int
    """Index in the task's eval list and in evaluators_results."""
    expected_url: str | tuple[str, ...]
    http_method: str
    last_event_only: bool
    should_not_exist: bool
    considered: int
    """Requests the evaluator searched (static assets excluded)"""
    candidates: tuple[Candidate, ...]
    kept: tuple[int, ...]
    """HAR indices the evaluator compared."""
    matched: int | None
    """HAR index of the kept request that matched."""
    passed: bool | None
    """Verdict by this provenance; None when the evaluator errored."""
    official_status: str | None
    navigate_last_document_only: bool
    """The upstream navigate-task shortcut applied."""
    limitation: str | None = None
    """Set when that shortcut decided the verdict."""
    explanation: str
    error: str | None = None


class EngineInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    version: str
    evaluator_checksum: str
    data_checksum: str
    eval_hash: str


class UrlConfigUse(BaseModel):
    """The URL mapping a verdict was computed with."""

    model_config = ConfigDict(frozen=True)

    source: str | None
    """Config file relative to the trajectory folder, or None."""
    urls: dict[str, list[str]]
    guessed: dict[str, list[str]] = {}
    """Sites the evaluator guessed from the HAR."""


class Evaluation(BaseModel):
    """Everything one scoring computed; stored as JSON in the score file's gpt_response_text."""

    model_config = ConfigDict(frozen=True)

    engine: EngineInfo
    task_id: int
    outcome: Literal["answered", "no_answer"]
    """The trajectory outcome it was scored as."""
    agent_response: AgentResponse | None
    har: str | None
    """HAR file name, when one was used."""
    url_config: UrlConfigUse
    result: dict[str, Any]
    """The official TaskEvalResult, as its CLI writes it."""
    network: tuple[NetworkCheckTrace, ...]
    notes: tuple[str, ...]
    inputs: dict[str, str | None]
    """Digests of what was scored, to reuse an up-to-date score file."""

    @property
    def status(self) -> str:
        return str(self.result.get("status"))

    @property
    def score(self) -> float:
        return float(self.result.get("score") or 0.0)


# --- one evaluation -------------------------------------------------------------------------


def evaluate(
    task: Task,
    answer: str | None,
    har: Har | UnreadableError | None,
    *,
    catalog: TaskCatalog,
    config: UrlConfig | None,
    config_source: str | None = None,
    steps: Sequence[TimedStep] = (),
    outcome: Literal["answered", "no_answer"] = "answered",
) -> Evaluation:
    """Score one answer (None: the agent gave none) against one task with the official evaluator.

    `har` is the parsed HAR, the reason it could not be read, or None when there is none. Tasks
    with network checks need a HAR (see `har_problem`); other tasks are given an empty trace.
    """
    engine = _engine(catalog, config)
    notes = list(config.warnings) if config else []
    response = parse_agent_response(answer) if answer is not None else None
    trace = _trace(har) if isinstance(har, Har) else _empty_trace()
    if isinstance(har, UnreadableError):
        notes.append(
            f"{Path(str(har.path)).name} {har.reason}; "
            "this task has no network checks, so it was scored without it"
        )
    runner = engine
    unmapped = [p for p in _task_placeholders(task) if config is None or p not in config.environments]
    if unmapped and not task.network_checks and not trace.evaluation_events:
        # The evaluator guesses missing URLs from the trace; with no trace it refuses to run. A
        # task without network checks only needs URLs to map ones inside the answer, so unmapped
        # sites get unroutable stand-ins and the user is told.
        runner = _engine(catalog, _with_stand_ins(config, task))
        notes.append(
            f"no URL mapping for {', '.join(unmapped)} and no HAR to guess it from; "
            "URLs in the answer stay unmapped"
        )
    effective, guessed, config_error = _effective_config(runner, task, trace)
    if guessed and runner is engine:
        notes.append(
            f"no URL mapping for {', '.join(unmapped)}; the evaluator guessed "
            + "; ".join(f"{p} = {', '.join(urls)}" for p, urls in guessed.items())
            + " from the HAR (guesses can be wrong for multi-site tasks: pass a config)"
        )
    engine_input: Any = response.engine_input if response is not None else None
    result = runner.evaluator.evaluate_task(
        task_id=task.task_id, agent_response=engine_input, network_trace=trace
    )
    dumped = result.model_dump(mode="json", exclude_none=True)
    network = _network_traces(runner, task, engine_input, trace, effective, config_error, dumped, har, steps)
    return Evaluation(
        engine=EngineInfo(
            name=ENGINE_NAME,
            version=engine.version,
            evaluator_checksum=engine.evaluator_checksum,
            data_checksum=engine.data_checksum,
            eval_hash=engine.eval_hash,
        ),
        task_id=task.task_id,
        outcome=outcome,
        agent_response=response,
        har=har.path.name if isinstance(har, Har) else None,
        url_config=UrlConfigUse(
            source=config_source,
            urls=config.urls() if config else {},
            guessed=guessed if runner is engine else {},
        ),
        result=dumped,
        network=network,
        notes=tuple(notes),
        inputs={},
    )


def har_problem(task: Task, har: Har | UnreadableError | None) -> str | None:
    """Why this task cannot be scored with this HAR, or None when it can."""
    if isinstance(har, Har) or not task.network_checks:
        return None
    checks = f"task {task.task_id} has {len(task.network_checks)} network check(s)"
    if har is None:
        return f"no network.har in the folder, and {checks}"
    return f"{Path(str(har.path)).name} {har.reason}, and {checks}"


_PLACEHOLDERS_BY_SITE = {site: placeholder for placeholder, site in _PLACEHOLDERS.items()}


def _task_placeholders(task: Task) -> list[str]:
    return [_PLACEHOLDERS_BY_SITE[site] for site in task.sites]


def _with_stand_ins(config: UrlConfig | None, task: Task) -> UrlConfig:
    environments = dict(config.environments) if config else {}
    for site in task.sites:
        environments.setdefault(_PLACEHOLDERS_BY_SITE[site], {"urls": [f"http://unmapped-{site}.invalid"]})
    return UrlConfig(environments=environments)


def _trace(har: Har) -> NetworkTrace:
    from webarena_verified.types.tracing import NetworkTrace

    # The same entries the HAR file holds, in order: trace.events[i] is HAR entry i.
    return NetworkTrace.from_content(list(har.entries))


def _effective_config(
    engine: _Engine, task: Task, trace: NetworkTrace
) -> tuple[Any, dict[str, list[str]], str | None]:
    """The config the evaluator will really use (it guesses missing sites from the trace)."""
    from webarena_verified.types.eval import TaskEvalContext

    context = TaskEvalContext(
        task=engine.reader.get_task_by_id(task.task_id), network_trace=trace, config=engine.config
    )
    try:
        effective = engine.evaluator._validate_config_for_eval(context=context)
    except ValueError as exc:
        return None, {}, str(exc)
    if effective is engine.config:
        return effective, {}, None
    guessed = {
        _PLACEHOLDERS_BY_SITE[site.value]: list(env.urls)
        for site, env in sorted((effective.environments or {}).items())
    }
    return effective, guessed, None


# --- network provenance ---------------------------------------------------------------------


def _network_traces(
    engine: _Engine,
    task: Task,
    engine_input: Any,
    trace: NetworkTrace,
    effective: Any,
    config_error: str | None,
    result: dict[str, Any],
    har: Har | UnreadableError | None,
    steps: Sequence[TimedStep],
) -> tuple[NetworkCheckTrace, ...]:
    from webarena_verified.types.eval import TaskEvalContext
    from webarena_verified.types.task import NetworkEventEvaluatorCfg

    official_task = engine.reader.get_task_by_id(task.task_id)
    evaluator_results = result.get("evaluators_results") or []
    traces = []
    context = None
    if effective is not None:
        context = TaskEvalContext(
            task=official_task, agent_response_raw=engine_input, network_trace=trace, config=effective
        )
    index_of = {id(event): i for i, event in enumerate(trace.events)}
    for position, cfg in enumerate(official_task.eval):
        if not isinstance(cfg, NetworkEventEvaluatorCfg):
            continue
        official = evaluator_results[position].get("status") if position < len(evaluator_results) else None
        tracer = _CheckTracer(
            engine, cfg, position, context, index_of, har if isinstance(har, Har) else None, steps
        )
        traces.append(tracer.run(official, config_error))
    return tuple(traces)


class _CheckTracer:
    """Replays one NetworkEventEvaluator config with the evaluator's own methods."""

    def __init__(
        self,
        engine: _Engine,
        cfg: NetworkEventEvaluatorCfg,
        position: int,
        context: TaskEvalContext | None,
        index_of: dict[int, int],
        har: Har | None,
        steps: Sequence[TimedStep],
    ) -> None:
        self.ev = engine.network
        self.cfg = cfg
        self.position = position
        self.context = context
        self.index_of = index_of
        self.har = har
        self.steps = steps

    def run(self, official: str | None, config_error: str | None) -> NetworkCheckTrace:
        cfg = self.cfg
        base: dict[str, Any] = {
            "position": self.position,
            "expected_url": cfg.expected.url
            if isinstance(cfg.expected.url, str)
            else tuple(cfg.expected.url),
            "http_method": cfg.expected.http_method,
            "last_event_only": cfg.last_event_only,
            "should_not_exist": cfg.should_not_exist,
            "official_status": official,
        }
        context = self.context
        if context is None:
            reason = f"the evaluator could not run: {config_error}"
            return NetworkCheckTrace(
                **base, considered=0, candidates=(), kept=(), matched=None, passed=None,
                navigate_last_document_only=False, explanation=reason, error=reason,
            )  # fmt: skip
        events = context.network_trace.evaluation_events
        shortcut = context.task.is_navigate_task and cfg.expected.http_method == "GET"
        try:
            expected = self.ev._normalized_expected_value(
                self.ev._get_expected_value(cfg), config=cfg, context=context
            )
            found = self.ev._filter_events_by_criteria(events, context, cfg)
        except Exception as exc:
            reason = f"the evaluator failed on this check: {exc}"
            return NetworkCheckTrace(
                **base, considered=len(events), candidates=(), kept=(), matched=None, passed=None,
                navigate_last_document_only=shortcut, explanation=reason, error=reason,
            )  # fmt: skip
        kept_events = list(found[-1:]) if cfg.last_event_only else list(found)
        candidates = [self._candidate(e, expected, kept=any(e is k for k in kept_events)) for e in found]
        kept = [c for c in candidates if c.kept]
        if any(c.matched is None for c in kept):
            passed: bool | None = None  # the evaluator itself fails normalizing a kept request
        elif cfg.should_not_exist:
            passed = not kept
        else:
            passed = any(c.matched for c in kept)
        matched = next((c.har_index for c in kept if c.matched), None) if not cfg.should_not_exist else None
        limitation = self._limitation(events, expected, passed) if shortcut else None
        return NetworkCheckTrace(
            **base,
            considered=len(events),
            candidates=tuple(candidates),
            kept=tuple(c.har_index for c in kept if c.har_index is not None),
            matched=matched,
            passed=passed,
            navigate_last_document_only=shortcut,
            limitation=limitation,
            explanation=self._explain(candidates, passed, shortcut, len(events)),
            error=next((c.error for c in kept if c.error), None),
        )

    def _candidate(self, event: EngineEvent, expected: Any, *, kept: bool) -> Candidate:
        index = self.index_of.get(id(event))
        started = self._started(index)
        info: dict[str, Any] = {
            "har_index": index,
            "started": started,
            "method": event.http_method,
            "url": event.url,
            "status": event.data["response"].get("status"),
            "step": step_for_time(self.steps, started),
            "is_document": event.is_navigation_event,
            "kept": kept,
        }
        try:
            actual = self._normalized(event, expected)
        except Exception as exc:
            return Candidate(**info, matched=None, error=f"could not be normalized: {exc}")
        assertions = self.ev.value_comparator.compare(
            actual=actual,
            expected=expected,
            ordered=False,
            value_name="network_event",
            ignore_extra_keys=True,
        )
        return Candidate(**info, matched=not assertions, fields=self._fields(actual, expected))

    def _normalized(self, event: EngineEvent, expected: Any) -> Any:
        """One request as the evaluator sees it: extracted and normalized against `expected`."""
        assert self.context is not None
        extracted = self.ev._extract_event_data(event, self.cfg, self.context)
        return self.ev._normalized_actual_value([extracted], expected, config=self.cfg, context=self.context)[
            0
        ]

    def _fields(self, actual: Mapping[str, Any], expected: Mapping[str, Any]) -> tuple[FieldDiff, ...]:
        diffs: list[FieldDiff] = []
        for key, want in expected.items():
            got = actual.get(key)
            if want is None and got is None:
                continue  # not part of this check
            if isinstance(want, Mapping) and isinstance(got, Mapping):
                diffs.extend(self._diff(f"{key}.{sub}", got, sub, sub_want) for sub, sub_want in want.items())
            else:
                diffs.append(self._diff(key, actual, key, want))
        return tuple(diffs)

    def _diff(self, name: str, container: Mapping[str, Any], key: str, want: Any) -> FieldDiff:
        if key not in container:
            return FieldDiff(
                field=name, expected=_jsonable(want), actual=None, matches=False, message="not in the request"
            )
        got = container[key]
        assertions = self.ev.value_comparator.compare(
            actual=got, expected=want, ordered=False, value_name=name, ignore_extra_keys=True
        )
        message = "; ".join(m for a in assertions for m in (a.assertion_msgs or ())) or None
        return FieldDiff(
            field=name,
            expected=_jsonable(want),
            actual=_jsonable(got),
            matches=not assertions,
            message=message,
        )

    def _limitation(self, events: Sequence[EngineEvent], expected: Any, passed: bool | None) -> str | None:
        """Whether the navigate-task shortcut (only the last page navigation counts) decided the verdict.

        The regular filter is replayed by giving the spec a lower-case method: the shortcut only
        triggers on exactly "GET", while the regular filter compares methods case-insensitively.
        """
        if passed is not False or self.cfg.should_not_exist or self.context is None:
            return None
        cfg = self.cfg
        spec = cfg.expected.model_copy(update={"http_method": cfg.expected.http_method.lower()})
        relaxed = cfg.model_copy(update={"expected": spec})
        try:
            found = self.ev._filter_events_by_criteria(events, self.context, relaxed)
        except Exception:
            return None
        matching = []
        for event in found:
            try:
                actual = self._normalized(event, expected)
            except Exception:
                continue
            if not self.ev.value_comparator.compare(
                actual=actual,
                expected=expected,
                ordered=False,
                value_name="network_event",
                ignore_extra_keys=True,
            ):
                matching.append(event)
        if not matching:
            return None
        described = ", ".join(self._describe(e) for e in matching[:3]) + (" ..." if len(matching) > 3 else "")
        return (
            f"{described} matches every expected field, but for navigate tasks the evaluator only looks "
            "at the "
            "last page navigation (known upstream limitation), so it was not considered"
        )

    def _started(self, index: int | None) -> datetime | None:
        return self.har.started(index) if self.har is not None and index is not None else None

    def _describe(self, event: EngineEvent) -> str:
        index = self.index_of.get(id(event))
        step = step_for_time(self.steps, self._started(index))
        kind = "page navigation" if event.is_navigation_event else "request"
        where = f" during step {step}" if step is not None else ""
        return f"entry {index} ({kind} {event.http_method} {event.url}{where})"

    def _explain(
        self, candidates: Sequence[Candidate], passed: bool | None, shortcut: bool, considered: int
    ) -> str:
        expected = self.cfg.expected
        url = expected.url if isinstance(expected.url, str) else " or ".join(expected.url)
        target = f"{expected.http_method} {url}"
        kept = [c for c in candidates if c.kept]
        if self.cfg.should_not_exist:
            if passed:
                return (
                    f"No request to {target} among {considered} request(s), as required (it must not happen)."
                )
            return f"{_entry(kept[0])} is a request that must not happen ({target})."
        if not candidates:
            if shortcut:
                return "The HAR has no page navigation; for navigate tasks the evaluator checks the last one."
            return f"No request to {target} among {considered} request(s) (static assets excluded)."
        if passed is None:
            return f"The evaluator could not normalize {_entry(kept[0])}: {kept[0].error}"
        if passed:
            chosen = next(c for c in kept if c.matched)
            return f"Kept {_entry(chosen)}: all fields match."
        if not self.cfg.last_event_only:
            closest = min(
                kept, key=lambda c: sum(not f.matches for f in c.fields) + (c.matched is None) * 1_000
            )
            return (
                f"None of the {len(kept)} request(s) to {target} has every field right; "
                f"closest is {_entry(closest)}: {_differences(closest)}."
            )
        last = kept[0]
        if shortcut:
            which = ", the last page navigation"
        elif len(candidates) > 1:
            which = f", the last of {len(candidates)} requests to {target}"
        else:
            which = ""
        text = f"Kept {_entry(last)}{which}: {_differences(last)}."
        earlier = [c for c in candidates if not c.kept and c.matched]
        if earlier:
            text += (
                f" {_entry(earlier[-1])} matches every field, but only the last matching request counts"
                " (last_event_only)."
            )
        return text


def _entry(candidate: Candidate) -> str:
    step = f", step {candidate.step}" if candidate.step is not None else ""
    return f"entry {candidate.har_index} ({candidate.method} {candidate.url}{step})"


def _differences(candidate: Candidate) -> str:
    if candidate.error:
        return candidate.error
    wrong = [f for f in candidate.fields if not f.matches]
    if not wrong:
        return "fields differ"
    return "; ".join(
        f"{f.field} differs (expected {_short(f.expected)}, got {_short(f.actual)})" for f in wrong
    )


def _short(value: Any, width: int = 80) -> str:
    if isinstance(value, dict) and list(value) == ["one_of"]:
        return " or ".join(_short(v, width) for v in value["one_of"])
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= width else text[: width - 1] + "…"


def _jsonable(value: Any) -> Any:
    """Normalized values (NormalizedType, URL values, mapping proxies) as plain JSON values."""
    from webarena_verified.core.evaluation.data_types import NormalizedType

    if isinstance(value, NormalizedType):
        forms = [_jsonable(alt) for alt in value.alternatives]
        return forms[0] if len(forms) == 1 else {"one_of": forms}
    if isinstance(value, (dict, MappingProxyType)):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, BaseModel):
        # A normalized URL prints as one URL string with its (filtered, sorted) query.
        return str(value) if hasattr(value, "base_url") else value.model_dump(mode="json")
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


# --- score files ----------------------------------------------------------------------------


def score_file_path(folder: Path, eval_hash: str) -> Path:
    return Path(folder) / SCORES_DIR / f"{eval_hash}.json"


def score_file_bytes(evaluation: Evaluation, score: float) -> bytes:
    """The Fara score-file shape; sorted keys and no timestamps, so unchanged inputs give the same bytes."""
    payload = json.dumps(
        evaluation.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    document = {"score": score, "gpt_response_text": payload}
    return (json.dumps(document, sort_keys=True, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def write_score_file(folder: Path, evaluation: Evaluation, score: float) -> Path:
    """Write scores/<eval_hash>.json atomically (temp file beside it, then os.replace)."""
    target = score_file_path(folder, evaluation.engine.eval_hash)
    content = score_file_bytes(evaluation, score)
    try:
        if target.read_bytes() == content:
            return target  # identical verdict: leave the file (and its mtime) alone
    except OSError:
        pass
    target.parent.mkdir(exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), 0o644)
            handle.write(content)
        os.replace(temp, target)
    except BaseException:
        # Also on Ctrl-C: no half-written or stray file is left in scores/.
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return target


def _stored_evaluation(target: Path) -> Evaluation | None:
    try:
        document = json.loads(target.read_bytes())
        return Evaluation.model_validate_json(document["gpt_response_text"])
    except (OSError, ValueError, KeyError, TypeError, ValidationError):
        return None


# --- trajectories ---------------------------------------------------------------------------


class ScoreOutcome(BaseModel):
    """The verdict for one trajectory folder, with a plain reason when it is not a success."""

    model_config = ConfigDict(frozen=True)

    path: Path
    task_id: str
    status: Status
    score: float | None = None
    """None when excluded or in error."""
    reason: str | None = None
    eval_hash: str | None = None
    score_file: Path | None = None
    """Written (or reused) score file."""
    reused: bool = False
    """An up-to-date score file was found and not recomputed."""
    sites: tuple[str, ...] = ()
    task_type: str | None = None
    notes: tuple[str, ...] = ()
    evaluation: Evaluation | None = None


def score_trajectory(
    item: Path | str | Trajectory,
    *,
    config: Path | str | UrlConfig | None = None,
    config_root: Path | None = None,
    catalog: TaskCatalog | Path | str | None = None,
    force: bool = False,
    write: bool = True,
) -> ScoreOutcome:
    """Score one trajectory folder; never raises for bad input (the outcome says what was wrong).

    Without `force`, an existing score file of the same eval_hash whose recorded inputs (answer,
    HAR, step times, config source) are unchanged is reused instead of re-evaluated.
    """
    path = item.path if isinstance(item, Trajectory) else Path(item)
    try:
        tasks = catalog if isinstance(catalog, TaskCatalog) else load_catalog(catalog)
        trajectory = item if isinstance(item, Trajectory) else load_trajectory(path)
    except UnreadableError as exc:
        return ScoreOutcome(path=path, task_id=path.name, status="error", reason=f"{exc.path}: {exc.reason}")
    try:
        return _score(trajectory, tasks, config, config_root, force, write)
    except UnreadableError as exc:
        return ScoreOutcome(
            path=path, task_id=trajectory.task_id, status="error", reason=f"{exc.path}: {exc.reason}"
        )
    except Exception as exc:  # a batch must survive whatever one folder holds; the reason is reported
        return ScoreOutcome(
            path=path,
            task_id=trajectory.task_id,
            status="error",
            reason=f"unexpected error while scoring: {exc!r}",
        )


def _score(
    trajectory: Trajectory,
    catalog: TaskCatalog,
    config: Path | str | UrlConfig | None,
    config_root: Path | None,
    force: bool,
    write: bool,
) -> ScoreOutcome:
    path = trajectory.path
    task = catalog.get(trajectory.task_id)
    if task is None:
        return ScoreOutcome(
            path=path,
            task_id=trajectory.task_id,
            status="error",
            reason=f"'{trajectory.task_id}' is not a task id of {catalog.path.name} ({len(catalog)} tasks)",
        )
    info: dict[str, Any] = {
        "path": path,
        "task_id": trajectory.task_id,
        "sites": task.sites,
        "task_type": task.task_type,
    }
    if trajectory.outcome == "aborted":
        return ScoreOutcome(
            **info,
            status="excluded",
            reason="aborted: the run stopped without an answer file (excluded, not 0)",
        )
    try:
        url_config, source = _resolve_config(path, config, config_root, catalog)
    except UnreadableError as exc:
        return ScoreOutcome(**info, status="error", reason=f"URL config {exc.path}: {exc.reason}")
    engine = _engine(catalog, url_config)
    info["eval_hash"] = engine.eval_hash
    answer = trajectory.final_answer_text if trajectory.outcome == "answered" else None
    inputs: dict[str, str | None] = {
        "outcome": trajectory.outcome,
        "answer_sha256": _sha256(answer.encode("utf-8")) if answer is not None else None,
        "har_sha256": None,
        "steps_sha256": _sha256(json.dumps([[s.index, str(s.time_utc)] for s in trajectory.steps]).encode()),
        "config_source": source,
    }
    har_path = trajectory.har_path
    target = score_file_path(path, engine.eval_hash)
    if write and not force and target.exists():
        stored = _stored_evaluation(target)
        if stored is not None:
            inputs["har_sha256"] = _file_sha256(har_path) if har_path else None
            if stored.inputs == inputs:
                return _outcome(info, stored, score_file=target, reused=True)
    har: Har | UnreadableError | None = None
    if har_path is not None:
        try:
            har = read_har(har_path)
            inputs["har_sha256"] = har.sha256
        except UnreadableError as exc:
            har = exc
            inputs["har_sha256"] = _file_sha256(har_path)
    problem = har_problem(task, har)
    evaluation = evaluate(
        task,
        answer,
        None if problem else har,
        catalog=catalog,
        config=url_config,
        config_source=source,
        steps=trajectory.steps,
        outcome=trajectory.outcome,
    )
    update: dict[str, Any] = {"inputs": inputs, "notes": (*evaluation.notes, *([problem] if problem else []))}
    if problem and trajectory.outcome == "answered":
        # The official CLI cannot score this either (it reports an error); the answer is still
        # evaluated against an empty trace so the viewer can show expected vs actual.
        update["result"] = {**evaluation.result, "status": "error", "score": 0.0, "error_msg": problem}
    evaluation = evaluation.model_copy(update=update)
    outcome = _outcome(info, evaluation)
    if "result" in update:
        outcome = outcome.model_copy(update={"reason": problem})
    # Errors get a score file too: the verdict (and its reason) must be visible to every reader.
    if write and outcome.status in ("success", "failure", "error"):
        score_file = write_score_file(path, evaluation, outcome.score or 0.0)
        outcome = outcome.model_copy(update={"score_file": score_file})
    return outcome


def _resolve_config(
    folder: Path, config: Path | str | UrlConfig | None, root: Path | None, catalog: TaskCatalog
) -> tuple[UrlConfig | None, str | None]:
    if isinstance(config, UrlConfig):
        url_config: UrlConfig | None = config
    else:
        file = Path(config) if config is not None else find_url_config(folder, root)
        url_config = load_url_config(file) if file is not None else None
    data_file = url_config.test_data_file if url_config else None
    if (
        url_config
        and data_file
        and data_file.is_file()
        and load_catalog(data_file).checksum != catalog.checksum
    ):
        # The official loader would score against that dataset; silently using another one
        # would give verdicts the official CLI does not.
        raise UnreadableError(
            url_config.path or "config",
            f"names dataset {data_file}, but scoring uses {catalog.path}; pass that dataset as the task file",
        )
    source = None
    if url_config is not None and url_config.path is not None:
        source = os.path.relpath(url_config.path, Path(folder).resolve())
    elif url_config is not None:
        source = "(given)"
    return url_config, source


def _outcome(
    info: dict[str, Any], evaluation: Evaluation, *, score_file: Path | None = None, reused: bool = False
) -> ScoreOutcome:
    common = {
        **info,
        "notes": evaluation.notes,
        "evaluation": evaluation,
        "score_file": score_file,
        "reused": reused,
    }
    if evaluation.outcome == "no_answer":
        # Upstream aggregation counts an over-budget trajectory as 0, not as excluded.
        return ScoreOutcome(
            **common,
            status="failure",
            score=0.0,
            reason="no answer: the agent stopped without a final answer (counted as a failure)",
        )
    status = evaluation.status
    if status == "success":
        return ScoreOutcome(**common, status="success", score=evaluation.score)
    if status == "error":
        return ScoreOutcome(**common, status="error", reason=f"evaluator error: {_error_message(evaluation)}")
    return ScoreOutcome(
        **common, status="failure", score=evaluation.score, reason=_failure_reason(evaluation)
    )


def _error_message(evaluation: Evaluation) -> str:
    result = evaluation.result
    messages = [result.get("error_msg")] + [
        r.get("error_msg") for r in result.get("evaluators_results") or []
    ]
    return next((m for m in messages if m), "the evaluator reported an error without a message")


def _failure_reason(evaluation: Evaluation) -> str:
    parts = []
    traces = {t.position: t for t in evaluation.network}
    for position, result in enumerate(evaluation.result.get("evaluators_results") or []):
        if result.get("status") == "success":
            continue
        if position in traces:
            trace = traces[position]
            parts.append(f"network check {position}: {trace.explanation}")
            if trace.limitation:
                parts.append(f"({trace.limitation})")
            continue
        response = evaluation.agent_response
        if response is not None and response.parse_error:
            parts.append(f"answer: {response.parse_error}.")
        messages = [
            f"{a.get('assertion_name')}: {'; '.join(a.get('assertion_msgs') or [])}".rstrip(": ")
            for a in result.get("assertions") or []
        ]
        if messages:
            parts.append(f"answer: {' | '.join(messages)}.")
    return " ".join(parts) or "the evaluator gave a score of 0"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha256(path: Path) -> str | None:
    try:
        return _sha256(Path(path).read_bytes())
    except OSError:
        return None


# --- batches --------------------------------------------------------------------------------


_PARALLEL_FROM = 8  # below this, starting worker processes costs more than it saves
_worker_job: Callable[[Path | str | Trajectory], ScoreOutcome] | None = None


def score_trajectories(
    items: Iterable[Path | str | Trajectory],
    *,
    config: Path | str | UrlConfig | None = None,
    config_root: Path | None = None,
    catalog: TaskCatalog | Path | str | None = None,
    jobs: int = 1,
    force: bool = False,
    write: bool = True,
    on_progress: ProgressCallback | None = None,
) -> list[ScoreOutcome]:
    """Score many trajectory folders, in input order, with up to `jobs` processes (0: all cores).

    Bad input never stops the batch; only an unreadable task file (`catalog`) raises
    UnreadableError, since nothing could be scored without it.
    """
    work = list(items)
    tasks = catalog if isinstance(catalog, TaskCatalog) else load_catalog(catalog)
    job = functools.partial(
        score_trajectory, config=config, config_root=config_root, catalog=tasks, force=force, write=write
    )
    total = len(work)
    workers = min(jobs if jobs > 0 else os.cpu_count() or 1, total)
    if on_progress:
        on_progress(0, total)
    outcomes: list[ScoreOutcome] = []
    if workers <= 1 or total < _PARALLEL_FROM:
        for item in work:
            outcomes.append(job(item))
            if on_progress:
                on_progress(len(outcomes), total)
        return outcomes
    _prepare_engine(tasks, config)
    # Forked workers inherit the imported engine and the job (no pickling of the catalog).
    context = (
        multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    )
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(job,)
    )
    try:
        for outcome in pool.map(_run_worker_job, work, chunksize=max(1, min(16, total // (workers * 8)))):
            outcomes.append(outcome)
            if on_progress:
                on_progress(len(outcomes), total)
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    return outcomes


def _prepare_engine(catalog: TaskCatalog, config: Path | str | UrlConfig | None) -> None:
    """Build the engine once before forking, so workers start with it loaded."""
    try:
        url_config = load_url_config(config) if isinstance(config, (str, Path)) else config
        _engine(catalog, url_config)
    except UnreadableError:
        pass  # reported per trajectory


def _init_worker(job: Callable[[Path | str | Trajectory], ScoreOutcome]) -> None:
    # Ctrl-C is the parent's to handle: it cancels what has not started and waits for the
    # workers' current items, whose score files are written atomically, so none is left half-written.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _worker_job
    _worker_job = job


def _run_worker_job(item: Path | str | Trajectory) -> ScoreOutcome:
    assert _worker_job is not None
    return _worker_job(item)


# --- summaries ------------------------------------------------------------------------------


class Tally(BaseModel):
    """Counts of one group; `scored` are successes plus failures (errors and excluded have no score)."""

    model_config = ConfigDict(frozen=True)

    scored: int = 0
    success: int = 0
    failure: int = 0
    error: int = 0
    excluded: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success_rate(self) -> float | None:
        return self.success / self.scored if self.scored else None


class ScoreSummary(BaseModel):
    """Overall, per site (sites joined like the official summary) and per task type."""

    model_config = ConfigDict(frozen=True)

    overall: Tally
    per_site: dict[str, Tally]
    per_task_type: dict[str, Tally]


def summarize(outcomes: Iterable[ScoreOutcome]) -> ScoreSummary:
    counts: dict[tuple[str, str], Counter[str]] = {}
    for outcome in outcomes:
        keys = [
            ("overall", ""),
            ("site", "-".join(sorted(outcome.sites)) or "unknown"),
            ("type", outcome.task_type or "unknown"),
        ]
        for key in keys:
            counter = counts.setdefault(key, Counter())
            counter[outcome.status] += 1
            if outcome.status in ("success", "failure"):
                counter["scored"] += 1

    def tally(key: tuple[str, str]) -> Tally:
        return Tally(**counts.get(key, Counter()))

    return ScoreSummary(
        overall=tally(("overall", "")),
        per_site={name: tally((kind, name)) for kind, name in sorted(counts) if kind == "site"},
        per_task_type={name: tally((kind, name)) for kind, name in sorted(counts) if kind == "type"},
    )
