"""Scoring on a Dask cluster: its workers read and evaluate, this process writes what they return.

`score_on_cluster` sends the trajectory folders of each root, in chunks, to an existing
`dask.distributed` scheduler. A worker reads its chunk itself: a root on a path every worker
shares, or a store URL (az://, s3://, gs://) copied with the worker's own credentials into a
temporary folder. It returns the verdicts and writes nothing (`evaluate_trajectory`). Score files
are written here, by `commit_outcome` (the local pool's own write), once per folder as chunks come
back. A chunk whose worker dies is run again by the scheduler on another worker; since workers
never write, a chunk that runs twice cannot write twice, and one that never comes back is an
error (the run stops), never a silent gap.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.task_catalog import TaskCatalog, installed_catalog, load_catalog
from webeval_core.remote.stores import is_remote
from webeval_core.scoring import official
from webeval_core.scoring.config import CONFIG_FILE_NAME, UrlConfig, load_url_config
from webeval_core.scoring.score_writer import score_file_path
from webeval_core.scoring.scorer import ConfigArg, ScoreOutcome, commit_outcome, evaluate_trajectory
from webeval_core.support.parallel import ProgressCallback

SCHEDULER_ENV = "WEBEVAL_DASK_SCHEDULER"
"""The environment variable naming the scheduler when `--cluster` is not given."""
_CONNECT_SECONDS = 30  # to reach the scheduler, and for it to have a worker
_MAX_CHUNK = 32  # folders per task: a lost worker costs at most this much work again
_CHUNKS_EACH = 8  # chunks per worker at least, so the last one does not finish alone


_Place = tuple[Path, tuple[Path, ...]]  # a chunk's root here and its folders here


class ClusterError(Exception):
    """The cluster cannot score: unreachable, no workers, or workers that score differently."""


class ClusterRoot(BaseModel):
    """One root to score on a cluster: where this process writes, and what workers read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    local: Path
    """The folder listed here and written into: the root itself, or a store's local mirror."""
    source: str
    """What the workers read: the same path (shared by every worker), or the store's URL."""


