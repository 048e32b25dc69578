"""Harbor trial folders written as Harbor writes them: `<job>/<task>__<id>/` whose `agent/`,
`verifier/`, `artifacts/` and `trial.log` Harbor's `Trial` makes first, then its `config.json`
(TrialConfig: the agent's name and model) as it starts (`start_trial`), the agent's ATIF document
at `agent/trajectory.json` (its images beside it) once the agent writes it, and the trial's
`result.json` (TrialResult: task name, verifier rewards, exception_info) once it ends; the job's
`config.json` (JobConfig: job_name, agents, datasets) above them (`write_job_config`).
Harbor's models need Python >= 3.12 and do not install here; the documents are checked against
the RFC's schema instead (`atif_schema`), and the facts come from the RFC (ATIF v1.7: embedded
subagent trajectories under `subagent_trajectories`, referred to from an observation result's
`subagent_trajectory_ref` by `trajectory_id`, or by `trajectory_path` to a file of their own).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image

from tests.harness.atif_schema import atif_problems

SCHEMA = "ATIF-v1.7"
"""The ATIF version the documents declare."""


def agent_step(
    step_id: int,
    call: str,
    arguments: dict[str, Any],
    *,
    observed: str = "done",
    thought: str | None = None,
    image: str | None = None,
    refs: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """An agent step of one tool call and its observation (an image part by path, subagent refs)."""
    content: Any = observed
    if image is not None:
        content = [
            {"type": "text", "text": observed},
            {"type": "image", "source": {"media_type": "image/png", "path": image}},
        ]
    result: dict[str, Any] = {"source_call_id": f"call-{step_id}", "content": content}
    if refs:
        result["subagent_trajectory_ref"] = refs
    step: dict[str, Any] = {
        "step_id": step_id,
        "timestamp": f"2026-11-30T10:00:{step_id:02d}+00:00",
        "source": "agent",
        "message": "",
        "tool_calls": [{"tool_call_id": f"call-{step_id}", "function_name": call, "arguments": arguments}],
        "observation": {"results": [result]},
        "metrics": {"prompt_tokens": 500, "completion_tokens": 20},
    }
    if thought is not None:
        step["reasoning_content"] = thought
    return step


def document(
    steps: list[dict[str, Any]],
    *,
    task: str = "Find the cheapest flight to Oslo.",
    answer: str | None = "The cheapest is 89 EUR.",
    trajectory_id: str = "main",
    agent: str = "browser-agent",
    subagents: list[dict[str, Any]] | None = None,
    start: str | None = None,
) -> dict[str, Any]:
    """An ATIF document: the task as the user's step (with `start`, the page the agent starts on,
    as an image part), `steps`, the answer as the agent's last message."""
    opening: Any = task
    if start is not None:
        opening = [
            {"type": "text", "text": task},
            {"type": "image", "source": {"media_type": "image/png", "path": start}},
        ]
    listed: list[dict[str, Any]] = [
        {"source": "system", "message": "You drive a browser."},
        {"source": "user", "message": opening},
        *steps,
    ]
    if answer is not None:
        listed.append({"source": "agent", "message": answer})
    listed = [{**step, "step_id": number} for number, step in enumerate(listed, start=1)]  # 1, 2, 3...
    doc: dict[str, Any] = {
        "schema_version": SCHEMA,
        "session_id": "session-1",
        "trajectory_id": trajectory_id,
        "agent": {"name": agent, "version": "0.3", "model_name": "gpt-5"},
        "steps": listed,
        "final_metrics": {
            "total_prompt_tokens": 500 * len(steps),
            "total_completion_tokens": 20 * len(steps),
        },
    }
    if subagents:
        doc["subagent_trajectories"] = subagents
    return doc


def write_job_config(
    job: Path, *, agent: str = "browser-agent", model: str = "gpt-5", dataset: str = "webarena-verified"
) -> Path:
    """The job's config.json as Harbor's `Job` writes it (JobConfig's fields that name the run)."""
    job.mkdir(parents=True, exist_ok=True)
    config = {
        "job_name": job.name,
        "jobs_dir": "jobs",
        "n_attempts": 1,
        "agents": [{"name": agent, "import_path": None, "model_name": model, "kwargs": {}}],
        "datasets": [{"name": dataset, "version": "1.0"}],
        "tasks": [],
    }
    (job / "config.json").write_text(json.dumps(config, indent=4))
    return job / "config.json"


def start_trial(folder: Path, *, agent: str = "browser-agent", model: str = "gpt-5") -> Path:
    """A trial Harbor has started and whose agent wrote nothing yet: its folders and trial.log (made
    with the Trial), then config.json (TrialConfig, written as the trial starts running)."""
    for sub in ("agent", "verifier", "artifacts"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "trial.log").write_text("Starting trial\n")
    return write_trial_config(folder, agent=agent, model=model)


