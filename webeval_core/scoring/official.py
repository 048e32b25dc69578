"""The one seam to the official `webarena_verified` library: nothing else in webeval imports it.

The verdict is always what the installed library computes. Some of what we need is not its
public API: the evaluator's config check, and the network evaluator's own filtering, extraction,
normalization and comparison steps, which the provenance replays so it cannot drift from the
verdict. Every such name is used here only, behind small functions with our own names, and is
listed in `RELIES_ON` with the parameters we pass, so a test names exactly what a new library
version removed or changed.

The library is imported lazily, in the functions that need it: importing it takes most of a
second, which the index and a plain `webeval ls` must not pay.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import logging
import re
import tempfile
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from pydantic import BaseModel

from webeval_core.reading.network import Har
from webeval_core.reading.submission import Submission, read_submission
from webeval_core.reading.task_catalog import TaskCatalog
from webeval_core.scoring import shortcuts
from webeval_core.scoring.config import UrlConfig, site_placeholder
from webeval_core.scoring.results import ENGINE_NAME, TaskResult
from webeval_core.support.diagnostics import UnreadableError

_DATA_READER = "webarena_verified.api.internal.data_reader"
_EVALUATOR = "webarena_verified.api.internal.evaluator"
_NETWORK = "webarena_verified.core.evaluation.evaluators.network_event_evaluator"
_RESPONSE = "webarena_verified.core.evaluation.evaluators.agent_response_evaluator"
_SUBMISSION = "webarena_verified.api.internal.submission_handler"


class Reliance(NamedTuple):
    """One name of the official library this module uses beyond its public `WebArenaVerified` API."""

    module: str
    """The module it lives in."""
    attribute: str
    """Its dotted path inside the module, e.g. "NetworkEventEvaluator._get_expected_value"."""
    parameters: tuple[str, ...] | None
    """The parameter (or, for a model, field) names we pass, in order; None when only read."""


RELIES_ON: tuple[Reliance, ...] = (
    Reliance(_DATA_READER, "TOTAL_TASK_COUNT", None),
    Reliance(_DATA_READER, "WebArenaVerifiedDataReader", ("config", "subset")),
    Reliance(_DATA_READER, "WebArenaVerifiedDataReader.get_task_by_id", ("task_id",)),
    Reliance(_EVALUATOR, "WebArenaVerifiedEvaluator", ("config", "reader")),
    Reliance(
        _EVALUATOR, "WebArenaVerifiedEvaluator.evaluate_task", ("task_id", "agent_response", "network_trace")
    ),
    Reliance(_EVALUATOR, "WebArenaVerifiedEvaluator._validate_config_for_eval", ("context",)),
    Reliance(_NETWORK, "NetworkEventEvaluator", ()),
    Reliance(_RESPONSE, "AgentResponseEvaluator", ()),
    Reliance(_RESPONSE, "AgentResponseEvaluator._get_actual_agent_response_dict", ("actual_raw",)),
    Reliance(_NETWORK, "NetworkEventEvaluator.value_comparator", None),
    Reliance(_NETWORK, "NetworkEventEvaluator._get_expected_value", ("config",)),
    Reliance(
        _NETWORK, "NetworkEventEvaluator._normalized_expected_value", ("expected_raw", "config", "context")
    ),
    Reliance(_NETWORK, "NetworkEventEvaluator._filter_events_by_criteria", ("events", "context", "config")),
    Reliance(
        _NETWORK,
        "NetworkEventEvaluator._normalized_url",
        ("url", "context", "config", "strict", "query_params"),
    ),
    Reliance(_EVALUATOR, "compute_data_file_checksum", ("file_path",)),
    Reliance(_NETWORK, "NetworkEventEvaluator._extract_event_data", ("event", "config", "context")),
    Reliance(
        _NETWORK,
        "NetworkEventEvaluator._normalized_actual_value",
        ("actual_raw", "normalized_expected", "config", "context"),
    ),
    Reliance(
        "webarena_verified.core.evaluation.value_comparator",
        "ValueComparator.compare",
        ("actual", "expected", "ordered", "value_name", "ignore_extra_keys"),
    ),
    Reliance("webarena_verified.core.evaluation.data_types", "NormalizedType.alternatives", None),
    Reliance("webarena_verified.core.utils.checksum", "compute_evaluator_checksum", ()),
    Reliance("webarena_verified.core.utils.jsonpath_utils", "parse", None),
    Reliance("jsonpath_ng.ext.parser", "ExtentedJsonPathParser", ()),
    Reliance("jsonpath_ng.ext.parser", "ExtentedJsonPathParser.parse", ("string",)),
    Reliance("webarena_verified.core.evaluation.data_types.url", "url_normalize", ("url",)),
    Reliance("url_normalize.url_normalize", "normalize_host", ("host", "charset")),
    Reliance("webarena_verified.types.config", "WebArenaVerifiedConfig", ("test_data_file", "environments")),
    Reliance("webarena_verified.types.config", "EnvironmentConfig", ("urls",)),
    Reliance("webarena_verified.types.data", "TaskSubset", ("task_ids", "checksum")),
    Reliance("webarena_verified.types.data", "TaskSubset.compute_checksum", ("task_ids",)),
    Reliance("webarena_verified.types.eval", "WEBARENA_VERIFIED_VERSION", None),
    Reliance(
        "webarena_verified.types.eval",
        "TaskEvalContext",
        ("task", "agent_response_raw", "network_trace", "config"),
    ),
    Reliance(
        "webarena_verified.types.task",
        "NetworkEventEvaluatorCfg",
        ("expected", "last_event_only", "should_not_exist"),
    ),
    Reliance("webarena_verified.types.task", "NetworkEventSpec", ("url", "http_method")),
    Reliance("webarena_verified.types.task", "WebArenaVerifiedTask", ("eval",)),
    Reliance("webarena_verified.types.task", "WebArenaVerifiedTask.is_navigate_task", None),
    Reliance("webarena_verified.types.tracing", "NetworkTrace", ("is_playwright", "src_file", "events")),
    Reliance("webarena_verified.types.tracing", "NetworkTrace.from_content", ("content",)),
    Reliance("webarena_verified.types.tracing", "NetworkTrace.evaluation_events", None),
    Reliance("webarena_verified.types.tracing", "NetworkEvent", ("data",)),
    Reliance("webarena_verified.types.tracing", "NetworkEvent", ("data",)),
    Reliance("webarena_verified.types.tracing", "NetworkEvent.url", None),
    Reliance("webarena_verified.types.tracing", "NetworkEvent.url_path", None),
    Reliance("webarena_verified.types.tracing", "NetworkEvent.is_evaluation_event", None),
    Reliance("webarena_verified.types.tracing", "NetworkEvent.is_navigation_event", None),
    Reliance("webarena_verified.types.tracing", "NetworkEvent.http_method", None),
    Reliance(_SUBMISSION, "SubmissionHandler", ("output_dirs", "config", "valid_task_ids")),
    Reliance(_SUBMISSION, "SubmissionHandler.create_submission", ("output_root", "no_tar", "custom_name")),
    Reliance("webarena_verified.types.submission", "SubmissionResult", ("summary_file",)),
)


def reliance_problem(reliance: Reliance) -> str | None:
    """What changed about one relied-on name in the installed library, or None when it is as used."""
    where = f"webarena_verified {reliance.module}.{reliance.attribute}"
    try:
        target: Any = importlib.import_module(reliance.module)
        for part in reliance.attribute.split("."):
            if not hasattr(target, part) and _sets_in_init(target, part):
                return None  # an instance attribute: nothing to call
            target = getattr(target, part)
    except (ImportError, AttributeError):
        return f"{where} no longer exists"
    if reliance.parameters is None:
        return None
    names = _parameter_names(target)
    wanted = list(reliance.parameters)
    if names is None or [n for n in names if n in wanted] != wanted:
        return f"{where} no longer takes ({', '.join(wanted)}); it takes ({', '.join(names or [])})"
    return None


def _sets_in_init(cls: Any, name: str) -> bool:
    """Whether a class (or a base) sets `self.<name>` in its __init__.

    Instance attributes are not on the class, so that is where they are found.
    """
    if not isinstance(cls, type):
        return False
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        try:
            source = inspect.getsource(init)
        except (OSError, TypeError):
            continue
        if re.search(rf"self\.{re.escape(name)}\b\s*[:=]", source):
            return True
    return False


def _parameter_names(target: Any) -> list[str] | None:
    if isinstance(target, type) and issubclass(target, BaseModel):
        return list(target.model_fields)
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    return [name for name in signature.parameters if name != "self"]


# --- the engine -------------------------------------------------------------------------------


class Engine:
    """One official evaluator for one dataset and URL config (built once per process)."""

    def __init__(self, catalog: TaskCatalog, config: UrlConfig | None) -> None:
        with shortcuts.lean_import():
            from webarena_verified.api.internal.data_reader import (
                TOTAL_TASK_COUNT,
                WebArenaVerifiedDataReader,
            )
            from webarena_verified.api.internal.evaluator import WebArenaVerifiedEvaluator
            from webarena_verified.core.evaluation.evaluators.network_event_evaluator import (
                NetworkEventEvaluator,
            )
            from webarena_verified.core.utils.checksum import compute_evaluator_checksum
            from webarena_verified.types.config import WebArenaVerifiedConfig
            from webarena_verified.types.data import TaskSubset
            from webarena_verified.types.eval import WEBARENA_VERIFIED_VERSION

        _quiet_engine_logs()
        shortcuts.install()
        environments = dict(config.environments) if config else None
        self._config = WebArenaVerifiedConfig(test_data_file=catalog.path, environments=environments)
        ids = sorted(catalog.tasks)
        # The reader insists on exactly 812 tasks unless given a subset; another dataset file
        # is read as a subset of all its own ids.
        subset = (
            None
            if len(ids) == TOTAL_TASK_COUNT
            else TaskSubset(task_ids=ids, checksum=TaskSubset.compute_checksum(ids))
        )
        try:
            self._reader = WebArenaVerifiedDataReader(self._config, subset=subset)
        except ValueError as exc:
            raise UnreadableError(catalog.path, f"the evaluator rejects this dataset file: {exc}") from None
        self._evaluator = WebArenaVerifiedEvaluator(config=self._config, reader=self._reader)
        self._network = NetworkEventEvaluator()
        self.version: str = WEBARENA_VERIFIED_VERSION
        """The installed library's version."""
        self.evaluator_checksum: str = compute_evaluator_checksum()
        """Checksum of the installed evaluator's code."""
        self.data_checksum = catalog.checksum
        """Checksum of the dataset file."""
        self.eval_hash = _eval_hash(self.version, self.evaluator_checksum, self.data_checksum, config)
        """Names the score file: engine version, its checksum, the dataset and the URL config."""


