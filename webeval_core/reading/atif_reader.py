"""ATIF documents (Harbor's Agent Trajectory Interchange Format, RFC 0001) -> `Glance` and `Trajectory`.

A document is `trajectory.json`: in a folder of its own (as `webeval export --format atif` writes
it, screenshots beside it), or in a Harbor trial folder as `agent/trajectory.json`, beside the
trial's `result.json` (its verifier's rewards, its exception). Read tolerantly, as plain JSON (the
RFC's models are Harbor's, Python >= 3.12): `steps[]` by `source` (the first user message is the
task; an agent step's `tool_calls` are our steps, each with its `observation.results` answer, the
step's `reasoning_content` its thought, image parts its screenshot by path; an agent message
without a tool call after the last one is the final answer), `metrics` per step and
`final_metrics` (tokens). Subagent trajectories (v1.7: embedded in `subagent_trajectories`, or
in a file of their own that an observation result's `subagent_trajectory_ref` names by
`trajectory_path`; the ref's `trajectory_id`, or v1.6's `session_id`, matches an embedded one)
are read the same way into `HarnessRecord.subagents`, each beside the step whose call delegated
to it, nested ones up to `SUBAGENT_DEPTH` deep and `SUBAGENTS_READ` in all. `extra.webeval`
(our own export) gives back the task id and the outcome, so our ATIF read back is the trajectory
it was written from. Every field that is not what the RFC says is a warning naming the document
and the step, never an error.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, get_args

from webeval_core.reading.actionlog import Step
from webeval_core.reading.folderfiles import LEADS_OUTSIDE, read_json_file, resolve_inside
from webeval_core.reading.folderreader import FolderReader
from webeval_core.reading.formats.harbor import AGENT_DIR, DOCUMENT, FORMAT, TRIAL_RESULT, is_started_trial
from webeval_core.reading.glance import Glance, glance_with_common_files
from webeval_core.reading.harness_record import (
    HarnessMessage,
    HarnessRecord,
    HarnessStep,
    HarnessSubagent,
    clipped,
    harness_score,
)
from webeval_core.reading.screenshots import discover_screenshots
from webeval_core.reading.taskdata import TaskText
from webeval_core.reading.trajectory_model import Times
from webeval_core.reading.trajectory_reader import Ending, TokenUsage, Trajectory, last_error_line
from webeval_core.support.diagnostics import UnreadableError

__all__ = ["ATIF_DOCUMENT", "HARBOR", "TRIAL_DOCUMENT", "TRIAL_RESULT", "glance_atif", "load_atif"]

HARBOR = FORMAT.name
"""The format's name (`Trajectory.layout`; the judge `harness-harbor-atif`)."""
ATIF_DOCUMENT = DOCUMENT
TRIAL_DOCUMENT = f"{AGENT_DIR}/{DOCUMENT}"
_ENDINGS = get_args(Ending)
SUBAGENT_DEPTH = 3
"""How deep subagents of subagents are read (a document could nest without end)."""
SUBAGENTS_READ = 50
"""Subagent trajectories read at most for one trajectory; beyond, a warning says how many were left."""


