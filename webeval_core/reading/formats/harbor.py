"""Harbor's ATIF trajectories (RFC 0001): a folder holding `trajectory.json` (an ATIF document:
what `webeval export --format atif` writes, screenshots beside it), or a Harbor trial folder
holding `agent/trajectory.json` and the trial's `result.json` (its verifier's reward). A job
folder of trials is the run (the default: the trials' parent). Harbor writes a trial's
result.json when the trial ends (its exception, when it raised: a crash); a trial without one is
still running. Harbor's `Trial` makes the trial folder's `agent/`, `verifier/` and `artifacts/`
and its `trial.log` when it is made, and writes `config.json` (the trial's configuration: the
agent's name and model) as it starts running; the agent's document is written by the agent, often
only once it has run (installed agents convert their logs after the run): a folder of those names
without a document yet is a trial being run (no step yet). A document of its own is a whole run.
The job folder above the trials holds the job's `config.json` (its agents, with their names and
models, and its datasets): the run's facts (`run_folder`). Read by `reading.atif_reader`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webeval_core.reading.formats import RunPlace, TaskEnd

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.glance import Glance
    from webeval_core.reading.trajectory_reader import Trajectory

DOCUMENT = "trajectory.json"
"""An ATIF document's file name (Harbor's, and our export's)."""
AGENT_DIR = "agent"
"""A Harbor trial's agent folder, which holds the trial's document."""
TRIAL_RESULT = "result.json"
"""A Harbor trial's result (verifier reward, exception), written when the trial ends."""
CONFIG = "config.json"
"""A trial's configuration (TrialConfig), or a job's (JobConfig), written as it starts."""
TRIAL_LOG = "trial.log"
"""A trial's log, opened when the trial is made."""
VERIFIER_DIR = "verifier"
"""A trial's verifier folder, made with its agent folder."""
CONFIG_BYTES = 1 << 20
"""A job's config.json read for the run's facts at most (a larger one is no Harbor job's)."""


def is_started_trial(names: Collection[str]) -> bool:
    """Whether a folder listing `names` is a Harbor trial by the names Harbor's `Trial` makes
    first (config.json and agent/, with trial.log or verifier/), its document written or not.
    """
    return CONFIG in names and AGENT_DIR in names and (TRIAL_LOG in names or VERIFIER_DIR in names)


class Harbor:
    """An ATIF document's folder or a Harbor trial (see the module docstring)."""

    name = "harbor-atif"
    title = "Harbor ATIF trajectory"
    holds = f"{DOCUMENT} or {AGENT_DIR}/{DOCUMENT} (Harbor's ATIF trajectories)"
    markers = (DOCUMENT,)
    watched = frozenset({DOCUMENT, TRIAL_RESULT, AGENT_DIR})  # agent/: its document appears in it
    watched_suffixes = ()
    tasks_dir = ""

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        """trajectory.json; a started trial by its names (`is_started_trial`); or an `agent/`
        folder holding a document (one stat, only where `agent/` is).
        """
        if DOCUMENT in names or is_started_trial(names):
            return True
        return AGENT_DIR in names and os.path.isfile(os.path.join(folder, AGENT_DIR, DOCUMENT))

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        """The job folder, the trials' parent, with the facts its config.json says (its agents'
        names and models, its first dataset, the job's name): asked once per run folder by
        the index (one read); None for any path that is no trial (a stat of agent/ tells).
        """
        if trajectory_dir == Path(root) or not (trajectory_dir / AGENT_DIR).is_dir():
            return None
        job = trajectory_dir.parent
        return RunPlace(job, job_facts(job, trajectory_dir))

    def glance(self, reader: FolderReader) -> Glance:
        """The document read, its steps counted."""
        from webeval_core.reading.atif_reader import glance_atif

        return glance_atif(reader)

    def load(self, reader: FolderReader) -> Trajectory:
        """Steps, screenshots by path, the answer; a trial's reward and error."""
        from webeval_core.reading.atif_reader import load_atif

        return load_atif(reader)

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        """A trial is over once its result.json is written, a document of its own always: the
        outcome and exception the glance reads.
        """
        marker = DOCUMENT if DOCUMENT in reader.names else TRIAL_RESULT
        if marker not in reader.names:
            return None
        from webeval_core.reading.glance import glance_end

        return glance_end(self.glance(reader), marker)


def job_facts(job: Path, trial: Path) -> tuple[tuple[str, str], ...]:
    """A Harbor job's facts from its config.json (JobConfig): system and model from its agents'
    `name` and `model_name` (a job of several: each, joined), benchmark from its first dataset's
    `name` (or its path's last name), run_id the `job_name`; else from the trial's config.json
    (TrialConfig: `agent`, the task's `source`), else from its document's `agent` (`name`,
    `model_name`: a document that is not too large); () when none says them.
    """
    doc = _small_json(job / CONFIG)
    if isinstance(doc, dict) and isinstance(doc.get("agents"), list) and doc["agents"]:
        agents = [_object(a) for a in doc["agents"]]
        dataset = _first(doc.get("datasets"))
        where = dataset.get("path")
        said = {
            "system": _each(a.get("name") for a in agents),
            "model": _each(a.get("model_name") for a in agents),
            "benchmark": dataset.get("name") or (Path(where).name if isinstance(where, str) else None),
            "run_id": doc.get("job_name"),
        }
    else:
        said = _trial_facts(trial)
    return tuple((k, v) for k, v in said.items() if isinstance(v, str) and v)


def _trial_facts(trial: Path) -> dict[str, Any]:
    config = _object(_small_json(trial / CONFIG))
    agent, task = _object(config.get("agent")), _object(config.get("task"))
    if not agent.get("name"):
        agent = _object(_object(_small_json(trial / AGENT_DIR / DOCUMENT)).get("agent"))
    return {"system": agent.get("name"), "model": agent.get("model_name"), "benchmark": task.get("source")}


def _each(values: Any) -> str | None:
    """The distinct text values, in order, joined ("a + b"); None when there is none."""
    found = [v for v in dict.fromkeys(values) if isinstance(v, str) and v]
    return " + ".join(found) or None


def _first(items: Any) -> dict[str, Any]:
    return _object(items[0]) if isinstance(items, list) and items else {}


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _small_json(path: Path) -> Any:
    """A small JSON file's content; None when it is missing, too large or no JSON (a run's facts
    are then its path's: nothing to warn of here, the trials' readers say what is wrong).
    """
    try:
        if path.stat().st_size > CONFIG_BYTES:
            return None
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


FORMAT = Harbor()
"""The Harbor ATIF format, as the registry holds it."""