def _eval_hash(version: str, evaluator_checksum: str, data_checksum: str, config: UrlConfig | None) -> str:
    identity = config.identity() if config else "guess"
    digest = hashlib.sha256("\n".join((evaluator_checksum, data_checksum, identity)).encode()).hexdigest()
    return f"{ENGINE_NAME}-{version}-{digest[:8]}"


def eval_hash_for(catalog: TaskCatalog, config: UrlConfig | None) -> str:
    """The `eval_hash` of `engine_for(catalog, config)`, without importing the library.

    Deciding that a score file is up to date needs only this name: a run scored already costs no
    evaluator import (most of a second). The library's version and its code's checksum are read
    as the library reads them (`compute_evaluator_checksum` mirrored; a test compares the two).
    """
    return _eval_hash(_library_version(), _library_checksum(), catalog.checksum, config)


def eval_hash_for_prefix() -> str:
    """What every `eval_hash` of the installed library starts with (its name and version)."""
    return f"{ENGINE_NAME}-{_library_version()}-"


@functools.cache
def _library_version() -> str:
    # What the library's WEBARENA_VERIFIED_VERSION is: its distribution's version.
    return importlib.metadata.version("webarena-verified")


@functools.cache
def _library_checksum() -> str:
    """`compute_evaluator_checksum()`: SHA-256 over the package's .py files, in path order."""
    spec = importlib.util.find_spec("webarena_verified")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("webarena_verified is not installed")
    hasher = hashlib.sha256()
    for file in sorted(Path(next(iter(spec.submodule_search_locations))).rglob("*.py")):
        hasher.update(file.read_bytes())
    return hasher.hexdigest()


