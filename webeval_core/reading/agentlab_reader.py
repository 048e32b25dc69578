"""AgentLab / BrowserGym episode folders -> `Glance` (the index) and `Trajectory` (the page).

AgentLab's `ExpArgs.run` writes one folder per task and seed,
`<date>_<agent>_on_<task_name>_<seed>[_<n>]` (older versions end in a hex id), inside a study
folder: `exp_args.pkl` first, then `step_N.pkl.gz` (a gzip'd pickle of its `StepInfo`: obs,
action, reward, agent_info, stats ...) with `screenshot_step_N.png` (and
`screenshot_som_step_N.png`, the set-of-marks variant), `experiment.log`, and `summary_info.json`
last (n_steps, cum_reward, err_msg, stack_trace, terminated, truncated, `stats.*`). A folder
without a summary is an episode still running.

The glance reads `summary_info.json` and the folder's names, never a pickle. The load reads the
step pickles with `reading.safepickle` (nothing they name is imported or called); a step that
cannot be read so is a warning naming its file, and the episode is shown without it.

BrowserGym names WebArena-Verified tasks `webarena_verified.<template id>.<task id>.<revision>`:
their task id is the catalog's, so the catalog's intent, site and expected answer apply. Their
reward is BrowserGym's (the mean of the evaluators' scores), shown as the harness's judge; no
network trace is kept, so the official network checks cannot run (the page says so).
"""

from __future__ import annotations

import ast
import pickle
import re
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError

from webeval_core.reading.actionlog import Step
from webeval_core.reading.folderreader import FolderReader
from webeval_core.reading.formats.agentlab import EXP_ARGS, FORMAT, SUMMARY_INFO, summary_outcome
from webeval_core.reading.glance import Glance, glance_with_common_files
from webeval_core.reading.harness_record import (
    NO_NETWORK_TRACE,
    HarnessMessage,
    HarnessRecord,
    HarnessStep,
    clipped,
    harness_score,
)
from webeval_core.reading.safepickle import PickleRefusedError, field, load_gzip_pickle
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.reading.screenshots import discover_screenshots, unfetched_names
from webeval_core.reading.taskdata import TaskText
from webeval_core.reading.trajectory_model import Times
from webeval_core.reading.trajectory_reader import Ending, TokenUsage, Trajectory, last_error_line
from webeval_core.support.diagnostics import UnreadableError

__all__ = [
    "AGENTLAB",
    "EXP_ARGS",
    "SUMMARY_INFO",
    "EpisodeName",
    "SummaryInfo",
    "catalog_task_id",
    "glance_agentlab",
    "is_step_file",
    "load_agentlab",
    "parse_episode_name",
]

AGENTLAB = FORMAT.name
"""The format's name (`Trajectory.layout`, the judge `harness-agentlab`)."""

LOG_FILE = "experiment.log"
_LOG_CHARS = 20_000
_REWARD_MEANING = (
    "BrowserGym's reward: on WebArena tasks the mean of the evaluators' scores (1.0 when all"
    " pass), not the official all-or-nothing verdict"
)
_EPISODE = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2})_(?P<agent>.+)_on_"
    r"(?P<task>.+?)_(?P<seed>\d+|None)(?:_(?P<tag>[0-9a-f]+))?"
)
_STEP_FILE = re.compile(r"step_(\d+)\.pkl\.gz")
_VERIFIED_TASK = re.compile(r"webarena_verified\.(\d+)\.(\d+)(?:\.(\d+))?")
_TYPING = {"fill", "keyboard_type", "type"}


class EpisodeName(NamedTuple):
    """What an episode folder's name says."""

    agent: str
    """The agent's name (AgentLab's `agent_name`)."""
    task_name: str
    """BrowserGym's task name (`webarena_verified.279.0.2`, `miniwob.click-test`)."""
    seed: str
    """The task seed."""


class SummaryInfo(BaseModel):
    """summary_info.json, as `ExpArgs.save_summary_info` writes it; the `stats.*` keys kept apart."""

    model_config = ConfigDict(frozen=True, extra="allow")

    n_steps: int | None = None
    """How many actions the agent took."""
    cum_reward: float | None = None
    """The sum of the steps' rewards (on WebArena the episode's reward)."""
    cum_raw_reward: float | None = None
    """The sum of the raw rewards."""
    err_msg: str | None = None
    """The error the episode ended on; None when it ended cleanly."""
    stack_trace: str | None = None
    """Its stack trace."""
    terminated: bool | None = None
    """Whether the last step reached a terminal state."""
    truncated: bool | None = None
    """Whether the last step was cut at the step budget."""

    @property
    def stats(self) -> dict[str, Any]:
        """The `stats.*` keys without their prefix."""
        extra = self.model_extra or {}
        return {k.removeprefix("stats."): v for k, v in extra.items() if k.startswith("stats.")}


