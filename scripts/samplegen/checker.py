"""The official evaluator checks the plan: every answered trajectory must get the verdict it was built for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .trajectory import Trajectory


class Checker:
    """Runs the installed official evaluator (webarena_verified) on what was written."""

    def __init__(self, config: Path) -> None:
        import logging

        from webarena_verified.api import WebArenaVerified
        from webarena_verified.types.config import WebArenaVerifiedConfig

        for name in ("WebArena-Verified", "webarena_verified"):  # errors are results here, not noise
            logging.getLogger(name).setLevel(logging.CRITICAL)
        self.wa = WebArenaVerified(config=WebArenaVerifiedConfig.from_file(config))

    def verdict(self, task_id: int, response: Any, har: Path) -> str:
        from webarena_verified.types.tracing import NetworkTrace

        # A missing file is handed over as a path so the library reports it the way it always does.
        trace: Any = NetworkTrace.from_content(har) if har.exists() else har
        result = self.wa.evaluate_task(task_id=task_id, agent_response=response, network_trace=trace)
        return str(result.model_dump(mode="json")["status"])

    def tasks(self) -> dict[int, dict[str, Any]]:
        data = json.loads(Path(self.wa.config.test_data_file).read_text(encoding="utf-8"))
        return {t["task_id"]: t for t in data}


def check(checker: Checker, traj: Trajectory, folder: Path) -> tuple[str | None, str | None]:
    """(official verdict of the structured answer, official verdict of the raw final_answer text)."""
    if traj.scenario.status is None:
        return None, None
    tid = traj.task["task_id"]
    har = folder / "network.har"
    raw_text = traj.answer_text if traj.answer_text is not None else "<no_answer>"
    raw = checker.verdict(tid, raw_text, har)
    structured = checker.verdict(tid, traj.response, har) if traj.response is not None else raw
    if traj.scenario.style == "malformed":
        structured = raw  # nothing to extract: the text itself is what gets scored
    if structured != traj.scenario.status:
        raise SystemExit(
            f"{traj.rel}: planned {traj.scenario_name} -> {traj.scenario.status}, but the official "
            f"evaluator says {structured}"
        )
    return structured, raw