_engines: dict[tuple[str, str], Engine] = {}
_engines_lock = threading.Lock()


def engine_for(catalog: TaskCatalog, config: UrlConfig | None) -> Engine:
    """The process's engine for this dataset and config, built on first use.

    Raises:
        UnreadableError: When the evaluator rejects the dataset file.
    """
    key = (f"{catalog.path}:{catalog.checksum}", config.identity() if config else "")
    with _engines_lock:
        engine = _engines.get(key)
        if engine is None:
            engine = _engines[key] = Engine(catalog, config)
    return engine


def _quiet_engine_logs() -> None:
    # The library logs every evaluation and prints tracebacks for inputs it rejects; those
    # outcomes reach the user through the result instead, so its loggers get a null handler.
    for name in ("WebArena-Verified", "webarena_verified"):
        logger = logging.getLogger(name)
        if not logger.handlers:
            logger.addHandler(logging.NullHandler())
            logger.propagate = False


# --- submission packages ---------------------------------------------------------------------


def package_dry_run(run_output: Path, catalog: TaskCatalog) -> Submission:
    """What `webarena-verified create-submission-pkg` would package from a run's output folder.

    The official packager itself runs, into a temporary folder deleted afterwards, so its rules
    (file names, HAR validation, unknown ids) are exactly the ones applied on submission.
    """
    from webarena_verified.api.internal.submission_handler import SubmissionHandler
    from webarena_verified.types.config import WebArenaVerifiedConfig

    _quiet_engine_logs()
    config = WebArenaVerifiedConfig(test_data_file=catalog.path)
    handler = SubmissionHandler(output_dirs=[run_output], config=config, valid_task_ids=set(catalog.tasks))
    with tempfile.TemporaryDirectory(prefix="webeval-check-") as scratch:
        result = handler.create_submission(Path(scratch), no_tar=True, custom_name="check")
        summary = read_submission(Path(str(result.summary_file)).parent)
    return summary.model_copy(update={"path": run_output})


