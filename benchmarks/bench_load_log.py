"""Time reading a 10,000-line web_surfer.log, alone and as part of a whole trajectory folder.

Builds, in a temporary folder, one log per generation (text, fara-structured, solver) and one
mixing every line shape (plus blank lines, LLM-call events and a traceback), each 10,000 lines
with thoughts of realistic length, beside one PNG per action (Fara naming), an answer file,
times.json and core.log; and, for scale, a real-sized trajectory of 100 actions (300 lines).
Prints the median wall and CPU time of several runs for `parse_action_log` on the bytes and for
`load_trajectory` on the folder, and beside them what the index pays: `count_steps` on the bytes
and `glance_trajectory` on the folder.

Usage: .venv/bin/python benchmarks/bench_load_log.py [--lines 10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from tests.harness.builders import (
    FARA_ACTIONS,
    SOLVER_ACTIONS,
    Act,
    LogGeneration,
    log_lines,
    write_core_log,
    write_final_answer,
    write_log,
    write_screenshots,
    write_times,
)
from webeval_core.reading.actionlog import count_steps, parse_action_log
from webeval_core.reading.glance import glance_trajectory
from webeval_core.reading.trajectory_reader import load_trajectory

ROOT = Path(__file__).resolve().parent.parent

THOUGHT = "The search results list several trails; the third one matches the requested length. " * 4


def realistic(actions: tuple[Act, ...]) -> list[Act]:
    return [Act(a.action, a.args, thought=THOUGHT, observation=a.observation, url=a.url) for a in actions]


def generation_lines(generation: LogGeneration, total: int) -> list[str]:
    acts = realistic(SOLVER_ACTIONS if generation == "solver" else FARA_ACTIONS)
    per_action = {"text": 2, "fara-structured": 3, "solver": 2}[generation]
    cycle = acts * (total // (per_action * len(acts)) + 1)
    return log_lines(generation, cycle)[:total]


def mixed_lines(total: int) -> list[str]:
    """Every line shape the reader knows, in one log: the worst case for its branches."""
    llm_call = json.dumps(
        {
            "timestamp": "2025-11-14T14:35:15.204417",
            "prompt_tokens": 2383,
            "completion_tokens": 192,
            "type": "LLMCallEvent",
        }
    )
    block = [
        *log_lines("fara-structured", realistic(FARA_ACTIONS)),
        *log_lines("text", realistic(FARA_ACTIONS)),
        *log_lines("solver", realistic(SOLVER_ACTIONS)),
        llm_call,
        "",
        "Traceback (most recent call last):",
        "TimeoutError: Timeout 30000ms exceeded.",
    ]
    return (block * (total // len(block) + 1))[:total]


def median_ms(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds; CPU time is the steadier figure on a shared machine."""
    wall, cpu = [], []
    for _ in range(runs):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        action()
        wall.append((time.perf_counter() - start_wall) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def build_folder(root: Path, name: str, lines: list[str]) -> Path:
    folder = root / name
    folder.mkdir()
    write_log(folder, lines)
    steps = len(parse_action_log((folder / "web_surfer.log").read_bytes()).steps)
    names = write_screenshots(folder, steps, "fara")
    write_final_answer(folder, name, screenshots=names)
    write_times(folder)
    write_core_log(folder, "2025-11-14 14:35:10,000 [INFO] webeval.core.t - [Execution t] Start\n" * 200)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    logs = {
        "text": generation_lines("text", args.lines),
        "fara-structured": generation_lines("fara-structured", args.lines),
        "solver": generation_lines("solver", args.lines),
        "mixed": mixed_lines(args.lines),
        "fara-100-actions": generation_lines("fara-structured", 300),  # Fara's max_rounds: a real upper bound
    }
    python = sys.version.split()[0]
    print(f"{args.lines} lines per log (last row: 300), median of {args.runs} runs (Python {python})")
    print(
        f"{'log':<16} {'MB':>5} {'steps':>6} {'warnings':>8}   parse ms wall/cpu   load ms wall/cpu"
        "   count ms wall/cpu   glance ms wall/cpu"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name, lines in logs.items():
            folder = build_folder(Path(tmp), name, lines)
            data = (folder / "web_surfer.log").read_bytes()
            parsed = parse_action_log(data)
            loaded = load_trajectory(folder)
            parse = median_ms(partial(parse_action_log, data), args.runs)
            load = median_ms(partial(load_trajectory, folder), args.runs)
            count = median_ms(partial(count_steps, data), args.runs)
            glance = median_ms(partial(glance_trajectory, folder), args.runs)
            print(
                f"{name:<16} {len(data) / 1e6:>5.1f} {len(parsed.steps):>6} {len(loaded.warnings):>8} "
                f"{parse[0]:>10.0f} /{parse[1]:>5.0f} {load[0]:>11.0f} /{load[1]:>5.0f}"
                f" {count[0]:>11.1f} /{count[1]:>5.1f} {glance[0]:>12.1f} /{glance[1]:>5.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
