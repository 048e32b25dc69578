"""`via-other-harnesses/`: a few of the sample's WebArena-Verified trajectories as other harnesses write them.

The same agents' steps, thoughts, screenshots and answers (the planned trajectories of the Fara
runs: `HARNESS_PLAN` in data/plan.toml names which model's trajectory each harness replays on
which task), written by the tests' writers of each format (tests/harness: AgentLab's study folder,
cube-harness's experiment, Online-Mind2Web's result folders, a Harbor job of ATIF trials), so the
app's default root shows every harness, and Compare lines them up task by task with the Fara runs.
The official evaluator scores them as it scores the rest (their answers; none kept a network
trace, so the tasks are retrieve tasks without network checks).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .canvas import Frame
from .plan import HARNESS_PLAN, HarnessRow
from .trajectory import Step, Trajectory

ROOT_DIR = "via-other-harnesses"
"""The sample's folder of the other harnesses' runs: named to sort after `runs/`, so the Fara runs
stay the first in every list and the pages' defaults (the first run, the first two compared)."""
AGENTLAB_STUDY = "agentlab/2026-11-30_09-00-00_genericagent-gpt-4o_on_webarena_verified"
CUBE_EXPERIMENT = "cube-harness/webarena_verified_genny_2026-11-30"
MIND2WEB_RESULTS = "online-mind2web/seeact-gpt-4o"
HARBOR_JOB = "harbor/2026-11-30__09-00-00"
_KINDS = ("visit_url", "click", "type", "scroll_down", "scroll_up", "key", "back")  # what a harness replays
_SCROLL = {"scroll_down": 300, "scroll_up": -300}


def _acted(traj: Trajectory) -> list[Step]:
    return [s for s in traj.steps if s.act.kind in _KINDS]


