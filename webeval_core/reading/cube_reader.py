"""cube-harness episodes -> `Glance` (the index) and `Trajectory` (the page).

cube-harness's `FileStorage` (V2) writes `<experiment>/episodes/<task_id>_ep<n>/`:
`status.json` (EpisodeStatus: QUEUED -> RUNNING -> a terminal status, current_step, reward,
error), `episode_config.json`, `episode.metadata.json` (the Trajectory without its steps:
metadata, start and end times, reward_info), `steps/NNN_{obs|act}.msgpack.zst` (each step's
pydantic JSON dump packed with msgpack, compressed with zstd: an environment output (obs
contents, reward, done, truncated, error) or an agent output (actions, llm_calls, thoughts,
error)), `episode_summary.jsonl`, `failure.txt` on a crash; `experiment_summary.json` above.

A cube-harness agent ends a WebArena-Verified task by the `submit_response` action
(webarena_verified_cube's SubmitResponseTool: `task_type`, `status`, `retrieved_data`,
`error_details`), which ends the episode: its final act file holds the answer, which the task's
evaluator scores (`final_answer`). The glance reads status.json, lists steps/ (its observation
files are the screenshots it counts: cube-harness's browser tool puts the page's screenshot in
every observation) and, once the episode is over, reads the last act file as far as its actions
(`read_actions`: the LLM calls after them are not decompressed); the load reads every step. Step
files are decompressed up to a limit; one that cannot be read is a warning naming it.
Screenshots embedded in observations are the trajectory's frames, named `<step file>#<n>`
(`embedded_images`): the replay reads them from the step file when it shows them, in memory
(nothing is written into the folder). An action is drawn on the observation before it.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from webeval_core.reading.actionlog import Step
from webeval_core.reading.embedded_images import embedded_name
from webeval_core.reading.folderfiles import LEADS_OUTSIDE, read_file, read_problem, resolve_inside
from webeval_core.reading.folderreader import FolderReader
from webeval_core.reading.formats.cube_harness import (
    FAILURE,
    FORMAT,
    METADATA,
    RAISED,
    STATUS,
    STATUS_ENDINGS,
    STEPS_DIR,
)
from webeval_core.reading.glance import Glance, glance_with_common_files
from webeval_core.reading.harness_record import (
    HarnessMessage,
    HarnessRecord,
    HarnessStep,
    clipped,
    harness_score,
)
from webeval_core.reading.taskdata import TaskText
from webeval_core.reading.trajectory_model import Times
from webeval_core.reading.trajectory_reader import Trajectory, last_error_line
from webeval_core.support.diagnostics import UnreadableError

_Read = TypeVar("_Read")

__all__ = ["CUBE", "SUBMIT_ACTION", "final_answer", "glance_cube", "load_cube", "read_actions"]

CUBE = FORMAT.name
"""The format's name (`Trajectory.layout`; the judge `harness-cube-harness`)."""
STEP_READ_LIMIT = 128 * 1024 * 1024
"""Bytes one step file may decompress to (a step with its screenshots is a few MB)."""
_STEP = re.compile(r"(\d{3,})_(obs|act)\.msgpack\.zst")
_IMAGE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8")  # what the replay draws: PNG, JPEG
_VERIFIED = re.compile(r"webarena[_-]?verified[._-](\d+)", re.IGNORECASE)
SUBMIT_ACTION = "submit_response"
"""The action by which a cube-harness agent gives a WebArena-Verified task its answer (and ends it)."""


class StepFileError(ValueError):
    """A step file that cannot be read as cube-harness writes them (its message says why)."""


_TOO_BIG = "decompresses to more than 128 MB; not read"
_NO_OUTPUT = "holds no step output; skipped"


def _status(reader: FolderReader) -> dict[str, Any]:
    status = reader.read_object(STATUS)
    if status is None:
        why = "; ".join(str(w) for w in reader.warnings) or f"{STATUS} is missing"
        raise UnreadableError(reader.folder, f"a cube-harness episode without a usable {STATUS} ({why})")
    if status.get("status") not in STATUS_ENDINGS:
        reader.warn(
            STATUS, f"status {status.get('status')!r} is not one cube-harness writes; counted as aborted"
        )
    return status