# --- traces and verdicts ----------------------------------------------------------------------


@dataclass(frozen=True)
class Trace:
    """A HAR's requests as the evaluator reads them: trace event i is HAR entry i."""

    engine_trace: Any = field(repr=False)
    """The library's NetworkTrace; only this module looks inside."""

    @property
    def has_evaluation_events(self) -> bool:
        """Any request the evaluator would look at (static assets are not)."""
        return bool(self.engine_trace.evaluation_events)


def trace_of(har: Har | None) -> Trace:
    """The HAR's entries as the evaluator's trace; an empty trace for no HAR."""
    trace_class = shortcuts.trace_class()
    if har is None:
        return Trace(trace_class.model_construct(is_playwright=False, src_file=Path("<no trace>"), events=()))
    entries = list(har.entries)
    if not entries or entries[0].get("type") == "resource-snapshot" or "request" not in entries[0]:
        # Not the plain HAR shape: the library's own loader decides (and says what is wrong).
        return Trace(trace_class.from_content(entries))
    events = shortcuts.events(entries)
    source = Path("<from_content>")
    return Trace(trace_class.model_construct(is_playwright=False, src_file=source, events=events))


def evaluate_task(engine: Engine, task_id: int, engine_input: Any, trace: Trace) -> TaskResult:
    """The official verdict on one answer (None: no answer) and trace."""
    result = engine._evaluator.evaluate_task(
        task_id=task_id, agent_response=engine_input, network_trace=trace.engine_trace
    )
    dumped = result.model_dump(mode="json", exclude_none=True)
    for evaluator in dumped.get("evaluators_results") or ():
        if isinstance(evaluator, dict) and isinstance(evaluator.get("assertions"), list):
            # The library's comparator visits a response's keys in set order, which changes with
            # each process's hash seed: in a fixed order, a verdict's score file has the same
            # bytes whichever process (a pool's, a cluster worker) computed it.
            evaluator["assertions"].sort(key=_assertion_order)
    return TaskResult.model_validate(dumped)


def _assertion_order(assertion: Any) -> tuple[str, str]:
    name = assertion.get("assertion_name", "") if isinstance(assertion, dict) else ""
    return str(name), json.dumps(assertion, sort_keys=True, default=str)


