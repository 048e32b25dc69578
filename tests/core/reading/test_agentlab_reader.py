"""AgentLab / BrowserGym episodes read as trajectories: steps from pickles of classes nobody can
import, the summary for the index (never a pickle), the harness's reward as its own judge, the
catalog's tasks, running episodes, and every malformed file named, never a traceback.
"""

from __future__ import annotations

import builtins
import gzip
import json
import os
import pickle
from pathlib import Path
from typing import Any

import pytest

from tests.harness.agentlab_writer import (
    VERIFIED_TASK,
    PlannedStep,
    episode_name,
    verified_steps,
    write_episode,
)
from webeval_core.reading import load_trajectory
from webeval_core.reading.agentlab_reader import catalog_task_id, parse_episode_name
from webeval_core.reading.glance import glance_trajectory
from webeval_core.reading.harness_record import NO_NETWORK_TRACE, harness_judge
from webeval_core.reading.task_state import TaskState, task_progress
from webeval_core.support.diagnostics import UnreadableError

TASK = VERIFIED_TASK.format(template=279, task=0)


@pytest.fixture
def episode(tmp_path: Path) -> Path:
    return write_episode(tmp_path / "study", TASK, verified_steps(), som=True)


def test_the_pickles_need_classes_nobody_can_import(episode: Path) -> None:
    with gzip.open(episode / "step_0.pkl.gz") as stream, pytest.raises(ModuleNotFoundError):
        pickle.load(stream)  # what AgentXRay does, and fails on


def test_steps_thoughts_urls_and_screenshots_come_from_the_pickles(episode: Path) -> None:
    t = load_trajectory(episode)
    assert t.layout == "agentlab"
    assert [(s.index, s.action, s.screenshot) for s in t.steps] == [
        (1, "click", "screenshot_step_0.png"),
        (2, "fill", "screenshot_step_1.png"),
        (3, "send_msg_to_user", "screenshot_step_2.png"),
    ]
    assert t.steps[0].thought == "I open the sales report."
    assert t.steps[0].arguments == {"code": "click('a51')", "args": ["a51"]}
    assert t.steps[1].typed_text == "January"
    assert t.steps[0].url == "http://localhost:7780/admin"
    assert t.screenshots[-1] == "screenshot_step_3.png"  # the final observation
    assert t.warnings == ()


def test_the_harness_record_holds_messages_page_text_rewards_and_marks(episode: Path) -> None:
    record = load_trajectory(episode).harness
    assert record is not None
    assert (record.task_name, record.seed, record.agent) == (TASK, "64", "GenericAgent-gpt-4o")
    first = record.step(1)
    assert first is not None
    assert [m.role for m in first.messages] == ["system", "user", "assistant"]
    assert "[image_url]" in first.messages[1].text
    assert first.page_text is not None and "[a51] link 'Sales'" in first.page_text
    assert first.marked_screenshot == "screenshot_som_step_0.png"
    last = record.step(3)
    assert last is not None and last.reward == 1.0  # the reward of the step's action: the next pickle's
    assert record.log_excerpt is not None and "Running experiment" in record.log_excerpt
    assert record.terminated is True and record.running is False


def test_the_final_answer_and_the_reward_as_the_harness_judge(episode: Path) -> None:
    t = load_trajectory(episode)
    assert t.outcome == "answered"
    assert t.final_answer_text is not None and json.loads(t.final_answer_text)["retrieved_data"] == ["42"]
    judge = harness_judge("agentlab")
    assert t.scores[judge].score == 1.0
    assert t.harness is not None and t.harness.reward == 1.0
    assert (
        t.harness.reward_meaning is not None and "mean of the evaluators' scores" in t.harness.reward_meaning
    )


def test_a_webarena_verified_episode_is_the_catalog_task_and_says_no_trace_was_kept(episode: Path) -> None:
    t = load_trajectory(episode)
    assert t.task_id == "0"  # webarena_verified.<template>.<task>.<revision>
    assert t.har_path is None
    assert t.harness is not None and t.harness.notes == (NO_NETWORK_TRACE,)
    assert catalog_task_id("webarena_verified.279.0.2") == "0"
    assert catalog_task_id("webarena.310") is None
    assert catalog_task_id("miniwob.click-test") is None


def test_other_benchmarks_keep_browsergym_task_names_and_the_goal(tmp_path: Path) -> None:
    folder = write_episode(
        tmp_path, "miniwob.click-test", [PlannedStep("click('a1')"), PlannedStep(None, reward=1.0)]
    )
    t = load_trajectory(folder)
    assert t.task_id == "miniwob.click-test"
    assert t.task_text is not None and t.task_text.text == "Goal of miniwob.click-test"
    assert t.harness is not None and t.harness.notes == ()


