"""cube-harness experiments written as cube-harness's `FileStorage` (V2) writes them:
step files are a pydantic model's JSON dump (`json.loads(step.model_dump_json())`, each model with
its `_type`) packed with msgpack and compressed with zstd (level 3); status.json is EpisodeStatus's
JSON, written as `EpisodeStatus.write` writes it (a `.tmp` sibling, then `os.replace`): RUNNING at
each step's heartbeat, a terminal status once when the episode ends (`finish_episode`).
cube-harness itself does not install here (its models were read from its repository,
github:The-AI-Alliance/cube-harness; none of its code is copied), so the dumps are built as dicts
of the same shape.
"""

from __future__ import annotations

import base64
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import zstandard
from PIL import Image


@dataclass(frozen=True)
class CubeStep:
    """One agent step and the observation it led to."""

    action: str
    arguments: dict[str, Any]
    thoughts: str | None = None
    observation: str = "page text"
    reward: float = 0.0
    done: bool = False
    image: bool = True
    picture: bytes | None = None
    """The PNG of the page the step led to (else one drawn for it)."""
    prompt_image: bytes | None = None
    """A PNG the LLM call's prompt shows the model (a data URL in an image part, as genny sends
    the page to the model): what makes a real act file megabytes."""


def submit(response: dict[str, Any], **step: Any) -> CubeStep:
    """The step that ends a WebArena-Verified task: webarena_verified_cube's `submit_response`
    action with `response`'s fields (task_type, status, retrieved_data, error_details) as its
    arguments; the observation it leads to is the episode's last (done)."""
    return CubeStep("submit_response", dict(response), **{"done": True, **step})


def _pack(data: dict[str, Any]) -> bytes:
    return zstandard.ZstdCompressor(level=3).compress(msgpack.packb(data, use_bin_type=True))


SCREENSHOT_SIZE = (640, 400)
"""The pixels of the screenshots the episodes hold."""


def screenshot(number: int) -> bytes:
    """The PNG of observation `number`: a page of its own colour, a bar where the content is."""
    picture = Image.new("RGB", SCREENSHOT_SIZE, (30 + 40 * number % 200, 120, 200 - 30 * number % 180))
    picture.paste((250, 250, 250), (40, 40, 600, 120))
    buffer = io.BytesIO()
    picture.save(buffer, "PNG")
    return buffer.getvalue()


def _obs(text: str, reward: float, done: bool, image: int | bytes | None) -> dict[str, Any]:
    contents: list[dict[str, Any]] = [{"_type": "cube.core.TextContent", "name": "axtree", "data": text}]
    if image is not None:  # a PIL image dumped to JSON: its PNG as base64 text
        data = base64.b64encode(image if isinstance(image, bytes) else screenshot(image)).decode("ascii")
        contents.append({"_type": "cube.core.ImageContent", "name": "screenshot", "data": data})
    return {
        "_type": "cube_harness.core.TrajectoryStep",
        "output": {
            "_type": "cube.core.EnvironmentOutput",
            "obs": {"_type": "cube.core.Observation", "contents": contents},
            "reward": reward,
            "done": done,
            "truncated": False,
            "info": {},
            "error": None,
        },
        "start_time": 1764580000.0,
        "end_time": 1764580001.0,
    }


def _act(step: CubeStep) -> dict[str, Any]:
    user: dict[str, Any] = {"role": "user", "content": "Go."}
    if step.prompt_image is not None:
        url = "data:image/png;base64," + base64.b64encode(step.prompt_image).decode("ascii")
        user["content"] = [{"type": "text", "text": "Go."}, {"type": "image_url", "image_url": {"url": url}}]
    call = {
        "_type": "cube_harness.llm.LLMCall",
        "id": "c1",
        "tag": "act",
        "prompt": {"messages": [{"role": "system", "content": "You are a web agent."}, user]},
        "output": {"role": "assistant", "content": f"I will {step.action}."},
        "usage": {"prompt_tokens": 900, "completion_tokens": 30},
    }
    return {
        "_type": "cube_harness.core.TrajectoryStep",
        "output": {
            "_type": "cube_harness.core.AgentOutput",
            "actions": [
                {"_type": "cube.core.Action", "id": "a1", "name": step.action, "arguments": step.arguments}
            ],
            "llm_calls": [call],
            "error": None,
            "profiling": {},
            "thoughts": step.thoughts,
        },
        "start_time": 1764580000.5,
        "end_time": 1764580000.9,
    }


