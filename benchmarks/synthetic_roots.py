"""Large roots for the speed checks, built from the scored sample with hard links.

    .venv/bin/python benchmarks/synthetic_roots.py OUT --trajectories 50000   # a root to try by hand

A real Fara run files 812 WebArena-Verified tasks under `<name>/<model>/<dataset>/<run_id>/traj/`.
`build_runs` makes as many such runs as `wanted` needs, each task folder a hard-linked copy of a
sample folder filed under a catalog task id (answer file renamed), so sites and task types spread
as in a real run and the files have a real run's shapes and sizes without the disk space. The
benchmarks change a root only by replacing files (never editing a linked file in place).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.discovery import Run, discover_runs

REPO = Path(__file__).resolve().parent.parent

TASKS_PER_RUN = 812


def link_tree(source: Path, target: Path) -> None:
    """Copy a folder with hard links (fast, no extra space); plain copies where links fail."""

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, target, symlinks=True, copy_function=link)


def prepare_sample(sample: Path, work: Path) -> Path:
    """A scored copy of the sample (generated first when the repository has none)."""
    target = work / "sample"
    if sample.is_dir() and any(sample.iterdir()):
        shutil.copytree(sample, target, symlinks=True)
    else:
        print(f"{sample} is empty: generating a sample into {target} ...", flush=True)
        script = REPO / "scripts" / "make_sample_runs.py"
        subprocess.run([sys.executable, str(script), "--out", str(target)], check=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "score-cache")}
    command = [sys.executable, "-m", "webeval_core.cli", "score", str(target), "--jobs", "2"]
    subprocess.run(command, cwd=REPO, env=env, check=False, capture_output=True)
    return target


def fara_runs(sample: Path) -> list[Run]:
    """The sample's Fara-layout WebArena-Verified runs (one per model): what large roots are made of.

    The live-web sample run is left out: it holds four tasks of another benchmark, and roots of
    catalog tasks must keep the shape their earlier figures were measured on.
    """
    runs = [
        run
        for run in discover_runs(sample)
        if run.run_id is not None and (run.benchmark or "").startswith("WebArenaVerified")
    ]
    if not runs:
        raise SystemExit(f"no Fara-layout runs under {sample}")
    return runs


def _file_under(source: Path, target: Path, task_id: str) -> None:
    link_tree(source, target)
    for answer in target.glob("*_final_answer.json"):
        answer.rename(target / f"{task_id}_final_answer.json")


def build_many_runs(sample: Path, root: Path, wanted: int) -> int:
    """Replicate the sample's Fara runs into run folders 0, 1, 2, ... until `wanted` trajectories."""
    made = 0
    copy = 0
    while True:
        for run in fara_runs(sample):
            run_dir = root / run.path.relative_to(sample).parent / str(copy) / "traj"
            for folder in run.trajectory_dirs:
                if made >= wanted:
                    return made
                link_tree(folder, run_dir / folder.name)
                made += 1
        copy += 1


def build_two_runs(sample: Path, root: Path, wanted: int) -> int:
    """The sample's two Fara runs, each grown to wanted/2 tasks filed under other catalog task ids.

    Only what the overview reads has to be plausible, not the replays.
    """
    task_ids = sorted(load_catalog().tasks)
    source_runs = fara_runs(sample)[:2]
    per_run = wanted // len(source_runs)
    made = 0
    for run in source_runs:
        run_dir = root / run.path.relative_to(sample) / "traj"
        sources = list(run.trajectory_dirs)
        for position, task_id in enumerate(task_ids[:per_run]):
            _file_under(sources[position % len(sources)], run_dir / str(task_id), str(task_id))
            made += 1
    return made


def build_runs(sample: Path, root: Path, wanted: int, per_run: int = TASKS_PER_RUN) -> int:
    """`wanted` trajectories as runs of `per_run` catalog tasks each, as a team's root of real runs.

    Run k is `<sample run's name>/<model>/<dataset>/<k>/traj/<task id>`, alternating the sample's
    Fara models, so a 50,000-trajectory root is 62 runs of 812 tasks (the last one partial).
    """
    task_ids = sorted(load_catalog().tasks)[:per_run]
    templates = fara_runs(sample)
    made = 0
    run_number = 0
    while made < wanted:
        template = templates[run_number % len(templates)]
        sources = list(template.trajectory_dirs)
        run_dir = root / template.path.relative_to(sample).parent / str(run_number) / "traj"
        for position, task_id in enumerate(task_ids):
            if made >= wanted:
                break
            _file_under(sources[position % len(sources)], run_dir / str(task_id), str(task_id))
            made += 1
        run_number += 1
    return made


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("out", type=Path, help="an empty or new folder for the root")
    parser.add_argument("--trajectories", type=int, default=10_000)
    parser.add_argument("--per-run", type=int, default=TASKS_PER_RUN)
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    args = parser.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} is not empty")
    work = args.out.parent / f".{args.out.name}-work"
    work.mkdir(parents=True, exist_ok=True)
    try:
        sample = prepare_sample(args.sample, work)
        made = build_runs(sample, args.out, args.trajectories, args.per_run)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{made} trajectories under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
