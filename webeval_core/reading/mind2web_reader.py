"""Online-Mind2Web result folders -> `Glance` and `Trajectory`: what WebJudge reads, as it read it.

`<results>/<task_id>/result.json` with the `trajectory/` folder of screenshots beside it
(Online-Mind2Web's `src/run.py` reads both generations):
- the second, `schema_version: "online-mind2web-v2"`: `task`, `action_history[]` of {action,
  thought, screenshot (a file of trajectory/)}, `agent_final_answer`; WebJudge leaves the last
  action out (the agent's output, not a fact of the page);
- the first: `task`, `action_history` and `thoughts` as lists of strings, `final_result_response`;
  its screenshots are trajectory/'s files in the order of the first number in their names.
An answer that is not a string is kept as its JSON text with a warning: WebJudge's known pitfall
(a list where a string was expected scored 0%). A task being run (no result.json yet, its
screenshots in trajectory/) is unfinished: a step per screenshot so far, no answer, no task text.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from webeval_core.reading.actionlog import Step
from webeval_core.reading.folderreader import FolderReader
from webeval_core.reading.formats.mind2web import FORMAT, IMAGE_SUFFIXES, RESULT, SCREENSHOTS_DIR, V2
from webeval_core.reading.glance import Glance, glance_with_common_files
from webeval_core.reading.harness_record import HarnessRecord
from webeval_core.reading.mind2web_judges import autoeval_scores
from webeval_core.reading.screenshots import discover_screenshots, unfetched_names
from webeval_core.reading.taskdata import TaskText
from webeval_core.reading.trajectory_reader import Ending, Trajectory
from webeval_core.support.diagnostics import UnreadableError

__all__ = ["MIND2WEB", "glance_mind2web", "load_mind2web"]

MIND2WEB = FORMAT.name
"""The format's name (`Trajectory.layout`)."""
_NUMBER = re.compile(r"\d+")
_RUNNING = (
    f"The task is being run: {RESULT} (its actions, thoughts and answer) is written once it is done;"
    f" until then each screenshot of {SCREENSHOTS_DIR}/ is shown as a step."
)
_LAST_LEFT_OUT = (
    "WebJudge leaves the last action out of the action history it judges (the agent's output,"
    " not a fact of the page); it is shown here as the last step."
)


class _Result:
    """result.json as read: the steps, the answer and the task, in either generation."""

    def __init__(self, reader: FolderReader, doc: dict[str, Any]) -> None:
        self.reader = reader
        self.doc = doc
        self.v2 = doc.get("schema_version") == V2
        self.frames = _listed_frames(reader)
        self.steps: list[Step] = []
        self._read_v2() if self.v2 else self._read_v1()
        self.answer = self._answer()

    def _read_v2(self) -> None:
        history = self.doc.get("action_history")
        for number, entry in enumerate(history if isinstance(history, list) else [], start=1):
            if not isinstance(entry, dict) or not isinstance(entry.get("action"), str):
                self.reader.warn(RESULT, f"action_history[{number - 1}] has no action text; skipped")
                continue
            shot = entry.get("screenshot")
            shot_name = f"{SCREENSHOTS_DIR}/{shot}" if isinstance(shot, str) and shot else None
            self._add(entry["action"], entry.get("thought"), shot_name)

    def _read_v1(self) -> None:
        history = self.doc.get("action_history")
        thoughts = self.doc.get("thoughts")
        thoughts = thoughts if isinstance(thoughts, list) else []
        for number, action in enumerate(history if isinstance(history, list) else []):
            if not isinstance(action, str):
                self.reader.warn(RESULT, f"action_history[{number}] is not text; skipped")
                continue
            thought = thoughts[number] if number < len(thoughts) else None
            shot = self.frames[number] if number < len(self.frames) else None
            self._add(action, thought, shot)

    def _add(self, action: str, thought: Any, screenshot: str | None) -> None:
        self.steps.append(
            Step(
                index=len(self.steps) + 1,
                action=action.split(maxsplit=1)[0].strip(":") if action.strip() else "action",
                arguments={"action": action},
                thought=thought.strip() or None if isinstance(thought, str) else None,
                screenshot=screenshot,
            )
        )

    def _answer(self) -> str | None:
        key = "agent_final_answer" if self.v2 else "final_result_response"
        value = self.doc.get(key)
        if value is None or isinstance(value, str):
            return value.strip() or None if isinstance(value, str) else None
        self.reader.warn(
            RESULT,
            f"{key} is a {type(value).__name__}, not a string: WebJudge scores such an answer 0"
            " (kept as its JSON)",
        )
        return json.dumps(value, ensure_ascii=False)

    def task(self) -> str | None:
        task = self.doc.get("task") or self.doc.get("confirmed_task")
        return task.strip() or None if isinstance(task, str) else None

    def task_id(self) -> str:
        task_id = self.doc.get("task_id")
        return task_id if isinstance(task_id, str) and task_id else self.reader.folder.name


