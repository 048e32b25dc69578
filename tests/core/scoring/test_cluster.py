"""Scoring on a real Dask cluster: a scheduler and two workers, each its own process, on loopback.

The verdicts and score files must be byte for byte those of the local process pool, for a shared
folder and for a store (Azurite) the workers read with their own credentials; a worker killed
mid-run is replaced and changes nothing; no score file is written twice.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SAMPLE_RUNS, Sample, private_copy
from tests.core.cli.helpers import run_cli
from tests.core.scoring.helpers import CHANGED, check_flips
from tests.harness.azurite import azurite_binary, azurite_sample
from tests.harness.dask_cluster import DaskCluster, free_port, running_cluster
from tests.harness.datasets import changed_dataset, response_tasks
from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.scoring import ScoreOutcome, score_trajectories
from webeval_core.scoring import scorer as trajectories_module
from webeval_core.scoring.cluster import (
    ClusterError,
    cluster_root,
    scheduler_address,
    score_on_cluster,
)

pytest.importorskip("distributed")

__all__ = ["azurite_sample"]  # the session fixture, used here by name


@pytest.fixture(scope="module")
def store(request: pytest.FixtureRequest) -> Any:
    """The Azurite sample when Azurite is installed, else None; asked for before the workers start,
    so they inherit its connection string (the credentials of their own environment)."""
    return request.getfixturevalue("azurite_sample") if azurite_binary() else None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, store: Any) -> Iterator[DaskCluster]:
    folder = tmp_path_factory.mktemp("dask")
    env = {**os.environ, "WEBEVAL_REMOTE_CACHE": str(folder / "worker-cache")}
    with running_cluster(folder, workers=2, env=env) as running:
        yield running


def _comparable(outcome: ScoreOutcome, root: Path) -> dict[str, Any]:
    # Keys sorted: a reused verdict's inputs come back from its file in sorted order.
    text = (
        json.dumps(outcome.model_dump(mode="json"), sort_keys=True)
        .replace(str(root.resolve()), "ROOT")
        .replace(str(root), "ROOT")
    )
    return {"outcome": text}


def _score_files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("scores/*"))
        if path.is_file()
    }


def _on_cluster(cluster: DaskCluster, root: Path, **options: Any) -> list[ScoreOutcome]:
    folders = list(iter_trajectory_dirs(root))
    return score_on_cluster(cluster.address, [(cluster_root(root, None), folders)], **options)


def _catalog() -> Any:
    from webeval_core.reading.task_catalog import load_catalog

    return load_catalog()


def test_a_shared_folder_scores_as_the_local_pool_does(
    cluster: DaskCluster, scored_sample: Sample, tmp_path: Path
) -> None:
    root = private_copy(SAMPLE_RUNS, tmp_path / "sample_runs")
    progress: list[tuple[int, int]] = []
    outcomes = _on_cluster(
        cluster, root, catalog=_catalog(), on_progress=lambda d, t: progress.append((d, t))
    )
    assert [_comparable(o, root) for o in outcomes] == [
        _comparable(o, scored_sample.root) for o in scored_sample.outcomes
    ]
    assert _score_files(root) == _score_files(scored_sample.root)
    every = len(list(iter_trajectory_dirs(root)))  # the sample's trajectories, every format's
    assert progress[0] == (0, every) and progress[-1] == (every, every)
    # Scored again: every verdict is an up-to-date file, reused by the workers, nothing written.
    again = _on_cluster(cluster, root, catalog=_catalog())
    assert all(o.reused for o in again if o.evaluation is not None)
    # As the CLI asks: each evaluation let go once its file is written; the same files, verdicts.
    light = _on_cluster(cluster, root, catalog=_catalog(), force=True, evaluations=False)
    assert all(o.evaluation is None for o in light)
    assert [(o.path, o.status, o.score) for o in light] == [(o.path, o.status, o.score) for o in outcomes]
    assert _score_files(root) == _score_files(scored_sample.root)


def test_a_worker_killed_mid_run_changes_nothing_and_nothing_is_written_twice(
    cluster: DaskCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Forced on both sides, on the Fara runs' folders (half the sample keeps the test short).
    reference = private_copy(SAMPLE_RUNS, tmp_path / "pool" / "sample_runs")
    picked = [f for f in iter_trajectory_dirs(reference) if "fara" in str(f)][:40]
    expected = score_trajectories(picked, catalog=_catalog(), jobs=2, force=True, config_root=reference)
    root = private_copy(SAMPLE_RUNS, tmp_path / "cluster" / "sample_runs")
    folders = [root / f.relative_to(reference) for f in picked]
    written: Counter[Path] = Counter()
    real_write = trajectories_module.write_score_file

    def counting_write(folder: Path, evaluation: Any, score: float) -> Path:
        target = real_write(folder, evaluation, score)
        written[target] += 1
        return target

    monkeypatch.setattr(trajectories_module, "write_score_file", counting_write)
    victim = cluster.worker_pids()[0]
    killed: list[int] = []

    def kill_once(done: int, total: int) -> None:
        if done and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    outcomes = score_on_cluster(
        cluster.address,
        [(cluster_root(root, None), folders)],
        catalog=_catalog(),
        force=True,
        on_progress=kill_once,
    )
    assert killed and killed[0] < len(folders)
    assert [_comparable(o, root) for o in outcomes] == [_comparable(o, reference) for o in expected]
    assert _score_files(root) == _score_files(reference)
    assert set(written.values()) == {1}
    assert len(written) == sum(1 for o in outcomes if o.score_file is not None) > 30
    cluster.wait_for_workers()  # the nanny replaced the worker
    assert victim not in cluster.worker_pids()


def test_a_store_is_read_by_the_workers_and_scores_as_its_local_mirror(
    cluster: DaskCluster, store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store is None:
        pytest.skip("azurite is not installed: `python3 dev.py test` installs it")
    from webeval_core.remote import open_root

    monkeypatch.setenv("WEBEVAL_REMOTE_CACHE", str(tmp_path / "local-pool"))
    local = open_root(store.url)
    # Forced, so both evaluate; a run's worth of folders keeps the test short.
    pick = [f for f in iter_trajectory_dirs(local.path) if "fara" in str(f)][:12]
    expected = score_trajectories(pick, jobs=2, force=True, config_root=local.path)
    monkeypatch.setenv("WEBEVAL_REMOTE_CACHE", str(tmp_path / "client"))
    mirror = open_root(store.url)
    folders = [mirror.path / f.relative_to(local.path) for f in pick]
    outcomes = score_on_cluster(
        cluster.address, [(cluster_root(mirror.path, store.url), folders)], catalog=_catalog(), force=True
    )
    assert [_comparable(o, mirror.path) for o in outcomes] == [_comparable(o, local.path) for o in expected]
    ours = {
        k: v
        for k, v in _score_files(mirror.path).items()
        if any(k.startswith(f"{f.relative_to(mirror.path).as_posix()}/") for f in folders)
    }
    theirs = {k: v for k, v in _score_files(local.path).items() if k in ours}
    assert ours == theirs and len(ours) >= len([o for o in expected if o.score_file])


def test_an_unreachable_scheduler_is_said_plainly(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        score_on_cluster(
            f"tcp://127.0.0.1:{free_port()}",
            [(cluster_root(tmp_path, None), [folder])],
            catalog=_catalog(),
            connect_timeout=2,
        )


def test_the_scheduler_comes_from_the_flag_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEBEVAL_DASK_SCHEDULER", raising=False)
    assert scheduler_address(None) is None
    monkeypatch.setenv("WEBEVAL_DASK_SCHEDULER", "tcp://10.0.0.1:8786")
    assert scheduler_address(None) == "tcp://10.0.0.1:8786"
    assert scheduler_address("tcp://h:1") == "tcp://h:1"


def test_the_cli_scores_on_the_cluster_named_by_the_environment(
    cluster: DaskCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from webeval_core.cli import main
    from webeval_core.runs.index_db import IndexStore

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "cli"
    shutil.copytree(SAMPLE_RUNS / "webarena-verified-cli", root / "webarena-verified-cli")
    shutil.copy(SAMPLE_RUNS / "webarena-verified-config.json", root)
    local = private_copy(root, tmp_path / "local")
    pool = io.StringIO()
    assert main(["score", str(local), "--json", "--jobs", "1"], out=pool) == 0
    monkeypatch.setenv("WEBEVAL_DASK_SCHEDULER", cluster.address)
    out = io.StringIO()
    assert main(["score", str(root), "--json"], out=out) == 0
    on_cluster = json.loads(out.getvalue().replace(str(root), "ROOT"))
    in_pool = json.loads(pool.getvalue().replace(str(local), "ROOT"))
    for printed in (on_cluster, in_pool):
        printed["flips"].pop("created")  # when each scoring ended
    assert on_cluster == in_pool
    assert _score_files(root) == _score_files(local) and _score_files(root)
    assert IndexStore(root).counts().trajectories == 5  # refreshed once, after the files were written
    monkeypatch.setenv("WEBEVAL_DASK_SCHEDULER", f"tcp://127.0.0.1:{free_port()}")
    monkeypatch.setattr("webeval_core.scoring.cluster._CONNECT_SECONDS", 2)
    assert main(["score", str(root)], out=io.StringIO()) == 1


def test_a_corrected_dataset_flips_the_same_on_the_cluster(
    cluster: DaskCluster, scored_sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`webeval score --cluster` records the same flip report as a local scoring."""
    from webeval_core.scoring.flips import FlipReport

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = private_copy(scored_sample.root, tmp_path / "sample_runs")
    tasks = response_tasks(_catalog(), CHANGED)
    dataset = changed_dataset(_catalog(), tasks, tmp_path / "dataset")
    flips_file = tmp_path / "flips.json"
    options = ("--tasks", str(dataset), "--cluster", cluster.address, "--flips", str(flips_file))
    assert run_cli("score", str(root), *options)[0] == 0
    check_flips(root, FlipReport.model_validate_json(flips_file.read_text()), tasks)


