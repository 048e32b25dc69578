"""The text logs of a trajectory: web_surfer.log in its three generations and webeval.core's core.log."""

from __future__ import annotations

import json
import random
from typing import Any

from .plan import ERRORS, OBSERVATIONS
from .sites import MODEL_H, MODEL_W, VIEW_H, VIEW_W, render_url
from .trajectory import Step, Trajectory, core_ts, log_ts


def fara_args(step: Step) -> dict[str, Any]:
    """The Fara computer-use call of a step; coordinates in the model's 1428x896 space."""
    act = step.act
    coord: list[int] | None = None
    if step.box is not None:
        cx, cy = (step.box[0] + step.box[2]) / 2, (step.box[1] + step.box[3]) / 2
        coord = [round(cx * MODEL_W / VIEW_W), round(cy * MODEL_H / VIEW_H)]
    if act.kind == "click":
        return {"action": "left_click", "coordinate": coord}
    if act.kind == "type":
        before = step.before
        existing = dict(before.filled).get(act.target) or dict(before.view.fields).get(act.target, "")
        typed = {"action": "type", "coordinate": coord, "text": act.text}
        return typed | {"press_enter": act.enter, "delete_existing_text": bool(existing)}
    if act.kind in ("scroll_down", "scroll_up"):
        down = act.kind == "scroll_down"
        return {"action": "scroll", "coordinate": [714, 448], "pixels": -600 if down else 600}
    if act.kind == "visit_url":
        return {"action": "visit_url", "url": act.text}
    if act.kind == "back":
        return {"action": "history_back"}
    if act.kind == "memorize":
        return {"action": "pause_and_memorize_fact", "fact": act.text}
    return {"action": "terminate", "status": "success"}


def fara_observation(step: Step, args: dict[str, Any]) -> str:
    act = step.act
    if act.kind == "click":
        x, y = args["coordinate"]
        return f"I clicked at coordinates ({x * VIEW_W / MODEL_W}, {y * VIEW_H / MODEL_H})."
    said = OBSERVATIONS.get(act.kind)
    return step.thought if said is None else said.format(text=act.text)


def solver_call(step: Step) -> tuple[str, dict[str, Any]]:
    """The set-of-marks solver's tool call: elements are named by the id drawn on the screenshot."""
    act = step.act
    if act.kind == "click":
        return "click", {"target_id": str(step.mark)}
    if act.kind == "type":
        return "input_text", {"input_field_id": str(step.mark), "text_value": act.text}
    if act.kind == "visit_url":
        return "visit_url", {"url": act.text}
    if act.kind in ("scroll_down", "scroll_up"):
        return act.kind, {}
    if act.kind == "back":
        return "history_back", {}
    return "stop_and_answer_question", {"answer": step.thought}


def surfer_event(
    us: int, source: str, message: str, url: str, action: str | None = None, arguments: Any = None
) -> str:
    """One WebSurferEvent line of the solver generation."""
    event = {"timestamp": log_ts(us), "type": "WebSurferEvent", "source": source, "message": message}
    return json.dumps(event | {"url": url, "action": action, "arguments": arguments})


def other_event(message: str, us: int) -> str:
    """One OtherEvent line of Fara's generations."""
    return json.dumps({"message": message, "timestamp": log_ts(us), "type": "OtherEvent"})


def web_surfer_log(traj: Trajectory, generation: str) -> list[str]:
    lines: list[str] = []
    for n, step in enumerate(traj.steps, 1):
        url = render_url(step.before.view.url)
        if generation == "solver":
            rng = random.Random(f"tokens:{traj.rel}:{n}")
            name, args = solver_call(step)
            tokens = {"prompt_tokens": rng.randint(5200, 9800), "completion_tokens": rng.randint(40, 190)}
            lines.append(json.dumps({"timestamp": log_ts(step.t - 1_800), **tokens, "type": "LLMCallEvent"}))
            lines.append(surfer_event(step.t, "WebSurfer", f"{name}( {json.dumps(args)} )", url, name, args))
            summary = f"Action {n}: URL={url}, {name}({args!r})"
            after = render_url(step.after.view.url)
            lines.append(surfer_event(step.t + step.dur, "WebSurfer-SummarizedAction", summary, after))
            continue
        args = fara_args(step)
        tool = f"executing tool '{args['action']}' with arguments {json.dumps(args)}"
        lines.append(other_event(f"\nThought #{n}: {step.thought}\nAction #{n}: {tool}", step.t))
        if generation == "fara":
            structured = {**args, "thoughts": step.thought}
            call = f"computer_use( {json.dumps(structured)} )"
            ts = log_ts(step.t + 1_100 + n % 7 * 130)
            event = {"source": "FaraAgent", "message": call, "url": url, "action": "computer_use"}
            lines.append(
                json.dumps({**event, "arguments": structured, "timestamp": ts, "type": "OtherEvent"})
            )
        lines.append(other_event(f"Observation#{n}: {fara_observation(step, args)}", step.t + step.dur))
    if generation == "solver" and traj.answer_text is not None:
        final = render_url(traj.steps[-1].after.view.url)
        done = f"Web surfing done. Final target: {final}"
        lines.append(surfer_event(traj.end_us - 200_000, "WebSurfer", done, final))
    return lines


