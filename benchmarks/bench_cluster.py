"""Re-scoring a root on a Dask cluster against the local process pool, on the same cores.

A root of N trajectories (`synthetic_roots.build_runs`: runs of 812 catalog tasks, each a
hard-linked copy of a sample_runs WebArena-Verified folder) is scored, forced, twice in one run:
by the local pool (`score_trajectories`, --jobs workers) and on a real cluster on loopback (a
scheduler and --workers one-thread `dask worker` processes, already warm as a team's cluster
is). The floor of the cluster figure is the local pool's time; the per-task overhead is their
difference over N. Verdicts and score files must be identical.

Usage: .venv/bin/python benchmarks/bench_cluster.py [--trajectories 2000] [--workers 2] [--jobs 2]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.synthetic_roots import build_runs, prepare_sample
from tests.harness.dask_cluster import running_cluster
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.scoring import ScoreOutcome, score_trajectories
from webeval_core.scoring.cluster import cluster_root, score_on_cluster

REPO = Path(__file__).resolve().parent.parent

_GOAL_RATIO = 1.10  # the cluster on the same cores may cost at most a tenth more than the pool
_WARM_UP = 64  # folders scored on the cluster first, so its workers have loaded the evaluator


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trajectories", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2, help="dask worker processes")
    parser.add_argument("--jobs", type=int, default=2, help="the local pool's processes")
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    try:
        return run(work, args.trajectories, args.workers, args.jobs, args.sample)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work: Path, size: int, workers: int, jobs: int, sample_source: Path) -> int:
    sample = prepare_sample(sample_source, work)
    started = time.perf_counter()
    local_root, cluster_root_dir = work / "pool", work / "cluster"
    for root in (local_root, cluster_root_dir):
        build_runs(sample, root, size)
    print(f"Built two roots of {size} trajectories in {time.perf_counter() - started:.1f} s", flush=True)
    catalog = load_catalog()
    pool_folders = list(iter_trajectory_dirs(local_root))
    cluster_folders = list(iter_trajectory_dirs(cluster_root_dir))
    (work / "dask").mkdir()
    with running_cluster(work / "dask", workers=workers) as cluster:
        target = cluster_root(cluster_root_dir, None)
        score_on_cluster(cluster.address, [(target, cluster_folders[:_WARM_UP])], catalog=catalog, force=True)
        started = time.perf_counter()
        # As `webeval score` asks both: outcomes without their evaluations (the score files hold them).
        pool = score_trajectories(
            pool_folders, catalog=catalog, jobs=jobs, force=True, config_root=local_root, evaluations=False
        )
        pool_s = time.perf_counter() - started
        started = time.perf_counter()
        ours = score_on_cluster(
            cluster.address, [(target, cluster_folders)], catalog=catalog, force=True, evaluations=False
        )
        cluster_s = time.perf_counter() - started
    same = _verdicts(pool, local_root) == _verdicts(ours, cluster_root_dir)
    pool_files, cluster_files = _score_files(local_root), _score_files(cluster_root_dir)
    files = pool_files == cluster_files
    for name in sorted(set(pool_files) | set(cluster_files)):
        if pool_files.get(name) != cluster_files.get(name):
            print(f"score file differs: {name}")
            break
    overhead_ms = (cluster_s - pool_s) / size * 1000
    print(f"\n{size} trajectories, forced; {workers} dask workers vs a pool of {jobs} processes")
    print(f"{'':32} {'wall s':>8} {'ms/task':>8} {'floor s':>8} {'goal':>10}")
    print(
        f"{'local process pool (the floor)':32} {pool_s:8.2f} {pool_s / size * 1000:8.2f} {'-':>8} {'-':>10}"
    )
    print(
        f"{'dask cluster':32} {cluster_s:8.2f} {cluster_s / size * 1000:8.2f} {pool_s:8.2f}"
        f" {f'<= x{_GOAL_RATIO:.2f}':>10}  (x{cluster_s / pool_s:.2f})"
    )
    print(f"per-task overhead of the cluster: {overhead_ms:+.2f} ms (wall, {workers} workers)")
    print(f"verdicts identical: {same}; score files identical: {files}")
    print(f"measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    return 0 if same and files else 1


def _verdicts(outcomes: list[ScoreOutcome], root: Path) -> list[tuple[str, str, float | None]]:
    return [(o.path.relative_to(root).as_posix(), o.status, o.score) for o in outcomes]


def _score_files(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("scores/*.json"))
    }


if __name__ == "__main__":
    sys.exit(main())
