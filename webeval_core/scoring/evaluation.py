"""One evaluation: an answer and a HAR scored against one task, with everything it computed.

The verdict is the official evaluator's (through `scoring.official`); around it an `Evaluation`
records the engine that computed it, the URL mapping used (or guessed), the parsed agent
response, the network provenance and plain notes on anything the user should know. It is what a
score file stores.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.network import Har, TimedStep
from webeval_core.reading.response import AgentResponse, parse_agent_response
from webeval_core.reading.task_catalog import Task, TaskCatalog
from webeval_core.scoring import official
from webeval_core.scoring.config import UrlConfig, stand_ins, unmapped_placeholders
from webeval_core.scoring.provenance import NetworkCheckTrace, trace_network_checks
from webeval_core.scoring.results import ENGINE_NAME, TaskResult
from webeval_core.support.diagnostics import UnreadableError

ScoredEnding = Literal["answered", "no_answer"]
"""The endings a verdict is computed for (`reading.trajectory_model.Ending` less "aborted")."""


class EngineInfo(BaseModel):
    """The evaluator that computed a verdict; a different one never overwrites it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """Always "webarena-verified"."""
    version: str
    """The library's version."""
    evaluator_checksum: str
    """Checksum of the evaluator's code."""
    data_checksum: str
    """Checksum of the dataset file."""
    eval_hash: str
    """Names the score file: the above plus the URL config."""


class UrlConfigUse(BaseModel):
    """The URL mapping a verdict was computed with."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str | None
    """Config file relative to the trajectory folder, "(given)", or None."""
    urls: dict[str, list[str]]
    """Each placeholder's URLs."""
    guessed: dict[str, list[str]] = {}
    """Sites the evaluator guessed from the HAR."""


class Evaluation(BaseModel):
    """Everything one scoring computed; stored as JSON in the score file's gpt_response_text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    engine: EngineInfo
    """The evaluator that computed it."""
    task_id: int
    """The task scored against."""
    outcome: ScoredEnding
    """The trajectory outcome it was scored as."""
    agent_response: AgentResponse | None
    """The response found in the answer; None when there was no answer."""
    har: str | None
    """HAR file name, when one was used."""
    url_config: UrlConfigUse
    """The URL mapping used."""
    result: TaskResult
    """The official TaskEvalResult, as its CLI writes it."""
    network: tuple[NetworkCheckTrace, ...]
    """Provenance of each network check, in eval-list order."""
    notes: tuple[str, ...]
    """What the user should know about how it was scored."""
    inputs: dict[str, str | None]
    """Digests of what was scored, to reuse an up-to-date score file."""

    @property
    def status(self) -> str:
        """The official status."""
        return str(self.result.status)

    @property
    def score(self) -> float:
        """The official score (0.0 when it has none)."""
        return self.result.score_or_zero


def evaluate(
    task: Task,
    answer: str | None,
    har: Har | UnreadableError | None,
    *,
    catalog: TaskCatalog,
    config: UrlConfig | None,
    config_source: str | None = None,
    steps: Sequence[TimedStep] = (),
    outcome: ScoredEnding = "answered",
) -> Evaluation:
    """Score one answer (None: the agent gave none) against one task with the official evaluator.

    `har` is the parsed HAR, the reason it could not be read, or None when there is none. Tasks
    with network checks need a HAR (see `har_problem`); other tasks are given an empty trace.
    """
    engine = official.engine_for(catalog, config)
    notes = list(config.warnings) if config else []
    response = parse_agent_response(answer) if answer is not None else None
    trace = official.trace_of(har if isinstance(har, Har) else None)
    if isinstance(har, UnreadableError):
        notes.append(
            f"{Path(str(har.path)).name} {har.reason}; "
            "this task has no network checks, so it was scored without it"
        )
    unmapped = unmapped_placeholders(config, task.sites)
    runner = _runner(engine, catalog, config, task, trace, notes)
    effective = official.effective_config(runner, task.task_id, trace)
    guessed = effective.guessed if runner is engine else {}
    if guessed:
        notes.append(_guess_note(unmapped, guessed))
    engine_input: Any = response.engine_input if response is not None else None
    result = official.evaluate_task(runner, task.task_id, engine_input, trace)
    network = trace_network_checks(
        runner,
        task.task_id,
        engine_input=engine_input,
        trace=trace,
        effective=effective,
        result=result,
        har=har if isinstance(har, Har) else None,
        steps=steps,
    )
    return Evaluation(
        engine=_engine_info(engine),
        task_id=task.task_id,
        outcome=outcome,
        agent_response=response,
        har=har.path.name if isinstance(har, Har) else None,
        url_config=UrlConfigUse(source=config_source, urls=config.urls() if config else {}, guessed=guessed),
        result=result,
        network=network,
        notes=tuple(notes),
        inputs={},
    )


def _runner(
    engine: official.Engine,
    catalog: TaskCatalog,
    config: UrlConfig | None,
    task: Task,
    trace: official.Trace,
    notes: list[str],
) -> official.Engine:
    """The engine to evaluate with: `engine`, or one with stand-in URLs (noted) where it would refuse."""
    unmapped = unmapped_placeholders(config, task.sites)
    if not unmapped or task.network_checks or trace.has_evaluation_events:
        return engine
    # The evaluator guesses missing URLs from the trace; with no trace it refuses to run. A task
    # without network checks only needs URLs to map ones inside the answer, so unmapped sites get
    # unroutable stand-ins and the user is told.
    notes.append(
        f"no URL mapping for {', '.join(unmapped)} and no HAR to guess it from; "
        "URLs in the answer stay unmapped"
    )
    return official.engine_for(catalog, stand_ins(config, task.sites))


def _engine_info(engine: official.Engine) -> EngineInfo:
    return EngineInfo(
        name=ENGINE_NAME,
        version=engine.version,
        evaluator_checksum=engine.evaluator_checksum,
        data_checksum=engine.data_checksum,
        eval_hash=engine.eval_hash,
    )


def _guess_note(unmapped: list[str], guessed: dict[str, list[str]]) -> str:
    return (
        f"no URL mapping for {', '.join(unmapped)}; the evaluator guessed "
        + "; ".join(f"{p} = {', '.join(urls)}" for p, urls in guessed.items())
        + " from the HAR (guesses can be wrong for multi-site tasks: pass a config)"
    )


def har_problem(task: Task, har: Har | UnreadableError | None) -> str | None:
    """Why this task cannot be scored with this HAR, or None when it can."""
    if isinstance(har, Har) or not task.network_checks:
        return None
    checks = f"task {task.task_id} has {len(task.network_checks)} network check(s)"
    if har is None:
        return f"no network.har in the folder, and {checks}"
    return f"{Path(str(har.path)).name} {har.reason}, and {checks}"


def stored_engine(score_file: Path) -> EngineInfo | None:
    """The evaluator that wrote one of our score files (library version, dataset checksum, eval
    hash); None when the file is not ours or cannot be read (a results table then says unknown).
    """
    try:
        stored = json.loads(score_file.read_bytes())
        evaluation = json.loads(stored["gpt_response_text"])
        return EngineInfo.model_validate(evaluation["engine"])
    except (OSError, ValueError, KeyError, TypeError):  # pydantic's ValidationError is a ValueError
        return None