def _task_id(reader: FolderReader, status: dict[str, Any]) -> str:
    task = status.get("task_id")
    if not isinstance(task, str) or not task:
        task = reader.folder.name.rpartition("_ep")[0] or reader.folder.name
    verified = _VERIFIED.fullmatch(task)
    return verified.group(1) if verified else task


def _step_files(reader: FolderReader) -> list[tuple[int, str, str]]:
    """steps/'s files (number, obs|act, name relative to the folder), in order; one listing."""
    try:
        with os.scandir(os.path.join(reader.folder, STEPS_DIR)) as entries:
            names = [e.name for e in entries]
    except OSError:
        return []
    found = [(int(m.group(1)), m.group(2), f"{STEPS_DIR}/{n}") for n in names if (m := _STEP.fullmatch(n))]
    return sorted(found)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _facts(reader: FolderReader, status: dict[str, Any], files: list[tuple[int, str, str]]) -> dict[str, Any]:
    outcome = STATUS_ENDINGS.get(str(status.get("status")), "aborted")
    return {
        "task_id": _task_id(reader, status),
        "layout": CUBE,
        "outcome": outcome,
        "crash_reason": _crash(status),
        "steps": sum(1 for _, kind, _ in files if kind == "act"),
        "duration_s": _times(status).solver_seconds,
    }


def _times(status: dict[str, Any]) -> Times:
    """When the episode started and ended (status.json's unix seconds; no end while it runs)."""
    return Times(start_time=_number(status.get("started_at")), end_time=_number(status.get("ended_at")))


def _final_act(files: list[tuple[int, str, str]], outcome: str) -> str | None:
    """The step file the answer is read from: the last act file, once the episode is over (a
    running episode's may be half written: cube-harness writes step files in place).
    """
    if outcome == "unfinished":
        return None
    acts = [name for _, kind, name in files if kind == "act"]
    return acts[-1] if acts else None


def final_answer(actions: Any) -> str | None:
    """The answer among a step's actions: the last `submit_response`'s, as SubmitResponseTool
    builds the FinalAgentResponse the evaluator scores (task type and status upper-cased, the
    data and details None when not given), as JSON text; None when no action submits one.

    Raises:
        StepFileError: when the submitting action's arguments are not an object.
    """
    listed = actions if isinstance(actions, list) else []
    submits = [a for a in listed if isinstance(a, dict) and a.get("name") == SUBMIT_ACTION]
    if not submits:
        return None
    arguments = submits[-1].get("arguments")
    if not isinstance(arguments, dict):
        raise StepFileError(f"its {SUBMIT_ACTION} action's arguments are not an object; no answer read")
    response = {
        "task_type": _upper(arguments.get("task_type")),
        "status": _upper(arguments.get("status")),
        "retrieved_data": arguments.get("retrieved_data"),
        "error_details": arguments.get("error_details"),
    }
    return json.dumps(response, ensure_ascii=False)


