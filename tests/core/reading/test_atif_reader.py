"""ATIF documents read as trajectories: our own export read back is the trajectory it was written
from; a Harbor trial (agent/trajectory.json + result.json) gives its reward as the harness's judge;
running trials, tool calls with observations, images by path; malformed documents named; the
subagent trajectories read beside the step that delegated to them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.harness import harbor_writer as harbor
from tests.harness.atif_schema import atif_problems
from webeval_core.presentation.atif import write_atif_folder
from webeval_core.presentation.frames import frames_of
from webeval_core.presentation.redaction import Redactor
from webeval_core.reading import load_trajectory
from webeval_core.reading.glance import glance_trajectory
from webeval_core.reading.harness_record import harness_judge
from webeval_core.runs import build_index
from webeval_core.support.diagnostics import UnreadableError

SAMPLE = Path(__file__).resolve().parents[3] / "sample_runs" / "runs"
PNG = SAMPLE.rglob("screenshot*.png")


def test_our_atif_export_read_back_is_the_same_trajectory(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(SAMPLE / "WebSurfer-fara-100-max_n_images-3", root / "WebSurfer-fara-100-max_n_images-3")
    index = build_index(root)
    written = write_atif_folder(index, tmp_path / "atif", Redactor(None))
    assert written
    compared = 0
    for document in written:
        exported = load_trajectory(document.parent)
        summary = next(s for s in index.summaries if s.path.name == document.parent.name)
        original = load_trajectory(summary.path)
        assert exported.layout == "harbor-atif"
        assert (exported.task_id, exported.outcome) == (original.task_id, original.outcome)
        assert exported.final_answer_text == original.final_answer_text
        assert [
            (s.index, s.action, s.arguments, s.thought, s.url, s.time_utc, s.screenshot)
            for s in exported.steps
        ] == [
            (s.index, s.action, s.arguments, s.thought, s.url, s.time_utc, s.screenshot)
            for s in original.steps
        ]
        assert set(exported.screenshots) <= set(original.screenshots)
        assert [f[:2] for f in frames_of(exported)] == [f[:2] for f in frames_of(original)]  # the same replay
        glance = glance_trajectory(document.parent)
        assert (glance.task_id, glance.outcome, glance.steps) == (
            original.task_id,
            original.outcome,
            len(original.steps),
        )
        compared += 1
    assert compared == len(written)


def _trial(folder: Path, *, result: dict[str, Any] | None, steps: list[dict[str, Any]]) -> Path:
    """A Harbor trial folder as Harbor leaves it (facts from its repository and the RFC)."""
    (folder / "agent" / "images").mkdir(parents=True)
    png = next(iter(PNG)).read_bytes()
    (folder / "agent" / "images" / "step_2.png").write_bytes(png)
    (folder / "agent" / "images" / "start.png").write_bytes(png)
    document = {
        "schema_version": "ATIF-v1.6",
        "session_id": "s-1",
        "agent": {"name": "browser-agent", "version": "0.3", "model_name": "gpt-5"},
        "steps": steps,
        "final_metrics": {
            "total_prompt_tokens": 1200,
            "total_completion_tokens": 80,
            "total_steps": len(steps),
        },
    }
    assert atif_problems(document) == []  # the fixture is valid ATIF, as Harbor's models check theirs
    (folder / "agent" / "trajectory.json").write_text(json.dumps(document))
    if result is not None:
        (folder / "result.json").write_text(json.dumps(result))
    return folder


def _steps() -> list[dict[str, Any]]:
    return [
        {"step_id": 1, "source": "system", "message": "You drive a browser."},
        {
            "step_id": 2,
            "source": "user",
            "message": [
                {"type": "text", "text": "Find the cheapest flight to Oslo."},
                {"type": "image", "source": {"media_type": "image/png", "path": "images/start.png"}},
            ],
        },
        {
            "step_id": 3,
            "source": "agent",
            "message": "",
            "reasoning_content": "I search first.",
            "tool_calls": [
                {"tool_call_id": "c1", "function_name": "type", "arguments": {"text": "Oslo"}},
                {"tool_call_id": "c2", "function_name": "left_click", "arguments": {"coordinate": [10, 20]}},
            ],
            "observation": {
                "results": [
                    {"source_call_id": "c1", "content": "typed"},
                    {
                        "source_call_id": "c2",
                        "content": [
                            {"type": "text", "text": "results page"},
                            {
                                "type": "image",
                                "source": {"media_type": "image/png", "path": "images/step_2.png"},
                            },
                        ],
                    },
                ]
            },
            "metrics": {"prompt_tokens": 600, "completion_tokens": 40},
        },
        {"step_id": 4, "source": "agent", "message": "The cheapest is 89 EUR."},
    ]


def test_a_harbor_trial_reads_steps_observations_images_and_the_reward(tmp_path: Path) -> None:
    result = {
        "task_name": "flights-oslo",
        "started_at": "2026-11-30T10:00:00Z",
        "finished_at": "2026-11-30T10:05:00Z",
        "verifier_result": {"rewards": {"reward": 1.0}},
    }
    trial = _trial(tmp_path / "job" / "flights-oslo__AbC123", result=result, steps=_steps())
    t = load_trajectory(trial)
    assert t.duration_s == 300.0  # the trial's finished_at - started_at (the list said "unknown")
    assert (t.layout, t.task_id, t.outcome) == ("harbor-atif", "flights-oslo", "answered")
    assert [(s.index, s.action) for s in t.steps] == [(1, "type"), (2, "left_click")]
    assert t.steps[0].thought == "I search first." and t.steps[1].thought is None
    assert t.steps[1].observation == "results page"
    # Each action on the page it was taken on: the start page the user step gave, then the page the
    # first call led to (its result kept no image: unknown); the page the last led to comes after.
    assert [s.screenshot for s in t.steps] == ["agent/images/start.png", None]
    assert t.final_page == "agent/images/step_2.png"
    assert [f.screenshot for f in frames_of(t)] == ["agent/images/start.png", None, "agent/images/step_2.png"]
    assert t.final_answer_text == "The cheapest is 89 EUR."
    assert t.task_text is not None and t.task_text.text == "Find the cheapest flight to Oslo."
    assert t.scores[harness_judge("harbor-atif")].score == 1.0
    assert t.harness is not None and t.harness.stats["total_prompt_tokens"] == 1200
    step = t.harness.step(1)
    assert step is not None and step.extra["prompt_tokens"] == 600
    g = glance_trajectory(trial)
    assert (g.task_id, g.outcome, g.steps, g.final_answer_text) == (
        "flights-oslo",
        "answered",
        2,
        t.final_answer_text,
    )
    assert (g.token_usage.prompt_tokens, g.screenshots, g.duration_s) == (1200, 2, 300.0)
    assert g.scores[harness_judge("harbor-atif")].score == 1.0


def test_a_trial_without_its_result_is_running_and_an_exception_is_aborted(tmp_path: Path) -> None:
    running = _trial(tmp_path / "a", result=None, steps=_steps()[:3])
    assert load_trajectory(running).outcome == glance_trajectory(running).outcome == "unfinished"
    failed = {
        "task_name": "x",
        "exception_info": {"exception_message": "timeout", "exception_traceback": "Tb"},
    }
    crashed = _trial(tmp_path / "b", result=failed, steps=_steps()[:3])
    t = load_trajectory(crashed)
    assert t.outcome == "aborted"
    assert t.harness is not None and (t.harness.error_message, t.harness.stack_trace) == ("timeout", "Tb")
    assert glance_trajectory(crashed).last_error == "timeout"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{broken", "trajectory.json"),
        ("[]", "not an ATIF document"),
        ('{"schema_version": "other-1"}', "schema_version 'other-1'"),
    ],
)
def test_malformed_documents_are_unreadable_with_the_file_named(
    tmp_path: Path, content: str, expected: str
) -> None:
    (tmp_path / "trajectory.json").write_text(content)
    with pytest.raises(UnreadableError, match=expected):
        load_trajectory(tmp_path)
    with pytest.raises(UnreadableError, match=expected):
        glance_trajectory(tmp_path)


def test_malformed_steps_are_warnings_naming_the_document(tmp_path: Path) -> None:
    steps = [
        *_steps(),
        "not a step",
        {"source": "robot"},
        {"source": "agent", "tool_calls": [{"no": "name"}]},
    ]
    (tmp_path / "trajectory.json").write_text(json.dumps({"schema_version": "ATIF-v1.5", "steps": steps}))
    t = load_trajectory(tmp_path)
    messages = [w.message for w in t.warnings if w.file == "trajectory.json"]
    assert any("step 5 is not an object" in m for m in messages)
    assert any("source 'robot'" in m for m in messages)
    assert any("without a function_name" in m for m in messages)
    assert len(t.steps) == 2


def test_subagent_trajectories_are_read_beside_the_step_that_delegated(tmp_path: Path) -> None:
    trial = harbor.delegating_trial(tmp_path / "job" / "oslo__x1")
    t = load_trajectory(trial)
    assert [(s.index, s.action) for s in t.steps] == [(1, "delegate"), (2, "delegate")]
    assert t.harness is not None
    subs = {sub.name: sub for sub in t.harness.subagents}
    assert list(subs) == [
        "searcher (searcher-1)",
        "searcher (searcher-1) › reader (reader-1)",
        "checker (checker-1)",
    ]
    searcher = subs["searcher (searcher-1)"]
    assert (searcher.parent_step, searcher.task, searcher.answer) == (
        1,
        "Search flights to Oslo.",
        "The cheapest is 89 EUR.",
    )
    assert [(s.index, s.action, s.arguments, s.thought, s.observation) for s in searcher.steps] == [
        (1, "search", {"query": "Oslo flights"}, "I search.", "3 results"),
        (2, "delegate", {"to": "reader"}, None, "89 EUR"),
    ]
    assert searcher.source == "agent/trajectory.json: subagent_trajectories[0]"
    nested = subs["searcher (searcher-1) › reader (reader-1)"]
    assert nested.parent_step is None and [s.action for s in nested.steps] == ["read_page"]
    checker = subs["checker (checker-1)"]
    assert (checker.parent_step, checker.source) == (2, "agent/subagents/checker-1.json")
    assert [s.observation for s in checker.steps] == ["hotel list"]
    assert not t.warnings, t.warnings
    # The glance counts the agent's own steps; the subagents are the page's.
    assert glance_trajectory(trial).steps == 2


def test_a_v1_6_reference_by_session_and_broken_references_are_warnings(tmp_path: Path) -> None:
    sub = harbor.document([harbor.agent_step(3, "search", {"q": "x"})], trajectory_id="", agent="old")
    sub["session_id"] = "session-old"
    del sub["trajectory_id"]
    main = harbor.document(
        [
            harbor.agent_step(3, "delegate", {}, refs=[{"session_id": "session-old"}]),
            harbor.agent_step(4, "delegate", {}, refs=[{"trajectory_id": "missing"}]),
            harbor.agent_step(5, "delegate", {}, refs=[{"trajectory_path": "../../outside.json"}]),
            harbor.agent_step(6, "delegate", {}, refs=[{"trajectory_path": "s3://bucket/sub.json"}]),
        ],
        subagents=[sub],
    )
    trial = harbor.write_trial(tmp_path / "job" / "t__1", main)
    harbor.finish_trial(trial)
    t = load_trajectory(trial)
    assert t.harness is not None
    assert [(s.name, s.parent_step) for s in t.harness.subagents] == [("old (session-old)", 1)]
    said = [w.message for w in t.warnings if w.file == "agent/trajectory.json"]
    assert any("step 2 refers to no subagent the document holds: missing" in m for m in said), said
    assert any("step 3's subagent" in m and "outside" in m for m in said), said
    assert any("step 4 refers to a path it cannot open" in m for m in said), said
