"""Speed of the summary index on large roots: cold build, warm refresh, 1% changed, 1% removed.

    .venv/bin/python benchmarks/bench_index.py [--sizes 10000,50000,100000] [--base MAIN] [--out FILE]

Each root is built by `synthetic_roots.build_runs` (runs of 812 catalog tasks, hard-linked sample
folders) in a temporary folder, then aged: its folders dated an hour back, as finished runs are
(`--fresh` keeps them as built, every folder just written and so watched by the refresh). Every
figure is `webeval index ROOT` run as its own process (what a user or the app's first load pays:
imports, discovery, fingerprints, summaries, the cache file), with its wall time, its CPU time
with its workers' (the steadier figure on a shared machine) and peak RSS. Beside it, the floor
measured in the same run on the same root ("walk s"): a bare walk that lists every trajectory folder and
stats each once. For the cold index two more floors (the rows under it): every file a summary
reads (answer, log, times.json, core.log, task data, score files) read as bytes by a process per
core, and the same files also decoded as JSON (the log line by line): what any Python reader of
these files pays before it does anything with them.
A warm refresh that sees a new score file must stat each trajectory folder and its `scores/` (a file
added there changes neither the folder nor the run), so twice the floor's stats are its least; what
it saves is listing folders, reading files and loading models.

"1% changed" replaces `web_surfer.log` and adds a score file in 1% of the folders (spread over
all runs); "1% removed" deletes another 1%. Both replace files, never edit linked ones in place.

Issue 25's goals, each printed beside its figure: cold index <= 0.6x the ONE-process parse floor
(the same files read and decoded by a single process: the index has every core); with the page
cache dropped first (`/proc/sys/vm/drop_caches`, root only; the row says so when refused) <= 1.2x
the dropped-cache read floor; warm refresh <= 0.5 s and 1% changed <= 1 s at 50,000.
The cold index and its three floors are run `--repeats` times, alternated, and the best of each
kept: the load of a shared machine drifts, and the goal's ratio is fair only when both sides are
sampled alike. `--base DIR` (a checkout of main, e.g. `git worktree add --detach ../base main`)
also times main's cold index on the same root, in the same alternation. Results are printed and
put at the top of --out (default benchmarks/results/index.txt), earlier runs kept below.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.results_file import record
from benchmarks.synthetic_roots import build_runs, prepare_sample
from dev import test_environment

REPO = Path(__file__).resolve().parent.parent

_FLOOR = """
import os, sys
count = 0
for top, dirs, files in os.walk(sys.argv[1]):
    if os.path.basename(top) == "traj":
        for name in dirs:
            os.stat(os.path.join(top, name))
            count += 1
        dirs[:] = []
print(count)
"""

# The least a cold index can cost in Python: every file a summary reads (answer, log, times.json,
# core.log, task data, score files), one folder at a time in a process per core as the index reads
# them; read as bytes ("read"), or also decoded as JSON, the log line by line ("parse").
_FILE_FLOOR = """
import json, os, sys
from multiprocessing import Pool

PARSE = sys.argv[2].startswith("parse")
ONE = sys.argv[2].endswith("-one")  # one process: what the index must beat with every core

def decode(name, data):
    if name.endswith(".json"):
        json.loads(data)
    elif name == "web_surfer.log":
        for line in data.splitlines():
            try:
                json.loads(line)
            except ValueError:
                pass

def read(folder):
    total = 0
    for entry in os.scandir(folder):
        if entry.name.endswith((".png", ".har")) or entry.name == "scores":
            continue
        with open(entry.path, "rb") as f:
            data = f.read()
        total += len(data)
        if PARSE:
            decode(entry.name, data)
    scores = os.path.join(folder, "scores")
    if os.path.isdir(scores):
        for entry in os.scandir(scores):
            with open(entry.path, "rb") as f:
                data = f.read()
            total += len(data)
            if PARSE:
                decode(entry.name, data)
    return total

folders = []
for top, dirs, files in os.walk(sys.argv[1]):
    if os.path.basename(top) == "traj":
        folders.extend(os.path.join(top, name) for name in dirs)
        dirs[:] = []
if ONE:
    print(sum(map(read, folders)))
else:
    with Pool(os.cpu_count()) as pool:
        print(sum(pool.imap_unordered(read, folders, chunksize=64)))