def write_experiment_config(
    experiment: Path,
    *,
    agent: str = "GennyConfig",
    model: str = "gpt-4o",
    benchmark: str = "webarena_verified",
) -> Path:
    """The experiment's experiment_config.json as `Experiment.save_config` dumps it (its typed
    models with their `_type`; the fields that name the run)."""
    experiment.mkdir(parents=True, exist_ok=True)
    config = {
        "name": experiment.name,
        "output_dir": f"results/{experiment.name}",
        "agent_config": {
            "_type": f"cube_harness.agents.genny.{agent}",
            "llm_config": {"_type": "cube_harness.llm.LLMConfig", "model_name": model},
        },
        "benchmark": {
            "_type": "cube_webarena_verified.benchmark.WebArenaVerifiedBenchmark",
            "name": benchmark,
        },
        "resume": False,
        "retry_failed": False,
        "max_steps": 30,
    }
    path = experiment / "experiment_config.json"
    path.write_text(json.dumps(config, indent=2))
    return path


def write_episode(
    experiment: Path,
    task_id: str,
    steps: list[CubeStep],
    *,
    episode: int = 0,
    status: str = "COMPLETED",
    reward: float | None = 1.0,
    failure: str | None = None,
    goal: str = "Goal: find the order.",
    agent: str = "genny",
    start: bytes | None = None,
) -> Path:
    """One episode folder of `experiment`, with its status, metadata, steps and summary lines;
    `goal` is the first observation's text (the task as the agent is shown it), `start` the PNG of
    its screenshot (else one drawn for it).
    """
    folder = experiment / "episodes" / f"{task_id}_ep{episode}"
    (folder / "steps").mkdir(parents=True)
    (folder / "episode_config.json").write_text(
        json.dumps({"id": episode, "task_config": {"task_id": task_id}})
    )
    metadata = {
        "id": folder.name,
        "metadata": {"agent_name": agent},
        "start_time": 1764580000.0,
        "end_time": None,
        "reward_info": {},
    }
    (folder / "episode.metadata.json").write_text(json.dumps(metadata))
    number = 0
    (folder / "steps" / f"{number:03d}_obs.msgpack.zst").write_bytes(
        _pack(_obs(goal, 0.0, False, 0 if start is None else start))
    )
    for step in steps:
        number += 1
        (folder / "steps" / f"{number:03d}_act.msgpack.zst").write_bytes(_pack(_act(step)))
        number += 1
        shown = (step.picture or number) if step.image else None
        obs = _obs(step.observation, step.reward, step.done, shown)
        (folder / "steps" / f"{number:03d}_obs.msgpack.zst").write_bytes(_pack(obs))
    lines = [json.dumps({"step": i, "reward": s.reward}) for i, s in enumerate(steps)]
    (folder / "episode_summary.jsonl").write_text("\n".join(lines) + "\n")
    if failure is not None:
        (folder / "failure.txt").write_text(failure)
    write_status(folder, _status(task_id, episode, status, len(steps), reward, failure))
    (experiment / "experiment_summary.json").write_text(json.dumps({"n_episodes": 1, "n_completed": 1}))
    return folder


def _status(
    task_id: str, episode: int, status: str, steps: int, reward: float | None, failure: str | None
) -> dict[str, Any]:
    return {
        "status": status,
        "task_id": task_id,
        "episode_id": episode,
        "started_at": 1764580000.0,
        "ended_at": None if status in ("QUEUED", "RUNNING") else 1764580100.0,
        "last_heartbeat_at": 1764580050.0,
        "current_step": steps,
        "reward": reward,
        "had_step_errors": False,
        "error_type": "ValueError" if failure else None,
        "error_message": "boom" if failure else None,
        "retry_count": 0,
        "extra": {},
    }


def write_status(folder: Path, record: dict[str, Any]) -> None:
    """status.json as `EpisodeStatus.write` writes it: a `.tmp` sibling, then renamed over it."""
    tmp = folder / "status.json.tmp"
    tmp.write_text(json.dumps(record, indent=2))
    os.replace(tmp, folder / "status.json")


def finish_episode(
    folder: Path, status: str = "COMPLETED", reward: float | None = 1.0, failure: str | None = None
) -> None:
    """The end of a running episode as cube-harness's run loop writes it: on a raise, failure.txt
    (`save_failure`), then status.json once more with the terminal status, its reward or error."""
    record = json.loads((folder / "status.json").read_text())
    if failure is not None:
        (folder / "failure.txt").write_text(failure)
    steps = int(record["current_step"])
    write_status(folder, _status(record["task_id"], record["episode_id"], status, steps, reward, failure))