class DatasetFile(BaseModel):
    """The task file scored against, sent once to every worker (they may not see this one)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """Its file name, kept so messages naming it read the same on every worker."""
    checksum: str
    """Its SHA-256 (the engine's data checksum): a worker's own copy is used when it matches."""
    content: bytes
    """The file's bytes."""


class Chunk(BaseModel):
    """What one cluster task scores: some folders of one root, and how."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    """The root as workers read it (a shared path or a store URL)."""
    folders: tuple[str, ...]
    """The trajectory folders, relative to the root (POSIX)."""
    written_in: str
    """The root as this process writes into it: a given config's place is recorded against it."""
    config: UrlConfig | None
    """The URL config given on the command line; None: each folder's own, found beside it."""
    force: bool
    """Re-evaluate even where a score file is up to date."""


class ChunkResult(BaseModel):
    """A worker's answer for one chunk."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    root: str
    """The root as the worker read it (its copy's folder for a store), to name it as ours."""
    outcomes: tuple[ScoreOutcome, ...]
    """One per folder of the chunk, in its order, nothing written."""


def scheduler_address(given: str | None) -> str | None:
    """The scheduler to score on: `given` (`--cluster`), else `$WEBEVAL_DASK_SCHEDULER`, else None."""
    return given or os.environ.get(SCHEDULER_ENV) or None


def cluster_root(path: Path, url: str | None) -> ClusterRoot:
    """The cluster's view of an opened root: a store's URL is read by workers, a path as it is."""
    return ClusterRoot(local=path, source=url or str(path))


def score_on_cluster(
    scheduler: str,
    batches: Sequence[tuple[ClusterRoot, Sequence[Path]]],
    *,
    catalog: TaskCatalog,
    config: ConfigArg = None,
    force: bool = False,
    on_progress: ProgressCallback | None = None,
    connect_timeout: float | None = None,
    evaluations: bool = True,
) -> list[ScoreOutcome]:
    """Score the folders of each root on the cluster at `scheduler`; outcomes in input order.

    Score files are written here (not by the workers) exactly as `score_trajectories` writes
    them. Ctrl-C cancels the cluster's tasks; files of chunks already returned stay written.
    `connect_timeout`: seconds to reach the scheduler, and again for it to have a worker (30).
    Without `evaluations`, each outcome lets go of its evaluation once its score file is written
    (the file holds it): a container of 50,000 folders is not held in memory here.

    Raises:
        ClusterError: when the scheduler cannot be reached, has no worker, or a worker's
            evaluator is not the installed one (nothing of such a chunk is written).
    """
    from distributed import as_completed

    given = load_url_config(config) if isinstance(config, str | Path) else config
    total = sum(len(folders) for _, folders in batches)
    if on_progress:
        on_progress(0, total)
    if not total:
        return []
    expected = _engine_identity(official.engine_for(catalog, None))
    outcomes: dict[Path, ScoreOutcome] = {}
    with _connected(scheduler, connect_timeout or _CONNECT_SECONDS) as client:
        chunks, places = _chunks(batches, given, force, workers=len(client.scheduler_info()["workers"]))
        sent = _Sent(client, catalog)
        futures = [sent.submit(chunk, place) for chunk, place in zip(chunks, places, strict=True)]
        try:
            done = as_completed(futures, loop=client.loop)  # type: ignore[no-untyped-call]
            for future in done:
                if (again := sent.again(future)) is not None:
                    done.add(again)  # type: ignore[no-untyped-call]
                    continue
                for outcome in _committed(_result(future), sent.place(future), expected):
                    kept = outcome if evaluations else outcome.model_copy(update={"evaluation": None})
                    outcomes[outcome.path] = kept
                if on_progress:
                    on_progress(len(outcomes), total)
        except BaseException:
            # Ctrl-C or a failed chunk: nothing more is scored for this run.
            client.cancel(sent.futures(), force=True)
            raise
    return [outcomes[folder] for _, folders in batches for folder in folders]


_SENT_AGAIN = 3
"""Times the cluster may drop chunks (`_Sent.again`) before the run says it could not score one."""


class _Sent:
    """The chunks sent to the cluster. A chunk that raised (a store that timed out for the whole
    batch) is tried again by the scheduler (`retries`), as is one whose worker died; one the
    cluster dropped (cancelled: the workers holding the scattered task dataset died, or the
    scheduler let the client's keys go while this machine was too busy to answer) is sent again
    here with the dataset scattered anew. Nothing is written twice: score files are written here,
    from a chunk's result, once.
    """

    def __init__(self, client: Any, catalog: TaskCatalog) -> None:
        self._client = client
        self._catalog = catalog
        self._dataset = client.scatter(_dataset(catalog), broadcast=True)
        self._sent: dict[str, tuple[Any, Chunk, _Place]] = {}
        self._dropped = 0

    def submit(self, chunk: Chunk, place: _Place) -> Any:
        future = self._client.submit(score_chunk, chunk, self._dataset, pure=False, retries=2)
        self._sent[future.key] = (future, chunk, place)
        return future

    def again(self, future: Any) -> Any | None:
        """The chunk sent again when the cluster dropped it (a new future); None otherwise."""
        if future.status != "cancelled" or self._dropped >= _SENT_AGAIN:
            return None
        self._dropped += 1
        _, chunk, place = self._sent.pop(future.key)
        self._dataset = self._client.scatter(_dataset(self._catalog), broadcast=True)
        return self.submit(chunk, place)

    def place(self, future: Any) -> _Place:
        """Where the chunk's folders are here."""
        return self._sent[future.key][2]

    def futures(self) -> list[Any]:
        """Every chunk's latest future."""
        return [future for future, _, _ in self._sent.values()]


def _result(future: Any) -> ChunkResult:
    """A finished chunk's result; a chunk the cluster gave up on (its workers kept dying) said plainly."""
    try:
        result: ChunkResult = future.result()
    except Exception as exc:  # whatever the cluster reports; the run stops, nothing half-written
        raise ClusterError(f"the cluster could not score a chunk ({type(exc).__name__}: {exc})") from exc
    return result


def _chunks(
    batches: Sequence[tuple[ClusterRoot, Sequence[Path]]],
    config: UrlConfig | None,
    force: bool,
    *,
    workers: int,
) -> tuple[list[Chunk], list[_Place]]:
    """The chunks of every root, and where each one's folders are here."""
    total = sum(len(folders) for _, folders in batches)
    size = max(1, min(_MAX_CHUNK, math.ceil(total / (max(workers, 1) * _CHUNKS_EACH))))
    chunks: list[Chunk] = []
    places: list[_Place] = []
    for root, folders in batches:
        for start in range(0, len(folders), size):
            local = tuple(folders[start : start + size])
            relative = tuple(Path(f).relative_to(root.local).as_posix() for f in local)
            chunks.append(
                Chunk(
                    source=root.source,
                    folders=relative,
                    written_in=str(root.local),
                    config=config,
                    force=force,
                )
            )
            places.append((root.local, local))
    return chunks, places


@contextmanager
def _connected(scheduler: str, timeout: float) -> Iterator[Any]:
    """A client of the scheduler that has at least one worker; closed after."""
    from distributed import Client

    try:
        client = Client(scheduler, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {scheduler} has no worker (waited {timeout:g} s)"
            ) from None
        yield client
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _dataset(catalog: TaskCatalog) -> DatasetFile:
    return DatasetFile(name=catalog.path.name, checksum=catalog.checksum, content=catalog.path.read_bytes())


def _engine_identity(engine: official.Engine) -> tuple[str, str]:
    return engine.version, engine.evaluator_checksum


def _committed(result: ChunkResult, place: _Place, expected: tuple[str, str]) -> Iterator[ScoreOutcome]:
    """The chunk's outcomes named as our folders, their score files written here."""
    local_root, folders = place
    local: list[ScoreOutcome] = []
    for outcome, folder in zip(result.outcomes, folders, strict=True):
        engine = outcome.evaluation.engine if outcome.evaluation else None
        if engine is not None and (engine.version, engine.evaluator_checksum) != expected:
            raise ClusterError(
                f"a worker scored {folder} with webarena-verified {engine.version} (evaluator"
                f" {engine.evaluator_checksum[:12]}), this machine has {expected[0]} ({expected[1][:12]});"
                " install the same version on the workers"
            )
        local.append(_as_ours(outcome, folder, result.root, str(local_root)))
    yield from (commit_outcome(outcome) for outcome in local)


def _as_ours(outcome: ScoreOutcome, folder: Path, worker_root: str, root: str) -> ScoreOutcome:
    """A worker's outcome as if scored here: our folder, our score file path, our paths in its reason."""
    update: dict[str, Any] = {"path": folder}
    if outcome.score_file is not None and outcome.eval_hash is not None:
        update["score_file"] = score_file_path(folder, outcome.eval_hash)
    if outcome.reason and worker_root != root:
        update["reason"] = outcome.reason.replace(worker_root, root)
    return outcome.model_copy(update=update)


# --- on a worker ---------------------------------------------------------------------------------

_catalogs: dict[str, TaskCatalog] = {}  # a worker process's catalogs, by checksum


def score_chunk(chunk: Chunk, dataset: DatasetFile) -> ChunkResult:
    """Score one chunk where it runs (a cluster's worker): read the folders, write nothing."""
    catalog = _worker_catalog(dataset)
    with _readable(chunk) as (root, problems):
        outcomes = tuple(
            _evaluated(chunk, catalog, root, folder, problems.get(folder)) for folder in chunk.folders
        )
    return ChunkResult(root=str(root), outcomes=outcomes)


def _evaluated(
    chunk: Chunk, catalog: TaskCatalog, root: Path, folder: str, problem: str | None
) -> ScoreOutcome:
    path = root / folder
    if problem is not None:
        return ScoreOutcome(path=path, task_id=path.name, status="error", reason=problem)
    return evaluate_trajectory(
        path,
        config=chunk.config,
        config_root=root,
        catalog=catalog,
        force=chunk.force,
        written_in=Path(chunk.written_in) / folder,
    )


@contextmanager
def _readable(chunk: Chunk) -> Iterator[tuple[Path, dict[str, str]]]:
    """The chunk's root as this worker reads it, and the folders that could not be copied."""
    if not is_remote(chunk.source):
        yield Path(chunk.source), {}
        return
    from webeval_core.remote.mirror import fetch_folders

    with tempfile.TemporaryDirectory(prefix="webeval-cluster-") as temp:
        root = Path(temp).resolve() / "root"
        problems = fetch_folders(chunk.source, chunk.folders, root, ancestor_files=(CONFIG_FILE_NAME,))
        yield root, problems


def _worker_catalog(dataset: DatasetFile) -> TaskCatalog:
    """The task file as this worker reads it: its own installed copy when the same, else the one sent."""
    catalog = _catalogs.get(dataset.checksum)
    if catalog is not None:
        return catalog
    installed = installed_catalog()
    if installed is not None and installed.checksum == dataset.checksum:
        catalog = installed
    else:
        folder = Path(tempfile.gettempdir()) / "webeval-datasets" / dataset.checksum
        folder.mkdir(parents=True, exist_ok=True)
        file = folder / dataset.name
        if not file.is_file():
            temp = folder / f".{dataset.name}.{os.getpid()}.part"
            temp.write_bytes(dataset.content)
            os.replace(temp, file)
        catalog = load_catalog(file)
    _catalogs[dataset.checksum] = catalog
    return catalog
