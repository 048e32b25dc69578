"""AgentLab / BrowserGym study folders: an episode folder per task and seed
(`<date>_<agent>_on_<task>_<seed>/`) holding `summary_info.json`, `step_N.pkl.gz`,
`screenshot_step_N.png`, `experiment.log` and `exp_args.pkl`; the study folder above them is
the run, named `<date>_<study name>` where the study name is `<agents>_on_<benchmark>`, and an
episode `<date>_<agent name>_on_<task>_<seed>`, an agent name `<agent>-<model>` (GenericAgent's
`GenericAgent-gpt-4o`): the run's facts, read from these names alone (`run_folder`; no
pickle). An episode without `summary_info.json` yet is still running: AgentLab writes it once,
in its run loop's `finally`, with `terminated` / `truncated` (answered / out of steps) or
`err_msg` (the agent or environment raised: crashed). The readers are
`reading.agentlab_reader`'s; pickles are read by `reading.safepickle`, never run.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from webeval_core.reading.formats import RunPlace, TaskEnd

if TYPE_CHECKING:
    from webeval_core.reading.folderreader import FolderReader
    from webeval_core.reading.glance import Glance
    from webeval_core.reading.trajectory_model import Ending
    from webeval_core.reading.trajectory_reader import Trajectory

SUMMARY_INFO = "summary_info.json"
"""The episode's summary, written last by AgentLab."""
EXP_ARGS = "exp_args.pkl"
"""The episode's arguments, written first (an episode that has started)."""
_DATED = r"\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_"
EPISODE_NAME = re.compile(_DATED + r"(?P<agent>.+?)_on_(?P<task>.+)_(?P<seed>\d+)(?:_[0-9a-f]+)?$")
"""An episode folder's name as `ExpArgs` makes it: date, agent name, task, seed (and a short id)."""
STUDY_NAME = re.compile(_DATED + r"(?P<agents>.+)_on_(?P<benchmark>.+)$")
"""A study folder's name as `make_study_dir` makes it: date, then `<agents>_on_<benchmark>`."""


def summary_outcome(err_msg: object, terminated: object) -> Ending:
    """How an episode whose summary is written ended (its `err_msg` and `terminated`): an error is
    aborted, a terminated episode answered, else out of steps (no answer). The reader's outcome and
    the task's state (`reading.task_state`) both ask this.
    """
    if err_msg:
        return "aborted"
    return "answered" if terminated else "no_answer"


class AgentLab:
    """An AgentLab episode folder (see the module docstring)."""

    name = "agentlab"
    title = "AgentLab / BrowserGym episode"
    holds = f"{SUMMARY_INFO} or {EXP_ARGS} with step_N.pkl.gz (AgentLab / BrowserGym episodes)"
    markers = (SUMMARY_INFO, EXP_ARGS)
    watched = frozenset({SUMMARY_INFO, "experiment.log"})
    watched_suffixes = ()
    tasks_dir = ""

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        """summary_info.json or exp_args.pkl (AgentLab's study folder itself holds neither)."""
        return SUMMARY_INFO in names or EXP_ARGS in names

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        """The study folder, the episodes' parent, with the facts the names say (`study_facts`);
        None for a path whose name is no AgentLab episode's (then the default, its parent).
        """
        episode = EPISODE_NAME.match(trajectory_dir.name)
        if episode is None or trajectory_dir == Path(root):
            return None
        return RunPlace(trajectory_dir.parent, study_facts(trajectory_dir.parent.name, episode["agent"]))

    def glance(self, reader: FolderReader) -> Glance:
        """summary_info.json and the folder's names: no pickle is opened."""
        from webeval_core.reading.agentlab_reader import glance_agentlab

        return glance_agentlab(reader)

    def load(self, reader: FolderReader) -> Trajectory:
        """Steps from the pickles (restricted unpickler), screenshots, summary, log excerpt."""
        from webeval_core.reading.agentlab_reader import load_agentlab

        return load_agentlab(reader)

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        """Over once summary_info.json is written: its outcome and error, as the glance reads them."""
        if SUMMARY_INFO not in reader.names:
            return None
        from webeval_core.reading.glance import glance_end

        return glance_end(self.glance(reader), SUMMARY_INFO)


def study_facts(study: str, agent: str) -> tuple[tuple[str, str], ...]:
    """The facts of a study named `study` whose episode's agent name is `agent`: system and model
    from the agent name (`GenericAgent-gpt-4o`: AgentLab's agents name themselves
    `<agent>-<model>`; a name without a dash is the system alone) when the study is of that agent
    alone (its name's agents part is the agent's, as `make_study` slugifies it), else the study's
    agents part as the system; the benchmark from the study's name (`..._on_webarena_verified`).
    """
    named = STUDY_NAME.match(study)
    agents = named["agents"] if named else None
    if agents is not None and _slug(agents) != _slug(agent):
        said = {"system": agents, "benchmark": named["benchmark"] if named else None}
    else:
        system, _, model = agent.partition("-")
        said = {"system": system, "model": model, "benchmark": named["benchmark"] if named else None}
    return tuple((k, v) for k, v in said.items() if v)


def _slug(name: str) -> str:
    return re.sub(r"[^0-9a-z]+", "-", name.casefold()).strip("-")


FORMAT = AgentLab()
"""The AgentLab format, as the registry holds it."""