"""


def timed(command: list[str], env: dict[str, str], cwd: Path = REPO) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (with its workers'), peak RSS in MB (the process or its largest
    worker) and its last output line. On a shared machine the CPU time is the steadier figure.
    """
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        child = subprocess.Popen(command, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        # wait4, not wait: it also gives the child's peak memory (ru_maxrss, in KB on Linux).
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    if child.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{text}")
    lines = text.strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    return elapsed, cpu, usage.ru_maxrss / 1024, lines[-1] if lines else ""


def trajectory_folders(root: Path) -> list[Path]:
    return sorted(folder for traj in root.rglob("traj") for folder in traj.iterdir() if folder.is_dir())


def change(folders: list[Path], share: float) -> list[Path]:
    """Replace the log and add a score file in `share` of the folders, spread evenly."""
    step = max(1, round(1 / share))
    touched = folders[::step]
    for folder in touched:
        log = folder / "web_surfer.log"
        fresh = folder / ".web_surfer.log.new"
        fresh.write_bytes(log.read_bytes() + b"\n")
        os.replace(fresh, log)  # breaks the hard link, as an editor's save would
        scores = folder / "scores"
        scores.mkdir(exist_ok=True)
        (scores / "bench_judge.json").write_text('{"score": 1.0}')
    return touched


def age_tree(root: Path) -> None:
    """Date every folder of the root an hour back: finished runs, as a team's root holds.

    A root just built has every folder changed a moment ago, which the refresh rightly treats as
    runs still being written (their files watched for up to five minutes); timing that would
    measure the watch, not a warm refresh. Files keep their times (they are shared hard links).
    """
    then = time.time() - 3600
    for top, dirs, _ in os.walk(root):
        for name in dirs:
            os.utime(os.path.join(top, name), (then, then), follow_symlinks=False)
    os.utime(root, (then, then))


def remove(folders: list[Path], share: float, skip: set[Path]) -> int:
    step = max(1, round(1 / share))
    doomed = [f for f in folders[step // 2 :: step] if f not in skip]
    for folder in doomed:
        shutil.rmtree(folder)
    return len(doomed)


Row = tuple[str, float, float, float, float, str]
"""(measure, seconds, CPU seconds, peak MB, floor seconds, goal: "" or its text)."""

_DROP = Path("/proc/sys/vm/drop_caches")


def drop_caches() -> bool:
    """Empty the page cache (root only), so the next command reads from the disk; False if refused."""
    os.sync()
    try:
        _DROP.write_text("3\n")
    except OSError:
        return False
    return True


class _Bench:
    """One root's commands: the index of this tree or of `base` (a checkout of main), the floors."""

    def __init__(self, root: Path, work: Path, size: int, base: Path | None) -> None:
        self.root, self.work, self.size, self.base = root, work, size, base
        # Both trees run compiled, as a user's install does: a shell that asks for no bytecode
        # (PYTHONDONTWRITEBYTECODE) would have a checkout without __pycache__ compile its modules
        # anew in every process, the index's workers included.
        self.env = {
            **test_environment(),
            "PYTHONPYCACHEPREFIX": str(work / "pycache"),
            "XDG_CACHE_HOME": str(work / f"cache-{size}"),
        }
        for tree in (REPO, base) if base is not None else (REPO,):
            compiled = [sys.executable, "-m", "compileall", "-q", str(tree / "webeval_core")]
            subprocess.run(compiled, env=self.env, check=True)
        self.runs = 0

    def index(self, *, base: bool = False, fresh: bool = False) -> tuple[float, float, float, str]:
        """`webeval index ROOT` (a fresh cache: cold) by this tree, or by main's checkout."""
        env = dict(self.env)
        if fresh:
            self.runs += 1
            env["XDG_CACHE_HOME"] = str(self.work / f"cache-{self.size}-{self.runs}")
        cwd = REPO
        if base and self.base is not None:
            env["PYTHONPATH"] = str(self.base)  # before the editable install of this tree
            cwd = self.base
        command = [sys.executable, "-m", "webeval_core.cli", "index", str(self.root)]
        return timed(command, env, cwd=cwd)

    def files(self, kind: str) -> tuple[float, float, float, str]:
        return timed([sys.executable, "-c", _FILE_FLOOR, str(self.root), kind], self.env)

    def walk(self) -> float:
        return timed([sys.executable, "-c", _FLOOR, str(self.root)], self.env)[0]


_FLOORS = (
    ("read", "read floor: the summary's files as bytes"),
    ("parse", "parse floor: ... and decoded as JSON"),
    ("parse-one", "one-process parse floor (the goal's)"),
)


def _cold(bench: _Bench, rows: list[Row], repeats: int) -> None:
    """Cold index by this tree and by main, and the floors, alternated (a shared machine's load
    drifts), the best of each: the index and its floors are sampled alike, the one-process parse
    floor being the goal's measure.
    """
    best: dict[str, tuple[float, float, float]] = {}

    def keep(name: str, seconds: float, cpu: float, peak: float = 0.0) -> None:
        old = best.get(name)
        best[name] = (
            (min(seconds, old[0]), min(cpu, old[1]), max(peak, old[2])) if old else (seconds, cpu, peak)
        )
        print(f"  {bench.size}: {name}: {seconds:.2f} s, {cpu:.2f} s CPU", flush=True)

    for _ in range(repeats):
        for base in (False, True) if bench.base else (False,):
            seconds, cpu, peak, _ = bench.index(base=base, fresh=True)
            keep("cold index, main (before)" if base else "cold index", seconds, cpu, peak)
        for kind, label in _FLOORS:
            keep(label, *bench.files(kind)[:2])
    goal = 0.6 * best[_FLOORS[-1][1]][0]
    walk = bench.walk()
    for label in ("cold index", "cold index, main (before)"):
        if label in best:
            seconds, cpu, peak = best[label]
            rows.append((label, seconds, cpu, peak, walk, _verdict(seconds, goal, "0.6x one-process parse")))
    rows.extend((f"  {label}", *best[label][:2], 0.0, 0.0, "floor") for _, label in _FLOORS)


def _dropped(bench: _Bench, rows: list[Row]) -> None:
    """The page cache dropped before each: the bytes read by a process per core, then the index."""
    if not drop_caches():
        rows.append(("page cache drop refused (not root?)", 0.0, 0.0, 0.0, 0.0, ""))
        return
    seconds, cpu, _, _ = bench.files("read")
    print(f"  {bench.size}: dropped-cache read {seconds:.2f} s, {cpu:.2f} s CPU", flush=True)
    read = ("  read floor, page cache dropped", seconds, cpu, 0.0, 0.0, "floor")
    found = []
    for base in (False, True) if bench.base else (False,):
        drop_caches()
        cold, cold_cpu, peak, _ = bench.index(base=base, fresh=True)
        print(f"  {bench.size}: dropped-cache cold index{' (main)' if base else ''} {cold:.2f} s", flush=True)
        label = "cold index, cache dropped" + (", main" if base else "")
        found.append((label, cold, cold_cpu, peak, 0.0, _verdict(cold, 1.2 * seconds, "1.2x dropped read")))
    rows.extend([*found, read])


def _verdict(seconds: float, goal: float, what: str) -> str:
    return f"{'met' if seconds <= goal else 'NOT met'}: <= {goal:.2f} ({what})"


def measure(
    size: int, sample: Path, work: Path, age: bool, base: Path | None = None, repeats: int = 2
) -> list[Row]:
    """The rows of one root size."""
    root = work / f"root-{size}"
    made = build_runs(sample, root, size)
    folders = trajectory_folders(root)
    bench = _Bench(root, work, size, base)
    rows: list[Row] = []

    def row(label: str, goal: float | None) -> None:
        floor_s = bench.walk()
        seconds, cpu, peak, _ = bench.index()
        verdict = "no goal"  # issue 25 sets the refreshes' goals at 50,000 trajectories only
        if goal is not None and size == 50_000:
            verdict = _verdict(seconds, goal, "issue 25")
        rows.append((label, seconds, cpu, peak, floor_s, verdict))
        print(
            f"  {size}: {label}: {seconds:.2f} s, {cpu:.2f} s CPU ({floor_s:.2f} s floor), {peak:.0f} MB",
            flush=True,
        )

    print(f"{made} trajectories in {len(folders)} folders under {root}", flush=True)
    if age:
        age_tree(root)
    _dropped(bench, rows)
    _cold(bench, rows, repeats)
    bench.index()  # the index the refreshes below start from
    row("warm refresh (nothing changed)", 0.5)
    touched = change(folders, 0.01)
    row(f"refresh after 1% changed ({len(touched)} folders)", 1.0)
    removed = remove(folders, 0.01, set(touched))
    row(f"refresh after 1% removed ({removed} folders)", None)
    cache = sum(p.stat().st_size for p in (work / f"cache-{size}").rglob("*") if p.is_file())
    rows.append(("index file on disk", cache / 1e6, 0.0, 0.0, 0.0, "MB"))
    return rows


def report(results: dict[int, list[Row]], loads: list[float]) -> str:
    head = f"{'measure':<42} {'seconds':>8} {'CPU s':>8} {'walk s':>8} {'peak MB':>8}  goal"
    lines = [
        f"bench_index: {os.cpu_count()} cores, load {min(loads):.1f}-{max(loads):.1f} during the run",
        f"{'trajectories':>12}  {head}",
    ]
    for size, rows in results.items():
        for label, seconds, cpu, peak, floor_s, goal in rows:
            if goal == "MB":
                lines.append(f"{size:>12}  {label:<42} {seconds:>8.1f} MB")
            elif goal == "floor":  # itself a floor: no floor or memory beside it
                lines.append(f"{size:>12}  {label:<42} {seconds:>8.2f} {cpu:>8.2f}")
            else:
                figures = f"{seconds:>8.2f} {cpu:>8.2f} {floor_s:>8.2f} {peak:>8.0f}"
                lines.append(f"{size:>12}  {label:<42} {figures}  {goal}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--sizes", default="10000,50000,100000", help="comma-separated trajectory counts")
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "index.txt")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="keep the root's mtimes as built (every folder just changed, so watched) instead of aging it",
    )
    parser.add_argument(
        "--base", type=Path, help="a checkout of main whose cold index is timed beside this tree's"
    )
    parser.add_argument(
        "--repeats", type=int, default=2, help="cold runs of each code, alternated (best kept)"
    )
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="webeval-bench-index-"))
    try:
        sample = prepare_sample(args.sample, work)
        loads = [os.getloadavg()[0]]
        results = {}
        for size in map(int, args.sizes.split(",")):
            results[size] = measure(size, sample, work, not args.fresh, args.base, args.repeats)
            loads.append(os.getloadavg()[0])
        text = report(results, loads)  # before the clean-up: deleting 100,000 folders takes minutes
        print(text)
        record(args.out, text)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
