"""AgentLab study folders written the way AgentLab writes them (`agentlab.experiments.loop`:
`ExpArgs.prepare` / `StepInfo.save_step_info` / `ExpArgs.save_summary_info`), for tests and
benchmarks. AgentLab itself does not install here; its writer's facts were read from its
repository (github:ServiceNow/AgentLab), none of its code is copied.

The pickled classes are test-only stand-ins for an agent's own classes, pickled under the module
name `private_lab_agent`, which exists only while a pickle is written: reading one back with
`pickle.load` fails (the module cannot be imported), as AgentXRay fails on custom agent classes;
the inspector's reader needs no class.
"""

from __future__ import annotations

import gzip
import json
import pickle
import sys
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

PRIVATE_MODULE = "private_lab_agent"
"""The module name the pickled classes claim: importable by nobody once written."""
VERIFIED_TASK = "webarena_verified.{template}.{task}.2"
"""BrowserGym's name of a WebArena-Verified task (`browsergym.webarena_verified`)."""


@dataclass
class StepTimestamps:
    """AgentLab's profiling of a step (a few of its fields)."""

    env_start: float = 0.0
    env_stop: float = 0.0
    agent_start: float = 0.0
    agent_stop: float = 0.0


@dataclass
class AgentInfo:
    """BrowserGym's AgentInfo: the agent's thought, chat with its model, stats."""

    think: str | None = None
    chat_messages: Any = None
    stats: dict[str, Any] = field(default_factory=dict)
    markdown_page: str = ""
    html_page: str = ""
    extra_info: dict[str, Any] | None = None


class BaseMessage(dict):  # type: ignore[type-arg]
    """AgentLab's message: a dict subclass of role and content."""

    def __init__(self, role: str, content: Any) -> None:
        super().__init__()
        self["role"] = role
        self["content"] = content


class Discussion:
    """AgentLab's list of messages sent to the model."""

    def __init__(self, messages: list[BaseMessage]) -> None:
        self.messages = messages


@dataclass
class StepInfo:
    """AgentLab's StepInfo, the object each `step_N.pkl.gz` holds."""

    step: int | None = None
    obs: dict[str, Any] | None = None
    reward: float = 0
    raw_reward: float = 0
    terminated: bool | None = None
    truncated: bool | None = None
    action: str | None = None
    agent_info: Any = field(default_factory=dict)
    stats: dict[str, Any] | None = None
    profiling: StepTimestamps = field(default_factory=StepTimestamps)
    task_info: dict[str, Any] | None = None


_CLASSES = (StepTimestamps, AgentInfo, BaseMessage, Discussion, StepInfo)


@contextmanager
def _private_module() -> Iterator[None]:
    """The classes under `private_lab_agent` while pickling (pickle looks its classes up by name)."""
    module = types.ModuleType(PRIVATE_MODULE)
    originals = {cls: cls.__module__ for cls in _CLASSES}
    for cls in _CLASSES:
        cls.__module__ = PRIVATE_MODULE
        setattr(module, cls.__name__, cls)
    sys.modules[PRIVATE_MODULE] = module
    try:
        yield
    finally:
        del sys.modules[PRIVATE_MODULE]
        for cls, name in originals.items():
            cls.__module__ = name


@dataclass(frozen=True)
class PlannedStep:
    """One step of an episode to write: the action taken on it and what the agent said."""

    action: str | None
    think: str | None = None
    url: str = "http://localhost:7780/admin"
    reward: float = 0.0
    error: str = ""
    axtree: str = "RootWebArea 'Dashboard'\n\t[a51] link 'Sales'"
    screenshot: Any = None
    """The page as an RGB array (height, width, 3), as BrowserGym's observation holds it; None: a
    flat grey frame."""


def episode_name(
    task_name: str, seed: int, agent: str = "GenericAgent-gpt-4o", when: str = "2026-11-30_10-20-52"
) -> str:
    """The folder name `ExpArgs._make_dir` gives an episode."""
    return f"{when}_{agent}_on_{task_name}_{seed}"


def write_episode(
    study: Path,
    task_name: str,
    steps: Sequence[PlannedStep],
    *,
    seed: int = 64,
    finished: bool = True,
    err_msg: str | None = None,
    truncated: bool = False,
    som: bool = False,
    screenshot_size: tuple[int, int] | None = (64, 40),
    goal: str | None = None,
    agent: str = "GenericAgent-gpt-4o",
) -> Path:
    """An episode folder as AgentLab leaves it: steps 0..n (the last without an action unless the
    episode is cut), screenshots, experiment.log, summary_info.json when `finished`. Byte for byte
    the same on every call (gzip without a time): `sample_runs/` is made with it. `goal`: the task's
    text (else one named after the task); `screenshot_size` None keeps each screenshot's own size.
    """
    folder = study / episode_name(task_name, seed, agent)
    folder.mkdir(parents=True)
    (folder / "exp_args.pkl").write_bytes(pickle.dumps({"task_name": task_name, "task_seed": seed}))
    (folder / "experiment.log").write_text(
        "2026-11-30 10:20:52,001 - 4242 - agentlab.experiments.loop - INFO - "
        f"Running experiment on {task_name}\n"
    )
    infos = []
    for number, planned in enumerate(steps):
        info = _step_info(number, planned, goal or f"Goal of {task_name}", len(steps), truncated)
        _save_step(folder, info, screenshot_size, som)
        infos.append(info)
    if finished:
        _save_summary(folder, infos, err_msg)
    return folder


