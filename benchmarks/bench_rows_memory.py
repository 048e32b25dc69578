"""Memory of the pages' rows at a large root: the whole-root frame they held (baseline) against the
index queries they read now (Compare, Agreement, Judges disagree, Review, Tasks).

A root of N trajectories (runs of 812 catalog tasks, `synthetic_roots.build_runs`) is indexed once;
then each side runs in a fresh process and reports its peak RSS above what its imports cost:

- baseline: `metrics.stored_frame` of the root, the frame every one of those pages loaded
  (`current_frame`, one per judge, shared by the sessions);
- now: what the same pages read through `IndexQueries`: two runs' rows (Compare), each run's task
  ids (its default pair), the attempts per task (Tasks), a queue's rows (one run) and 200 named
  trajectories (a confusion or disagree cell).

Run: `.venv/bin/python benchmarks/bench_rows_memory.py [--size 50000]`. Figures are printed and put
at the top of --out (default benchmarks/results/rows_memory.txt).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.results_file import record
from benchmarks.synthetic_roots import build_runs, prepare_sample

REPO = Path(__file__).resolve().parent.parent

_MEASURE = """
import json, resource, sys
from pathlib import Path
from webeval_core.reading.task_catalog import installed_catalog
from webeval_core.runs import IndexStore, IndexQueries, filter_from_params, stored_frame
from webeval_core.runs.viewing import OUTSIDE_REVIEW
import pandas  # both sides pay for pandas before the baseline RSS is taken
root, cache, side = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
store, catalog = IndexStore(root, cache), installed_catalog()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if side == "baseline":
    frame = stored_frame(store, catalog, None)
    held = len(frame)
else:
    queries = IndexQueries(store, catalog, viewer=OUTSIDE_REVIEW)
    runs = sorted(queries.run_tasks())
    two = queries.frame(None, filter_from_params({"runs": runs[:2]}))
    attempts = queries.task_attempts(None)
    queue = queries.frame(None, filter_from_params({"runs": runs[:1]}))
    items = list(zip(two["run"], two["task_id"]))[:200]
    cell = queries.items_frame(None, items)
    held = len(two) + len(queue) + len(cell)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"rows": held, "rss_mb": (after - before) / 1024}))
"""


def _measure(root: Path, cache: Path, side: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(root), str(cache), side],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=50_000, help="trajectories in the root")
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "rows_memory.txt")
    args = parser.parse_args(argv)
    from webeval_core.runs import IndexStore, refresh_index

    with tempfile.TemporaryDirectory(prefix="bench-rows-") as work_dir:
        work = Path(work_dir)
        sample = prepare_sample(args.sample, work)
        root, cache = work / "root", work / "cache"
        made = build_runs(sample, root, args.size)
        started = time.perf_counter()
        refresh_index(IndexStore(root, cache))
        indexed = time.perf_counter() - started
        baseline = _measure(root, cache, "baseline")
        now = _measure(root, cache, "now")
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    ratio = now["rss_mb"] / max(baseline["rss_mb"], 1)
    lines = [
        f"# {when}: {made} trajectories (indexed in {indexed:.0f} s)",
        f"baseline (whole-root frame, {baseline['rows']:.0f} rows): peak RSS +{baseline['rss_mb']:.0f} MB",
        f"now (index queries, {now['rows']:.0f} rows held): peak RSS +{now['rss_mb']:.0f} MB ({ratio:.2f}x)",
    ]
    print("\n".join(lines))
    record(args.out, "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