def test_a_chunk_the_cluster_drops_is_sent_again_and_scored_once(
    cluster: DaskCluster, tmp_path: Path
) -> None:
    """A chunk cancelled by the cluster (here by another client, as a scheduler does with the keys of a
    client it stopped hearing, or of a lost scattered dataset) is sent again: every folder scored,
    each score file written once."""
    from distributed import Client, Future

    reference = private_copy(SAMPLE_RUNS, tmp_path / "pool" / "sample_runs")
    picked = [f for f in iter_trajectory_dirs(reference) if "fara" in str(f)][:24]
    expected = score_trajectories(picked, catalog=_catalog(), jobs=2, force=True, config_root=reference)
    root = private_copy(SAMPLE_RUNS, tmp_path / "cluster" / "sample_runs")
    folders = [root / f.relative_to(reference) for f in picked]
    dropped: list[str] = []

    def drop_one(done: int, total: int) -> None:
        if done and not dropped:
            with Client(cluster.address, timeout=30) as other:
                keys = [k for k in other.run_on_scheduler(_chunk_keys) if k.startswith("score_chunk")]
                if keys:
                    other.cancel([Future(keys[-1], other)], force=True)
                    dropped.append(keys[-1])

    outcomes = score_on_cluster(
        cluster.address,
        [(cluster_root(root, None), folders)],
        catalog=_catalog(),
        force=True,
        on_progress=drop_one,
    )
    assert dropped  # a chunk was still to come when the first was done
    assert [_comparable(o, root) for o in outcomes] == [_comparable(o, reference) for o in expected]
    assert _score_files(root) == _score_files(reference)


def _chunk_keys(dask_scheduler: Any) -> list[str]:
    """The keys of the tasks the scheduler has not finished (run on the scheduler)."""
    return [str(key) for key, task in dask_scheduler.tasks.items() if task.state != "memory"]
