"""Agent logs as WebArena-Verified's demo lays them out (`<task_id>/agent_response.json`,
`network.har`), judged by the official CLI itself: `webarena-verified eval-tasks` writes each
`eval_result.json`, as it does for a user who ran the benchmark.

Two runs of three tasks: 107 (a retrieve task: run A answers with the wrong task type, run B with
seven of the eight months right), 44 and 45 (navigate tasks: run A reaches the page, run B does not).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.harness.har_builders import GITLAB, document, response_text, wav_folder, write_config

_MONTHS = [
    ("May", 8), ("June", 13), ("July", 9), ("August", 8),
    ("September", 10), ("October", 4), ("November", 5), ("December", 11),  # December was 10
]  # fmt: skip


def agent_log_runs(root: Path) -> Path:
    """`root/run-a` and `root/run-b`, each judged by the official CLI; returns `root`."""
    wrong_type = json.dumps({"task_type": "NAVIGATE", "status": "SUCCESS", "retrieved_data": None})
    months = response_text("retrieve", data=[{"month": m, "count": c} for m, c in _MONTHS])
    navigate = response_text("navigate")
    runs = {
        "run-a": {107: (wrong_type, "/"), 44: (navigate, "/dashboard/todos"), 45: (navigate, "/explore")},
        "run-b": {107: (months, "/"), 44: (navigate, "/explore"), 45: (navigate, "/explore")},
    }
    root.mkdir(parents=True, exist_ok=True)
    config = write_config(root / "config.json")
    official = Path(sys.executable).parent / "webarena-verified"
    for run, tasks in runs.items():
        for task_id, (answer, page) in tasks.items():
            wav_folder(root / run, task_id, answer, [document(f"{GITLAB}{page}")])
        subprocess.run(
            [str(official), "eval-tasks", "--output-dir", str(root / run), "--config", str(config)],
            check=True,
            capture_output=True,
        )
    return root
