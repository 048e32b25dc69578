"""cube-harness episodes: `<experiment>/episodes/<task_id>_ep<n>/` holding `status.json`,
`episode_config.json`, `episode.metadata.json`, `steps/NNN_{obs|act}.msgpack.zst`,
`episode_summary.jsonl`, `failure.txt`; the experiment folder above `episodes/` is the run, its
`experiment_config.json` (the Experiment's dump: `name`, `agent_config` with its `_type` and
`llm_config`, `benchmark` with its `_type`) the run's facts (`run_folder`, one read a run). An
episode whose status is QUEUED or RUNNING is unfinished (the Live page follows it); cube-harness
rewrites status.json (temp file + rename) at every step and once more with a terminal status when
the episode ends, FAILED or INVALID_CONFIG when it raised (a crash). The answer of a
WebArena-Verified task is its last act file's `submit_response` action. Archived episodes
(`<id>.archived_<ts>/`) are not read. Read by `reading.cube_reader`.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webeval_core.reading.formats import RunPlace, TaskEnd

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.glance import Glance
    from webeval_core.reading.trajectory_model import Ending
    from webeval_core.reading.trajectory_reader import Trajectory

STATUS = "status.json"
"""The episode's lifecycle (EpisodeStatus), rewritten atomically as it runs."""
METADATA = "episode.metadata.json"
"""The episode's trajectory without its steps."""
CONFIG = "episode_config.json"
"""The episode's configuration, written before it runs."""
STEPS_DIR = "steps"
"""The folder of its step files."""
FAILURE = "failure.txt"
"""The stack trace of a crash."""
EPISODES_DIR = "episodes"
"""The folder of an experiment's episodes."""
EXPERIMENT_CONFIG = "experiment_config.json"
"""The experiment's configuration, written as it starts (beside `episodes/`)."""
CONFIG_BYTES = 1 << 20
"""An experiment_config.json read for the run's facts at most (a larger one is not read)."""
_ARCHIVED = ".archived_"
STATUS_ENDINGS: dict[str, Ending] = {
    "QUEUED": "unfinished",
    "RUNNING": "unfinished",
    "COMPLETED": "answered",
    "MAX_STEPS_REACHED": "no_answer",
    "FAILED": "aborted",
    "CANCELLED": "aborted",
    "STALE": "aborted",
    "INVALID_CONFIG": "aborted",
}
"""How an episode of each of cube-harness's statuses ended (`EpisodeStatus.status`): QUEUED and
RUNNING are in flight, the others terminal (any other status is counted as aborted)."""
RAISED = frozenset({"FAILED", "INVALID_CONFIG"})
"""The terminal statuses cube-harness writes when the episode raised (a crashed task)."""


class CubeHarness:
    """A cube-harness episode folder (see the module docstring)."""

    name = "cube-harness"
    title = "cube-harness episode"
    holds = f"{STATUS} with {STEPS_DIR}/ or {CONFIG} (cube-harness episodes)"
    markers = ()  # status.json alone is too common a name
    watched = frozenset({STATUS, METADATA, FAILURE, "episode_summary.jsonl"})
    watched_suffixes = ()
    tasks_dir = EPISODES_DIR

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        """status.json beside steps/, episode_config.json or episode.metadata.json; never archived."""
        if STATUS not in names or _ARCHIVED in Path(folder).name:
            return False
        return STEPS_DIR in names or CONFIG in names or METADATA in names

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        """The experiment folder above `episodes/`; None for any other shape (asked of every path:
        an `episodes/` folder of another harness's is told apart by its status.json, one stat).
        """
        if trajectory_dir.parent.name != EPISODES_DIR or trajectory_dir.parent == Path(root):
            return None
        if not (trajectory_dir / STATUS).is_file():
            return None
        experiment = trajectory_dir.parent.parent
        return RunPlace(experiment, experiment_facts(experiment / EXPERIMENT_CONFIG))

    def glance(self, reader: FolderReader) -> Glance:
        """status.json, steps/'s names and, once over, the last act file up to its actions (the answer)."""
        from webeval_core.reading.cube_reader import glance_cube

        return glance_cube(reader)

    def load(self, reader: FolderReader) -> Trajectory:
        """Every step decompressed; status, metadata and failure."""
        from webeval_core.reading.cube_reader import load_cube

        return load_cube(reader)

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        """Over once status.json holds a terminal status: its outcome and error, as the glance reads
        them (without the answer: no step file is opened).
        """
        from webeval_core.reading.cube_reader import glance_cube
        from webeval_core.reading.glance import glance_end

        return glance_end(glance_cube(reader, answer=False), STATUS)


def experiment_facts(config: Path) -> tuple[tuple[str, str], ...]:
    """An experiment's facts from its experiment_config.json: system the agent config's class
    (`_type`'s last name, "Config" dropped: `GennyConfig` is genny), model its `llm_config`'s
    `model_name`, benchmark the benchmark's `name` or class, run_id the experiment's `name`; ()
    when the file is missing, too large or no JSON object (the run is then named by its path).
    """
    try:
        doc = json.loads(config.read_bytes()) if config.stat().st_size <= CONFIG_BYTES else None
    except (OSError, ValueError):
        return ()
    if not isinstance(doc, dict):
        return ()
    agent, benchmark = _object(doc.get("agent_config")), _object(doc.get("benchmark"))
    llm = _object(agent.get("llm_config"))
    said = {
        "system": _class(agent.get("_type"), "Config"),
        "model": llm.get("model_name") or llm.get("model"),
        "benchmark": benchmark.get("name") or _class(benchmark.get("_type"), "Benchmark"),
        "run_id": doc.get("name"),
    }
    return tuple((k, v) for k, v in said.items() if isinstance(v, str) and v)


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _class(typed: Any, suffix: str) -> str | None:
    """A `_type`'s class name ("pkg.mod.GennyConfig" -> "Genny"), its `suffix` dropped."""
    if not isinstance(typed, str) or not typed:
        return None
    name = typed.rpartition(".")[2]
    return name.removesuffix(suffix) or name


FORMAT = CubeHarness()
"""The cube-harness format, as the registry holds it."""
