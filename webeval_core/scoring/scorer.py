"""Scoring trajectory folders: one, or a batch in worker processes, never stopped by bad input.

A folder's outcome is the official verdict with a plain reason when it is not a success;
aborted runs are excluded (not 0), a run without an answer is a failure, and anything unreadable
is an error naming what and why. An up-to-date score file is reused instead of re-evaluated.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.folderfiles import read_file, resolve_inside
from webeval_core.reading.markers import SCORES_DIR
from webeval_core.reading.network import Har, read_har
from webeval_core.reading.task_catalog import Task, TaskCatalog, load_catalog
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory
from webeval_core.scoring import official
from webeval_core.scoring.config import UrlConfig, find_url_config, load_url_config
from webeval_core.scoring.evaluation import Evaluation, evaluate, har_problem
from webeval_core.scoring.results import EvalStatus
from webeval_core.scoring.score_writer import (
    ScoreWriteError,
    score_file_path,
    stored_evaluation,
    write_score_file,
)
from webeval_core.support.diagnostics import UnreadableError
from webeval_core.support.parallel import ProgressCallback, map_in_processes, worker_count

Status = Literal["success", "failure", "error", "excluded"]
ConfigArg = Path | str | UrlConfig | None

_REASON_MESSAGE_CHARS = 1000  # characters of one assertion's messages quoted in a failure reason
_SCORE_IN_PARALLEL_FROM = 8  # trajectories; one evaluation costs more than a worker start
# Folders sent to a worker at once: a folder costs milliseconds, far more than its message, and
# chunks of 50 (812 / 16) left a core idle for most of a second at the end.
_SCORE_CHUNK = 8


class ScoreOutcome(BaseModel):
    """The verdict for one trajectory folder, with a plain reason when it is not a success."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The trajectory folder."""
    task_id: str
    """The task id the folder names (the folder name when it could not be read)."""
    status: Status
    """success / failure / error / excluded (aborted runs, tasks without an official evaluator)."""
    score: float | None = None
    """None when excluded or in error."""
    reason: str | None = None
    """Why it is not a success, in plain words."""
    eval_hash: str | None = None
    """The engine and config it was scored with; None when it never reached the evaluator."""
    score_file: Path | None = None
    """Written (or reused) score file."""
    score_file_changed: bool = True
    """False when the score file already held exactly this verdict (nothing written)."""
    reused: bool = False
    """An up-to-date score file was found and not recomputed."""
    sites: tuple[str, ...] = ()
    """The task's sites."""
    task_type: str | None = None
    """retrieve / navigate / mutate."""
    notes: tuple[str, ...] = ()
    """What the user should know about how it was scored."""
    evaluation: Evaluation | None = None
    """Everything the evaluation computed; None when it never ran."""


def score_trajectory(
    item: Path | str | Trajectory,
    *,
    config: ConfigArg = None,
    config_root: Path | None = None,
    catalog: TaskCatalog | Path | str | None = None,
    force: bool = False,
    write: bool = True,
) -> ScoreOutcome:
    """Score one trajectory folder; never raises for bad input (the outcome says what was wrong).

    Without `force`, an existing score file of the same eval_hash whose recorded inputs (answer,
    HAR, step times, config source) are unchanged is reused instead of re-evaluated.
    """
    outcome = _scored(item, config, config_root, catalog, reuse=write and not force)
    return commit_outcome(outcome) if write else outcome


def evaluate_trajectory(
    item: Path | str | Trajectory,
    *,
    config: ConfigArg = None,
    config_root: Path | None = None,
    catalog: TaskCatalog | Path | str | None = None,
    force: bool = False,
    written_in: Path | None = None,
) -> ScoreOutcome:
    """`score_trajectory`'s verdict, an up-to-date score file reused, but nothing written.

    For a caller that writes elsewhere than where it reads (a cluster's workers read a copy, the
    client writes): `commit_outcome` then writes exactly what `score_trajectory` would have.
    `written_in` is the folder as that caller sees it: a given config file's place is recorded
    relative to it, as `score_trajectory` there would (default: the folder read).
    """
    return _scored(item, config, config_root, catalog, reuse=not force, written_in=written_in)


