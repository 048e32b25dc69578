"""The plan and the recipes of the sample, read from `data/plan.toml` and `data/recipes/*.toml`.

The format is described in README.md next to this file. Read once, at import, into MODELS, SCENARIOS,
PLAN (in file order), RECIPES and what is said per trajectory (NOTES, ERRORS, JUDGE_SCORES, LOG_QUIRKS).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from .sites import LOCAL_TZ, render_url
from .web import Act, Recipe, Req, View, json_req

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Model:
    key: str
    system: str  # system.hash folder
    name: str  # model_prefix folder
    generation: str  # web_surfer.log generation: "fara" (structured OtherEvent) or "solver"
    run_start: datetime  # local time of the first task
    component: str  # token_usage key
    max_rounds: int


@dataclass(frozen=True)
class Scenario:
    status: str | None  # official verdict the trajectory must get (None: aborted, not scored)
    steps: str  # which step list: steps | wrong | missing | left | loop | truncated
    answer: str | None  # right | wrong | wrong_type | wrong_status | None (no answer)
    style: str  # how the answer text is written: plain | fenced | prose | action_results | malformed
    note: str


@dataclass(frozen=True)
class PlanRow:
    task_id: int
    fara: str  # scenario of the fara-7b trajectory
    som: str  # scenario of the gpt-4o-som trajectory ("" in a live run: fara-7b only)
    fara_log: str = "fara"  # "text": this fara-7b folder holds an older text-only log
    exec_hash: str = ""  # the benchmark's run folder


Error = tuple[str, str, tuple[str, ...]]  # core.log [ERROR] message, exception, traceback frames


def _read(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _tuples(value: Any) -> Any:
    """TOML arrays as the tuples views are made of (views are hashable: frames are cache keys)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


# Step keys: the action and which field of `Act` its value fills.
_ACTIONS = {"click": ("click", "target"), "type": ("type", "target"), "memorize": ("memorize", "text")}


class RecipeFile:
    """One file of `data/recipes/`: its named views and step lists, and the tasks that use them."""

    def __init__(self, path: Path) -> None:
        data = _read(path)
        self.path = path
        self.views: dict[str, View] = {}
        for name, d in data["views"].items():  # `base`: an earlier view this one changes
            fields = {k: _tuples(v) for k, v in d.items() if k != "base"}
            self.views[name] = replace(self.view(d["base"]), **fields) if "base" in d else View(**fields)
        self.paths: dict[str, list[Any]] = data.get("paths", {})
        self.tasks: list[dict[str, Any]] = data["task"]

    def view(self, name: str) -> View:
        if name not in self.views:
            raise KeyError(f"{self.path.name}: no view named {name!r}")
        return self.views[name]

    def acts(self, items: list[Any]) -> tuple[Act, ...]:
        """A step list: each item is a step, or the name of a step list under [paths]."""
        out: list[Act] = []
        for item in items:
            if isinstance(item, str) and item not in self.paths:
                raise KeyError(f"{self.path.name}: no step list named {item!r} under [paths]")
            out += self.acts(self.paths[item]) if isinstance(item, str) else [self.act(dict(item))]
        return tuple(out)

    def act(self, d: dict[str, Any]) -> Act:
        fields: dict[str, Any] = {k: d.pop(k) for k in ("why", "nav", "enter", "text") if k in d}
        fields["reqs"] = tuple(request(r) for r in d.pop("reqs", ()))
        if "view" in d:
            fields["view"] = self.view(d.pop("view"))
        if len(d) != 1 or not {*d} <= {*_ACTIONS, "scroll", "visit", "back"}:
            raise ValueError(f"{self.path.name}: not one of click, type, visit, back, scroll, memorize: {d}")
        ((verb, value),) = d.items()
        if verb == "scroll":
            return Act(f"scroll_{value}", **fields)
        if verb in ("visit", "back"):  # the value names the page; a visit types its URL
            view = self.view(value)
            text = render_url(view.url) if verb == "visit" else ""
            return Act("visit_url" if verb == "visit" else "back", view=view, text=text, **fields)
        kind, key = _ACTIONS[verb]
        return Act(kind, **{key: value}, **fields)

    def recipe(self, task: dict[str, Any]) -> Recipe:
        return Recipe(
            task["id"],
            self.view(task["start"]),
            self.acts(task["steps"]),
            task.get("answer"),
            task.get("wrong_answer"),
            {name: self.acts(steps) for name, steps in task.get("variants", {}).items()},
            task.get("finding", ""),
            task.get("wrong_finding", ""),
            tuple(task.get("doubts", ())),
            task.get("task_data", {}),
        )


