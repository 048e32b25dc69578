"""What another harness keeps of a trajectory beyond our `Step`s: its own reward and error, its
per-step messages and page text, its notes. One model for every harness format (AgentLab,
cube-harness, Online-Mind2Web, Harbor's ATIF), so the page shows them one way.

A harness's own reward is also a judge (`harness_judge`): a score named `harness-<format>`
beside the score files, so lists, rates and the trajectory header show it next to the official
verdict, never mixed with it (`runs.judges.judge_label` says what it is).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webeval_core.reading.actionlog import Step
from webeval_core.reading.scorefiles import ScoreFile

__all__ = [
    "HARNESS_JUDGE_PREFIX",
    "NO_NETWORK_TRACE",
    "HarnessMessage",
    "HarnessRecord",
    "HarnessStep",
    "HarnessSubagent",
    "harness_judge",
    "harness_score",
]

HARNESS_JUDGE_PREFIX = "harness-"
"""Starts the judge name of a harness's own reward (`harness-agentlab`): no score file is so named."""
NO_NETWORK_TRACE = (
    "The harness kept no network trace (HAR), so the official evaluator's network checks cannot be"
    " run on this trajectory; its reward is the harness's own."
)
"""What the page says of a WebArena-Verified trajectory whose harness recorded no network."""
TEXT_LIMIT = 20_000
"""Characters of one message or page text kept (an accessibility tree may be megabytes)."""


class HarnessMessage(BaseModel):
    """One message of the agent's exchange with its model, or of the chat with the user."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: str
    """Who wrote it as the harness names them: system, user, assistant, tool, info ..."""
    text: str
    """Its text (image parts named, not embedded), at most `TEXT_LIMIT` characters."""


class HarnessStep(BaseModel):
    """What a harness recorded of one step beyond the action: reward, messages, page text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    """The `Step.index` it belongs to (1-based)."""
    file: str | None = None
    """The file it was read from, relative to the folder (`step_3.pkl.gz`); None when the record has none."""
    reward: float | None = None
    """The reward the environment gave after this step; None when the harness records none."""
    messages: tuple[HarnessMessage, ...] = ()
    """The prompt and reply of the agent's model at this step, in order; empty when not kept."""
    page_text: str | None = None
    """The page as the agent read it (an accessibility tree excerpt); None when not kept."""
    error: str | None = None
    """The error the action raised in the browser (BrowserGym's last_action_error); None without one."""
    marked_screenshot: str | None = None
    """The set-of-marks variant of the step's screenshot, relative to the folder; None when none."""
    extra: dict[str, Any] = {}
    """Other facts of the step as plain data (stats, metrics), by the harness's own names."""


class HarnessSubagent(BaseModel):
    """A trajectory the agent handed part of its task to (an ATIF subagent trajectory), its steps
    read as ours: the page shows them beside the step that delegated.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """Who it is, as the harness names it: its agent and trajectory id ("searcher (sub-1)"); a
    nested one after its parent's ("planner (p) › searcher (s)")."""
    source: str
    """Where it was read: the document and its place in it, or the file a reference named."""
    parent_step: int | None = None
    """The `Step.index` of the parent's tool call whose result refers to it; None when none does
    (or it is nested in another subagent)."""
    task: str | None = None
    """What it was asked (its first user step); None when it has none."""
    steps: tuple[Step, ...] = ()
    """Its tool calls as steps (numbered from 1 in its own trajectory)."""
    answer: str | None = None
    """What it said after its last action; None when it said nothing."""


class HarnessRecord(BaseModel):
    """A trajectory as another harness describes it, beyond what `Trajectory` holds for every format."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    harness: str
    """The harness that wrote it, in words ("AgentLab / BrowserGym")."""
    task_name: str | None = None
    """The harness's own name of the task (`webarena_verified.279.0.2`); None when it gives none."""
    seed: str | None = None
    """The task seed or episode number the harness ran; None when it gives none."""
    agent: str | None = None
    """The agent (and model) the harness names; None when it names none."""
    reward: float | None = None
    """The harness's own reward for the episode (also the `harness-<format>` judge); None without one."""
    reward_meaning: str | None = None
    """What that reward is ("mean of the evaluators' scores, not the official all-or-nothing")."""
    error_message: str | None = None
    """The error the episode ended on, as the harness wrote it; None when it ended cleanly."""
    stack_trace: str | None = None
    """Its stack trace; None when none was written."""
    terminated: bool | None = None
    """Whether the episode reached a terminal state (the agent finished); None when unknown."""
    truncated: bool | None = None
    """Whether it was cut at its step budget; None when unknown."""
    running: bool = False
    """Whether the harness is still writing the episode (no summary yet)."""
    stats: dict[str, Any] = {}
    """The harness's episode statistics as it names them (tokens, costs, times)."""
    log_excerpt: str | None = None
    """The beginning of the episode's log (`experiment.log`); None without one."""
    notes: tuple[str, ...] = ()
    """What the page must say of this trajectory (no network trace kept, ...)."""
    steps: tuple[HarnessStep, ...] = ()
    """Per-step records, by `Step.index`."""
    subagents: tuple[HarnessSubagent, ...] = ()
    """The trajectories the agent delegated to, in the order the harness lists them; empty when none."""

    def step(self, index: int) -> HarnessStep | None:
        """The record of step `index`; None when the harness kept none."""
        return next((s for s in self.steps if s.index == index), None)

    @property
    def rewarded(self) -> bool:
        """Whether it holds a reward (the episode's or a step's): a verdict of the harness's judge."""
        return self.reward is not None or any(s.reward is not None for s in self.steps)

    def without_rewards(self) -> HarnessRecord:
        """It without its rewards (the episode's, and each step's, which on WebArena end in the
        episode's): what a viewer may see of it while its verdicts are withheld.
        """
        steps = tuple(s.model_copy(update={"reward": None}) for s in self.steps)
        return self.model_copy(update={"reward": None, "reward_meaning": None, "steps": steps})


def harness_judge(format_name: str) -> str:
    """The judge name of a format's own reward: `harness-agentlab`."""
    return f"{HARNESS_JUDGE_PREFIX}{format_name}"


def harness_score(format_name: str, source: Path, reward: float | None) -> dict[str, ScoreFile]:
    """The harness's reward as a judge's score (`Trajectory.scores` / `Glance.scores`), read from
    `source` (the harness's file); {} without a reward.
    """
    if reward is None:
        return {}
    name = harness_judge(format_name)
    return {name: ScoreFile(name=name, path=source, score=reward)}


def clipped(text: str | None, limit: int = TEXT_LIMIT) -> str | None:
    """`text` cut to `limit` characters, saying so; None stays None."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters not shown]"
