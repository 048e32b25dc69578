"""The task catalog: the 812 WebArena-Verified tasks, or another dataset file of the same shape.

The JSON is read directly (it is under 1 MB) so listing tasks never imports the evaluator, which
takes most of a second to import. Only what the inspector shows is typed; evaluator configs are
kept as plain dicts because the evaluator itself interprets them when scoring.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import threading
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import NotReadableFileError, read_file
from webeval_core.support.diagnostics import UnreadableError

TaskType = Literal["retrieve", "mutate", "navigate"]

SITES = ("gitlab", "map", "reddit", "shopping_admin", "shopping", "wikipedia", "homepage")
TASK_TYPES: tuple[TaskType, ...] = ("retrieve", "mutate", "navigate")
_REQUIRED_FIELDS = (
    "task_id",
    "sites",
    "intent",
    "intent_template",
    "intent_template_id",
    "instantiation_dict",
    "start_urls",
    "eval",
    "revision",
)


class ExpectedResponse(BaseModel):
    """What the AgentResponseEvaluator expects; list values in retrieved_data are alternatives."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_type: TaskType
    """The kind of work expected, lower-cased, from `task_type` (or the legacy `performed_operation`)."""
    status: str
    """The status the agent must report, upper-cased (SUCCESS, NOT_FOUND_ERROR...)."""
    retrieved_data: list[Any] | None = None
    """The values a retrieve task must return (a list value lists alternatives); None when none are."""