class _Document:
    """One ATIF document as read: its steps turned into ours, the task, the answer, the totals."""

    def __init__(self, reader: FolderReader, name: str, doc: dict[str, Any], base: str | None = None) -> None:
        self.reader = reader
        self.name = name
        self.doc = doc
        self.base = name.rpartition("/")[0] if base is None else base  # images: relative to the document
        self.steps: list[Step] = []
        self.details: list[HarnessStep] = []
        self.images: list[str] = []
        self.page: str | None = None
        """The page now, as its last image showed it: the page the next action is taken on. An
        observation's image is the page its call led to; a result without one leaves it unknown."""
        self.task: str | None = None
        self.answer: str | None = None
        self.delegated: list[tuple[dict[str, Any], int]] = []
        """Each subagent_trajectory_ref of a result, with the `Step.index` of the call it answers."""
        self._read_steps()

    def warn(self, message: str) -> None:
        self.reader.warn(self.name, message)

    def _read_steps(self) -> None:
        steps = self.doc.get("steps")
        if not isinstance(steps, list):
            self.warn("has no steps list; no step is shown")
            return
        for number, raw in enumerate(steps, start=1):
            if not isinstance(raw, dict):
                self.warn(f"step {number} is not an object; skipped")
                continue
            self._step(number, raw)

    def _step(self, number: int, raw: dict[str, Any]) -> None:
        source = raw.get("source")
        text, images = self._content(raw.get("message"), number)
        if source not in ("system", "user", "agent"):
            self.warn(f"step {number}: source {source!r} is not system, user or agent; skipped")
            return
        self._saw(images)  # a message's image (the start page a user step gives) precedes its calls
        if source == "user":
            self.task = self.task or (text.strip() or None)
            return
        if source != "agent":
            return
        calls = raw.get("tool_calls")
        if isinstance(calls, list) and calls:
            self.answer = None  # an answer is what the agent says after its last action
            self._actions(number, raw, calls)
        elif text.strip():
            self.answer = text

    def _saw(self, images: list[str], *, led_to: bool = False) -> None:
        """Images met in order; the last is the page now (after a call: unknown without one)."""
        self.images += images
        if images or led_to:
            self.page = images[-1] if images else None

    def _actions(self, number: int, raw: dict[str, Any], calls: list[Any]) -> None:
        results = self._results(raw.get("observation"))
        thought = raw.get("reasoning_content")
        found = raw.get("extra")
        extra: dict[str, Any] = found if isinstance(found, dict) else {}
        when = _moment(raw.get("timestamp"))
        for position, call in enumerate(calls):
            if not isinstance(call, dict) or not isinstance(call.get("function_name"), str):
                self.warn(f"step {number}: a tool call without a function_name; skipped")
                continue
            arguments = call.get("arguments")
            observed, images = results.get(str(call.get("tool_call_id")), ("", []))
            acted_on = self.page
            self._saw(images, led_to=True)
            index = len(self.steps) + 1
            url = extra.get("url")
            self.steps.append(
                Step(
                    index=index,
                    action=call["function_name"],
                    arguments=arguments if isinstance(arguments, dict) else {"value": arguments},
                    thought=thought if position == 0 and isinstance(thought, str) and thought else None,
                    url=url if isinstance(url, str) else None,
                    timestamp=when,
                    time_utc=when,
                    observation=observed or None,
                    screenshot=acted_on,
                )
            )
            self._delegated(raw.get("observation"), str(call.get("tool_call_id")), index)
            metrics = raw.get("metrics")
            self.details.append(
                HarnessStep(
                    index=index,
                    file=self.name,
                    messages=self._said(raw),
                    extra={
                        "atif_step_id": raw.get("step_id"),
                        **(metrics if isinstance(metrics, dict) else {}),
                    },
                )
            )

    def _delegated(self, observation: Any, call_id: str, index: int) -> None:
        """The subagent refs of the result answering call `call_id` (step `index`)."""
        results = observation.get("results") if isinstance(observation, dict) else None
        for result in results if isinstance(results, list) else []:
            refs = result.get("subagent_trajectory_ref") if isinstance(result, dict) else None
            if str(result.get("source_call_id")) == call_id and isinstance(refs, list):
                self.delegated += [(ref, index) for ref in refs if isinstance(ref, dict)]

    def _said(self, raw: dict[str, Any]) -> tuple[HarnessMessage, ...]:
        text, _ = self._content(raw.get("message"), 0)
        return (HarnessMessage(role="agent", text=clipped(text) or ""),) if text.strip() else ()

    def _results(self, observation: Any) -> dict[str, tuple[str, list[str]]]:
        found: dict[str, tuple[str, list[str]]] = {}
        results = observation.get("results") if isinstance(observation, dict) else None
        for result in results if isinstance(results, list) else []:
            if isinstance(result, dict):
                found[str(result.get("source_call_id"))] = self._content(result.get("content"), 0)
        return found

    def _content(self, content: Any, number: int) -> tuple[str, list[str]]:
        """A message or result's text, and the paths of its image parts (relative to the folder)."""
        if content is None:
            return "", []
        if isinstance(content, str):
            return content, []
        if not isinstance(content, list):
            self.warn(f"step {number}: a message that is neither text nor parts; left out")
            return "", []
        texts: list[str] = []
        images: list[str] = []
        for part in content:
            kind = part.get("type") if isinstance(part, dict) else None
            if kind == "text" and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif kind == "image" and isinstance(part.get("source"), dict):
                path = part["source"].get("path")
                if isinstance(path, str) and path:
                    images.append(f"{self.base}/{path}" if self.base else path)
        return "\n".join(texts), images

    def tokens(self) -> TokenUsage:
        final = self.doc.get("final_metrics")
        final = final if isinstance(final, dict) else {}
        prompt, completion = final.get("total_prompt_tokens"), final.get("total_completion_tokens")
        return TokenUsage(
            prompt_tokens=prompt if isinstance(prompt, int) else 0,
            completion_tokens=completion if isinstance(completion, int) else 0,
        )

    def webeval(self) -> dict[str, Any]:
        """`extra.webeval`: what our own export wrote of the trajectory ({} for other writers)."""
        extra = self.doc.get("extra")
        ours = extra.get("webeval") if isinstance(extra, dict) else None
        return ours if isinstance(ours, dict) else {}


