"""The whole sample: every planned trajectory, the official CLI copies, the verdicts file and the README.

`main` is the command line of `scripts/make_sample_runs.py`.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .checker import Checker, check
from .harness_runs import write_harness_runs
from .logs import core_log
from .painter import render_all
from .plan import DATA, JUDGE_SCORES, LIVE_RUNS, MODELS, NOTES, PLAN, RECIPES
from .sites import SITES, render_url
from .trajectory import Trajectory, expected_of, plan_trajectory, schedule
from .writer import screenshot_frames, verify_report, write_json, write_trajectory

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "sample_runs"

CLI_TASKS = (108, 11, 260, 470, 259)  # copied from fara-7b into the official CLI layout


def generate(out: Path, jobs: int = 1) -> dict[str, Any]:
    if out.exists():
        if any(out.iterdir()) and not (out / "intended_verdicts.json").exists():
            raise SystemExit(
                f"{out} is not empty and does not look like a sample_runs folder; refusing to delete it"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True)
    webarena = (s for s in SITES.values() if not s.get("live"))  # the official config names these only
    config = {"environments": {s["placeholder"]: {"urls": [s["url"]]} for s in webarena}}
    write_json(out / "webarena-verified-config.json", config)
    checker = Checker(out / "webarena-verified-config.json")
    tasks = checker.tasks()
    trajectories: list[Trajectory] = []
    for model, rows in [*((model, PLAN) for model in MODELS), *LIVE_RUNS]:
        start = int(model.run_start.timestamp() * 1_000_000)
        rng = random.Random(f"run:{model.key}")
        for row in rows:
            recipe = RECIPES[row.task_id]  # a live-web task is no WebArena-Verified task: its task_data
            task = tasks.get(row.task_id) or {"task_id": row.task_id, "task_data": recipe.task_data}
            traj = plan_trajectory(model, row, task, recipe)
            schedule(traj, start)
            start = traj.end_us + rng.randint(20_000_000, 95_000_000)
            trajectories.append(traj)
    pngs = render_all((f for t in trajectories for _, f in screenshot_frames(t)), jobs)
    verdicts: dict[str, dict[str, Any]] = {}
    for traj in trajectories:
        folder = write_trajectory(traj, out, pngs)
        status, raw = check(checker, traj, folder)
        # A live-web task's evaluation (in core.log) is its verifier's score, not an official verdict.
        scores = JUDGE_SCORES.get((traj.model.key, traj.row.task_id), {}).values()
        judged = (
            status if "eval" in traj.task else ("success" if any(s["score"] for s in scores) else "failure")
        )
        (folder / "core.log").write_text(core_log(traj, judged), encoding="utf-8")
        notes = (traj.scenario.note, NOTES.get((traj.model.key, traj.row.task_id), ""))
        note = " ".join(p for p in notes if p)
        verdicts[traj.rel] = intended(traj, status, raw, note)
    by_task = {(t.model.key, t.row.task_id): t for t in trajectories}
    for tid in CLI_TASKS:
        traj = by_task[MODELS[0].key, tid]
        folder = out / "webarena-verified-cli" / str(tid)
        folder.mkdir(parents=True)
        text = traj.answer_text or ""
        (folder / "agent_response.json").write_text(text + "\n", encoding="utf-8")
        shutil.copyfile(out / traj.rel / "network.har", folder / "network.har")
        raw = checker.verdict(tid, text, folder / "network.har")
        status = checker.verdict(tid, traj.response, folder / "network.har")
        note = f"Official CLI layout, copied from {traj.rel}. {traj.scenario.note}"
        verdicts[f"webarena-verified-cli/{tid}"] = intended(traj, status, raw, note)
    for _, rows in LIVE_RUNS:
        mine = [t for t in trajectories if t.row in rows]
        report = out / mine[0].rel.rsplit("/traj/", 1)[0] / "verify_report.jsonl"
        report.write_text(verify_report(mine), encoding="utf-8")
    raw_statuses = {rel: v["raw_text_status"] for rel, v in verdicts.items()}
    verdicts |= write_harness_runs(out, trajectories, pngs, raw_statuses, render_url)
    write_json(out / "intended_verdicts.json", verdicts)
    score_officially(out)
    (out / "README.md").write_text(readme(trajectories, tasks, verdicts), encoding="utf-8")
    return verdicts


def intended(traj: Trajectory, status: str | None, raw: str | None, note: str) -> dict[str, Any]:
    """One entry of intended_verdicts.json."""
    entry = {"task_id": traj.row.task_id, "model": traj.model.name, "scenario": traj.scenario_name}
    return entry | {"expected_status": status, "raw_text_status": raw, "note": note}


def score_officially(out: Path) -> None:
    """Write the official verdicts where `webeval score` puts them, so the first overview is full.

    The same call `webeval score sample_runs` makes: scoring the committed tree again finds every
    score file up to date and changes nothing (tests/test_sample_runs.py checks it).
    """
    from webeval_core.runs.discovery import iter_trajectory_dirs
    from webeval_core.scoring import score_trajectories

    outcomes = score_trajectories(list(iter_trajectory_dirs(out)), config_root=out)
    written = sum(1 for o in outcomes if o.score_file is not None)
    if not written:
        raise SystemExit("the official evaluator wrote no score file into the sample")


def readme(
    trajectories: list[Trajectory], tasks: Mapping[int, dict[str, Any]], verdicts: Mapping[str, Any]
) -> str:
    """The sample's README.md: `data/sample_readme.md` with the counts and the plan filled in."""
    models = []
    for model in MODELS:
        mine = [t for t in trajectories if t.model is model]
        n = Counter(verdicts[t.rel]["expected_status"] for t in mine)
        naming = "screenshot0..N" if model.generation == "fara" else "screenshot_1..N"
        gen = "Fara structured (4 older text-only)" if model.key == "fara" else "solver WebSurferEvent"
        counts = f"{len(mine)} | {n['success']} | {n['failure']} | {n['error']} | {n[None]}"
        models.append(f"| {model.name} | {gen} | {naming} | {counts} |")
    rows = []
    for row in PLAN:
        task = tasks[row.task_id]
        scenarios = " | ".join(getattr(row, m.key) for m in MODELS)
        kind = expected_of(task)["task_type"]
        rows.append(f"| {row.task_id} | {', '.join(task['sites'])} | {kind} | {scenarios} |")
    template = (DATA / "sample_readme.md").read_text(encoding="utf-8")
    live = (f"| {t.row.task_id} | {t.task['task_data']['website']} | {NOTES[t.model.key, t.row.task_id]} |"
            for t in trajectories if "eval" not in t.task)  # fmt: skip
    tables = {"models": "\n".join(models), "rows": "\n".join(rows), "live": "\n".join(live),
              "harnesses": harness_rows(verdicts)}  # fmt: skip
    names, dashes = " | ".join(m.name for m in MODELS), "---|" * len(MODELS)
    return template.format(tasks=len(PLAN), names=names, dashes=dashes, **tables)