class NetworkCheck(BaseModel):
    """One NetworkEventEvaluator config, with the fields a viewer shows at a glance."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    position: int
    """Index in the task's `eval` list, and in the result's evaluators_results."""
    url: str | tuple[str, ...]
    """The expected request URL: a regex when it starts with ^; a tuple lists alternatives."""
    http_method: str
    """The expected request method as written (the evaluator's default: "GET")."""
    response_status: int
    """The expected response status (the evaluator's default: 200; -1 occurs in the dataset)."""
    last_event_only: bool
    """Whether only the trace's last matching navigation is checked (the evaluator's default: true)."""
    should_not_exist: bool
    """Whether the check passes only when no such request happened (the evaluator's default: false)."""
    config: dict[str, Any]
    """The whole NetworkEventEvaluator config from the dataset, as the evaluator reads it."""


class Task(BaseModel):
    """One benchmark task as the inspector shows it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: int
    """The task's id in the dataset (0-811 for WebArena-Verified)."""
    sites: tuple[str, ...]
    """The sites the task runs on, each one of `SITES`, in dataset order."""
    intent: str
    """The instruction given to the agent."""
    intent_template: str
    """The instruction with `{{placeholders}}`, shared by the tasks of one template."""
    intent_template_id: int
    """The template's id, grouping tasks instantiated from one intent template."""
    instantiation_dict: dict[str, Any]
    """The values filled into the template's placeholders."""
    start_urls: tuple[str, ...]
    """The pages the agent starts on, with site placeholders such as "__GITLAB__" left in."""
    revision: int
    """The task's revision number in the dataset."""
    task_type: TaskType
    """The kind of work expected (the same as `expected.task_type`)."""
    expected: ExpectedResponse
    """The response the AgentResponseEvaluator expects."""
    results_schema: dict[str, Any]
    """The JSON schema of the expected results array (with `format` hints such as "date")."""
    ordered: bool
    """Whether the order of retrieved values matters (the evaluator's default: false)."""
    evaluators: tuple[dict[str, Any], ...]
    """The task's `eval` list as written, for the evaluator to interpret."""
    network_checks: tuple[NetworkCheck, ...]
    """Its NetworkEventEvaluator configs in `eval` order; empty when the answer alone is checked."""

    @property
    def site_key(self) -> str:
        """Sites joined the way the official summary groups them (sorted, '-'-separated)."""
        return "-".join(sorted(self.sites))


class TaskCatalog(BaseModel):
    """All tasks of one dataset file, by id; `checksum` is the SHA-256 the evaluator records."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The dataset file, resolved."""
    checksum: str
    """Hex SHA-256 of the file's bytes, as the evaluator records it with each result."""
    is_default: bool
    """Whether this is the dataset shipped inside the installed webarena-verified package."""
    tasks: dict[int, Task]
    """Every task of the file, by task id, in file order."""

    def __len__(self) -> int:
        return len(self.tasks)

    def get(self, task_id: int | str) -> Task | None:
        """The task with this id; a folder name such as "108" works too."""
        if isinstance(task_id, str):
            text = task_id.strip()
            if not (text.isascii() and text.isdigit() and len(text) < 19):  # int() refuses "²"
                return None
            task_id = int(text)
        return self.tasks.get(task_id)


def default_dataset_path() -> Path:
    """The dataset shipped inside the installed webarena-verified package (found without importing it)."""
    spec = importlib.util.find_spec("webarena_verified")
    if spec is None or not spec.submodule_search_locations:
        raise UnreadableError("webarena_verified", "the webarena-verified package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "dataset" / "webarena-verified.json"


_cache: dict[tuple[Path, int, int], TaskCatalog] = {}
_cache_lock = threading.Lock()


def load_catalog(path: Path | str | None = None) -> TaskCatalog:
    """Load a dataset file (default: the installed 812 tasks); cached until the file changes.

    Raises UnreadableError with a plain reason when the file cannot be used.
    """
    is_default = path is None
    file = (default_dataset_path() if path is None else Path(path)).resolve()
    try:
        stat = file.stat()
    except FileNotFoundError:
        raise UnreadableError(file, "dataset file not found") from None
    except OSError as exc:
        raise UnreadableError(file, f"cannot read the dataset file ({exc.strerror})") from None
    key = (file, stat.st_mtime_ns, stat.st_size)
    with _cache_lock:
        cached = _cache.get(key)
    if cached is not None:
        return cached
    catalog = _read_catalog(file, is_default)
    with _cache_lock:
        _cache[key] = catalog
    return catalog


def _read_catalog(file: Path, is_default: bool) -> TaskCatalog:
    try:
        data = read_file(file)
    except NotReadableFileError as exc:
        raise UnreadableError(file, f"the dataset file {exc.reason}") from None
    except OSError as exc:
        raise UnreadableError(file, f"cannot read the dataset file ({exc.strerror})") from None
    try:
        raw = json.loads(data)
    except UnicodeDecodeError:
        raise UnreadableError(file, "the dataset file is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise UnreadableError(
            file, f"the dataset file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except (ValueError, RecursionError) as exc:  # an integer beyond the digit limit, absurd nesting
        raise UnreadableError(
            file, f"the dataset file cannot be read as JSON ({type(exc).__name__})"
        ) from None
    if not isinstance(raw, list):
        raise UnreadableError(file, f"expected a JSON list of tasks, found {_json_type(raw)}")
    if not raw:
        raise UnreadableError(file, "the dataset file holds no tasks")
    tasks: dict[int, Task] = {}
    for position, item in enumerate(raw):
        try:
            task = _task_from_raw(item)
        except ValueError as exc:
            raise UnreadableError(file, f"task #{position + 1}{_id_hint(item)}: {exc}") from None
        if task.task_id in tasks:
            raise UnreadableError(file, f"task_id {task.task_id} appears more than once")
        tasks[task.task_id] = task
    return TaskCatalog(
        path=file, checksum=hashlib.sha256(data).hexdigest(), is_default=is_default, tasks=tasks
    )


def _task_from_raw(item: Any) -> Task:
    if not isinstance(item, dict):
        raise ValueError(f"expected an object, found {_json_type(item)}")
    missing = [name for name in _REQUIRED_FIELDS if name not in item]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    task_id = _int(item["task_id"], "task_id")
    sites = _str_list(item["sites"], "sites")
    unknown = [site for site in sites if site not in SITES]
    if unknown:
        raise ValueError(f"unknown site {unknown[0]!r} (known: {', '.join(SITES)})")
    evaluators = item["eval"]
    if not isinstance(evaluators, list) or not all(isinstance(e, dict) for e in evaluators):
        raise ValueError("'eval' must be a list of evaluator objects")
    response_cfgs = [e for e in evaluators if e.get("evaluator") == "AgentResponseEvaluator"]
    if not response_cfgs:
        raise ValueError("'eval' has no AgentResponseEvaluator")
    for e in evaluators:
        if e.get("evaluator") not in ("AgentResponseEvaluator", "NetworkEventEvaluator"):
            raise ValueError(f"unknown evaluator {e.get('evaluator')!r}")
    response_cfg = response_cfgs[0]
    expected = _expected_response(response_cfg.get("expected"))
    if not isinstance(item["instantiation_dict"], dict):
        raise ValueError("'instantiation_dict' must be an object")
    results_schema = response_cfg.get("results_schema")
    if not isinstance(results_schema, dict):
        raise ValueError("the AgentResponseEvaluator has no 'results_schema' object")
    return Task(
        task_id=task_id,
        sites=tuple(sites),
        intent=_str(item["intent"], "intent"),
        intent_template=_str(item["intent_template"], "intent_template"),
        intent_template_id=_int(item["intent_template_id"], "intent_template_id"),
        instantiation_dict=item["instantiation_dict"],
        start_urls=tuple(_str_list(item["start_urls"], "start_urls")),
        revision=_int(item["revision"], "revision"),
        task_type=expected.task_type,
        expected=expected,
        results_schema=results_schema,
        ordered=bool(response_cfg.get("ordered", False)),
        evaluators=tuple(evaluators),
        network_checks=tuple(
            _network_check(position, cfg)
            for position, cfg in enumerate(evaluators)
            if cfg["evaluator"] == "NetworkEventEvaluator"
        ),
    )


def _expected_response(raw: Any) -> ExpectedResponse:
    if not isinstance(raw, dict):
        raise ValueError("the AgentResponseEvaluator has no 'expected' object")
    task_type = raw.get("task_type", raw.get("performed_operation"))
    if not isinstance(task_type, str) or task_type.lower() not in TASK_TYPES:
        raise ValueError(f"expected task_type must be one of {', '.join(TASK_TYPES)}, found {task_type!r}")
    status = raw.get("status")
    if not isinstance(status, str):
        raise ValueError("the expected response has no status")
    data = raw.get("retrieved_data")
    if data is not None and not isinstance(data, list):
        raise ValueError("expected retrieved_data must be a list or null")
    return ExpectedResponse(task_type=task_type.lower(), status=status.upper(), retrieved_data=data)


def _network_check(position: int, cfg: dict[str, Any]) -> NetworkCheck:
    expected = cfg.get("expected")
    if not isinstance(expected, dict) or "url" not in expected:
        raise ValueError(f"network check #{position} has no expected url")
    url = expected["url"]
    if isinstance(url, list):
        url = tuple(_str_list(url, "expected url"))
    elif not isinstance(url, str):
        raise ValueError(f"network check #{position}: expected url must be a string or a list")
    # Defaults are the evaluator's own (NetworkEventSpec / NetworkEventEvaluatorCfg).
    return NetworkCheck(
        position=position,
        url=url,
        http_method=str(expected.get("http_method", "GET")),
        response_status=_int(expected.get("response_status", 200), "response_status"),
        last_event_only=bool(cfg.get("last_event_only", True)),
        should_not_exist=bool(cfg.get("should_not_exist", False)),
        config=cfg,
    )


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"'{name}' must be an integer, found {_json_type(value)}")
    return value


def _str(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"'{name}' must be a non-empty string")
    return value


def _str_list(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"'{name}' must be a list of non-empty strings")
    return value


def _id_hint(item: Any) -> str:
    if isinstance(item, dict) and isinstance(item.get("task_id"), int):
        return f" (task_id {item['task_id']})"
    return ""


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def installed_catalog() -> TaskCatalog | None:
    """The installed catalog, or None when it cannot be read (views then show bare task ids)."""
    try:
        return load_catalog()
    except UnreadableError:
        return None