def commit_outcome(outcome: ScoreOutcome) -> ScoreOutcome:
    """Write the score file of a fresh verdict into `outcome.path` (reused or unscored: as is).

    Errors get a score file too (the verdict and its reason must be visible to every reader);
    a file that cannot be written makes the outcome an error saying why.
    """
    if outcome.reused or outcome.evaluation is None or outcome.status not in ("success", "failure", "error"):
        return outcome
    try:
        written = write_score_file(outcome.path, outcome.evaluation, outcome.score or 0.0)
    except ScoreWriteError as exc:
        return ScoreOutcome(path=outcome.path, task_id=outcome.task_id, status="error", reason=str(exc))
    except Exception as exc:  # a batch must survive whatever one folder holds; the reason is reported
        return _unexpected(outcome.path, outcome.task_id, exc)
    return outcome.model_copy(update={"score_file": written.path, "score_file_changed": written.changed})


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    # A HAR is tens of thousands of small dicts alive for the whole evaluation, which makes no
    # cycles worth finding: collections during it only rescan them, a fifth of scoring's CPU.
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@_collection_paused()
def _scored(
    item: Path | str | Trajectory,
    config: ConfigArg,
    config_root: Path | None,
    catalog: TaskCatalog | Path | str | None,
    *,
    reuse: bool,
    written_in: Path | None = None,
) -> ScoreOutcome:
    """The verdict of one folder, nothing written; `reuse`: an up-to-date score file is taken as is."""
    path = item.path if isinstance(item, Trajectory) else Path(item)
    try:
        tasks = catalog if isinstance(catalog, TaskCatalog) else load_catalog(catalog)
        trajectory = item if isinstance(item, Trajectory) else load_trajectory(path)
    except UnreadableError as exc:
        return ScoreOutcome(path=path, task_id=path.name, status="error", reason=f"{exc.path}: {exc.reason}")
    try:
        return _score(trajectory, tasks, (config, config_root, written_in), reuse=reuse)
    except UnreadableError as exc:
        return ScoreOutcome(
            path=path, task_id=trajectory.task_id, status="error", reason=f"{exc.path}: {exc.reason}"
        )
    except Exception as exc:  # a batch must survive whatever one folder holds; the reason is reported
        return _unexpected(path, trajectory.task_id, exc)


def _unexpected(path: Path, task_id: str, exc: Exception) -> ScoreOutcome:
    return ScoreOutcome(
        path=path, task_id=task_id, status="error", reason=f"unexpected error while scoring: {exc!r}"
    )


def _other_benchmark(trajectory: Trajectory) -> bool:
    # WebArena-Verified ids are numbers; Fara's other benchmarks name tasks ("alltrails_find_23",
    # "Allrecipes--0"). A number missing from the catalog is an error, not another benchmark.
    return trajectory.layout == "fara" and not trajectory.task_id.isdigit()


def _left_out(trajectory: Trajectory) -> str:
    """Why an aborted or unfinished trajectory is not scored."""
    if trajectory.outcome == "unfinished":
        return "unfinished: the task is still running (scored once it finishes)"
    why = (
        f"the task crashed ({trajectory.crash_reason})"
        if trajectory.crash_reason
        else "the run stopped without an answer file"
    )
    return f"aborted: {why} (excluded, not 0)"


def _score(
    trajectory: Trajectory,
    catalog: TaskCatalog,
    config: tuple[ConfigArg, Path | None, Path | None],
    *,
    reuse: bool,
) -> ScoreOutcome:
    path = trajectory.path
    task = catalog.get(trajectory.task_id)
    if task is None and _other_benchmark(trajectory):
        return ScoreOutcome(
            path=path,
            task_id=trajectory.task_id,
            status="excluded",
            reason=(
                f"no official evaluator for this benchmark ('{trajectory.task_id}' is not a "
                "WebArena-Verified task)"
            ),
        )
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
    if trajectory.outcome in ("aborted", "unfinished"):
        return ScoreOutcome(**info, status="excluded", reason=_left_out(trajectory))
    try:
        url_config, source = _resolve_config(path, *config, catalog)
    except UnreadableError as exc:
        return ScoreOutcome(**info, status="error", reason=f"URL config {exc.path}: {exc.reason}")
    # The engine itself (and the library's import) only when the folder is evaluated.
    info["eval_hash"] = official.eval_hash_for(catalog, url_config)
    inputs = _inputs(trajectory, source)
    target = score_file_path(path, info["eval_hash"])
    if reuse:
        reused = _reusable(path, target, inputs, trajectory.har_path)
        if reused is not None:
            return _outcome(info, reused, score_file=target, reused=True)
    evaluation, problem = _evaluate(trajectory, task, catalog, (url_config, source), inputs)
    outcome = _outcome(info, evaluation)
    if problem and trajectory.outcome == "answered":
        outcome = outcome.model_copy(update={"reason": problem})
    return outcome


