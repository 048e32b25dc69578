"""Writing one trajectory folder: screenshots, web_surfer.log, final answer, times.json, network.har, scores.

`core.log` is written later by `generate`, once the official evaluator has given its verdict.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .har import HarBuilder, har_document
from .logs import traceback_text, web_surfer_log
from .painter import Frame
from .plan import ERRORS, JUDGE_SCORES, LOG_QUIRKS, REPORT_ROWS
from .trajectory import Trajectory


def token_usage(traj: Trajectory) -> dict[str, Any]:
    rng = random.Random(f"usage:{traj.rel}")
    calls = len(traj.steps)
    usage: dict[str, Any] = {"prompt_tokens": sum(rng.randint(3300, 9800) for _ in range(calls))}
    usage["completion_tokens"] = sum(rng.randint(40, 190) for _ in range(calls))
    if traj.number % 3 == 0:  # newer writers add these; readers must accept them
        usage["reasoning_tokens"] = 0 if traj.model.key == "fara" else rng.randint(200, 900)
        usage["num_calls"] = calls
    return {traj.model.component: usage}


def screenshot_frames(traj: Trajectory) -> list[tuple[str, Frame]]:
    if traj.model.generation == "solver":  # one per action, the page the action is taken on
        return [(f"screenshot_{i}.png", s.before) for i, s in enumerate(traj.steps, 1)]
    frames = [traj.start] + [s.after for s in traj.steps]  # before step 1, then after each step
    return [(f"screenshot{i}.png", f) for i, f in enumerate(frames)]


def write_json(path: Path, data: Any, *, indent: int | None = 2, newline: bool = True) -> None:
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    path.write_text(text + ("\n" if newline else ""), encoding="utf-8")


def write_trajectory(traj: Trajectory, out: Path, pngs: Mapping[Frame, bytes]) -> Path:
    folder = out / traj.rel
    folder.mkdir(parents=True, exist_ok=True)
    tid, key = traj.task["task_id"], traj.model.key
    crashed = traj.scenario_name == "crash_no_answer"

    shots = screenshot_frames(traj)
    for name, frame in shots:
        (folder / name).write_bytes(pngs[frame])

    generation = traj.model.generation
    if key == "fara" and traj.row.fara_log == "text":
        generation = "text"
    lines = web_surfer_log(traj, generation)
    error = ERRORS.get((key, tid))
    quirk = LOG_QUIRKS.get((key, tid))
    if quirk == "empty":
        lines = []  # DEBUG lines filtered: an empty log is common in this generation
    if quirk == "blank_line":
        lines.insert(len(lines) // 2, "")
    log = "".join(line + "\n" for line in lines)
    if crashed and error and key == "fara":
        log += "\n".join(traceback_text(error)) + "\n"  # a traceback appended after the last JSON line
    if crashed and key == "som":  # killed mid-write
        log = log[: log.rfind("\n", 0, len(log) - 1) + 1] + lines[-1][: len(lines[-1]) // 2]
    (folder / "web_surfer.log").write_text(log, encoding="utf-8")

    if not crashed:
        none = "<no_answer>"
        final = traj.answer_text if traj.answer_text is not None else none
        answer: dict[str, Any] = {"final_answer": final, "env_state_json": none, "env_state_raw": none}
        answer |= {"screenshots": [n for n, _ in shots], "is_aborted": traj.is_aborted, "is_rel_paths": True}
        answer["token_usage"] = token_usage(traj)
        write_json(folder / f"{tid}_final_answer.json", answer, newline=False)
        duration = (traj.end_us - traj.start_us) / 1e6
        times = {"start_time": traj.start_us / 1e6, "end_time": traj.end_us / 1e6, "duration": duration}
        write_json(folder / "times.json", times, indent=None, newline=False)
        if traj.scenario_name != "har_missing" and "eval" in traj.task:  # live-web runs record no HAR
            write_json(folder / "network.har", har_document(traj, HarBuilder(traj).build()))
    if "task_data" in traj.task:  # a live-web task, as its verifier wrote it down
        write_json(folder / "task_data.json", traj.task["task_data"])
    for name, score in JUDGE_SCORES.get((key, tid), {}).items():
        (folder / "scores").mkdir(exist_ok=True)
        write_json(folder / "scores" / name, score, newline=False)
    return folder


def verify_report(trajectories: Iterable[Trajectory]) -> str:
    """A live run's verify_report.jsonl: each recipe's row after its trajectory's identity, in run order."""
    lines = []
    for traj in trajectories:
        row = REPORT_ROWS[traj.model.key, traj.row.task_id]
        path = {"score_path": f"{traj.origin}/{row['score_path']}"} if "score_path" in row else {}
        lines.append(json.dumps({"task_id": traj.row.task_id, "traj_dir": traj.origin} | row | path) + "\n")
    return "".join(lines)