class EffectiveConfig(NamedTuple):
    """The URL config the evaluator really uses for one task and trace."""

    engine_config: Any
    """The library's config, or None when it refuses to run."""
    guessed: dict[str, list[str]]
    """Sites whose URLs it guessed from the trace, by placeholder."""
    error: str | None
    """Why it refuses to run, when it does."""


def effective_config(engine: Engine, task_id: int, trace: Trace) -> EffectiveConfig:
    """The config the evaluator will use: it guesses the URLs of unmapped sites from the trace."""
    from webarena_verified.types.eval import TaskEvalContext

    context = TaskEvalContext(
        task=engine._reader.get_task_by_id(task_id), network_trace=trace.engine_trace, config=engine._config
    )
    try:
        effective = engine._evaluator._validate_config_for_eval(context=context)
    except ValueError as exc:
        return EffectiveConfig(None, {}, str(exc))
    if effective is engine._config:
        return EffectiveConfig(effective, {}, None)
    guessed = {
        site_placeholder(site.value): list(env.urls)
        for site, env in sorted((effective.environments or {}).items())
    }
    return EffectiveConfig(effective, guessed, None)


# --- network checks, step by step ---------------------------------------------------------------


class Request:
    """One request of the trace, as the network evaluator sees it.

    Read on demand: a HAR may hold thousands, of which a check looks at a few.
    """

    def __init__(self, har_index: int | None, engine_event: Any) -> None:
        self.har_index = har_index
        """Its entry in the HAR; None when the evaluator handed back an event it copied."""
        self._event = engine_event

    @property
    def method(self) -> str:
        """HTTP method."""
        return str(self._event.http_method)

    @property
    def url(self) -> str:
        """The request URL."""
        return str(self._event.url)

    @property
    def status(self) -> int | None:
        """The response status."""
        status: int | None = self._event.data["response"].get("status")
        return status

    @property
    def is_document(self) -> bool:
        """A page navigation by the evaluator's rule."""
        return bool(self._event.is_navigation_event)


class Comparison(NamedTuple):
    """The evaluator's comparison of one value against its expected value."""

    matches: bool
    """No assertion failed."""
    messages: tuple[str, ...]
    """What the failed assertions say."""


class NetworkCheck:
    """One NetworkEventEvaluator config of a task, with the evaluator's own steps to replay it."""

    def __init__(
        self, engine: Engine, cfg: Any, position: int, context: Any, requests: Sequence[Request]
    ) -> None:
        self._ev = engine._network
        self._cfg = cfg
        self._context = context
        self._requests = {id(r._event): r for r in requests}
        expected = cfg.expected
        self.position = position
        """Index in the task's eval list and in the result's evaluators_results."""
        self.expected_url: str | tuple[str, ...] = (
            expected.url if isinstance(expected.url, str) else tuple(expected.url)
        )
        """The expected URL, or its alternatives."""
        self.http_method: str = expected.http_method
        """The expected HTTP method."""
        self.last_event_only: bool = cfg.last_event_only
        """Only the last matching request is compared."""
        self.should_not_exist: bool = cfg.should_not_exist
        """The request must not happen."""
        self.runnable = context is not None
        """The evaluator could run (False when it refused the config)."""
        self.navigate_shortcut: bool = (
            context is not None and context.task.is_navigate_task and expected.http_method == "GET"
        )
        """The upstream navigate-task shortcut applies: only the last page navigation counts."""

    def requests(self) -> list[Request]:
        """The requests the evaluator searches (static assets excluded)."""
        return self._wrap(self._context.network_trace.evaluation_events)

    def expected(self) -> Any:
        """The check's expected value, normalized as the evaluator does."""
        ev, cfg = self._ev, self._cfg
        return ev._normalized_expected_value(ev._get_expected_value(cfg), config=cfg, context=self._context)

    def found(self, requests: Sequence[Request], *, any_method_case: bool = False) -> list[Request]:
        """The requests passing the evaluator's URL/method/referer filter.

        With `any_method_case`, the method is given in lower case: the navigate shortcut only
        triggers on exactly "GET", while the regular filter compares methods case-insensitively,
        so this replays the regular filter.
        """
        cfg = self._cfg
        if any_method_case:
            spec = cfg.expected.model_copy(update={"http_method": cfg.expected.http_method.lower()})
            cfg = cfg.model_copy(update={"expected": spec})
        events = tuple(r._event for r in requests)
        searched = self._context.network_trace.evaluation_events
        if len(events) == len(searched) and all(a is b for a, b in zip(events, searched, strict=True)):
            events = searched  # the very tuple the verdict filtered: its result is remembered
        return self._wrap(self._ev._filter_events_by_criteria(events, self._context, cfg))

    def normalized(self, request: Request, expected: Any) -> Any:
        """One request as the evaluator compares it: extracted and normalized against `expected`."""
        ev, cfg, context = self._ev, self._cfg, self._context
        extracted = ev._extract_event_data(request._event, cfg, context)
        return ev._normalized_actual_value([extracted], expected, config=cfg, context=context)[0]

    def compare(self, actual: Any, expected: Any, name: str = "network_event") -> Comparison:
        """The evaluator's comparison (unordered, extra keys ignored, as for network events)."""
        assertions = self._ev.value_comparator.compare(
            actual=actual, expected=expected, ordered=False, value_name=name, ignore_extra_keys=True
        )
        messages = tuple(m for a in assertions for m in (a.assertion_msgs or ()))
        return Comparison(not assertions, messages)

    def _wrap(self, events: Iterable[Any]) -> list[Request]:
        # A filter that copied events would lose their HAR entry, not the request.
        return [self._requests.get(id(e)) or Request(None, e) for e in events]


