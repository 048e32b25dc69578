"""What a trajectory is, whatever format it was read from: `Trajectory` and the models it holds
(the final answer, times, token usage), and how a run ended (`Ending`). The readers that make
them are apart: `trajectory_reader.load_trajectory`, by the format that claims a folder
(`reading.formats`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from webeval_core.reading.actionlog import Step
from webeval_core.reading.coordinates import Scaling
from webeval_core.reading.corelog import CoreLogLine
from webeval_core.reading.harness_record import HarnessRecord
from webeval_core.reading.logrecords import Generation
from webeval_core.reading.scorefiles import ScoreFile
from webeval_core.reading.taskdata import TaskText
from webeval_core.support.diagnostics import Diagnostic

__all__ = ["NO_ANSWER_MARKER", "Ending", "FinalAnswer", "Layout", "Times", "TokenUsage", "Trajectory"]

NO_ANSWER_MARKER = "<no_answer>"
"""What Fara's writer puts where the agent gave no answer."""

Ending = Literal["answered", "no_answer", "aborted", "unfinished"]
"""How the agent's run ended: it answered, stopped without an answer, or crashed; or it has not
ended yet (`reading.task_state`). `review.Outcome` is the other question: did it succeed."""
Layout = str
"""The name of the format that read a trajectory (`reading.formats`: "fara", "webarena-verified", ...)."""


class TokenUsage(BaseModel):
    """LLM tokens of one component (or a sum); newer writers add reasoning_tokens and num_calls."""

    model_config = ConfigDict(frozen=True, extra="allow")

    prompt_tokens: int = 0
    """Tokens sent to the LLM (prompts, images included), summed over its calls."""
    completion_tokens: int = 0
    """Tokens the LLM generated, summed over its calls."""
    reasoning_tokens: int | None = None
    """Tokens spent on hidden reasoning; None when the writer does not record them."""
    num_calls: int | None = None
    """How many LLM calls were made; None when the writer does not record it."""

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            reasoning_tokens=_add_optional(self.reasoning_tokens, other.reasoning_tokens),
            num_calls=_add_optional(self.num_calls, other.num_calls),
        )


class FinalAnswer(BaseModel):
    """`<task_id>_final_answer.json`, with upstream's defaults; unknown keys are kept."""

    model_config = ConfigDict(frozen=True, extra="allow")

    final_answer: str = NO_ANSWER_MARKER
    """The agent's answer text (a structured answer as its JSON text); "<no_answer>" when it gave none."""
    env_state_json: Any = NO_ANSWER_MARKER
    """The environment's state as the harness recorded it (any JSON); "<no_answer>" when not recorded."""
    env_state_raw: Any = NO_ANSWER_MARKER
    """The environment's raw state as the harness recorded it; "<no_answer>" when not recorded."""
    screenshots: list[str] = []
    """Screenshot paths as the writer listed them (relative when `is_rel_paths`); never trusted as is."""
    is_aborted: bool = False
    """Whether the run stopped before the agent finished (the trajectory is left out of success rates)."""
    is_rel_paths: bool = True
    """Whether `screenshots` are relative to the folder (absolute otherwise)."""
    token_usage: dict[str, TokenUsage] = {}
    """LLM token counts per component (e.g. the agent, the judge), as the writer names them."""

    @property
    def total_usage(self) -> TokenUsage:
        """LLM token counts summed over every component."""
        return sum(self.token_usage.values(), TokenUsage())

    @field_validator("final_answer", mode="before")
    @classmethod
    def _structured_answer_as_text(cls, value: Any) -> Any:
        # Some agents write the structured response itself; scorers expect its JSON text.
        return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value


class Times(BaseModel):
    """times.json: unix seconds around the solver run."""

    # The harness writes this file: keys a newer writer adds are not ours to refuse.
    model_config = ConfigDict(frozen=True, extra="ignore")

    start_time: float | None = None
    """When the solver started, in unix seconds; None when not recorded."""
    end_time: float | None = None
    """When the solver ended, in unix seconds; None when not recorded."""
    duration: float | None = None
    """How long the solver ran, in seconds; None when not recorded."""

    @property
    def solver_seconds(self) -> float | None:
        """How long the solver ran, in seconds (`duration`, else end - start); None if unknown."""
        if self.duration is not None:
            return self.duration
        if self.start_time is not None and self.end_time is not None:
            return self.end_time - self.start_time  # both checked to be real times
        return None


