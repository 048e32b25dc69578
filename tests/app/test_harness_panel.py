"""AppTest of the trajectory page on an AgentLab episode: the harness's facts and the no-trace note
in the header, its reward as its own judge's badge, each step's reward and model messages; on a
Harbor trial, the subagents' steps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.harness.agentlab_writer import VERIFIED_TASK, verified_steps, write_episode
from tests.harness.harbor_writer import delegating_trial
from webeval_core.reading.harness_record import NO_NETWORK_TRACE
from webeval_ui.state import Key

PAGE = "pages/trajectory.py"


def test_an_agentlab_episode_shows_its_harness_record(tmp_path: Path, app: Callable[..., AppTest]) -> None:
    write_episode(tmp_path / "study", VERIFIED_TASK.format(template=279, task=0), verified_steps())
    at = app(PAGE, tmp_path, run="study", task="0", step="3")
    captions = [_plain(c.value) for c in at.caption]
    assert any("harness: AgentLab / BrowserGym" in c and "webarena_verified.279.0.2" in c for c in captions)
    assert any(NO_NETWORK_TRACE in _plain(i.value) for i in at.info)
    badges = [_plain(m.value) for m in at.markdown if "badge[" in m.value]
    assert any("the harness's own reward (agentlab): 1" in b for b in badges), badges
    assert any("reward after this step: 1" in c for c in captions), captions
    assert any("The model's messages at this step (3)" in e.label for e in at.expander)
    assert not at.exception


def _plain(markdown: str) -> str:
    """Text as written, without the escapes `inert` puts before Markdown's characters."""
    return markdown.replace("\\", "")


def test_a_harbor_trial_shows_its_subagents_steps(tmp_path: Path, app: Callable[..., AppTest]) -> None:
    # The subagents' steps: under the header, and beside the step whose call delegated.
    delegating_trial(tmp_path / "job" / "oslo__x1")
    at = app(PAGE, tmp_path, run="job", task="oslo", step="1")
    labels = [_plain(e.label) for e in at.expander]
    assert "Subagents (3): their steps" in labels, labels
    assert "Subagents this step delegated to (1): their steps" in labels, labels
    at.session_state[Key.HARNESS_DELEGATED] = True
    at.run()
    assert not at.exception
    said = [_plain(m.value) for m in at.markdown]
    assert "**Subagent searcher (searcher-1): 2 steps, delegated at step 1**" in said, said
    tables = [frame.value for frame in at.dataframe]
    steps = next(t for t in tables if "observation" in t.columns)
    assert list(steps["action"]) == ["search", "delegate"] and list(steps["observation"]) == [
        "3 results",
        "89 EUR",
    ]
    assert any("Its answer: The cheapest is 89 EUR." in t.value for t in at.text)


def test_an_agentlab_episodes_judges_network_and_header_say_what_the_harness_kept(
    tmp_path: Path, app: Callable[..., AppTest]
) -> None:
    # Its reward is a judge with no reply of its own: the Judges tab says whose, from where, what it means.
    write_episode(tmp_path / "study", VERIFIED_TASK.format(template=279, task=0), verified_steps())
    at = app(PAGE, tmp_path, run="study", task="0", tab="Judges")
    assert not at.exception
    said = [t.value for t in at.text]
    assert any(
        t.startswith("AgentLab / BrowserGym's own reward for the episode, 1, read from summary_info.json.")
        and "BrowserGym's reward: on WebArena tasks the mean of the evaluators' scores" in t
        for t in said
    ), said
    # No "log: none" (AgentLab writes no web_surfer.log: nothing is missing).
    header = next(h for h in (_plain(c.value) for c in at.caption) if "layout: agentlab" in h)
    assert "log:" not in header, header
    at = app(PAGE, tmp_path, run="study", task="0", tab="Network")
    assert not at.exception
    infos = [_plain(i.value) for i in at.info]
    assert any(i.startswith("AgentLab / BrowserGym kept no network trace of this episode") for i in infos), (
        infos
    )