def _upper(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


def _crash(status: dict[str, Any]) -> str | None:
    """Why the episode raised, when its status says it did (FAILED, INVALID_CONFIG); None otherwise."""
    if status.get("status") not in RAISED:
        return None
    said = [str(status[k]) for k in ("error_type", "error_message") if status.get(k)]
    return last_error_line(": ".join(said)) if said else f"status {status['status']}"


def glance_cube(reader: FolderReader, *, answer: bool = True) -> Glance:
    """status.json, steps/'s names (the observation files counted as the screenshots) and, with
    `answer`, the final act file's actions: the answer (`read_actions`).
    """
    status = _status(reader)
    files = _step_files(reader)
    facts = _facts(reader, status, files)
    facts["screenshots"] = sum(1 for _, kind, _ in files if kind == "obs")
    final = _final_act(files, facts["outcome"]) if answer else None
    if final is not None:
        facts["final_answer_text"] = _read_step(reader, final, _answer_of_step)
    glance = glance_with_common_files(reader, facts)
    own = harness_score(CUBE, reader.folder / STATUS, _number(status.get("reward")))
    message = status.get("error_message")
    update: dict[str, Any] = {"scores": {**glance.scores, **own}}
    if isinstance(message, str) and message:
        update["last_error"] = message
    return glance.model_copy(update=update)


@contextmanager
def _step_errors() -> Iterator[None]:
    """What zstandard and msgpack raise on bytes that are no step, as a StepFileError saying so."""
    import msgpack
    import zstandard

    try:
        yield
    except StepFileError:
        raise
    except (zstandard.ZstdError, ValueError, msgpack.UnpackException, TypeError) as exc:
        raise StepFileError(
            f"cannot be read as a cube-harness step ({type(exc).__name__}: {exc})"[:300]
        ) from None


def read_actions(data: bytes) -> Any:
    """The actions of an act file's bytes (`output.actions`), read as far as them: the msgpack map
    walked key by key while the zstd frame is decompressed, a block at a time, only until the
    actions are read (cube-harness dumps the LLM calls, prompts and their images, after them).
    None when the output holds no actions.

    Raises:
        StepFileError: when the bytes are no step as `decode_step` reads them.
    """
    with _step_errors():
        walk = _Walk(data)
        if not walk.seek("output"):
            raise StepFileError(_NO_OUTPUT)
        return walk.call(walk.unpacker.unpack) if walk.seek("actions") else None


class _Walk:
    """A msgpack object walked as its zstd frame is decompressed: each msgpack call is retried
    with more bytes when it runs out (msgpack rolls a call that runs out back), up to the bound.
    """

    _CHUNK = 1 << 15
    """Compressed bytes given to the decompressor at a time (it yields a block, 128 KB, when whole)."""

    def __init__(self, data: bytes) -> None:
        import msgpack
        import zstandard

        self._data, self._at, self._given = data, 0, 0
        self._decompressor = zstandard.ZstdDecompressor().decompressobj()
        self.unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=STEP_READ_LIMIT)
        self._out_of_data = msgpack.OutOfData

    def _more(self) -> bool:
        while self._at < len(self._data):
            out = self._decompressor.decompress(self._data[self._at : self._at + self._CHUNK])
            self._at += self._CHUNK
            self._given += len(out)
            if self._given > STEP_READ_LIMIT:
                raise StepFileError(_TOO_BIG)
            if out:
                self.unpacker.feed(out)
                return True
        return False

    def call(self, read: Callable[[], _Read]) -> _Read:
        """`read()` once the bytes it needs are decompressed; msgpack's OutOfData at the end."""
        while True:
            try:
                return read()
            except self._out_of_data:
                if not self._more():
                    raise

    def seek(self, wanted: str) -> bool:
        """Reads a map's header and its entries up to `wanted`'s key (its value is next); False
        when the map has no such key. msgpack's ValueError when the next object is no map.
        """
        for _ in range(self.call(self.unpacker.read_map_header)):
            if self.call(self.unpacker.unpack) == wanted:
                return True
            self.call(self.unpacker.skip)
        return False


def decode_step(data: bytes) -> dict[str, Any]:
    """A step file's bytes as cube-harness's `_serialize_step` wrote them (zstd over msgpack over
    the step's JSON dump), decompressed to at most `STEP_READ_LIMIT`: the step's `output`.

    Raises:
        StepFileError: when they are no such step (or decompress to more than the limit).
    """
    import msgpack
    import zstandard

    with _step_errors():
        with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)) as stream:
            raw = stream.read(STEP_READ_LIMIT + 1)
        if len(raw) > STEP_READ_LIMIT:
            raise StepFileError(_TOO_BIG)
        content = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    if not isinstance(content, dict) or not isinstance(content.get("output"), dict):
        raise StepFileError(_NO_OUTPUT)
    output: dict[str, Any] = content["output"]
    return output


def step_images(data: bytes) -> list[bytes]:
    """The images a step file's observation holds, decoded (`embedded_images` reads them by number).

    Raises:
        StepFileError: as `decode_step`.
    """
    return [image for _, image in _images(decode_step(data).get("obs"))]


def _answer_of_step(data: bytes) -> str | None:
    return final_answer(read_actions(data))