class _Running(_Result):
    """A task being run: result.json not written yet; a step per screenshot of trajectory/ so far."""

    def __init__(self, reader: FolderReader) -> None:
        self.reader = reader
        self.doc = {}
        self.v2 = False
        self.frames = _listed_frames(reader)
        self.steps = []
        for frame in self.frames:
            self._add(f"screenshot {frame.rpartition('/')[2]}", None, frame)
        self.answer = None


def _listed_frames(reader: FolderReader) -> list[str]:
    """trajectory/'s images, in the order of the first number in their names (as WebJudge sorts them)."""
    where = os.path.join(reader.folder, SCREENSHOTS_DIR)
    try:
        with os.scandir(where) as entries:
            listed = {e.name for e in entries}
    except OSError:
        return []
    # A remote root's mirror holds its images once they are read: the store's listing names them.
    listed.update(unfetched_names(where))
    names = [name for name in listed if name.lower().endswith(IMAGE_SUFFIXES)]
    numbered = sorted(names, key=lambda n: (int(m.group()) if (m := _NUMBER.search(n)) else -1, n))
    return [f"{SCREENSHOTS_DIR}/{name}" for name in numbered]


def _read(reader: FolderReader) -> _Result:
    if RESULT not in reader.names and SCREENSHOTS_DIR in reader.names:
        return _Running(reader)
    doc = reader.read_object(RESULT)
    if doc is None:
        why = "; ".join(str(w) for w in reader.warnings) or f"{RESULT} is missing"
        raise UnreadableError(reader.folder, f"not an Online-Mind2Web result ({why})")
    if not isinstance(doc.get("action_history"), list) and "task" not in doc:
        raise UnreadableError(
            reader.folder, f"{RESULT} is not an Online-Mind2Web result (no task, no action_history)"
        )
    return _Result(reader, doc)


def _outcome(result: _Result) -> Ending:
    if isinstance(result, _Running):
        return "unfinished"
    return "answered" if result.answer else "no_answer"


def glance_mind2web(reader: FolderReader) -> Glance:
    """The index's glance: result.json read, trajectory/ listed."""
    result = _read(reader)
    found = {
        "task_id": result.task_id(),
        "layout": MIND2WEB,
        "outcome": _outcome(result),
        "final_answer_text": result.answer,
        "steps": len(result.steps),
        "screenshots": len(result.frames),
    }
    judged, problems = autoeval_scores(reader.folder)
    reader.extend(problems)
    glance = glance_with_common_files(reader, found)
    task = result.task()
    return glance.model_copy(
        update={"task_text": glance.task_text or task, "scores": {**glance.scores, **judged}}
    )


def load_mind2web(reader: FolderReader) -> Trajectory:
    """The result in full: steps with their thoughts and screenshots, the answer, the task."""
    result = _read(reader)
    # v2 names each step's screenshot (a missing one is reported); v1's are trajectory/'s files
    named = [s.screenshot for s in result.steps if s.screenshot] if result.v2 else result.frames
    frames, problems = discover_screenshots(reader.folder, list(dict.fromkeys(named)))
    reader.extend(problems)
    usable = {frame.name for frame in frames.frames}
    steps = tuple(
        s if s.screenshot is None or s.screenshot in usable else s.model_copy(update={"screenshot": None})
        for s in result.steps
    )
    common = reader.common()
    judged, problems = autoeval_scores(reader.folder)  # Online-Mind2Web's own judges' verdicts
    reader.extend(problems)
    common["scores"] = {**common["scores"], **judged}
    task = result.task()
    if task and common.get("task_text") is None:
        common["task_text"] = TaskText(text=task, source=f"{RESULT}: task")
    running = isinstance(result, _Running)
    record = HarnessRecord(
        harness="Online-Mind2Web",
        running=running,
        notes=(_RUNNING,) if running else (_LAST_LEFT_OUT,) if result.v2 and steps else (),
        stats={} if running else {"schema_version": result.doc.get("schema_version") or "online-mind2web-v1"},
    )
    return Trajectory(
        path=reader.folder,
        task_id=result.task_id(),
        layout=MIND2WEB,
        outcome=_outcome(result),
        final_answer_text=result.answer,
        steps=steps,
        screenshots=tuple(frame.name for frame in frames.frames),
        harness=record,
        **common,
        warnings=tuple(reader.warnings),
    )