def parse_episode_name(name: str) -> EpisodeName | None:
    """The agent, task and seed an AgentLab episode folder's name gives; None for another name."""
    found = _EPISODE.fullmatch(name)
    if found is None:
        return None
    return EpisodeName(found["agent"], found["task"], found["seed"])


def catalog_task_id(task_name: str) -> str | None:
    """The WebArena-Verified catalog's task id of a BrowserGym task name; None for other benchmarks."""
    found = _VERIFIED_TASK.fullmatch(task_name)
    return found.group(2) if found else None


def is_step_file(name: str) -> bool:
    """Whether `name` is a step pickle (`step_N.pkl.gz`)."""
    return _STEP_FILE.fullmatch(name) is not None


def _task_id(reader: FolderReader) -> tuple[str, EpisodeName | None]:
    episode = parse_episode_name(reader.folder.name)
    if episode is None:
        return reader.folder.name, None
    return catalog_task_id(episode.task_name) or episode.task_name, episode


def read_summary(reader: FolderReader) -> SummaryInfo | None:
    """summary_info.json typed; None (with a warning naming it) when missing or not understood."""
    content = reader.read_object(SUMMARY_INFO)
    if content is None:
        return None
    try:
        return SummaryInfo.model_validate(content)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        reader.warn(SUMMARY_INFO, f"{where}: {error['msg']}; the summary is not used")
        return None


def _ending(reader: FolderReader, summary: SummaryInfo | None) -> Ending:
    """How the episode ended, from its summary: unfinished while there is none; an error is aborted."""
    if summary is None:
        if SUMMARY_INFO not in reader.names:
            reader.warn(SUMMARY_INFO, "missing: the episode is still running (or stopped before its end)")
            return "unfinished"
        if not any(is_step_file(name) for name in reader.names):
            problems = "; ".join(str(w) for w in reader.warnings) or f"{SUMMARY_INFO} is not usable"
            raise UnreadableError(reader.folder, f"an AgentLab episode with nothing readable ({problems})")
        return "aborted"  # the summary cannot say how it ended: left out of rates, like a crash
    return summary_outcome(summary.err_msg, summary.terminated)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _duration(stats: dict[str, Any]) -> float | None:
    parts = [_number(stats.get(key)) for key in ("cum_step_elapsed", "cum_agent_elapsed")]
    known = [part for part in parts if part is not None]
    return sum(known) if known else None


def _tokens(stats: dict[str, Any]) -> TokenUsage:
    prompt = _number(stats.get("cum_input_tokens"))
    completion = _number(stats.get("cum_output_tokens"))
    return TokenUsage(prompt_tokens=int(prompt or 0), completion_tokens=int(completion or 0))


def _image_names(reader: FolderReader) -> set[str]:
    """The folder's names, with the images a remote root's store holds and the mirror has not fetched."""
    return reader.names | set(unfetched_names(reader.folder))


def _screenshot_names(names: set[str], som: bool = False) -> list[str]:
    pattern = re.compile(r"screenshot_som_step_(\d+)\.png" if som else r"screenshot_step_(\d+)\.png")
    found = sorted((int(m.group(1)), n) for n in names if (m := pattern.fullmatch(n)))
    return [name for _, name in found]


def _common_facts(reader: FolderReader, summary: SummaryInfo | None) -> dict[str, Any]:
    task_id, _ = _task_id(reader)
    stats = summary.stats if summary is not None else {}
    error = summary.err_msg if summary is not None else None
    return {
        "task_id": task_id,
        "layout": AGENTLAB,
        "outcome": _ending(reader, summary),
        # AgentLab writes err_msg when the agent or the environment raised: the task crashed
        "crash_reason": last_error_line(error) if error else None,
        "duration_s": _duration(stats),
        "token_usage": _tokens(stats),
    }