def traceback_text(error: tuple[str, str, tuple[str, ...]]) -> list[str]:
    message, exc, frames = error
    out = ["Traceback (most recent call last):"]
    out += [f"  {f}" if f.startswith("File") else f for f in frames]
    out.append(f"{exc}: {message}")
    return out


def event_repr(traj: Trajectory, step: Step) -> str:
    url = render_url(step.before.view.url)
    if traj.model.generation == "solver":
        source, (name, args) = "WebSurfer", solver_call(step)
    else:
        source, name, args = "FaraAgent", "computer_use", {**fara_args(step), "thoughts": step.thought}
    message = f"{name}( {json.dumps(args)} )"
    return (
        f"WebSurferEvent(source={source!r}, message={message!r}, url={url!r}, action={name!r}, "
        f"arguments={args!r})"
    )


def core_log(traj: Trajectory, verdict: str | None) -> str:
    """webeval.core's per-task log: execution (with retries on errors), the events, evaluation passes."""
    tid, key = traj.task["task_id"], traj.model.key
    name = f"webeval.core.{tid}"
    out: list[str] = []

    def log(us: int, level: str, message: str) -> None:
        out.append(f"{core_ts(us)} [{level}] {name} - {message}")

    error = ERRORS.get((key, tid))
    run, check = f"[Execution {tid}]", f"[Evaluation {tid}]"
    origin = traj.origin
    if error and traj.scenario_name == "aborted":
        # An earlier attempt failed the same way and was retried (its files were deleted, core.log kept).
        first = traj.start_us - 240_000_000
        log(first, "INFO", f"{run} Start")
        log(first + 850_000, "INFO", "Launching browser (chromium, headless, viewport 1440x900)")
        log(first + 61_000_000, "ERROR", f"{run} Error running task: {error[0]}")
        out.extend(traceback_text(error))
        log(first + 61_200_000, "INFO", f"{run} Trajectory is not complete. Reexecuting...")
    log(traj.start_us - 650_000, "INFO", f"{run} Start")
    log(traj.start_us - 420_000, "INFO", "Launching browser (chromium, headless, viewport 1440x900)")
    log(traj.start_us + 1_900_000, "INFO", f"Browser ready: {render_url(traj.start.view.url)}")
    for step in traj.steps:
        if step.act.kind != "terminate" or traj.model.generation == "solver":
            log(step.t + 900, "INFO", event_repr(traj, step))
    end = traj.end_us
    if error:
        log(end + 300_000, "ERROR", f"{run} Error running task: {error[0]}")
        out.extend(traceback_text(error))
        if traj.scenario_name == "crash_no_answer":
            return "\n".join(out) + "\n"
        log(end + 500_000, "WARNING", f"{run} Giving up after 2 attempts; saving aborted trajectory")
    log(end + 600_000, "INFO", "Closing browser...")
    log(end + 1_400_000, "INFO", f"{run} Completed")
    if verdict is None:  # aborted: not evaluated
        return "\n".join(out) + "\n"
    passes = [end + 2_100_000]
    if traj.number % 4 == 0:  # re-evaluated on a later day, appended to the same file
        passes.append(end + 5 * 86_400_000_000 + 3_723_000_000)
    for i, t in enumerate(passes):
        log(t, "INFO", f"{check} Start")
        log(t + 4_000, "INFO", f"{check} Loading from: {origin}")
        if verdict == "error":
            log(t + 31_000, "ERROR", f"{check} Error: Network trace file not found: {origin}/network.har")
        else:
            score = 1.0 if verdict == "success" else 0.0
            duration = (traj.end_us - traj.start_us) / 1e6
            log(t + 27_000 + i * 5_000, "INFO", f"{check} Completed: score={score}, duration={duration:.2f}")
    return "\n".join(out) + "\n"