def _read_step(reader: FolderReader, name: str, read: Callable[[bytes], _Read]) -> _Read | None:
    """What `read` makes of step file `name`'s bytes; None, and a warning naming it, when it cannot."""
    path = resolve_inside(reader.folder, name)
    if path is None:
        reader.warn(name, LEADS_OUTSIDE)
        return None
    try:
        return read(read_file(path))
    except OSError as exc:
        reader.warn(name, read_problem(exc))
    except StepFileError as exc:
        reader.warn(name, str(exc))
    return None


class _Episode:
    """The steps of an episode as read from steps/."""

    def __init__(self, reader: FolderReader, files: list[tuple[int, str, str]]) -> None:
        self.steps: list[Step] = []
        self.details: list[HarnessStep] = []
        self.images = 0
        self.frames: list[str] = []
        """The embedded screenshots' names (`embedded_images`), in the order they were taken."""
        self._page: str | None = None  # the latest observation's screenshot: the next action's page
        self.task: str | None = None
        self.actions: dict[str, Any] = {}
        """Each act file's actions as read (`output.actions`), by its name."""
        for _, kind, name in files:
            output = _read_step(reader, name, decode_step)
            if output is None:
                continue
            if kind == "act":
                self._act(name, output)
            else:
                self._obs(name, output)

    def _act(self, name: str, output: dict[str, Any]) -> None:
        found = self.actions[name] = output.get("actions")
        actions: list[Any] = found if isinstance(found, list) else []
        thought = output.get("thoughts")
        messages = _messages(output.get("llm_calls"))
        for position, action in enumerate(a for a in actions if isinstance(a, dict)):
            arguments = action.get("arguments")
            index = len(self.steps) + 1
            self.steps.append(
                Step(
                    index=index,
                    action=str(action.get("name") or "action"),
                    arguments=arguments if isinstance(arguments, dict) else {},
                    thought=thought if position == 0 and isinstance(thought, str) and thought else None,
                    screenshot=self._page,
                )
            )
            error = _error(output.get("error"))
            self.details.append(HarnessStep(index=index, file=name, messages=messages, error=error))

    def _obs(self, name: str, output: dict[str, Any]) -> None:
        text, images = _contents(output.get("obs"))
        self.images += images
        shown = [embedded_name(name, number) for number, _ in _images(output.get("obs"))]
        self.frames += shown
        self._page = shown[0] if shown else None  # the next action is taken on this page
        if not self.steps:  # the first observation: the task as the agent saw it
            self.task = self.task or (text.strip()[:2000] or None)
            return
        last = self.steps[-1]
        self.steps[-1] = last.model_copy(update={"observation": clipped(text) or None})
        detail = self.details[-1]
        extra = {"observation_file": name, "embedded_images": images, "done": output.get("done")}
        self.details[-1] = detail.model_copy(
            update={
                "reward": _number(output.get("reward")),
                "page_text": clipped(text) or None,
                "error": detail.error or _error(output.get("error")),
                "extra": {**detail.extra, **extra},
            }
        )


def _error(error: Any) -> str | None:
    if not isinstance(error, dict):
        return None
    text = f"{error.get('error_type') or 'error'}: {error.get('exception_str') or ''}".strip()
    return text or None


def _contents(obs: Any) -> tuple[str, int]:
    """An observation's text contents joined, and how many images it holds."""
    contents = obs.get("contents") if isinstance(obs, dict) else None
    texts: list[str] = []
    images = 0
    for content in contents if isinstance(contents, list) else []:
        if not isinstance(content, dict):
            continue
        kind = str(content.get("_type") or "")
        data = content.get("data")
        if "Image" in kind or isinstance(data, bytes):
            images += 1
        elif isinstance(data, str):
            texts.append(f"## {content['name']}\n{data}" if content.get("name") else data)
    return "\n\n".join(texts), images


def _images(obs: Any) -> list[tuple[int, bytes]]:
    """An observation's images that decode to a PNG or JPEG, with their number among its images
    (`embedded_images`' names): cube-harness dumps an image content's data as base64 text (a
    data URL or bare), or bytes.
    """
    contents = obs.get("contents") if isinstance(obs, dict) else None
    found = [
        c.get("data")
        for c in (contents if isinstance(contents, list) else [])
        if isinstance(c, dict) and ("Image" in str(c.get("_type") or "") or isinstance(c.get("data"), bytes))
    ]
    decoded = ((number, _image_bytes(data)) for number, data in enumerate(found))
    return [(number, data) for number, data in decoded if data is not None]