def _harness_score(reader: FolderReader, summary: SummaryInfo | None) -> dict[str, ScoreFile]:
    reward = summary.cum_reward if summary is not None else None
    return harness_score(AGENTLAB, reader.folder / SUMMARY_INFO, reward)


def glance_agentlab(reader: FolderReader) -> Glance:
    """The index's glance at an episode: summary_info.json and the folder's names only."""
    summary = read_summary(reader)
    facts = _common_facts(reader, summary)
    if summary is not None:
        facts["steps"] = summary.n_steps or 0
    else:
        facts["steps"] = sum(1 for name in reader.names if is_step_file(name))
    # by name, as every glance counts them (`Glance.screenshots`); no regex: the index asks every folder
    facts["screenshots"] = sum(
        1 for n in _image_names(reader) if n.startswith("screenshot_step_") and n.endswith(".png")
    )
    glance = glance_with_common_files(reader, facts)
    update: dict[str, Any] = {"scores": {**glance.scores, **_harness_score(reader, summary)}}
    if summary is not None and summary.err_msg:
        update["last_error"] = summary.err_msg
    return glance.model_copy(update=update)


def load_agentlab(reader: FolderReader) -> Trajectory:
    """An episode in full: its steps read from the pickles (restricted), screenshots, summary, log."""
    summary = read_summary(reader)
    facts = _common_facts(reader, summary)
    _, episode = _task_id(reader)
    records = _read_steps(reader)
    frames, problems = discover_screenshots(reader.folder, _screenshot_names(_image_names(reader)))
    reader.extend(problems)
    by_name = {frame.name for frame in frames.frames}
    steps, details, answer, goal = _steps(records, by_name, _image_names(reader))
    common = reader.common()
    common["scores"] = {**common["scores"], **_harness_score(reader, summary)}
    if facts["outcome"] == "answered" and answer is None:
        facts["outcome"] = "no_answer"
    record = HarnessRecord(
        harness="AgentLab / BrowserGym",
        task_name=episode.task_name if episode else None,
        seed=episode.seed if episode else None,
        agent=episode.agent if episode else None,
        reward=summary.cum_reward if summary is not None else None,
        reward_meaning=_REWARD_MEANING,
        error_message=summary.err_msg if summary is not None else None,
        stack_trace=summary.stack_trace if summary is not None else None,
        terminated=summary.terminated if summary is not None else None,
        truncated=summary.truncated if summary is not None else None,
        running=summary is None,
        stats=summary.stats if summary is not None else {},
        log_excerpt=_log(reader),
        notes=(NO_NETWORK_TRACE,) if catalog_task_id(episode.task_name if episode else "") else (),
        steps=details,
    )
    if goal and common.get("task_text") is None:
        common["task_text"] = TaskText(text=goal, source="step_0.pkl.gz: obs.goal")
    return Trajectory(
        path=reader.folder,
        task_id=facts["task_id"],
        layout=AGENTLAB,
        outcome=facts["outcome"],
        crash_reason=facts["crash_reason"],
        final_answer_text=answer,
        steps=steps,
        screenshots=tuple(frame.name for frame in frames.frames),
        # The summary's statistics, as the glance reads them (no times.json, no answer file).
        times=Times(duration=facts["duration_s"]) if facts["duration_s"] is not None else None,
        recorded_usage=facts["token_usage"],
        harness=record,
        **common,
        warnings=tuple(reader.warnings),
    )


def _log(reader: FolderReader) -> str | None:
    data = reader.read_bytes(LOG_FILE, _LOG_CHARS * 4)
    if data is None:
        return None
    return clipped(data.decode("utf-8", "replace"), _LOG_CHARS)


def _read_steps(reader: FolderReader) -> list[tuple[int, str, Any]]:
    """Each readable step pickle, by step number; one that cannot be read is a warning."""
    numbered = sorted((int(m.group(1)), n) for n in reader.names if (m := _STEP_FILE.fullmatch(n)))
    records: list[tuple[int, str, Any]] = []
    for number, name in numbered:
        data = reader.read_bytes(name)
        if data is None:
            continue
        try:
            records.append((number, name, load_gzip_pickle(data)))
        except PickleRefusedError as exc:
            reader.warn(name, f"refused: {exc}; the step is left out")
        except pickle.UnpicklingError as exc:
            reader.warn(name, f"cannot be read as a step ({exc}); the step is left out")
    if not numbered and reader.names & {SUMMARY_INFO, EXP_ARGS}:
        reader.warn("step_*.pkl.gz", "no step was saved: the episode has no steps to show")
    return records


