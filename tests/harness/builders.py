"""Build trajectory folders on disk for tests (every fixture is made here, inside tmp_path), and
observe what reading them touches.

Lines are written the way the real writers write them (one `json.dumps` per line, each event
type's key order, Fara's message texts), so the reader is tested against the real shapes.
Built logs use naive local time one hour ahead of UTC, as a machine in UTC+1 would write them.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from webeval_core.reading import folderfiles
from webeval_core.reading.logrecords import Generation
from webeval_core.reading.screenshots import ScreenshotNaming

START_UTC = datetime(2025, 11, 14, 13, 35, 10, tzinfo=UTC)
LOCAL_OFFSET = timedelta(hours=1)
FIRST_ACTION_AFTER = timedelta(seconds=5)
ACTION_EVERY = timedelta(seconds=10)
PNG_SIZE = (1440, 900)

LogGeneration = Generation  # the writers a log can be built as: the reader's own names for them


@dataclass(frozen=True)
class Act:
    """One agent action to write into a log."""

    action: str
    """The real action name written to the log ("left_click", "type"...)."""
    args: dict[str, Any]
    """The action's arguments (coordinates in the model's space), without the thoughts."""
    thought: str = "I should continue with the task."
    """The "Thought #N" text (or `arguments.thoughts`) written with the action."""
    observation: str = "Done."
    """The "Observation#N" text written after the action."""
    url: str = "https://www.alltrails.com/"
    """The page URL written on structured and solver lines."""
    summary_args: dict[str, Any] = field(default_factory=dict)
    """Arguments of the solver's summarized companion line; empty means the same as `args`."""


FARA_ACTIONS = (
    Act(
        "visit_url",
        {"url": "https://www.alltrails.com/"},
        thought="Open AllTrails first.",
        observation="I typed 'https://www.alltrails.com/' into the browser address bar.",
        url="about:blank",
    ),
    Act(
        "left_click",
        {"coordinate": [734, 82]},
        thought="Click the search box.",
        observation="I clicked at coordinates (740.17, 82.37).",
    ),
    Act(
        "type",
        {"text": "Yosemite", "coordinate": [714, 448], "press_enter": True, "delete_existing_text": False},
        thought="Type the park name.",
        observation="I typed 'Yosemite'.",
    ),
    Act(
        "scroll",
        {"coordinate": [714, 448], "pixels": -500},
        thought="Look further down.",
        observation="I scrolled down one page in the browser.",
    ),
    Act(
        "terminate",
        {"status": "success"},
        thought="The longest trail is Half Dome.",
        observation="The longest trail is Half Dome.",
    ),
)

SOLVER_ACTIONS = (
    Act("visit_url", {"url": "https://www.alltrails.com/"}, url="about:blank"),
    Act("click", {"target_id": 12}, summary_args={"target_id": 12, "element_name": "Search"}),
    Act("input_text", {"input_field_id": 5, "text_value": "Yosemite"}),
    Act("scroll_down", {}),
    Act("stop_execution", {"answer": "Half Dome"}),
)