def _evaluate(
    trajectory: Trajectory,
    task: Task,
    catalog: TaskCatalog,
    config: tuple[UrlConfig | None, str | None],
    inputs: dict[str, str | None],
) -> tuple[Evaluation, str | None]:
    """A fresh evaluation of the trajectory, and why its HAR could not be used (None if it could)."""
    har = _read_har(trajectory.har_path, inputs)
    problem = har_problem(task, har)
    evaluation = evaluate(
        task,
        trajectory.final_answer_text if trajectory.outcome == "answered" else None,
        None if problem else har,
        catalog=catalog,
        config=config[0],
        config_source=config[1],
        steps=trajectory.steps,
        outcome="answered" if trajectory.outcome == "answered" else "no_answer",
    )
    update: dict[str, Any] = {"inputs": inputs, "notes": (*evaluation.notes, *([problem] if problem else []))}
    if problem and trajectory.outcome == "answered":
        # The official CLI cannot score this either (it reports an error); the answer is still
        # evaluated against an empty trace so the viewer can show expected vs actual.
        update["result"] = evaluation.result.as_error(problem)
    return evaluation.model_copy(update=update), problem


def _inputs(trajectory: Trajectory, source: str | None) -> dict[str, str | None]:
    answer = trajectory.final_answer_text if trajectory.outcome == "answered" else None
    steps = json.dumps([[s.index, str(s.time_utc)] for s in trajectory.steps]).encode()
    return {
        "outcome": trajectory.outcome,
        "answer_sha256": _sha256(answer.encode("utf-8")) if answer is not None else None,
        "har_sha256": None,
        "steps_sha256": _sha256(steps),
        "config_source": source,
    }


def _reusable(
    folder: Path, target: Path, inputs: dict[str, str | None], har_path: Path | None
) -> Evaluation | None:
    """The stored evaluation when it was computed from these very inputs (fills in the HAR digest).

    Never read through a `scores/` link that leads out of the folder.
    """
    if not target.exists() or resolve_inside(folder, target) is None:
        return None
    stored = stored_evaluation(target)
    if stored is None:
        return None
    inputs["har_sha256"] = _file_sha256(har_path) if har_path else None
    return stored if stored.inputs == inputs else None


def _read_har(har_path: Path | None, inputs: dict[str, str | None]) -> Har | UnreadableError | None:
    """The folder's HAR, or why it cannot be read; records its digest in `inputs`."""
    if har_path is None:
        return None
    try:
        har = read_har(har_path)
    except UnreadableError as exc:
        inputs["har_sha256"] = _file_sha256(har_path)
        return exc
    inputs["har_sha256"] = har.sha256
    return har


def _resolve_config(
    folder: Path, config: ConfigArg, root: Path | None, written_in: Path | None, catalog: TaskCatalog
) -> tuple[UrlConfig | None, str | None]:
    if config is not None and written_in is not None:
        folder = written_in  # a config found in the folder read sits where it sits in the one written
    if isinstance(config, UrlConfig):
        url_config: UrlConfig | None = config
    else:
        file = Path(config) if config is not None else find_url_config(folder, root)
        url_config = load_url_config(file) if file is not None else None
    if url_config is None:
        return None, None
    data_file = url_config.test_data_file
    if data_file and data_file.is_file() and load_catalog(data_file).checksum != catalog.checksum:
        # The official loader would score against that dataset; silently using another one
        # would give verdicts the official CLI does not.
        raise UnreadableError(
            url_config.path or "config",
            f"names dataset {data_file}, but scoring uses {catalog.path}; pass that dataset as the task file",
        )
    if url_config.path is not None:
        return url_config, os.path.relpath(url_config.path, Path(folder).resolve())
    return url_config, "(given)"


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
    status = evaluation.result.status
    if status == EvalStatus.SUCCESS:
        return ScoreOutcome(**common, status="success", score=evaluation.score)
    if status == EvalStatus.ERROR:
        message = evaluation.result.error_message() or "the evaluator reported an error without a message"
        return ScoreOutcome(**common, status="error", reason=f"evaluator error: {message}")
    return ScoreOutcome(**common, status="failure", score=evaluation.score, reason=failure_reason(evaluation))


