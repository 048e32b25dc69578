"""The format registry: a new format is one object on `reading.formats`, and discovery, the index,
`load_trajectory`, `ls` and the "not a trajectory folder" message all find it there.

The toy format is what a one-JSON-file-per-trajectory harness looks like (Online-Mind2Web's
`result.json`, Harbor's `trajectory.json`) inside a study folder of episodes (AgentLab,
cube-harness): `study/episodes/<episode>/toy.json`, the run being `study/`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder
from webeval_core.reading import load_trajectory
from webeval_core.reading.folderreader import FolderReader
from webeval_core.reading.formats import (
    RunPlace,
    TaskEnd,
    format_named,
    format_of,
    formats,
    is_trajectory_folder,
    layouts,
    marker_names,
    not_a_trajectory,
    registered,
    run_place,
    watched_file,
)
from webeval_core.reading.glance import Glance, glance_trajectory, glance_with_common_files
from webeval_core.reading.task_state import TaskState, task_progress
from webeval_core.reading.trajectory_reader import Trajectory
from webeval_core.runs import RunWatch, build_index, discover_runs
from webeval_core.support.diagnostics import UnreadableError

BUILT_IN = ["fara", "webarena-verified", "agentlab", "harbor-atif", "online-mind2web", "cube-harness"]
"""The formats the registry holds, in the order they are tried."""
TOY_FILE = "toy.json"
STUDY_FILE = "toy_study.json"


class Toy:
    """A format of one JSON file per trajectory, grouped by the study folder above `episodes/`."""

    name = "toy"
    title = "Toy harness episode"
    holds = f"{TOY_FILE} (the toy harness's episodes)"
    markers = (TOY_FILE,)
    watched = frozenset({TOY_FILE})
    watched_suffixes = ()
    tasks_dir = "episodes"

    def detect(self, folder: str, names: Collection[str], *, asked: bool = False) -> bool:
        return TOY_FILE in names

    def run_folder(self, root: Path, trajectory_dir: Path) -> RunPlace | None:
        study = trajectory_dir.parent.parent
        if trajectory_dir.parent.name != "episodes" or not (study / STUDY_FILE).is_file():
            return None
        return RunPlace(study, (("benchmark", json.loads((study / STUDY_FILE).read_text())["benchmark"]),))

    def _episode(self, reader: FolderReader) -> dict[str, object]:
        episode = reader.read_object(TOY_FILE)
        if episode is None or "answer" not in episode:
            raise UnreadableError(reader.folder, f"{TOY_FILE} holds no toy episode (no answer)")
        return episode

    def glance(self, reader: FolderReader) -> Glance:
        episode = self._episode(reader)
        found = {
            "task_id": str(episode["task"]),
            "layout": self.name,
            "outcome": "answered",
            "final_answer_text": episode["answer"],
            "steps": len(episode.get("steps", [])),  # type: ignore[arg-type]
        }
        return glance_with_common_files(reader, found)

    def ended(self, reader: FolderReader) -> TaskEnd | None:
        return TaskEnd("answered", TOY_FILE) if TOY_FILE in reader.names else None

    def load(self, reader: FolderReader) -> Trajectory:
        episode = self._episode(reader)
        return Trajectory(
            path=reader.folder,
            task_id=str(episode["task"]),
            layout=self.name,
            outcome="answered",
            final_answer_text=str(episode["answer"]),
            warnings=tuple(reader.warnings),
        )


@pytest.fixture
def toy() -> Iterator[Toy]:
    with registered(Toy()) as added:
        yield added  # type: ignore[misc]


def _study(root: Path, episodes: int = 2) -> Path:
    study = root / "study-1"
    (study / "episodes").mkdir(parents=True)
    (study / STUDY_FILE).write_text(json.dumps({"benchmark": "toybench"}))
    for n in range(episodes):
        episode = study / "episodes" / f"task{n}_ep0"
        episode.mkdir()
        (episode / TOY_FILE).write_text(
            json.dumps({"task": f"task{n}", "answer": f"answer {n}", "steps": [1, 2]})
        )
    return study


def test_the_built_in_formats_are_fara_then_the_official_agent_logs() -> None:
    assert [f.name for f in formats()] == BUILT_IN
    assert format_named("fara") is formats()[0] and format_named("toy") is None
    assert layouts().startswith("a trajectory folder holds web_surfer.log")


def test_a_registered_format_is_found_by_discovery_with_its_own_runs(tmp_path: Path, toy: Toy) -> None:
    study = _study(tmp_path)
    fara_folder(tmp_path / "other")  # a Fara folder beside it: both formats in one root
    episode = study / "episodes" / "task0_ep0"
    assert is_trajectory_folder(episode) and not is_trajectory_folder(study)
    assert format_of(episode, {TOY_FILE}) is toy
    assert run_place(tmp_path, episode) == RunPlace(study, (("benchmark", "toybench"),))
    runs = {run.key: run for run in discover_runs(tmp_path)}
    assert set(runs) == {"study-1", "other"}
    assert runs["study-1"].benchmark == "toybench"
    assert [d.name for d in runs["study-1"].trajectory_dirs] == ["task0_ep0", "task1_ep0"]
    assert TOY_FILE in marker_names() and watched_file(TOY_FILE)


def test_the_index_and_load_trajectory_read_it_by_its_format(tmp_path: Path, toy: Toy) -> None:
    study = _study(tmp_path)
    index = build_index(tmp_path, cache_dir=tmp_path / "cache")
    toys = sorted((s for s in index.summaries if s.layout == "toy"), key=lambda s: s.task_id)
    assert [(s.run_key, s.task_id, s.final_answer, s.steps) for s in toys] == [
        ("study-1", "task0", "answer 0", 2),
        ("study-1", "task1", "answer 1", 2),
    ]
    trajectory = load_trajectory(study / "episodes" / "task1_ep0")
    assert (trajectory.layout, trajectory.task_id, trajectory.final_answer_text) == (
        "toy",
        "task1",
        "answer 1",
    )
    assert glance_trajectory(study / "episodes" / "task1_ep0").layout == "toy"


def test_its_own_cannot_read_message_reaches_the_index(tmp_path: Path, toy: Toy) -> None:
    study = _study(tmp_path, episodes=1)
    (study / "episodes" / "task0_ep0" / TOY_FILE).write_text("{}")
    with pytest.raises(UnreadableError, match=r"toy\.json holds no toy episode"):
        load_trajectory(study / "episodes" / "task0_ep0")
    index = build_index(tmp_path, cache_dir=tmp_path / "cache")
    assert [s.unreadable for s in index.summaries] == ["toy.json holds no toy episode (no answer)"]


def test_the_not_a_trajectory_message_names_every_format(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(UnreadableError) as before:
        load_trajectory(tmp_path / "empty")
    assert TOY_FILE not in before.value.reason
    with registered(Toy()):
        with pytest.raises(UnreadableError) as during:
            load_trajectory(tmp_path / "empty")
        assert during.value.reason == f"not a trajectory folder; {layouts()}"
        assert layouts().endswith(", or toy.json (the toy harness's episodes)")
        assert "toy.json" in not_a_trajectory(tmp_path / "empty")
    assert [f.name for f in formats()] == BUILT_IN  # the table as it was


def test_ls_lists_its_runs(tmp_path: Path, toy: Toy) -> None:
    _study(tmp_path)
    code, text = run_cli("ls", str(tmp_path), "--no-cache")
    assert code == 0
    assert "study-1  (2 trajectories; Toy harness episode)" in text and "benchmark=toybench" in text


def test_its_own_word_on_a_task_being_over_reaches_the_state_and_watch(tmp_path: Path, toy: Toy) -> None:
    # task_state names no format's files: a task is over when its format's `ended` says so, and
    # `watch` finds the episodes in the sub-folder the format names (`tasks_dir`).
    study = _study(tmp_path)
    running = study / "episodes" / "task9_ep0"
    running.mkdir()
    assert task_progress(study / "episodes" / "task0_ep0").state is TaskState.FINISHED
    assert task_progress(running).state is TaskState.RUNNING
    look = RunWatch(study, events=False).look()
    assert (look.finished, look.running, look.expected) == (2, 1, 3)
    assert [t.task_id for t in look.running_tasks] == ["task9_ep0"]