def write_trial_config(folder: Path, *, agent: str = "browser-agent", model: str = "gpt-5") -> Path:
    """The trial's config.json (TrialConfig) as Harbor writes it when the trial starts running."""
    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "task": {"path": f"tasks/{folder.name.split('__', 1)[0]}", "source": None},
        "trial_name": folder.name,
        "trials_dir": f"jobs/{folder.parent.name}",
        "agent": {"name": agent, "import_path": None, "model_name": model, "kwargs": {}},
        "job_id": "00000000-0000-0000-0000-000000000001",
    }
    (folder / "config.json").write_text(json.dumps(config, indent=4))
    return folder


def write_trial(
    folder: Path, doc: dict[str, Any], *, images: tuple[str, ...] = (), pictures: tuple[bytes, ...] = ()
) -> Path:
    """A running trial: the agent's document (checked against the RFC's schema) and its images
    (`pictures`: their PNG bytes, in `images`' order; else a flat frame each)."""
    problems = [p for d in (doc, *doc.get("subagent_trajectories", ())) for p in atif_problems(d)]
    assert problems == [], problems  # valid ATIF, as Harbor's models would check it
    agent = folder / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    for name in images:
        (agent / name).parent.mkdir(parents=True, exist_ok=True)
        if pictures:
            (agent / name).write_bytes(pictures[images.index(name)])
        else:
            Image.new("RGB", (64, 40), (40, 90, 160)).save(agent / name)
    (agent / "trajectory.json").write_text(json.dumps(doc, indent=2))
    return folder


def write_subagent_file(folder: Path, name: str, doc: dict[str, Any]) -> None:
    """A subagent's own document beside the trial's, at `agent/<name>` (a `trajectory_path` names it)."""
    problems = atif_problems(doc)
    assert problems == [], problems
    (folder / "agent" / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / "agent" / name).write_text(json.dumps(doc, indent=2))


def finish_trial(
    folder: Path, *, reward: float | None = 1.0, exception: tuple[str, str] | None = None
) -> None:
    """The trial's end: result.json, with the verifier's reward or the exception it raised."""
    result: dict[str, Any] = {
        "task_name": folder.name.split("__", 1)[0],
        "trial_name": folder.name,
        "started_at": "2026-11-30T10:00:00Z",
        "finished_at": "2026-11-30T10:05:00Z",
        "verifier_result": {"rewards": {"reward": reward}} if reward is not None else None,
        "exception_info": None,
    }
    if exception is not None:
        kind, message = exception
        result["exception_info"] = {
            "exception_type": kind,
            "exception_message": message,
            "exception_traceback": f"Traceback (most recent call last):\n  ...\n{kind}: {message}",
            "occurred_at": "2026-11-30T10:04:00Z",
        }
    (folder / "result.json").write_text(json.dumps(result, indent=4))


def delegating_trial(folder: Path) -> Path:
    """A Harbor trial whose agent delegated twice: to an embedded subagent (v1.7, by trajectory_id;
    it delegated once more, nested) and to one written in a file of its own (`trajectory_path`)."""
    nested = document(
        [agent_step(3, "read_page", {"url": "https://flights.example/oslo"}, observed="89 EUR")],
        task="Read the fare.",
        answer="89 EUR",
        trajectory_id="reader-1",
        agent="reader",
    )
    searcher = document(
        [
            agent_step(3, "search", {"query": "Oslo flights"}, thought="I search.", observed="3 results"),
            agent_step(
                4, "delegate", {"to": "reader"}, observed="89 EUR", refs=[{"trajectory_id": "reader-1"}]
            ),
        ],
        task="Search flights to Oslo.",
        answer="The cheapest is 89 EUR.",
        trajectory_id="searcher-1",
        agent="searcher",
        subagents=[nested],
    )
    checker = document(
        [agent_step(3, "open", {"url": "https://hotels.example"}, observed="hotel list")],
        task="Check the hotels.",
        answer="None under 100 EUR.",
        trajectory_id="checker-1",
        agent="checker",
    )
    main = document(
        [
            agent_step(
                3,
                "delegate",
                {"task": "Search flights to Oslo."},
                observed="The cheapest is 89 EUR.",
                refs=[{"trajectory_id": "searcher-1", "session_id": "session-2"}],
            ),
            agent_step(
                4,
                "delegate",
                {"task": "Check the hotels."},
                observed="None under 100 EUR.",
                refs=[{"trajectory_id": "checker-1", "trajectory_path": "subagents/checker-1.json"}],
            ),
        ],
        subagents=[searcher],
    )
    write_trial(folder, main)
    write_subagent_file(folder, "subagents/checker-1.json", checker)
    finish_trial(folder, reward=1.0)
    return folder