def _steps(
    records: list[tuple[int, str, Any]], frames: set[str], names: set[str]
) -> tuple[tuple[Step, ...], tuple[HarnessStep, ...], str | None, str | None]:
    """Steps with an action, their records, the final answer and the goal."""
    steps: list[Step] = []
    details: list[HarnessStep] = []
    answer: str | None = None
    goal: str | None = None
    # step_N holds the reward of arriving at observation N: action N's reward is step N+1's.
    rewards = {number: _number(field(info, "reward")) for number, _, info in records}
    for number, name, info in records:
        obs = field(info, "obs") or {}
        if goal is None and isinstance(field(obs, "goal"), str):
            goal = field(obs, "goal").strip() or None
        action = field(info, "action")
        if not isinstance(action, str) or not action.strip():
            continue
        index = len(steps) + 1
        step, said = _step(index, number, action, info, obs, frames)
        steps.append(step)
        answer = said if said is not None else answer
        som = f"screenshot_som_step_{number}.png"
        details.append(
            _detail(index, name, info, obs, som if som in names else None, rewards.get(number + 1))
        )
    return tuple(steps), tuple(details), answer, goal


def _step(
    index: int, number: int, action: str, info: Any, obs: Any, frames: set[str]
) -> tuple[Step, str | None]:
    call, args = _call(action)
    think = field(field(info, "agent_info"), "think")
    screenshot = f"screenshot_step_{number}.png"
    url = field(obs, "url")
    typed = args[1] if call == "fill" and len(args) > 1 else args[0] if call in _TYPING and args else None
    scroll = _scroll(call, args)
    step = Step(
        index=index,
        action=call,
        arguments={"code": action, "args": args},
        thought=think.strip() or None if isinstance(think, str) else None,
        url=url if isinstance(url, str) else None,
        screenshot=screenshot if screenshot in frames else None,
        typed_text=typed if isinstance(typed, str) else None,
        scroll=scroll,
    )
    said = args[0] if call in ("send_msg_to_user", "report_infeasible") and args else None
    return step, said if isinstance(said, str) else None


def _call(action: str) -> tuple[str, list[Any]]:
    """The first call of a BrowserGym action (`click('a51')` -> click, ['a51']), its literal arguments."""
    try:
        tree = ast.parse(action.strip())
    except (SyntaxError, ValueError):
        return action.strip().split("(", 1)[0][:60] or "action", []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return node.func.id, [_literal(arg) for arg in node.args]
    return "action", []


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ast.unparse(node)


def _scroll(call: str, args: list[Any]) -> str | None:
    if call != "scroll" or len(args) < 2 or not isinstance(args[1], int | float):
        return None
    return "down" if args[1] > 0 else "up" if args[1] < 0 else None


def _detail(index: int, name: str, info: Any, obs: Any, som: str | None, reward: float | None) -> HarnessStep:
    agent_info = field(info, "agent_info")
    error = field(obs, "last_action_error")
    page = field(obs, "axtree_txt") or field(obs, "pruned_html")
    stats = field(info, "stats")
    return HarnessStep(
        index=index,
        file=name,
        reward=reward,
        messages=_messages(field(agent_info, "chat_messages")),
        page_text=clipped(page) if isinstance(page, str) and page else None,
        error=error if isinstance(error, str) and error else None,
        marked_screenshot=som,
        extra={k: v for k, v in stats.items() if isinstance(v, int | float | str)}
        if isinstance(stats, dict)
        else {},
    )


def _messages(chat: Any) -> tuple[HarnessMessage, ...]:
    """The agent's prompt and reply (AgentLab's Discussion of messages, or a list of them)."""
    listed = field(chat, "messages", chat)
    if not isinstance(listed, list | tuple):
        return ()
    out: list[HarnessMessage] = []
    for message in listed:
        role = field(message, "role")
        text = _content_text(field(message, "content"))
        if isinstance(role, str) and text is not None:
            out.append(HarnessMessage(role=role, text=clipped(text) or ""))
    return tuple(out)


def _content_text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if not isinstance(content, list | tuple):
        return None
    parts = []
    for part in content:
        kind = field(part, "type")
        text = field(part, "text")
        parts.append(text if isinstance(text, str) else f"[{kind or 'part'}]")
    return "\n".join(parts)
