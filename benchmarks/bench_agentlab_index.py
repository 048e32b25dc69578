"""Cold index of AgentLab study folders against reading their summary_info.json files, and proof
that the index opens no pickle.

    .venv/bin/python benchmarks/bench_agentlab_index.py [--episodes 1000] [--steps 10] [--repeats 3]
        [--base CHECKOUT]

The root is `--episodes` AgentLab episodes of `--steps` steps each (10 studies), written by
`tests/harness/agentlab_writer.py` as AgentLab writes them (step pickles, screenshots,
experiment.log, summary_info.json), then aged an hour (`bench_index.age_tree`: finished studies;
folders just written are watched by the refresh, a cost of live runs timed by bench_live). Every
figure is a fresh process, timed after its imports:
- the floor: walk the root, and read and decode every `summary_info.json` (one process);
- the cold index: `webeval index ROOT` (its refresh, all cores) into an empty cache folder;
- the same with the readers imported and the task catalog loaded before the clock: the part of
  the cold index that is paid once (pydantic alone is a tenth of a second), whatever the root;
- the index's own floor: the cold index of as many Fara folders (the scored sample's, hard-linked
  into runs of catalog tasks by `synthetic_roots.build_runs`, as bench_index builds its roots),
  which take the index's shortest road (`runs/quicksummary`): what an AgentLab episode costs
  beyond it is the AgentLab glance's;
- with `--base` (a checkout of main: `git worktree add --detach ../base main`), both cold
  indexes by that code too, in the same alternation: before and after on the same roots.
Each process carries an audit hook counting the pickles opened (`open` events of `*.pkl`,
`*.pkl.gz`, the forked workers' included: they inherit it), which must be 0 for the index.
The figures alternate `--repeats` times and the best of each is kept (a shared machine drifts).
Goal (issue 52): cold index <= 1.5x the floor. Results at the top of --out
(default benchmarks/results/agentlab_index.txt).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_index import age_tree
from benchmarks.results_file import add_record_option, publish
from benchmarks.synthetic_roots import build_runs, prepare_sample
from dev import test_environment

REPO = Path(__file__).resolve().parent.parent

Timed = tuple[float, float]
"""A figure's wall seconds and CPU seconds (its workers' included), after its imports."""

# Counts pickles opened by this process and its forked workers into one file (O_APPEND: each
# write lands whole), so the parent can sum them; `_cpu`: the CPU seconds of the process and of its
# workers (reaped when the index's pool shuts down), the steadier figure on a shared machine.
_HOOK = """
import os, resource, sys
def _cpu():
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime
_log = os.open(os.environ["BENCH_PICKLE_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
def _hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        name = os.fsdecode(args[0])
        if name.endswith((".pkl", ".pkl.gz")):
            os.write(_log, (name + "\\n").encode())
sys.addaudithook(_hook)
"""

# Read and decode every summary_info.json (LISTING: each episode folder listed first, as any
# reader that finds its files must); the time after the imports, and the count.
_FLOOR_TEMPLATE = (
    _HOOK
    + """
import json, time
start, cpu = time.perf_counter(), _cpu()
count = 0
for top, dirs, files in os.walk(sys.argv[1]):
    if "summary_info.json" in files:
        if LISTING:
            with os.scandir(top) as entries:
                names = {e.name: e.is_symlink() for e in entries}
        with open(os.path.join(top, "summary_info.json"), "rb") as f:
            json.loads(f.read())
        count += 1
        dirs[:] = []
print(time.perf_counter() - start, _cpu() - cpu, count)
"""
)
_FLOOR = "LISTING = False\n" + _FLOOR_TEMPLATE
_LISTED = "LISTING = True\n" + _FLOOR_TEMPLATE

_INDEX_TEMPLATE = (
    _HOOK
    + """
import io, time
from webeval_core.cli.entry import main
import webeval_core.runs.refresh, webeval_core.runs.index_db  # imports paid before the clock
if READERS:  # the readers' imports and the catalog too: what the index costs beyond them
    import webeval_core.runs.quicksummary, webeval_core.reading.agentlab_reader, webeval_core.runs.judges
    import webeval_core.support.parallel, webeval_core.runs.index_columns as columns
    columns._catalog()
start, cpu = time.perf_counter(), _cpu()
code = main(["index", sys.argv[1]], out=io.StringIO())
print(time.perf_counter() - start, _cpu() - cpu, code)
"""
)
_INDEX = "READERS = False\n" + _INDEX_TEMPLATE
_INDEX_LOADED = "READERS = True\n" + _INDEX_TEMPLATE


def build_root(root: Path, episodes: int, steps: int) -> None:
    """`episodes` AgentLab episodes of `steps` steps, in 10 studies, written as AgentLab writes them."""
    sys.path.insert(0, str(REPO))
    from tests.harness.agentlab_writer import VERIFIED_TASK, PlannedStep, write_episode

    planned = [PlannedStep(f"click('a{n}')", think=f"step {n}") for n in range(steps)]
    planned.append(PlannedStep(None, reward=1.0))
    for number in range(episodes):
        study = root / f"2026-11-30_10-00-00_study_{number % 10}"
        task = VERIFIED_TASK.format(template=1, task=number % 812)
        write_episode(study, task, planned, seed=number, screenshot_size=(32, 20))
    age_tree(root)


def build_fara_root(root: Path, scratch: Path, count: int) -> None:
    """`count` Fara folders, made as bench_index makes its roots (the scored sample, hard-linked)."""
    sample = prepare_sample(REPO / "sample_runs", scratch)
    build_runs(sample, root, count)
    age_tree(root)


class _Runner:
    """The bench's processes, in one environment: compiled modules kept (as a user's install has
    them) in a folder of the scratch space, each index into a cache folder of its own.
    """

    def __init__(self, scratch: Path, base: Path | None) -> None:
        self.scratch, self.base, self.runs = scratch, base, 0
        self.env = {**test_environment(), "PYTHONPYCACHEPREFIX": str(scratch / "pycache")}
        for tree in (REPO, base) if base is not None else (REPO,):
            compiled = [sys.executable, "-m", "compileall", "-q", str(tree / "webeval_core")]
            subprocess.run(compiled, env=self.env, check=True)

    def floor(self, script: str, root: Path) -> Timed:
        return self._run(script, root, dict(self.env), REPO)[0]

    def index(self, root: Path, *, base: bool = False, script: str = _INDEX) -> tuple[Timed, int]:
        self.runs += 1
        env = {**self.env, "XDG_CACHE_HOME": str(self.scratch / f"cache{self.runs}")}
        cwd = REPO
        if base and self.base is not None:
            env["PYTHONPATH"] = str(self.base)  # before the editable install of this tree
            cwd = self.base
        return self._run(script, root, env, cwd)

    @staticmethod
    def _run(script: str, root: Path, env: dict[str, str], cwd: Path) -> tuple[Timed, int]:
        with tempfile.NamedTemporaryFile(delete=False) as log:
            env["BENCH_PICKLE_LOG"] = log.name
        done = subprocess.run(
            [sys.executable, "-c", script, str(root)],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        )
        wall, cpu = map(float, done.stdout.split()[:2])
        opened = len(Path(log.name).read_text().splitlines())
        os.unlink(log.name)
        return (wall, cpu), opened


def _seconds(values: list[Timed]) -> str:
    return ", ".join(f"{wall:.3f}" for wall, _ in values)


_FIGURES = {
    "floor": "floor: walk + read + decode every summary_info.json",
    "listed": "floor with each episode folder listed too",
    "cold": "cold index (webeval index, after imports)",
    "loaded": "cold index, readers and task catalog loaded before it",
    "fara": "the index's floor: cold index of as many Fara folders",
    "cold-base": "cold index by --base",
    "fara-base": "Fara folders' cold index by --base",
}


def _measure(runner: _Runner, roots: tuple[Path, Path], repeats: int) -> tuple[dict[str, list[Timed]], int]:
    """Every figure `repeats` times, alternated; and the pickles the indexes opened."""
    agentlab, fara = roots
    found: dict[str, list[Timed]] = {}
    pickles = 0
    for _ in range(repeats):
        found.setdefault("floor", []).append(runner.floor(_FLOOR, agentlab))
        found.setdefault("listed", []).append(runner.floor(_LISTED, agentlab))
        for base in (False, True) if runner.base is not None else (False,):
            suffix = "-base" if base else ""
            cold, opened = runner.index(agentlab, base=base)
            found.setdefault(f"cold{suffix}", []).append(cold)
            pickles += opened
            found.setdefault(f"fara{suffix}", []).append(runner.index(fara, base=base)[0])
        loaded, opened = runner.index(agentlab, script=_INDEX_LOADED)
        found.setdefault("loaded", []).append(loaded)
        pickles += opened
    return found, pickles


def _report(found: dict[str, list[Timed]], pickles: int, args: argparse.Namespace, built: float) -> str:
    best = {name: min(wall for wall, _ in values) for name, values in found.items()}
    cpu = {name: min(cpu for _, cpu in values) for name, values in found.items()}
    floor, cold = best["floor"], best["cold"]
    ratio = cold / floor
    head = (
        f"AgentLab cold index, {args.episodes} episodes of {args.steps} steps (root built in {built:.1f} s)"
    )
    lines = [f"{head}, best of {args.repeats}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"]
    for name, label in _FIGURES.items():
        if name in best:
            each = f"{best[name] / args.episodes * 1e3:.2f} ms a folder"
            times = f"{best[name]:.3f} s, {cpu[name]:.3f} s CPU"
            lines.append(f"  {label:54s} {times} ({each}; {best[name] / floor:.1f}x the floor)")
    lines += [
        f"  ratio {ratio:.2f}x (goal <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'})",
        f"  against the index's floor (the Fara folders): {cold / best['fara']:.2f}x",
        f"  pickles opened by the index: {pickles} (goal 0)",
        "  all: " + "; ".join(f"{name} {_seconds(values)}" for name, values in found.items()),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--base", type=Path, help="a checkout of main, timed beside this tree")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "agentlab_index.txt")
    add_record_option(parser)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        started = time.perf_counter()
        build_root(work / "root", args.episodes, args.steps)
        built = time.perf_counter() - started
        build_fara_root(work / "fara", work, args.episodes)
        runner = _Runner(work, args.base)
        found, pickles = _measure(runner, (work / "root", work / "fara"), args.repeats)
    publish(args.out, _report(found, pickles, args, built), args)
    ratio = min(found["cold"])[0] / min(found["floor"])[0]
    return 0 if ratio <= 1.5 and pickles == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