def failure_reason(evaluation: Evaluation) -> str:
    """Why an evaluation is not a success, in one paragraph: each failed check and assertion."""
    parts = []
    traces = {t.position: t for t in evaluation.network}
    response = evaluation.agent_response
    for position, result in enumerate(evaluation.result.evaluators_results):
        if result.status == EvalStatus.SUCCESS:
            continue
        trace = traces.get(position)
        if trace is not None:
            parts.append(f"network check {position}: {trace.explanation}")
            if trace.limitation:
                parts.append(f"({trace.limitation})")
            continue
        if response is not None and response.parse_error:
            parts.append(f"answer: {response.parse_error}.")
        messages = [
            _clip(f"{a.assertion_name}: {'; '.join(a.messages)}".rstrip(": ")) for a in result.all_assertions
        ]
        if messages:
            parts.append(f"answer: {' | '.join(messages)}.")
    return " ".join(parts) or "the evaluator gave a score of 0"


def _clip(text: str) -> str:
    # The evaluator quotes the whole answer in its messages; a reason is one readable paragraph.
    return text if len(text) <= _REASON_MESSAGE_CHARS else f"{text[: _REASON_MESSAGE_CHARS - 3]}..."


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha256(path: Path) -> str | None:
    try:
        return _sha256(read_file(path))
    except OSError:
        return None


# --- batches ----------------------------------------------------------------------------------


def score_trajectories(  # noqa: PLR0913 - score_trajectory's options, and the batch's own
    items: Iterable[Path | str | Trajectory],
    *,
    config: ConfigArg = None,
    config_root: Path | None = None,
    catalog: TaskCatalog | Path | str | None = None,
    jobs: int = 1,
    force: bool = False,
    write: bool = True,
    on_progress: ProgressCallback | None = None,
    evaluations: bool = True,
) -> list[ScoreOutcome]:
    """Score many trajectory folders, in input order, with up to `jobs` processes (0: all cores).

    Bad input never stops the batch; only an unreadable task file (`catalog`) raises
    UnreadableError, since nothing could be scored without it. Without `evaluations`, outcomes
    come back with `evaluation` None (the score files hold them): nothing large crosses from
    the workers for a caller that only tallies verdicts.
    """
    work = list(items)
    tasks = catalog if isinstance(catalog, TaskCatalog) else load_catalog(catalog)
    job = functools.partial(
        _score_one,
        {"config": config, "config_root": config_root, "catalog": tasks, "force": force, "write": write},
        evaluations=evaluations,
    )
    if on_progress:
        on_progress(0, len(work))
    return map_in_processes(
        job,
        work,
        workers=worker_count(jobs, len(work)),
        parallel_from=_SCORE_IN_PARALLEL_FROM,
        on_progress=on_progress,
        before_fork=functools.partial(_prepare_engine, tasks, config, work if not force else None),
        max_chunk=_SCORE_CHUNK,
    )


def _score_one(options: dict[str, Any], item: Path | str | Trajectory, *, evaluations: bool) -> ScoreOutcome:
    outcome = score_trajectory(item, **options)
    return outcome if evaluations else outcome.model_copy(update={"evaluation": None})


def _prepare_engine(catalog: TaskCatalog, config: ConfigArg, unless_scored: list[Any] | None = None) -> None:
    """Build the engine once before forking, so workers start with it loaded.

    Not when every folder of `unless_scored` already holds a score file of this library version
    (likely all up to date: checking needs no engine); a worker then builds it if one is not.
    """
    try:
        url_config = load_url_config(config) if isinstance(config, str | Path) else config
        if unless_scored is not None and all(map(_scored_by_this_version, unless_scored)):
            return
        official.engine_for(catalog, url_config)
    except UnreadableError:
        pass  # reported per trajectory


def _scored_by_this_version(item: Path | str | Trajectory) -> bool:
    folder = item.path if isinstance(item, Trajectory) else Path(item)
    prefix = official.eval_hash_for_prefix()
    try:
        return any(name.startswith(prefix) for name in os.listdir(folder / SCORES_DIR))
    except OSError:
        return False