def request(d: dict[str, Any]) -> Req:
    """A request: `form` (an HTML form post answered by a redirect), `json` (a JSON body), or spelled out."""
    d = dict(d)
    if "form" in d:
        return Req("POST", d["form"], d["body"], status=302, kind="document", redirect=d["redirect"])
    if "response_json" in d:  # JSON text, for a response holding nulls (TOML has none)
        d["response"] = json.loads(d.pop("response_json"))
    if "headers" in d:
        d["headers"] = _tuples(d["headers"])
    if "json" in d:
        body = d.pop("body")
        return json_req(d.pop("json"), d.pop("url"), json.loads(body) if isinstance(body, str) else body, **d)
    return Req(**d)


def judge_score(score: dict[str, Any]) -> dict[str, Any]:
    """A judge's score file; `gpt_response_json` (a table, or JSON text for long nested outputs) is
    written as the compact JSON text of `gpt_response_text`, as the judge dumps it.
    """
    return {
        ("gpt_response_text" if k == "gpt_response_json" else k): (
            json.dumps(json.loads(v) if isinstance(v, str) else v, ensure_ascii=False)
            if k == "gpt_response_json"
            else v
        )
        for k, v in score.items()
    }


_PLAN = _read(DATA / "plan.toml")
MODELS = tuple(Model(**(m | {"run_start": m["run_start"].replace(tzinfo=LOCAL_TZ)})) for m in _PLAN["models"])
USER, EXEC_HASH, RUN_ID = (_PLAN["run"][k] for k in ("user", "exec_hash", "run_id"))
SCENARIOS = {
    name: Scenario(**({"status": None, "answer": None} | s)) for name, s in _PLAN["scenarios"].items()
}
THOUGHTS: dict[str, str] = _PLAN["thoughts"]  # what an agent says of a step its recipe gives no `why` for
OBSERVATIONS: dict[str, str] = _PLAN["observations"]  # what Fara's log says after a step

# Facts of one model's trajectory of a task, in its recipe file as [task.<table>.<model key>].
# `report`: the row of the run's verify_report.jsonl (live runs).
PER_TRAJECTORY = ("notes", "errors", "judge_scores", "log", "report")
LIVE = _PLAN["live"]  # runs of live-web benchmarks (no official evaluator): model, exec_hash, recipes


def _load_tasks() -> tuple[tuple[PlanRow, ...], dict[int, Recipe], dict[str, dict[tuple[str, int], Any]]]:
    plan: list[PlanRow] = []
    recipes: dict[int, Recipe] = {}
    tables: dict[str, dict[tuple[str, int], Any]] = {name: {} for name in PER_TRAJECTORY}
    files = [(site, EXEC_HASH) for site in _PLAN["sites"]]
    files += [(name, run["exec_hash"]) for run in LIVE for name in run["recipes"]]
    for stem, exec_hash in files:
        file = RecipeFile(DATA / "recipes" / f"{stem}.toml")
        for task in file.tasks:
            tid = task["id"]
            plan.append(
                PlanRow(tid, task["fara"], task.get("som", ""), task.get("fara_log", "fara"), exec_hash)
            )
            recipes[tid] = file.recipe(task)
            for name, table in tables.items():
                table.update({(key, tid): value for key, value in task.get(name, {}).items()})
    return tuple(plan), recipes, tables


_ROWS, RECIPES, _TABLES = _load_tasks()
PLAN = tuple(row for row in _ROWS if row.exec_hash == EXEC_HASH)  # the WebArena-Verified tasks


def _live_run(run: dict[str, Any]) -> tuple[Model, tuple[PlanRow, ...]]:
    """A live run: its model, starting when the run did, and its rows."""
    model = next(m for m in MODELS if m.key == run["model"])
    rows = tuple(row for row in _ROWS if row.exec_hash == run["exec_hash"])
    return replace(model, run_start=run["run_start"].replace(tzinfo=LOCAL_TZ)), rows


LIVE_RUNS = tuple(_live_run(run) for run in LIVE)


@dataclass(frozen=True)
class HarnessRow:
    harness: str  # agentlab | cube-harness | online-mind2web | harbor
    task_id: int
    model: str  # the key of the model whose planned trajectory the harness replays
    webjudge: bool | None = None  # Online-Mind2Web's own WebJudge: its verdict of the task
    judged: str = ""  # and the reasoning of its final reply


HARNESS_PLAN = tuple(HarnessRow(**row) for row in _PLAN["harnesses"])
# (model key, task id) -> what goes wrong, when the scenario name does not say it all
NOTES: dict[tuple[str, int], str] = _TABLES["notes"]
# (model key, task id) -> the environment error of an aborted or crashed run
ERRORS: dict[tuple[str, int], Error] = {
    k: (e["message"], e["exception"], tuple(e["traceback"])) for k, e in _TABLES["errors"].items()
}
# (model key, task id) -> score files of other judges
JUDGE_SCORES = {
    k: {n: judge_score(s) for n, s in files.items()} for k, files in _TABLES["judge_scores"].items()
}
LOG_QUIRKS: dict[tuple[str, int], str] = _TABLES["log"]  # "empty" | "blank_line": how web_surfer.log is off
REPORT_ROWS: dict[tuple[str, int], dict[str, Any]] = _TABLES["report"]
