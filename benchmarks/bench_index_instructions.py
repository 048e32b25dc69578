"""Instructions the index's worker spends per trajectory folder, counted by valgrind: a figure that
does not drift with the machine's load, to compare a change to the summary with main's.

    .venv/bin/python benchmarks/bench_index_instructions.py [--base MAIN] [--folders 300] [--out FILE]

On a shared 2-core machine the same cold index varies by 20% from one run to the next, so a change
worth 3% cannot be seen in seconds. Valgrind's cachegrind counts every user-space instruction of a
process exactly (run to run the count differs by a few instructions with the hash seed fixed).
The worker's part (`refresh._read` of each folder: the quick summary, or the full reader for a
folder it declines, and the row) is run over a root of the sample runs' shape
(`synthetic_roots.build_runs`, aged as `bench_index.py` ages it), first over `--folders` folders,
then over twice as many, in two processes; the difference divided by `--folders` is the cost of
one folder, without the start, imports and set-up both runs share. The kernel's part (system
calls, page faults) is not counted: `bench_index.py` measures whole runs in seconds.

`--base DIR` (a checkout of main, e.g. `git worktree add --detach ../base main`) is counted the
same way on the same folders. Needs valgrind (`apt-get install valgrind`). Results are printed
and put at the top of --out (default benchmarks/results/index_instructions.txt).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_index import age_tree
from benchmarks.results_file import record
from benchmarks.synthetic_roots import build_runs, prepare_sample

REPO = Path(__file__).resolve().parent.parent

_ROOT_SIZE = 5000
_STRIDE = 7  # every 7th folder: the sample's folders in turn, not the same few over and over

# Run in the tree measured: `_read` of the first `count` folders, each once, as a worker would.
_WORKER = """
import gc, os, sys
from webeval_core.runs import refresh
from webeval_core.runs.index_db import StoredFolder

root, stride, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
folders = []
for top, dirs, _ in os.walk(root):
    if os.path.basename(top) == "traj":
        folders.extend(os.path.join(top, name) for name in dirs)
        dirs[:] = []
folders = sorted(folders)[::stride]
unseen = refresh._UNSEEN  # a new folder's scores/ is looked at by the worker, as in a cold index
jobs = [
    refresh._Job(root, f, os.path.relpath(f, root), StoredFolder(os.stat(f).st_mtime_ns, unseen, None))
    for f in folders
]
gc.disable()  # as in the index
refresh._read(jobs[-1])  # the worker's lazy imports, paid by both runs alike
for job in jobs[:count]:
    refresh._read(job)
"""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(tree: Path, root: Path, count: int) -> int:
    """User-space instructions of one process reading `count` folders with `tree`'s code."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        "-c",
        _WORKER,
        str(root),
        str(_STRIDE),
        str(count),
    ]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    found = _REFS.search(done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"valgrind failed on {tree}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_folder(tree: Path, root: Path, folders: int) -> int:
    """Instructions one more folder costs: (2n folders - n folders) / n."""
    return (instructions(tree, root, 2 * folders) - instructions(tree, root, folders)) // folders


def commit_of(tree: Path) -> str:
    """The tree's commit, marked "+" when it has changes not committed."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True, check=False)
        return done.stdout.strip()

    return git("rev-parse", "--short", "HEAD") + (
        "+" if git("status", "--porcelain", "--untracked-files=no") else ""
    )


def report(figures: dict[str, int], folders: int, stamp: str) -> str:
    lines = [
        f"bench_index_instructions: refresh._read, folders {folders + 1}-{2 * folders} of every {_STRIDE}th"
    ]
    lines.append(f"{'tree':<40} {'instructions a folder':>22}")
    for label, count in figures.items():
        lines.append(f"{label:<40} {count:>22,}")
    if len(figures) == 2:
        ours, base = figures.values()
        lines.append(f"{'this tree / main':<40} {ours / base:>22.3f}")
    lines.append(stamp)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--base", type=Path, help="a checkout of main counted beside this tree")
    parser.add_argument(
        "--folders", type=int, default=300, help="folders in the first run (twice as many in the second)"
    )
    parser.add_argument("--sample", type=Path, default=REPO / "sample_runs")
    parser.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "results" / "index_instructions.txt"
    )
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    if 2 * args.folders * _STRIDE > _ROOT_SIZE:
        raise SystemExit(f"--folders at most {_ROOT_SIZE // (2 * _STRIDE)}")
    work = Path(tempfile.mkdtemp(prefix="webeval-bench-instructions-"))
    try:
        root = work / "root"
        build_runs(prepare_sample(args.sample, work), root, _ROOT_SIZE)
        age_tree(root)  # finished runs: no folder is still watched (its files fingerprinted)
        figures = {f"this tree ({commit_of(REPO)})": per_folder(REPO, root, args.folders)}
        if args.base is not None:
            figures[f"main ({commit_of(args.base)})"] = per_folder(args.base, root, args.folders)
        stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        text = report(figures, args.folders, stamp)
        print(text)
        record(args.out, text)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
