"""From a plan row to a trajectory: actions, frames, times, answer.

`plan_trajectory` picks the steps a scenario needs and the frames they show, `schedule` gives them
seeded times, and the `*_ts` helpers format those times the way each file writes them.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from .painter import Box, Frame, layout
from .plan import RUN_ID, SCENARIOS, THOUGHTS, USER, Model, PlanRow, Scenario
from .sites import LOCAL_TZ
from .web import Act, Recipe

TERMINATE = Act("terminate")


@dataclass
class Step:
    act: Act
    before: Frame  # the page the action is taken on
    after: Frame  # the page afterwards
    box: Box | None  # where the acted-on element is (PNG pixels)
    mark: int  # set-of-marks id of that element (solver runs)
    t: int = 0  # µs since the epoch: the action's log line
    dur: int = 0  # µs from the action to its observation (the action runs, then a 3 s settle)
    thought: str = ""


@dataclass
class Trajectory:
    model: Model
    row: PlanRow
    scenario_name: str
    task: dict[str, Any]
    steps: list[Step]
    start: Frame
    answer_text: str | None  # final_answer; None when no answer file is written
    response: dict[str, Any] | None  # the structured response (task_type naming) behind answer_text
    is_aborted: bool
    start_us: int = 0
    end_us: int = 0

    @property
    def scenario(self) -> Scenario:
        return SCENARIOS[self.scenario_name]

    @property
    def rel(self) -> str:
        m = self.model
        return f"runs/{m.system}/{m.name}/{USER}/{self.row.exec_hash}/{RUN_ID}/traj/{self.task['task_id']}"

    @property
    def origin(self) -> str:  # the folder on the machine that ran it, as its logs and reports name it
        return f"/home/demo/webeval/runs/{self.rel.removeprefix('runs/')}"

    @property
    def number(self) -> int:  # the task id's number (live-web ids end in one: "alltrails_find_23")
        return int(str(self.task["task_id"]).rsplit("_", 1)[-1])


def expected_of(task: dict[str, Any]) -> dict[str, Any]:
    evaluator = next(e for e in task["eval"] if e["evaluator"] == "AgentResponseEvaluator")
    expected: dict[str, Any] = evaluator["expected"]
    return expected


def acts_for(recipe: Recipe, scenario: Scenario, model: Model) -> list[Act]:
    """The agent's actions for a scenario (terminate not included)."""
    kind = scenario.steps
    if kind in ("wrong", "missing", "left") and kind in recipe.variants:
        acts = list(recipe.variants[kind])
    elif kind == "left":
        raise ValueError(f"task {recipe.task_id}: a 'left' scenario needs its own step list")
    elif kind == "missing":  # stop right before the first action that changes server state
        acts = list(itertools.takewhile(lambda a: all(r.method == "GET" for r in a.reqs), recipe.steps))
    elif kind == "loop":
        acts = looping(recipe, model.max_rounds)
    elif kind == "truncated":
        acts = list(recipe.steps[: max(1, (len(recipe.steps) * 3) // 5)])
    else:
        acts = list(recipe.steps)
    if model.generation == "solver":  # the set-of-marks solver has no memorize tool
        acts = [a for a in acts if a.kind != "memorize"]
    return acts


def looping(recipe: Recipe, rounds: int) -> list[Act]:
    """An agent that never decides: re-reads the same pages until it runs out of rounds."""
    opened = [a for a in recipe.steps if a.kind == "click" and a.view is not None and a.view.kind == "post"]
    listing = next(a.view for a in recipe.steps if a.kind == "back" and a.view is not None)
    doubts = recipe.doubts
    acts = list(recipe.steps)
    i = 0
    while len(acts) < rounds:
        post = opened[i % len(opened)]
        cycle = (
            Act("scroll_down", why=doubts[i % 4]),
            Act("scroll_down", why=doubts[(i + 1) % 4]),
            Act("scroll_up", why=doubts[(i + 2) % 4]),
            Act("scroll_up", why=doubts[(i + 3) % 4]),
            replace(post, why=doubts[3]),
            Act("scroll_down", why=doubts[1]),
            Act("back", view=listing, why=doubts[0]),
        )
        acts.extend(cycle)
        i += 1
    return acts[:rounds]


def build_response(
    recipe: Recipe, task: dict[str, Any], scenario: Scenario, model: Model
) -> dict[str, Any] | None:
    """The structured answer (task_type/retrieved_data naming) the agent means to give."""
    if scenario.answer is None:
        return None
    exp = expected_of(task)
    task_type, status = exp["task_type"], exp["status"]
    data: Any = recipe.answer if task_type == "retrieve" and status == "SUCCESS" else None
    details = None if status == "SUCCESS" else recipe.finding
    if scenario.answer == "wrong":
        data = recipe.wrong_answer
    elif scenario.answer == "wrong_type":
        task_type = {"retrieve": "mutate", "navigate": "retrieve", "mutate": "navigate"}[task_type]
        data = recipe.wrong_answer if task_type == "retrieve" else None
    elif scenario.answer == "wrong_status":
        if status == "SUCCESS":
            status, data, details = "NOT_FOUND_ERROR", None, recipe.wrong_finding or "Not found."
        else:
            status, data, details = "SUCCESS", recipe.wrong_answer, None
    # The two agents spell enum values differently; both are accepted.
    task_type = task_type.upper() if model.key == "fara" else task_type.lower()
    return {"task_type": task_type, "status": status, "retrieved_data": data, "error_details": details}


def answer_text(resp: dict[str, Any], style: str, finding: str) -> str:
    body = json.dumps(resp, ensure_ascii=False)
    if style == "fenced":
        return f"{finding}\n\n```json\n{json.dumps(resp, indent=2, ensure_ascii=False)}\n```"
    if style == "prose":
        return f"{finding} My final response is {body} and the task is complete."
    if style == "action_results":
        published = {"action": resp["task_type"].lower(), "status": resp["status"]}
        published |= {"results": resp["retrieved_data"], "error_details": resp["error_details"]}
        return json.dumps(published, ensure_ascii=False)
    if style == "malformed":
        if resp["task_type"].lower() == "mutate":
            return f"{{task_type: {resp['task_type']}, status: {resp['status']}, retrieved_data: null}}"
        return finding
    return body


def plan_trajectory(model: Model, row: PlanRow, task: dict[str, Any], recipe: Recipe) -> Trajectory:
    name = getattr(row, model.key)
    scenario = SCENARIOS[name]
    response = build_response(recipe, task, scenario, model) if "eval" in task else None
    finding = recipe.wrong_finding if scenario.answer == "wrong" and recipe.wrong_finding else recipe.finding
    text = None if response is None else answer_text(response, scenario.style, finding)
    if scenario.answer == "text":  # a live-web task: the answer is the agent's own sentence
        text = finding
    acts = acts_for(recipe, scenario, model)
    if text is not None:
        acts.append(TERMINATE)
    solver = model.generation == "solver"
    frame = Frame(recipe.start, marks=solver)
    start = frame
    steps: list[Step] = []
    for act in acts:
        targets = layout(frame)
        box, mark = None, -1
        if act.kind in ("click", "type"):
            if act.target not in targets:
                raise KeyError(
                    f"task {task['task_id']}: no '{act.target}' on {frame.view.url} ({sorted(targets)})"
                )
            box = targets[act.target]
            mark = list(targets).index(act.target)
        after = next_frame(frame, act, solver)
        steps.append(Step(act, frame, after, box, mark))
        frame = after
    aborted = name == "aborted"
    return Trajectory(model, row, name, task, steps, start, text, response, aborted)


def next_frame(frame: Frame, act: Act, solver: bool) -> Frame:
    if act.view is not None:
        return Frame(act.view, marks=solver)
    if act.kind == "type" or (act.kind == "click" and act.text):
        filled = dict(frame.filled)
        filled[act.target] = act.text
        return replace(frame, filled=tuple(sorted(filled.items())))
    if act.kind == "scroll_down":
        return replace(frame, scroll=frame.scroll + 1)
    if act.kind == "scroll_up":
        return replace(frame, scroll=max(0, frame.scroll - 1))
    return frame


def think(step: Step, traj: Trajectory) -> str:
    act = step.act
    if act.kind == "terminate":
        return traj.answer_text or ""
    if act.why:
        return act.why
    return THOUGHTS.get(act.kind, "Continuing.").format(target=act.target, text=act.text)


def schedule(traj: Trajectory, start_us: int) -> None:
    """Give every step a time: 3-25 s between actions, each followed by a ~3 s settle and screenshot."""
    rng = random.Random(f"time:{traj.model.key}:{traj.task['task_id']}")
    traj.start_us = start_us
    t = start_us + rng.randint(2_500_000, 5_000_000)  # browser start and first page load
    for step in traj.steps:
        step.t = t
        step.dur = rng.randint(3_300_000, 5_200_000)
        step.thought = think(step, traj)
        t += step.dur + rng.randint(1_800_000, 17_000_000)  # the model thinks about the next action
    last = traj.steps[-1]
    traj.end_us = last.t + last.dur + rng.randint(400_000, 1_500_000)


def local(us: int) -> datetime:
    return (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)).astimezone(LOCAL_TZ)


def log_ts(us: int) -> str:
    """web_surfer.log timestamp: naive local ISO time (Python drops `.000000`)."""
    return local(us).replace(tzinfo=None).isoformat()


def core_ts(us: int) -> str:
    """Logging's %(asctime)s: local time with milliseconds after a comma."""
    dt = local(us)
    return f"{dt:%Y-%m-%d %H:%M:%S},{dt.microsecond // 1000:03d}"


def har_ts(us: int) -> str:
    dt = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)
    return f"{dt:%Y-%m-%dT%H:%M:%S}.{dt.microsecond // 1000:03d}Z"
