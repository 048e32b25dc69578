"""What the trajectory page says of another harness's record (AgentLab, cube-harness,
Online-Mind2Web, Harbor): the episode's facts and notes in the header, each step's reward, error,
model messages and page text in the replay, and the subagents the agent delegated to (their steps
under the header, and beside the step that delegated). Pages lay these out; the wording is
decided here.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from webeval_core.presentation.wording import plural
from webeval_core.reading.harness_record import HarnessMessage, HarnessRecord, HarnessSubagent

if TYPE_CHECKING:
    from webeval_core.reading.trajectory_reader import Trajectory

__all__ = [
    "HarnessStepView",
    "HarnessView",
    "SubagentStepRow",
    "SubagentView",
    "harness_step_view",
    "harness_view",
    "layout_facts",
    "no_trace_text",
]

_CELL = 300  # characters of an argument list or an observation in a subagent's table


class SubagentStepRow(BaseModel):
    """One step of a subagent, as its table shows it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int
    """Its number in the subagent's own trajectory."""
    action: str
    """The tool it called."""
    arguments: str
    """Its arguments as compact JSON, cut to a cell's length."""
    thought: str | None
    """Its reasoning; None without one."""
    observation: str | None
    """What the call returned, cut to a cell's length; None without one."""


class SubagentView(BaseModel):
    """A subagent's part of the page: a title saying who and where it was delegated, its task,
    its steps and its answer.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    """"Subagent searcher (sub-1): 2 steps, delegated at step 1"."""
    source: str
    """Where it was read (the document and its place, or its own file)."""
    task: str | None
    """What it was asked; None when its document says nothing."""
    steps: tuple[SubagentStepRow, ...]
    """Its steps, in order."""
    answer: str | None
    """What it answered; None when it said nothing after its last action."""


class HarnessView(BaseModel):
    """The header's part for a harness's trajectory."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    facts: tuple[str, ...]
    """Short facts, shown as one caption: the harness, its task name and seed, the agent, the reward."""
    notes: tuple[str, ...]
    """Sentences the page must show as they are (no network trace kept, still running)."""
    error: str | None
    """The error the episode ended on, with its stack trace below it; None when it ended cleanly."""
    log_excerpt: str | None
    """The beginning of the harness's log; None without one."""
    stats: tuple[tuple[str, str], ...]
    """The harness's statistics (name, value), in its own names."""
    subagents: tuple[SubagentView, ...] = ()
    """The trajectories the agent delegated to, in the harness's order."""


class HarnessStepView(BaseModel):
    """The replay's part for one step of a harness's trajectory."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    facts: tuple[str, ...]
    """The step's reward and the file it was read from, as one caption."""
    error: str | None
    """The error the action raised in the browser; None without one."""
    messages: tuple[HarnessMessage, ...]
    """The agent's exchange with its model at this step."""
    page_text: str | None
    """The page as the agent read it (accessibility tree); None when not kept."""
    marked_screenshot: str | None
    """The set-of-marks screenshot of the step, relative to the folder; None without one."""
    delegated: tuple[SubagentView, ...] = ()
    """The subagents this step's call handed work to (their steps shown beside it)."""


def layout_facts(trajectory: Trajectory) -> tuple[str, ...]:
    """The header's facts of how the trajectory was kept: its layout, the writer of its
    web_surfer.log (only of a layout that writes one: another harness's episode has none, and
    "log: none" would read as a log lost), its steps and screenshots.
    """
    facts = [f"layout: {trajectory.layout}"]
    if trajectory.harness is None or trajectory.log_generation is not None:
        facts.append(f"log: {trajectory.log_generation or 'none'}")
    facts += [plural(len(trajectory.steps), "step"), plural(len(trajectory.screenshots), "screenshot")]
    return tuple(facts)


def no_trace_text(record: HarnessRecord | None) -> str:
    """What the Network tab says of a trajectory without a network trace: of another harness's
    episode, that its harness kept none (no file was lost: there are no requests to show, and the
    official evaluator's network checks cannot be run on it).
    """
    if record is None:
        return "This trajectory has no network trace (network.har or a Playwright trace)."
    return (
        f"{record.harness} kept no network trace of this episode (no network.har or Playwright trace):"
        " there are no requests to show, and the official evaluator's network checks cannot be run on it."
    )


def harness_view(record: HarnessRecord) -> HarnessView:
    """The header's facts, notes, error and log of a harness's record."""
    facts = [f"harness: {record.harness}"]
    if record.task_name:
        facts.append(f"its task: {record.task_name}" + (f" (seed {record.seed})" if record.seed else ""))
    if record.agent:
        facts.append(f"agent: {record.agent}")
    if record.reward is not None:
        meaning = f" ({record.reward_meaning})" if record.reward_meaning else ""
        facts.append(f"the harness's reward: {record.reward:g}{meaning}")
    if record.terminated is not None or record.truncated is not None:
        ended = (
            "terminated" if record.terminated else "cut at its step budget" if record.truncated else "neither"
        )
        facts.append(f"ended: {ended}")
    notes = list(record.notes)
    if record.running:
        notes.append("The harness is still writing this episode: it has no summary yet.")
    error = record.error_message
    if error and record.stack_trace:
        error = f"{error}\n\n{record.stack_trace}"
    stats = tuple(
        (key, f"{value:g}" if isinstance(value, float) else str(value))
        for key, value in sorted(record.stats.items())
    )
    return HarnessView(
        facts=tuple(facts),
        notes=tuple(notes),
        error=error,
        log_excerpt=record.log_excerpt,
        stats=stats,
        subagents=tuple(subagent_view(sub) for sub in record.subagents),
    )


def subagent_view(sub: HarnessSubagent) -> SubagentView:
    """A subagent's title, task, steps and answer."""
    where = f", delegated at step {sub.parent_step}" if sub.parent_step is not None else ""
    rows = tuple(
        SubagentStepRow(
            step=step.index,
            action=step.action,
            arguments=_cut(json.dumps(step.arguments, ensure_ascii=False, default=str)),
            thought=step.thought,
            observation=_cut(step.observation) if step.observation else None,
        )
        for step in sub.steps
    )
    return SubagentView(
        title=f"Subagent {sub.name}: {plural(len(sub.steps), 'step')}{where}",
        source=sub.source,
        task=sub.task,
        steps=rows,
        answer=sub.answer,
    )


def _cut(text: str) -> str:
    return text if len(text) <= _CELL else text[: _CELL - 1] + "…"


def harness_step_view(record: HarnessRecord | None, index: int) -> HarnessStepView | None:
    """Step `index`'s part of a harness's record; None when the harness kept nothing of it."""
    step = record.step(index) if record is not None else None
    if step is None or record is None:
        return None
    delegated = tuple(subagent_view(sub) for sub in record.subagents if sub.parent_step == index)
    facts = []
    if step.reward is not None:
        facts.append(f"reward after this step: {step.reward:g}")
    if step.file:
        facts.append(f"read from {step.file}")
    if step.marked_screenshot:
        facts.append(f"set-of-marks screenshot: {step.marked_screenshot}")
    return HarnessStepView(
        facts=tuple(facts),
        error=step.error,
        messages=step.messages,
        page_text=step.page_text,
        marked_screenshot=step.marked_screenshot,
        delegated=delegated,
    )