class _Subagents:
    """A document's subagent trajectories, read as `HarnessSubagent`s (module docstring)."""

    def __init__(self, reader: FolderReader) -> None:
        self.reader = reader
        self.found: list[HarnessSubagent] = []
        self.left = 0  # how many were not read, beyond SUBAGENTS_READ

    def read(self, parent: _Document, depth: int = 1, prefix: str = "") -> None:
        """The embedded ones first (each beside the step that refers to it), then those in files."""
        embedded = parent.doc.get("subagent_trajectories")
        subs = [s for s in embedded if isinstance(s, dict)] if isinstance(embedded, list) else []
        refs = list(parent.delegated)
        for number, sub in enumerate(subs):
            step = _pop_link(refs, sub)
            place = f"{parent.name}: subagent_trajectories[{number}]"
            self._add(_Document(self.reader, place, sub, parent.base), step, depth, prefix)
        for ref, step in refs:
            found = self._file(parent, ref, step)
            if found is not None:
                self._add(found, step, depth, prefix)

    def _file(self, parent: _Document, ref: dict[str, Any], step: int) -> _Document | None:
        """A subagent in a file of its own (`trajectory_path`, relative to the document's folder)."""
        path = ref.get("trajectory_path")
        if not isinstance(path, str) or not path or "://" in path:
            what = f"a path it cannot open ({path!r})" if path else "no subagent the document holds"
            parent.warn(f"step {step} refers to {what}: {ref.get('trajectory_id') or ref.get('session_id')}")
            return None
        name = f"{parent.base}/{path}" if parent.base else path
        target = resolve_inside(self.reader.folder, name)
        if target is None:
            parent.warn(f"step {step}'s subagent {name} {LEADS_OUTSIDE}")
            return None
        doc, problems = read_json_file(target, name)
        self.reader.extend(problems)
        if not isinstance(doc, dict):
            parent.warn(f"step {step}'s subagent {name} is no ATIF document; not read")
            return None
        return _Document(self.reader, name, doc)

    def _add(self, sub: _Document, step: int | None, depth: int, prefix: str) -> None:
        if len(self.found) >= SUBAGENTS_READ:
            self.left += 1
            return
        name = prefix + _who(sub.doc)
        self.found.append(
            HarnessSubagent(
                name=name,
                source=sub.name,
                parent_step=None if prefix else step,  # a nested one was delegated by a subagent
                task=sub.task,
                steps=tuple(sub.steps),
                answer=sub.answer,
            )
        )
        if depth < SUBAGENT_DEPTH:
            self.read(sub, depth + 1, f"{name} › ")
        elif sub.doc.get("subagent_trajectories"):
            sub.warn(f"subagents nested deeper than {SUBAGENT_DEPTH} are not read")


def _who(doc: dict[str, Any]) -> str:
    """A subagent as the page names it: its agent's name and its trajectory's id."""
    agent = doc.get("agent")
    named = agent.get("name") if isinstance(agent, dict) else None
    who = named if isinstance(named, str) and named else "subagent"
    said = doc.get("trajectory_id") or doc.get("session_id")
    return f"{who} ({said})" if isinstance(said, str) and said else who


def _pop_link(refs: list[tuple[dict[str, Any], int]], sub: dict[str, Any]) -> int | None:
    """The step whose result refers to the embedded `sub` (by trajectory_id; v1.6: session_id), the
    ref taken off `refs`; None when no result refers to it.
    """
    for position, (ref, step) in enumerate(refs):
        key = "trajectory_id" if ref.get("trajectory_id") else "session_id"
        if ref.get(key) and ref.get(key) == sub.get(key):
            del refs[position]
            return step
    return None