def finish_episode(
    folder: Path,
    task_name: str,
    steps: Sequence[PlannedStep],
    *,
    err_msg: str | None = None,
    truncated: bool = False,
    goal: str | None = None,
) -> None:
    """The end of an episode `write_episode(..., finished=False)` left running: summary_info.json,
    as AgentLab's run loop writes it in its `finally` (the steps' stats, terminated / truncated,
    or the error the agent or environment raised)."""
    goal = goal or f"Goal of {task_name}"
    infos = [_step_info(n, planned, goal, len(steps), truncated) for n, planned in enumerate(steps)]
    _save_summary(folder, infos, err_msg)


def _step_info(number: int, planned: PlannedStep, goal: str, count: int, truncated: bool) -> StepInfo:
    last = number == count - 1
    messages = Discussion(
        [
            BaseMessage("system", "You are an agent trying to solve a web task."),
            BaseMessage(
                "user",
                [
                    {"type": "text", "text": f"# Goal\n{goal}"},
                    {"type": "image_url", "image_url": "data:"},
                ],
            ),
            BaseMessage("assistant", f"<think>{planned.think}</think><action>{planned.action}</action>"),
        ]
    )
    obs = {
        "chat_messages": ({"role": "user", "timestamp": 0.0, "message": goal},),
        "goal": goal,
        "goal_object": None,
        "url": planned.url,
        "open_pages_urls": (planned.url,),
        "active_page_index": np.asarray([0]),
        "axtree_txt": planned.axtree,
        "last_action_error": planned.error,
        "elapsed_time": np.asarray([1.5 * number]),
        "screenshot": np.full((40, 64, 3), 30 * number % 255, dtype=np.uint8)
        if planned.screenshot is None
        else planned.screenshot,
    }
    return StepInfo(
        step=number,
        obs=obs,
        reward=planned.reward,
        raw_reward=planned.reward,
        terminated=last and not truncated,
        truncated=last and truncated,
        action=planned.action,
        agent_info=AgentInfo(
            think=planned.think, chat_messages=messages, stats={"input_tokens": 1000, "output_tokens": 50}
        ),
        stats={"step_elapsed": 1.25, "agent_elapsed": 2.5, "input_tokens": 1000, "output_tokens": 50},
        profiling=StepTimestamps(env_start=1.0, env_stop=2.25, agent_start=2.25, agent_stop=4.75),
    )


def _save_step(folder: Path, info: StepInfo, size: tuple[int, int] | None, som: bool) -> None:
    assert info.obs is not None
    screenshot = info.obs.pop("screenshot")
    image = Image.fromarray(screenshot)
    image = image if size is None else image.resize(size)
    image.save(folder / f"screenshot_step_{info.step}.png")
    if som:
        image.save(folder / f"screenshot_som_step_{info.step}.png")
    # gzip as AgentLab's `gzip.open` writes it, but with no file time in the header: the same bytes
    # every time (AgentLab's own carry the moment they were written).
    with (
        _private_module(),
        (folder / f"step_{info.step}.pkl.gz").open("wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out,
    ):
        pickle.dump(info, out)
    info.obs["screenshot"] = screenshot


def _save_summary(folder: Path, infos: list[StepInfo], err_msg: str | None) -> None:
    stats: dict[str, list[float]] = {}
    for info in infos:
        for key, value in (info.stats or {}).items():
            stats.setdefault(key, []).append(value)
    summary: dict[str, Any] = {
        "n_steps": len(infos) - 1,
        "cum_reward": sum(info.reward for info in infos),
        "cum_raw_reward": sum(info.raw_reward for info in infos if info.raw_reward),
        "err_msg": err_msg,
        "stack_trace": "Traceback (most recent call last):\n  ...\nValueError: boom" if err_msg else None,
        "stats.cum_steps": len(infos),
    }
    for key, values in stats.items():
        summary[f"stats.cum_{key}"] = sum(values)
        summary[f"stats.max_{key}"] = max(values)
    summary["terminated"] = infos[-1].terminated if infos else None
    summary["truncated"] = infos[-1].truncated if infos else None
    (folder / "summary_info.json").write_text(json.dumps(summary, indent=4))


def verified_steps(
    answer: str = '{"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": ["42"]}',
) -> list[PlannedStep]:
    """A WebArena-Verified episode: two actions, an answer, and the final observation."""
    return [
        PlannedStep("click('a51')", think="I open the sales report."),
        PlannedStep("fill('b12', 'January')", think="I type the month."),
        PlannedStep(f"send_msg_to_user({answer!r})", think="I report the answer."),
        PlannedStep(None, reward=1.0),
    ]
