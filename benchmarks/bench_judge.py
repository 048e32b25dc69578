"""WebJudge through the scripted endpoint at scale: does the client keep `concurrency` requests in
flight, at what CPU and memory, and what does a re-run cost.

    .venv/bin/python benchmarks/bench_judge.py [--trajectories 609] [--latency 0.2] [--concurrency 16]

- 609 Fara trajectories (`synthetic_roots.build_many_runs`: hard-linked copies of the sample's)
  judged by WebJudge (key points, one request per screenshot, the final request) in this process,
  against the scripted endpoint in a process of its own answering each request after `--latency`.
- Wall time against the ideal measured in the same run: replies x latency / concurrency (goal
  <= 1.1x); the client's CPU per request (this process: reading folders, encoding screenshots,
  the openai client); its peak RSS (screenshots are encoded per request, never all held).
- The re-run as a user makes it (every trajectory judged before: nothing sent; goal <= 2 s), and
  a re-judge of all of them with `again` (each reply from the cache: nothing sent either).
Results are printed and put at the top of --out (default benchmarks/results/judge.txt).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.results_file import add_record_option, publish
from benchmarks.synthetic_roots import build_many_runs
from tests.harness.scripted_llm import KEY, KEY_ENV, profiles_file
from webeval_core.llm_judging import ChatTransport, JudgeSession, ReplyCache, load_profile, make_judge
from webeval_core.runs.discovery import iter_trajectory_dirs

REPO = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _session(profiles: Path, concurrency: int, cache: Path) -> JudgeSession:
    profile = load_profile("scripted", profiles).model_copy(update={"concurrency": concurrency})
    return JudgeSession(make_judge("webjudge"), profile, ChatTransport(profile, cache=ReplyCache(cache)))


def _timed(session: JudgeSession, folders: list[Path], *, again: bool = False) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and errors of judging `folders`."""
    cpu, started = _cpu(), time.perf_counter()
    outcomes = session.judge_folders(folders, again=again)
    errors = sum(o.reason is not None for o in outcomes)
    return time.perf_counter() - started, _cpu() - cpu, errors


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trajectories", type=int, default=609)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "judge.txt")
    add_record_option(parser)
    args = parser.parse_args()
    os.environ[KEY_ENV] = KEY
    with tempfile.TemporaryDirectory() as work_dir:
        work = Path(work_dir)
        build_many_runs(REPO / "sample_runs", work / "root", args.trajectories)
        folders = sorted(iter_trajectory_dirs(work / "root"))
        server = subprocess.Popen(
            [sys.executable, "-m", "tests.harness.scripted_llm", "--latency", str(args.latency)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            base_url = (server.stdout.readline() if server.stdout else "").strip()
            profiles = profiles_file(work / "judges.toml", base_url, timeout_s=60, max_images=5)
            text = _measure(args, folders, profiles, work / "cache")
        finally:
            server.terminate()
            server.wait()
    publish(args.out, text, args)


def _measure(args: argparse.Namespace, folders: list[Path], profiles: Path, cache: Path) -> str:
    rss_before = _rss_mb()
    session = _session(profiles, args.concurrency, cache)
    wall, cpu, errors = _timed(session, folders)
    sent = session.transport.counts().sent
    ideal = sent * args.latency / args.concurrency
    rss_peak = _rss_mb()
    rerun_wall, _, _ = _timed(_session(profiles, args.concurrency, cache), folders)
    cached = _session(profiles, args.concurrency, cache)
    again_wall, again_cpu, again_errors = _timed(cached, folders, again=True)
    return "\n".join(
        [
            (
                f"# {datetime.now(UTC):%Y-%m-%d %H:%M:%S} (UTC; {os.cpu_count()} cores, shared: load average"
                f" {os.getloadavg()[0]:.1f} at the end)"
            ),
            (
                f"WebJudge, {len(folders)} trajectories, {sent} replies at {args.latency * 1000:.0f} ms,"
                f" concurrency {args.concurrency}: {wall:.1f} s against the ideal {ideal:.1f} s ="
                f" {wall / ideal:.2f}x (goal <= 1.1x); {errors} error(s)"
            ),
            (
                f"client CPU {cpu:.1f} s = {cpu / sent * 1000:.1f} ms a request; peak RSS {rss_peak:.0f} MB"
                f" ({rss_peak - rss_before:+.0f} MB over the {rss_before:.0f} MB before the run)"
            ),
            f"re-run (every trajectory judged before, nothing sent): {rerun_wall:.2f} s (goal <= 2 s)",
            (
                f"re-judge of all with again (every reply from the cache, {cached.transport.counts().sent}"
                f" sent): "
                f"{again_wall:.1f} s, CPU {again_cpu:.1f} s; {again_errors} error(s)"
            ),
        ]
    )


if __name__ == "__main__":
    main()