def png_bytes(width: int = PNG_SIZE[0], height: int = PNG_SIZE[1]) -> bytes:
    """A real (decodable) black 1-bit PNG of the given size; it compresses to a few hundred bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + b"\x00" * ((width + 7) // 8)
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def local_time(k: int) -> datetime:
    """Naive local time of action k (1-based) as the log writer records it."""
    return (START_UTC + LOCAL_OFFSET + FIRST_ACTION_AFTER + (k - 1) * ACTION_EVERY).replace(tzinfo=None)


def _event(fields: dict[str, Any], k: int, kind: str = "OtherEvent") -> str:
    return json.dumps({**fields, "timestamp": local_time(k).isoformat(), "type": kind})


def text_action_line(k: int, act: Act, arguments: str | None = None) -> str:
    """The `Thought #N / Action #N` line; `arguments` overrides the JSON written after the tool."""
    args = (
        arguments
        if arguments is not None
        else json.dumps({"action": act.action, **act.args, "thoughts": act.thought})
    )
    message = (
        f"\nThought #{k}: {act.thought}\nAction #{k}: executing tool '{act.action}' with arguments {args}"
    )
    return _event({"message": message}, k)


def observation_line(k: int, act: Act) -> str:
    return _event({"message": f"Observation#{k}: {act.observation}"}, k)


def structured_line(k: int, act: Act) -> str:
    arguments = {"action": act.action, **act.args, "thoughts": act.thought}
    fields = {
        "source": "FaraAgent",
        "url": act.url,
        "action": "computer_use",
        "arguments": arguments,
        "message": f"computer_use( {json.dumps(arguments)} )",
    }
    return _event(fields, k)


def solver_lines(k: int, act: Act) -> list[str]:
    """A solver WebSurferEvent and its SummarizedAction companion (python-repr arguments)."""
    stamp = local_time(k).isoformat()
    action = {
        "timestamp": stamp,
        "type": "WebSurferEvent",
        "source": "WebSurfer",
        "message": f"{act.action}( {json.dumps(act.args)} )",
        "url": act.url,
        "action": act.action,
        "arguments": act.args,
    }
    summary = {
        "timestamp": stamp,
        "type": "WebSurferEvent",
        "source": "WebSurfer-SummarizedAction",
        "message": f"Action {k}: URL={act.url}, {act.action}({act.summary_args or act.args!r})",
        "url": act.url,
        "action": None,
        "arguments": None,
    }
    return [json.dumps(action), json.dumps(summary)]


def log_lines(generation: LogGeneration, actions: Sequence[Act]) -> list[str]:
    lines: list[str] = []
    for k, act in enumerate(actions, start=1):
        if generation == "text":
            lines += [text_action_line(k, act), observation_line(k, act)]
        elif generation == "fara-structured":
            lines += [text_action_line(k, act), structured_line(k, act), observation_line(k, act)]
        else:
            lines += solver_lines(k, act)
    if generation == "solver":
        done = {"message": "Web surfing done. Final target: Half Dome"}
        lines.append(_event(done, len(actions), "OrchestrationEvent"))
    return lines


def write_log(folder: Path, content: Iterable[str] | bytes) -> Path:
    """web_surfer.log from lines (each gets its newline) or raw bytes."""
    path = folder / "web_surfer.log"
    path.write_bytes(
        content if isinstance(content, bytes) else "".join(f"{line}\n" for line in content).encode()
    )
    return path


def write_final_answer(
    folder: Path,
    task_id: str,
    final_answer: Any = "The longest trail is Half Dome.",
    *,
    is_aborted: bool = False,
    screenshots: Sequence[str] = (),
    token_usage: dict[str, dict[str, Any]] | None = None,
    **extra: Any,
) -> Path:
    """`<task_id>_final_answer.json` as upstream writes it (indent=2, no trailing newline)."""
    content = {
        "final_answer": final_answer,
        "env_state_json": "<no_answer>",
        "env_state_raw": "<no_answer>",
        "screenshots": list(screenshots),
        "is_aborted": is_aborted,
        "is_rel_paths": True,
        "token_usage": token_usage
        if token_usage is not None
        else {"FaraAgent": {"prompt_tokens": 23383, "completion_tokens": 1920}},
        **extra,
    }
    path = folder / f"{task_id}_final_answer.json"
    path.write_text(json.dumps(content, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def screenshot_name(naming: ScreenshotNaming, number: int) -> str:
    return f"screenshot{number}.png" if naming == "fara" else f"screenshot_{number}.png"


def write_screenshots(
    folder: Path, actions: int, naming: ScreenshotNaming = "fara", size: tuple[int, int] = PNG_SIZE
) -> list[str]:
    """Fara: screenshot0..N (N+1 frames); solver: screenshot_1..N."""
    numbers = range(actions + 1) if naming == "fara" else range(1, actions + 1)
    names = [screenshot_name(naming, n) for n in numbers]
    data = png_bytes(*size)
    for name in names:
        (folder / name).write_bytes(data)
    return names


def write_times(folder: Path, start: datetime = START_UTC, duration: float = 178.74) -> Path:
    path = folder / "times.json"
    begin = start.timestamp()
    path.write_text(json.dumps({"start_time": begin, "end_time": begin + duration, "duration": duration}))
    return path


def write_core_log(folder: Path, text: str) -> Path:
    path = folder / "core.log"
    path.write_text(text, encoding="utf-8")
    return path


def write_score(folder: Path, name: str, score: Any, gpt_response_text: Any) -> Path:
    scores = folder / "scores"
    scores.mkdir(exist_ok=True)
    path = scores / f"{name}.json"
    path.write_text(json.dumps({"score": score, "gpt_response_text": gpt_response_text}))
    return path


def fara_folder(
    root: Path,
    task_id: str = "alltrails_find_23",
    *,
    generation: LogGeneration = "fara-structured",
    actions: Sequence[Act] | None = None,
    naming: ScreenshotNaming = "fara",
    final_answer: str | None = "The longest trail is Half Dome.",
    is_aborted: bool = False,
    times: bool = True,
) -> Path:
    """A complete Fara webeval trajectory folder; `final_answer=None` writes no answer file."""
    acts = actions if actions is not None else (SOLVER_ACTIONS if generation == "solver" else FARA_ACTIONS)
    folder = root / task_id
    folder.mkdir(parents=True)
    write_log(folder, log_lines(generation, acts))
    names = write_screenshots(folder, len(acts), naming)
    if final_answer is not None:
        write_final_answer(folder, task_id, final_answer, is_aborted=is_aborted, screenshots=names)
    if times:
        write_times(folder)
    return folder


def wav_folder(
    root: Path, task_id: str = "108", response: str | None = None, *, eval_result: bool = False
) -> Path:
    """A WebArena-Verified agent-log folder as the official CLI reads it."""
    folder = root / task_id
    folder.mkdir(parents=True)
    text = (
        response
        if response is not None
        else json.dumps(
            {
                "task_type": "RETRIEVE",
                "status": "SUCCESS",
                "retrieved_data": ["Half Dome"],
                "error_details": None,
            }
        )
    )
    (folder / "agent_response.json").write_text(text, encoding="utf-8")
    (folder / "network.har").write_text(json.dumps({"log": {"version": "1.2", "entries": []}}))
    if eval_result:  # in the official CLI's shape (its demo logs' eval_result.json), a success
        evaluated = {"evaluator_name": "AgentResponseEvaluator", "status": "success", "score": 1.0}
        result = {"task_id": int(task_id), "status": "success", "score": 1.0}
        result |= {"evaluators_results": [evaluated], "error_msg": None, "webarena_verified_version": "1.2.3"}
        (folder / "eval_result.json").write_text(json.dumps(result))
    return folder


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """(mtime_ns, size) of every path under `folder`, to prove reading wrote nothing."""
    return {
        str(p.relative_to(folder)): (p.lstat().st_mtime_ns, p.lstat().st_size)
        for p in sorted(folder.rglob("*"))
    }


def record_opens(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Record every path the reader opens: all its file reads go through `folderfiles.open_input`
    (or `open_listed`, the index's quick summary's).
    """
    opened: list[Path] = []
    real_open, real_listed = folderfiles.open_input, folderfiles.open_listed

    def spy(path: str | Path, *, dir_fd: int | None = None) -> tuple[int, os.stat_result]:
        opened.append(Path(path).resolve())
        return real_open(path, dir_fd=dir_fd)

    def spy_listed(path: str) -> int:
        opened.append(Path(path).resolve())
        return real_listed(path)

    monkeypatch.setattr(folderfiles, "open_input", spy)
    monkeypatch.setattr(folderfiles, "open_listed", spy_listed)
    return opened
