"""What the trajectory page says of a harness's record: facts, notes, errors, a step's part."""

from __future__ import annotations

from pathlib import Path

from tests.harness.agentlab_writer import VERIFIED_TASK, verified_steps, write_episode
from tests.harness.builders import fara_folder
from webeval_core.presentation.harness_words import (
    harness_step_view,
    harness_view,
    layout_facts,
    no_trace_text,
)
from webeval_core.reading.actionlog import Step
from webeval_core.reading.harness_record import (
    NO_NETWORK_TRACE,
    HarnessMessage,
    HarnessRecord,
    HarnessStep,
    HarnessSubagent,
)
from webeval_core.reading.trajectory_reader import load_trajectory


def _record(**changes: object) -> HarnessRecord:
    base = HarnessRecord(
        harness="AgentLab / BrowserGym",
        task_name="webarena_verified.279.0.2",
        seed="64",
        agent="GenericAgent",
        reward=0.5,
        reward_meaning="the mean of the evaluators' scores",
        terminated=True,
        stats={"cum_cost": 0.125, "cum_steps": 4},
        notes=(NO_NETWORK_TRACE,),
        steps=(
            HarnessStep(
                index=1,
                file="step_0.pkl.gz",
                reward=0.0,
                error="element a51 not found",
                messages=(HarnessMessage(role="user", text="hi"),),
                marked_screenshot="screenshot_som_step_0.png",
            ),
        ),
    )
    return base.model_copy(update=changes)


def test_the_header_says_the_harness_task_reward_and_ending() -> None:
    view = harness_view(_record())
    assert view.facts == (
        "harness: AgentLab / BrowserGym",
        "its task: webarena_verified.279.0.2 (seed 64)",
        "agent: GenericAgent",
        "the harness's reward: 0.5 (the mean of the evaluators' scores)",
        "ended: terminated",
    )
    assert view.notes == (NO_NETWORK_TRACE,)
    assert view.stats == (("cum_cost", "0.125"), ("cum_steps", "4"))
    assert view.error is None


def test_a_running_episode_and_an_error_with_its_trace() -> None:
    view = harness_view(
        _record(running=True, terminated=None, error_message="boom", stack_trace="Traceback ...", notes=())
    )
    assert view.notes == ("The harness is still writing this episode: it has no summary yet.",)
    assert view.error == "boom\n\nTraceback ..."
    assert not any(fact.startswith("ended") for fact in view.facts)


def test_a_step_part_and_none_where_nothing_was_kept() -> None:
    step = harness_step_view(_record(), 1)
    assert step is not None
    assert step.facts == (
        "reward after this step: 0",
        "read from step_0.pkl.gz",
        "set-of-marks screenshot: screenshot_som_step_0.png",
    )
    assert step.error == "element a51 not found" and len(step.messages) == 1
    assert harness_step_view(_record(), 2) is None
    assert harness_step_view(None, 1) is None


def test_a_subagent_is_said_with_its_steps_and_beside_the_step_that_delegated() -> None:
    long = "x" * 1000
    sub = HarnessSubagent(
        name="searcher (s-1)",
        source="agent/trajectory.json: subagent_trajectories[0]",
        parent_step=1,
        task="Search.",
        steps=(Step(index=1, action="search", arguments={"q": "Oslo"}, observation=long),),
        answer="89 EUR",
    )
    record = _record(subagents=(sub, sub.model_copy(update={"name": "other", "parent_step": None})))
    view = harness_view(record)
    assert [s.title for s in view.subagents] == [
        "Subagent searcher (s-1): 1 step, delegated at step 1",
        "Subagent other: 1 step",
    ]
    row = view.subagents[0].steps[0]
    assert (row.step, row.action, row.arguments) == (1, "search", '{"q": "Oslo"}')
    assert row.observation is not None and len(row.observation) == 300 and row.observation.endswith("…")
    step = harness_step_view(record, 1)
    assert step is not None and [s.title for s in step.delegated] == [view.subagents[0].title]


def test_no_trace_text_says_the_harness_kept_none() -> None:
    # Another harness's episode never had a trace to lose: its Network tab says whose it is.
    said = no_trace_text(_record())
    assert said.startswith("AgentLab / BrowserGym kept no network trace of this episode")
    assert "network checks cannot be run" in said
    assert no_trace_text(None) == "This trajectory has no network trace (network.har or a Playwright trace)."


def test_layout_facts_name_a_log_only_where_the_layout_writes_one(tmp_path: Path) -> None:
    fara = load_trajectory(fara_folder(tmp_path / "fara"))
    assert layout_facts(fara)[:2] == ("layout: fara", "log: fara-structured")
    episode = write_episode(tmp_path / "study", VERIFIED_TASK.format(template=279, task=0), verified_steps())
    agentlab = load_trajectory(episode)
    facts = layout_facts(agentlab)
    assert facts[0] == "layout: agentlab" and not any(f.startswith("log:") for f in facts), facts
    assert facts[1:] == (f"{len(agentlab.steps)} steps", f"{len(agentlab.screenshots)} screenshots")