def harness_rows(verdicts: Mapping[str, Any]) -> str:
    """The README's table of the other harnesses' trajectories."""
    rows = []
    for rel, v in verdicts.items():
        if "harness" in v:
            run = rel.split("/episodes/")[0] if "/episodes/" in rel else rel.rsplit("/", 1)[0]
            reward = "-" if v["harness"] == "online-mind2web" else float(v["raw_text_status"] == "success")
            cells = (run, v["harness"], v["task_id"], f"{v['model']} ({v['scenario']})", v["expected_status"])
            rows.append("| `{}` | {} | {} | {} | {} | ".format(*cells) + f"{reward} |")
    return "\n".join(rows)


def tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def main(argv: Sequence[str] | None = None, doc: str | None = None) -> int:
    # The entry script passes its own docstring, so `--help` describes the command that was run.
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: sample_runs/)")
    jobs = min(8, os.cpu_count() or 1)
    parser.add_argument("--jobs", type=int, default=jobs, help="processes drawing screenshots (same output)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    verdicts = generate(args.out, args.jobs)
    counts = Counter(v["expected_status"] for v in verdicts.values())
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(
        f"wrote {len(verdicts)} trajectories to {args.out} ({size / 1e6:.1f} MB, "
        f"{time.perf_counter() - began:.1f} s); verdicts {dict(counts)}; tree sha256 {tree_digest(args.out)}"
    )
    return 0