def test_the_glance_reads_the_summary_only_and_never_a_pickle(
    episode: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_open = os.open

    def watching(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", watching)
    monkeypatch.setattr(builtins, "open", _refuse_pickles(builtins.open))
    g = glance_trajectory(episode)
    assert not [p for p in opened if p.endswith((".pkl", ".pkl.gz"))]
    assert any(p.endswith("summary_info.json") for p in opened)
    assert (g.task_id, g.layout, g.outcome, g.steps, g.screenshots) == ("0", "agentlab", "answered", 3, 4)
    assert g.scores[harness_judge("agentlab")].score == 1.0
    assert g.duration_s == 15.0  # stats.cum_step_elapsed + stats.cum_agent_elapsed
    assert (g.token_usage.prompt_tokens, g.token_usage.completion_tokens) == (4000, 200)


def _refuse_pickles(real: Any) -> Any:
    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        assert not os.fspath(file).endswith((".pkl", ".pkl.gz")), file
        return real(file, *args, **kwargs)

    return guarded


def test_an_error_and_a_truncated_episode(tmp_path: Path) -> None:
    crashed = write_episode(
        tmp_path, "miniwob.a", [PlannedStep("click('a1')"), PlannedStep(None)], err_msg="boom"
    )
    cut = write_episode(
        tmp_path, "miniwob.b", [PlannedStep("click('a1')"), PlannedStep("click('a2')")], truncated=True
    )
    t = load_trajectory(crashed)
    assert t.outcome == "aborted"
    assert t.harness is not None and t.harness.error_message == "boom"
    assert t.harness.stack_trace is not None and "ValueError" in t.harness.stack_trace
    assert glance_trajectory(crashed).last_error == "boom"
    assert load_trajectory(cut).outcome == glance_trajectory(cut).outcome == "no_answer"
    # The task's state says the same (the Live page, watch, ls): an error is a crash (aborted, the
    # agent or environment raised), a cut finished.
    assert t.crash_reason == glance_trajectory(crashed).crash_reason == "boom"
    assert task_progress(crashed).state == TaskState.CRASHED
    assert task_progress(cut).state == TaskState.FINISHED


def test_a_running_episode_is_unfinished(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, TASK, verified_steps()[:2], finished=False)
    t = load_trajectory(folder)
    g = glance_trajectory(folder)
    assert t.outcome == g.outcome == "unfinished"
    assert task_progress(folder).state == TaskState.RUNNING
    assert t.harness is not None and t.harness.running
    assert len(t.steps) == 2
    assert any(w.file == "summary_info.json" and "still running" in w.message for w in t.warnings)


def test_a_hostile_step_is_reported_and_the_others_are_read(episode: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    (episode / "step_1.pkl.gz").write_bytes(gzip.compress(pickle.dumps(_Hostile(str(marker)))))
    t = load_trajectory(episode)
    assert not marker.exists()
    assert [s.index for s in t.steps] == [1, 2]  # steps 0 and 2 (step 1 left out)
    refused = [w for w in t.warnings if w.file == "step_1.pkl.gz"]
    assert refused and "refused" in refused[0].message and "system" in refused[0].message


class _Hostile:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        pytest.param("step_2.pkl.gz", b"not gzip", "cannot be read as a step", id="not-gzip"),
        pytest.param(
            "step_2.pkl.gz",
            gzip.compress(b"\x80\x04truncated", mtime=0),
            "cannot be read as a step",
            id="truncated",
        ),
        pytest.param("summary_info.json", b"{not json", "summary_info.json", id="summary-not-json"),
        pytest.param("summary_info.json", b'{"n_steps": "many"}', "n_steps", id="summary-wrong-type"),
    ],
)
def test_malformed_files_are_named_never_raised(
    episode: Path, name: str, content: bytes, expected: str
) -> None:
    (episode / name).write_bytes(content)
    t = load_trajectory(episode)
    assert any(w.file == name and expected in str(w) for w in t.warnings), t.warnings
    glance_trajectory(episode)  # no traceback either


def test_an_episode_with_nothing_readable_is_unreadable_with_the_file_named(tmp_path: Path) -> None:
    folder = tmp_path / episode_name(TASK, 1)
    folder.mkdir()
    (folder / "summary_info.json").write_text("[1, 2]")
    with pytest.raises(UnreadableError, match=r"summary_info\.json"):
        load_trajectory(folder)
    with pytest.raises(UnreadableError, match=r"summary_info\.json"):
        glance_trajectory(folder)


def test_episode_names_of_both_generations() -> None:
    assert parse_episode_name("2024-08-01_10-20-52_GenericAgent_on_miniwob.ascending-numbers_64_e6d2d5") == (
        "GenericAgent",
        "miniwob.ascending-numbers",
        "64",
    )
    assert parse_episode_name("2026-11-30_10-20-52_Agent-x_on_webarena_verified.279.0.2_64_1") == (
        "Agent-x",
        "webarena_verified.279.0.2",
        "64",
    )
    assert parse_episode_name("results") is None