def network_checks(
    engine: Engine, task_id: int, engine_input: Any, trace: Trace, effective: EffectiveConfig
) -> list[NetworkCheck]:
    """The task's network checks, in eval-list order, ready to replay against this trace."""
    from webarena_verified.types.eval import TaskEvalContext
    from webarena_verified.types.task import NetworkEventEvaluatorCfg

    official_task = engine._reader.get_task_by_id(task_id)
    context = None
    if effective.engine_config is not None:
        context = TaskEvalContext(
            task=official_task,
            agent_response_raw=engine_input,
            network_trace=trace.engine_trace,
            config=effective.engine_config,
        )
    requests = [Request(i, event) for i, event in enumerate(trace.engine_trace.events)]
    return [
        NetworkCheck(engine, cfg, position, context, requests)
        for position, cfg in enumerate(official_task.eval)
        if isinstance(cfg, NetworkEventEvaluatorCfg)
    ]


def jsonable(value: Any) -> Any:
    """Normalized values (NormalizedType, URL values, mapping proxies) as plain JSON values."""
    from webarena_verified.core.evaluation.data_types import NormalizedType

    if isinstance(value, NormalizedType):
        forms = [jsonable(alt) for alt in value.alternatives]
        return forms[0] if len(forms) == 1 else {"one_of": forms}
    if isinstance(value, dict | MappingProxyType):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, BaseModel):
        # A normalized URL prints as one URL string with its (filtered, sorted) query.
        return str(value) if hasattr(value, "base_url") else value.model_dump(mode="json")
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def extract_agent_response(text: str) -> Any:
    """What the evaluator itself extracts from an agent response text (the text when not JSON).

    Scoring never needs it (`reading.response.evaluator_json` mirrors it without loading the
    evaluator); tests compare the two so that the mirror cannot drift.
    """
    from webarena_verified.core.evaluation.evaluators.agent_response_evaluator import AgentResponseEvaluator

    return AgentResponseEvaluator()._get_actual_agent_response_dict(text)


def task_problem(raw: Mapping[str, Any]) -> str | None:
    """Why the official task model (`webarena_verified.types.WebArenaVerifiedTask`) refuses a task
    object, as "field: reason" of its first error; None when it accepts it.
    """
    from pydantic import ValidationError
    from webarena_verified.types import WebArenaVerifiedTask

    try:
        # A deep copy: the model's validators normalize nested values in place.
        WebArenaVerifiedTask.model_validate(copy.deepcopy(dict(raw)))
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        return f"{where}: {error['msg']}" if where else str(error["msg"])
    return None