def _center(step: Step) -> list[int]:
    x0, y0, x1, y1 = step.box or (0, 0, 1440, 900)
    return [(x0 + x1) // 2, (y0 + y1) // 2]


def _browsergym(step: Step) -> str:
    """BrowserGym's action text (its high-level action set, bids as element ids)."""
    act, bid = step.act, str(step.mark)
    said = {
        "visit_url": f"goto({act.text!r})",
        "click": f"click({bid!r})",
        "type": f"fill({bid!r}, {act.text!r})",
        "key": f"keyboard_press({act.text or 'Enter'!r})",
        "back": "go_back()",
    }
    return said.get(act.kind) or f"scroll(0, {_SCROLL[act.kind]})"


def _cube_action(step: Step) -> tuple[str, dict[str, Any]]:
    act, bid = step.act, str(step.mark)
    calls: dict[str, tuple[str, dict[str, Any]]] = {
        "visit_url": ("goto", {"url": act.text}),
        "click": ("click", {"bid": bid}),
        "type": ("fill", {"bid": bid, "value": act.text}),
        "key": ("keyboard_press", {"key": act.text or "Enter"}),
        "back": ("go_back", {}),
    }
    return calls.get(act.kind) or ("scroll", {"delta_x": 0, "delta_y": _SCROLL[act.kind]})


def _mind2web_action(step: Step) -> str:
    """Online-Mind2Web's action text ("CLICK: <element>", "TYPE: <element> -> <text>")."""
    act = step.act
    said = {
        "visit_url": f"GOTO: {act.text}",
        "click": f"CLICK: {act.target}",
        "type": f"TYPE: {act.target} -> {act.text}",
        "key": f"PRESS: {act.text or 'Enter'}",
        "back": "GO_BACK",
    }
    return said.get(act.kind) or f"SCROLL: {act.kind.removeprefix('scroll_')}"


def _atif_call(step: Step) -> tuple[str, dict[str, Any]]:
    act = step.act
    calls: dict[str, tuple[str, dict[str, Any]]] = {
        "visit_url": ("navigate", {"url": act.text}),
        "click": ("left_click", {"coordinate": _center(step)}),
        "type": ("type", {"coordinate": _center(step), "text": act.text}),
        "key": ("key", {"text": act.text or "Enter"}),
        "back": ("navigate_back", {}),
    }
    return calls.get(act.kind) or ("scroll", {"direction": act.kind.removeprefix("scroll_"), "amount": 3})


class _Source:
    """One planned trajectory as a harness replays it: its acted steps, frames and answer."""

    def __init__(self, traj: Trajectory, pngs: Mapping[Frame, bytes], url: Callable[[str], str]) -> None:
        self.traj = traj
        self.steps = _acted(traj)
        self.pngs = pngs
        self.url = url
        self.answer = traj.answer_text or ""
        self.task_id = str(traj.task["task_id"])
        self.intent = str(traj.task["intent"])

    def before(self, step: Step) -> bytes:
        return self.pngs[step.before]

    def last(self) -> bytes:
        return self.pngs[self.steps[-1].after if self.steps else self.traj.start]

    def page(self, frame: Frame) -> str:
        return self.url(frame.view.url)


def _agentlab(study: Path, source: _Source, reward: float) -> Path:
    import numpy as np
    from PIL import Image

    from tests.harness.agentlab_writer import VERIFIED_TASK, PlannedStep, write_episode

    def array(png: bytes) -> Any:
        with Image.open(io.BytesIO(png)) as image:
            return np.asarray(image.convert("RGB"))

    planned = [
        PlannedStep(
            _browsergym(s),
            think=s.thought,
            url=source.page(s.before),
            screenshot=array(source.before(s)),
            axtree=f"RootWebArea '{s.before.view.title}'\n\t[{s.mark}] {s.act.target or 'page'}",
        )
        for s in source.steps
    ]
    planned.append(
        PlannedStep(
            f"send_msg_to_user({source.answer!r})",
            think="I report the answer.",
            url=source.page(source.steps[-1].after),
            screenshot=array(source.last()),
        )
    )
    planned.append(PlannedStep(None, reward=reward, screenshot=array(source.last())))
    template = source.traj.task["intent_template_id"]
    name = VERIFIED_TASK.format(template=template, task=source.task_id)
    return write_episode(study, name, planned, seed=0, screenshot_size=None, goal=source.intent)


def _cube(experiment: Path, source: _Source, reward: float) -> Path:
    from tests.harness.cube_writer import CubeStep, submit, write_episode, write_experiment_config

    steps = [
        CubeStep(*_cube_action(s), thoughts=s.thought, observation=f"RootWebArea '{s.after.view.title}'",
                 picture=source.pngs[s.after])
        for s in source.steps
    ]  # fmt: skip
    # webarena_verified_cube's agent answers by its submit_response tool, the response's fields as arguments.
    answer = submit(json.loads(source.answer), thoughts="I submit the answer.", reward=reward,
                    picture=source.last())  # fmt: skip
    start = source.pngs[source.traj.start]
    write_experiment_config(experiment)  # the run's agent, model and benchmark, as cube-harness saves them
    return write_episode(experiment, f"webarena_verified.{source.task_id}", [*steps, answer], reward=reward,
                         goal=f"Goal: {source.intent}", start=start)  # fmt: skip


def _mind2web(results: Path, source: _Source) -> Path:
    from tests.harness.mind2web_writer import write_result

    actions = [*(_mind2web_action(s) for s in source.steps), "ANSWER"]
    thoughts = [*(s.thought for s in source.steps), "I found what the task asks for."]
    shots = [*(source.before(s) for s in source.steps), source.last()]
    website = source.page(source.traj.start)
    return write_result(results, source.task_id, actions, source.answer, task=source.intent,
                        thoughts=thoughts, screenshots=shots, website=website)  # fmt: skip


def _harbor(job: Path, source: _Source, reward: float) -> Path:
    from tests.harness.harbor_writer import (
        agent_step,
        document,
        finish_trial,
        write_job_config,
        write_trial,
        write_trial_config,
    )

    images = tuple(f"images/step_{n}.png" for n in range(1, len(source.steps) + 1))
    steps = [
        agent_step(n, *_atif_call(s), observed=s.after.view.title, thought=s.thought or None, image=image)
        for n, (s, image) in enumerate(zip(source.steps, images, strict=True), start=1)
    ]
    # The user's step shows the page the agent starts on; each observation, the page its call led to.
    start = "images/start.png"
    doc = document(steps, task=source.intent, answer=source.answer, trajectory_id=source.task_id, start=start)
    folder = job / f"{source.task_id}__{source.traj.model.key}{source.task_id}"
    write_job_config(job)  # the job's agents and dataset, as Harbor's Job writes them
    write_trial_config(folder)
    pictures = (source.pngs[source.traj.start], *(source.pngs[s.after] for s in source.steps))
    write_trial(folder, doc, images=(start, *images), pictures=pictures)
    finish_trial(folder, reward=reward)
    return folder


def _webjudge(results: Path, rows: Sequence[HarnessRow], sources: Mapping[int, _Source]) -> Path:
    """Online-Mind2Web's evaluation output of the results folder, beside it as `<results>_result/`."""
    from tests.harness.mind2web_writer import Judged, write_autoeval

    judged = []
    for row in rows:
        source = sources[row.task_id]
        count = len(source.steps) + 1  # a screenshot per action and the answer's
        scores = tuple(
            2 + (n >= count - 3) + (n >= count - 1) * 2 for n in range(count)
        )  # the last ones matter
        points = f"1. Work on the {source.traj.task['sites'][0]} site.\n2. {source.intent.split('. ')[0]}."
        judged.append(Judged(source.task_id, bool(row.webjudge), points, scores, row.judged))
    return write_autoeval(results, results.parent / f"{results.name}_result", judged)


def write_harness_runs(
    out: Path,
    trajectories: Sequence[Trajectory],
    pngs: Mapping[Frame, bytes],
    statuses: Mapping[str, str | None],
    url: Callable[[str], str],
) -> dict[str, dict[str, Any]]:
    """Every run of `HARNESS_PLAN` under `out/via-other-harnesses/`; intended_verdicts.json's entries of them
    (`statuses`: each planned trajectory's official verdict of its raw answer, by its folder).
    """
    by_key = {(t.model.key, t.row.task_id): t for t in trajectories}
    entries: dict[str, dict[str, Any]] = {}
    judged: dict[int, _Source] = {}
    for row in HARNESS_PLAN:
        source = _Source(by_key[row.model, row.task_id], pngs, url)
        if row.webjudge is not None:
            judged[row.task_id] = source
        status = statuses[source.traj.rel]
        folder = _write(out / ROOT_DIR, row, source, 1.0 if status == "success" else 0.0)
        entries[folder.relative_to(out).as_posix()] = {
            "task_id": row.task_id,
            "model": source.traj.model.name,
            "scenario": source.traj.scenario_name,
            "harness": row.harness,
            "expected_status": status,
            "raw_text_status": status,
            "note": f"{source.traj.model.name}'s trajectory written as {row.harness} writes it.",
        }
    webjudged = [row for row in HARNESS_PLAN if row.webjudge is not None]
    _webjudge(out / ROOT_DIR / MIND2WEB_RESULTS, webjudged, judged)
    return entries


def _write(root: Path, row: HarnessRow, source: _Source, reward: float) -> Path:
    if row.harness == "agentlab":
        return _agentlab(root / AGENTLAB_STUDY, source, reward)
    if row.harness == "cube-harness":
        return _cube(root / CUBE_EXPERIMENT, source, reward)
    if row.harness == "online-mind2web":
        return _mind2web(root / MIND2WEB_RESULTS, source)
    return _harbor(root / HARBOR_JOB, source, reward)