class Trajectory(BaseModel):
    """Everything one trajectory folder says, checked and cross-referenced."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The trajectory folder, as given to `load_trajectory`."""
    task_id: str
    """The task's id: from the answer file's name (Fara), else the folder's name."""
    layout: Layout
    """The name of the format that read it (`reading.formats`): "fara", "webarena-verified", ..."""
    outcome: Ending
    """Whether the agent answered, ran out of budget without an answer, or the run was aborted."""
    final_answer: FinalAnswer | None = None
    """The `*_final_answer.json` read (Fara layout); None when missing, unreadable or the other layout."""
    answer_file: str | None = None
    """The answer file read, relative to the folder; None when there is none."""
    final_answer_text: str | None = None
    """The agent's answer (Fara) or agent_response.json's text; None when the agent gave none."""
    steps: tuple[Step, ...] = ()
    """The agent's actions with their screenshots, points and UTC times; empty without a web_surfer.log."""
    screenshots: tuple[str, ...] = ()
    """Relative paths of PNGs inside the folder, in order."""
    final_page: str | None = None
    """The screenshot of the page the last action led to, where the harness keeps it apart from the
    pages the actions were taken on (ATIF: the last observation's image); replayed after the
    steps. None otherwise (a Fara step's screenshot is the page it acted on, its last one included)."""
    coordinate_scaling: Scaling | None = None
    """How logged coordinates were mapped to PNG pixels (the first size seen); None when no step has one."""
    times: Times | None = None
    """times.json; None when missing or not understood."""
    recorded_usage: TokenUsage | None = None
    """LLM tokens another harness recorded for the whole trajectory (AgentLab's summary stats, ATIF's
    final metrics), which `token_usage` gives; None when the answer file's count stands."""
    core_log: tuple[CoreLogLine, ...] = ()
    """core.log's records in file order; empty when there is no core.log."""
    task_data: dict[str, Any] | None = None
    """task_data.json as written (the rubric verifier's data); None when missing or unreadable."""
    task_text: TaskText | None = None
    """The task as the folder states it (task_data.json), with its source; None when it does not."""
    scores: dict[str, ScoreFile] = {}
    """The readable `scores/*.json` files, by file stem."""
    har_path: Path | None = None
    """The network trace inside the folder (not read here): network.har, else a Playwright trace
    (a zip, or trace.network); None when missing or leading outside the folder."""
    eval_result: dict[str, Any] | None = None
    """eval_result.json as written by the official CLI; None when missing or unreadable."""
    crash_reason: str | None = None
    """Why the task crashed (`reading.task_state`): the exception its harness recorded (AgentLab's
    err_msg, cube-harness's FAILED status, a Harbor trial's exception_info), or core.log's last
    error line when it is not over (no times.json) and its last attempt raised, whatever else it
    left (a resume deletes all but core.log); such a trajectory is aborted. None otherwise."""
    log_generation: Generation | None = None
    """Which writer produced web_surfer.log; None when it holds no action or the layout has none."""
    utc_offset_s: float | None = None
    """Inferred offset of the log's naive local times in seconds (local minus UTC); None without log times."""
    harness: HarnessRecord | None = None
    """What another harness (AgentLab, cube-harness, Online-Mind2Web, Harbor) keeps beyond the steps:
    its own reward and error, per-step messages and page text, notes; None for Fara and WebArena-Verified."""
    warnings: tuple[Diagnostic, ...] = ()
    """Everything skipped or guessed while loading, each naming its file and line."""

    @property
    def duration_s(self) -> float | None:
        """How long the solver ran, in seconds (times.json's duration, else end - start); None if unknown."""
        return self.times.solver_seconds if self.times is not None else None

    @property
    def token_usage(self) -> TokenUsage:
        """LLM token counts: what the harness recorded (`recorded_usage`), else summed over every
        component of the answer file (zero without one).
        """
        if self.recorded_usage is not None:
            return self.recorded_usage
        return self.final_answer.total_usage if self.final_answer else TokenUsage()

    @property
    def error_lines(self) -> tuple[CoreLogLine, ...]:
        """The core.log records logged at ERROR level or above, in file order."""
        return tuple(line for line in self.core_log if line.is_error)

    @property
    def judged(self) -> bool:
        """Whether it holds a judge's verdict: a score file, eval_result.json, the harness's reward."""
        return (
            bool(self.scores) or self.eval_result is not None or bool(self.harness and self.harness.rewarded)
        )

    def without_verdicts(self) -> Trajectory:
        """It without what judges it, THE list of its verdict-bearing fields: the score files (every
        judge's verdict, output and failure tags), eval_result.json and the harness's rewards. What a
        viewer who may not see its verdicts is given (`review.trajectory_seen_by`).
        """
        harness = self.harness.without_rewards() if self.harness is not None else None
        return self.model_copy(update={"scores": {}, "eval_result": None, "harness": harness})


def _add_optional(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)