def _image_bytes(data: Any) -> bytes | None:
    if isinstance(data, str):
        encoded = data.partition("base64,")[2] if data.startswith("data:") else data
        try:
            data = base64.b64decode(encoded, validate=False)
        except ValueError:
            return None
    return data if isinstance(data, bytes) and data.startswith(_IMAGE_SIGNATURES) else None


def _messages(calls: Any) -> tuple[HarnessMessage, ...]:
    """The last LLM call's prompt and reply (cube-harness's LLMCall: prompt messages, output message)."""
    if not isinstance(calls, list) or not calls or not isinstance(calls[-1], dict):
        return ()
    call = calls[-1]
    prompt = call.get("prompt")
    listed = prompt.get("messages") if isinstance(prompt, dict) else prompt
    found = [*(listed if isinstance(listed, list) else []), call.get("output")]
    out = []
    for message in found:
        if isinstance(message, dict) and isinstance(message.get("role"), str):
            content = message.get("content")
            text = content if isinstance(content, str) else _parts(content)
            out.append(HarnessMessage(role=message["role"], text=clipped(text) or ""))
    return tuple(out)


def _parts(content: Any) -> str:
    if not isinstance(content, list):
        return ""
    return "\n".join(
        p["text"] if isinstance(p, dict) and isinstance(p.get("text"), str) else "[image]" for p in content
    )


def _loaded_answer(reader: FolderReader, episode: _Episode, final: str | None) -> str | None:
    """The answer the final act file holds, as the glance reads it (`final_answer`)."""
    if final is None or final not in episode.actions:  # none, or unreadable (already a warning)
        return None
    try:
        return final_answer(episode.actions[final])
    except StepFileError as exc:
        reader.warn(final, str(exc))
    return None


def load_cube(reader: FolderReader) -> Trajectory:
    """The episode in full: every step decompressed, the status, metadata and failure."""
    status = _status(reader)
    files = _step_files(reader)
    facts = _facts(reader, status, files)
    episode = _Episode(reader, files)
    answer = _loaded_answer(reader, episode, _final_act(files, facts["outcome"]))
    metadata = reader.read_object(METADATA) or {}
    failure = reader.read_bytes(FAILURE)
    common = reader.common()
    reward = _number(status.get("reward"))
    common["scores"] = {**common["scores"], **harness_score(CUBE, reader.folder / STATUS, reward)}
    if episode.task and common.get("task_text") is None:
        common["task_text"] = TaskText(text=episode.task, source="steps/000_obs: the first observation")
    found = metadata.get("metadata")
    meta: dict[str, Any] = found if isinstance(found, dict) else {}
    message = status.get("error_message")
    record = HarnessRecord(
        harness="cube-harness",
        task_name=status.get("task_id") if isinstance(status.get("task_id"), str) else None,
        seed=str(status.get("episode_id")) if status.get("episode_id") is not None else None,
        agent=str(meta.get("agent_name")) if meta.get("agent_name") else None,
        reward=reward,
        reward_meaning="the task's reward as cube-harness recorded it (status.json)"
        if reward is not None
        else None,
        error_message=message if isinstance(message, str) and message else None,
        stack_trace=failure.decode("utf-8", "replace") if failure else None,
        terminated=status.get("status") == "COMPLETED",
        truncated=status.get("status") == "MAX_STEPS_REACHED",
        running=facts["outcome"] == "unfinished",
        stats={
            "status": str(status.get("status")),
            "current_step": status.get("current_step"),
            "embedded_images": episode.images,
        },
        steps=tuple(episode.details),
    )
    return Trajectory(
        path=reader.folder,
        task_id=facts["task_id"],
        layout=CUBE,
        outcome=facts["outcome"],
        crash_reason=facts["crash_reason"],
        final_answer_text=answer,
        steps=tuple(episode.steps),
        screenshots=tuple(episode.frames),
        times=_times(status),  # status.json's, as the glance reads them (no times.json)
        harness=record,
        **common,
        warnings=tuple(reader.warnings),
    )