def _subagents(reader: FolderReader, document: _Document) -> tuple[HarnessSubagent, ...]:
    found = _Subagents(reader)
    found.read(document)
    if found.left:
        document.warn(f"{found.left} more subagent trajectories than the {SUBAGENTS_READ} read; not shown")
    return tuple(found.found)


def _moment(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when.astimezone(UTC) if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _document_name(reader: FolderReader) -> str:
    return ATIF_DOCUMENT if ATIF_DOCUMENT in reader.names else TRIAL_DOCUMENT


def _read(reader: FolderReader) -> _Document:
    name = _document_name(reader)
    path = resolve_inside(reader.folder, name)
    if path is None:
        raise UnreadableError(reader.folder, f"{name} {LEADS_OUTSIDE}")
    if name == TRIAL_DOCUMENT and is_started_trial(reader.names) and not path.exists():
        return _unwritten(reader)
    doc, problems = read_json_file(path, name)
    reader.extend(problems)
    if not isinstance(doc, dict):
        why = "; ".join(str(p) for p in problems) or f"{name} is not a JSON object"
        raise UnreadableError(reader.folder, f"not an ATIF document ({why})")
    version = doc.get("schema_version")
    if not (isinstance(version, str) and version.startswith("ATIF")):
        raise UnreadableError(reader.folder, f"{name} is not an ATIF document (schema_version {version!r})")
    return _Document(reader, name, doc)


def _unwritten(reader: FolderReader) -> _Document:
    """A started trial whose agent has not written its document (yet): no step. Over (result.json
    written) without one, the agent never wrote it: a warning names the file.
    """
    if TRIAL_RESULT in reader.names:
        reader.warn(TRIAL_DOCUMENT, "was never written: the trial ended without the agent's trajectory")
    return _Document(reader, TRIAL_DOCUMENT, {"steps": []})


def _trial(reader: FolderReader) -> dict[str, Any] | None:
    """A Harbor trial's result.json (None when the folder is no trial or it is not written yet)."""
    return reader.read_object(TRIAL_RESULT) if TRIAL_RESULT in reader.names else None


def _crash(trial: dict[str, Any] | None) -> str | None:
    """Why the trial raised (its result.json's exception_info: type and message); None when it did not."""
    exception = trial.get("exception_info") if trial is not None else None
    if not isinstance(exception, dict):
        return None
    said = [str(exception[k]) for k in ("exception_type", "exception_message") if exception.get(k)]
    return last_error_line(": ".join(said)) if said else "the trial raised"


def _trial_times(trial: dict[str, Any] | None) -> Times | None:
    """When the trial started and finished (its result.json's started_at / finished_at); None
    outside a trial (an ATIF file alone keeps no such times).
    """
    if trial is None:
        return None
    start, end = (_moment(trial.get(key)) for key in ("started_at", "finished_at"))
    return Times(
        start_time=start.timestamp() if start is not None else None,
        end_time=end.timestamp() if end is not None else None,
    )


def _trial_facts(trial: dict[str, Any] | None) -> tuple[float | None, str | None, str | None]:
    """The verifier's reward, the exception's message and its traceback of a trial's result.json."""
    if trial is None:
        return None, None, None
    verifier = trial.get("verifier_result")
    rewards = verifier.get("rewards") if isinstance(verifier, dict) else None
    reward = rewards.get("reward") if isinstance(rewards, dict) else None
    exception = trial.get("exception_info")
    exception = exception if isinstance(exception, dict) else {}
    message = exception.get("exception_message")
    trace = exception.get("exception_traceback")
    return (
        float(reward) if isinstance(reward, int | float) and not isinstance(reward, bool) else None,
        message if isinstance(message, str) else None,
        trace if isinstance(trace, str) else None,
    )


def _facts(reader: FolderReader, document: _Document, trial: dict[str, Any] | None) -> dict[str, Any]:
    ours = document.webeval()
    reward, error, _ = _trial_facts(trial)
    task_id = ours.get("task_id")
    if not isinstance(task_id, str):
        named = trial.get("task_name") if trial is not None else None
        task_id = named if isinstance(named, str) else reader.folder.name.split("__", 1)[0]
    outcome = ours.get("outcome")
    if outcome not in _ENDINGS:
        in_trial = document.name == TRIAL_DOCUMENT
        if in_trial and trial is None:
            outcome = "unfinished"
        elif error:
            outcome = "aborted"
        else:
            outcome = "answered" if document.answer else "no_answer"
    crash = _crash(trial) if outcome == "aborted" else None
    return {"task_id": task_id, "outcome": outcome, "reward": reward, "error": error, "crash": crash}


def glance_atif(reader: FolderReader) -> Glance:
    """The index's glance: the one document read, its steps counted."""
    document = _read(reader)
    trial = _trial(reader)
    facts = _facts(reader, document, trial)
    found = {
        "task_id": facts["task_id"],
        "layout": HARBOR,
        "outcome": facts["outcome"],
        "crash_reason": facts["crash"],
        "final_answer_text": document.answer,
        "steps": len(document.steps),
        "screenshots": len(dict.fromkeys(document.images)),
        "token_usage": document.tokens(),
        "duration_s": times.solver_seconds if (times := _trial_times(trial)) is not None else None,
    }
    glance = glance_with_common_files(reader, found)
    own = harness_score(HARBOR, reader.folder / TRIAL_RESULT, facts["reward"])
    return glance.model_copy(update={"scores": {**glance.scores, **own}, "last_error": facts["error"]})


def _final_page(document: _Document, steps: tuple[Step, ...], usable: set[str]) -> str | None:
    """The page the last action led to, when its image is in the folder and no step acted on it."""
    page = document.page if steps else None
    return page if page in usable and all(s.screenshot != page for s in steps) else None


def load_atif(reader: FolderReader) -> Trajectory:
    """The document in full: steps, screenshots by path, the answer, the trial's reward and error."""
    document = _read(reader)
    trial = _trial(reader)
    facts = _facts(reader, document, trial)
    frames, problems = discover_screenshots(reader.folder, list(dict.fromkeys(document.images)))
    reader.extend(problems)
    usable = {frame.name for frame in frames.frames}
    steps = tuple(
        s if s.screenshot is None or s.screenshot in usable else s.model_copy(update={"screenshot": None})
        for s in document.steps
    )
    _, error, trace = _trial_facts(trial)
    agent = document.doc.get("agent")
    agent = agent if isinstance(agent, dict) else {}
    common = reader.common()
    common["scores"] = {
        **common["scores"],
        **harness_score(HARBOR, reader.folder / TRIAL_RESULT, facts["reward"]),
    }
    if document.task and common.get("task_text") is None:
        common["task_text"] = TaskText(text=document.task, source=f"{document.name}: the first user step")
    record = HarnessRecord(
        harness="Harbor (ATIF)",
        agent=" ".join(str(agent[k]) for k in ("name", "model_name") if isinstance(agent.get(k), str))
        or None,
        reward=facts["reward"],
        reward_meaning="the trial verifier's reward" if facts["reward"] is not None else None,
        error_message=error,
        stack_trace=trace,
        running=facts["outcome"] == "unfinished",
        stats=_stats(document),
        steps=tuple(document.details),
        subagents=_subagents(reader, document),
    )
    return Trajectory(
        path=reader.folder,
        task_id=facts["task_id"],
        layout=HARBOR,
        outcome=facts["outcome"],
        crash_reason=facts["crash"],
        final_answer_text=document.answer,
        steps=steps,
        screenshots=tuple(frame.name for frame in frames.frames),
        final_page=_final_page(document, steps, usable),
        recorded_usage=document.tokens(),  # final_metrics, as the glance reads them
        times=_trial_times(trial),
        harness=record,
        **common,
        warnings=tuple(reader.warnings),
    )


def _stats(document: _Document) -> dict[str, Any]:
    final = document.doc.get("final_metrics")
    stats = (
        {k: v for k, v in final.items() if isinstance(v, int | float | str)}
        if isinstance(final, dict)
        else {}
    )
    subagents = document.doc.get("subagent_trajectories")
    if isinstance(subagents, list) and subagents:
        stats["subagent_trajectories"] = len(subagents)
    for key in ("schema_version", "session_id", "trajectory_id"):
        if isinstance(document.doc.get(key), str):
            stats[key] = document.doc[key]
    return stats
