"""The dry run counts requests, images and tokens and sends nothing; a run's totals are the
replies' usage, priced when the profile gives prices."""

from __future__ import annotations

import time
from pathlib import Path

from tests.harness.scripted_llm import ScriptedEndpoint
from webeval_core.llm_judging import (
    ChatTransport,
    EndpointProfile,
    JudgeSession,
    estimate_run,
    load_material,
    make_judge,
    run_totals,
)


def test_the_dry_run_sends_nothing(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    session = JudgeSession(make_judge("webjudge"), profile, ChatTransport(profile))
    estimate = estimate_run(session, tail)
    # Per trajectory: key points, one per screenshot, the final request with 3 (the cap).
    shots = [len(load_material(folder).screenshots) for folder in tail]
    assert (estimate.trajectories, estimate.calls, estimate.images) == (4, sum(shots) + 8, sum(shots) + 4 * 3)
    assert estimate.prompt_tokens > 4 * 8 * 85
    assert estimate.completion_tokens == estimate.calls * profile.max_tokens
    assert estimate.cost is None
    assert endpoint.requests == []
    session.judge_folders(tail[:1])
    assert estimate_run(session, tail).judged_before == 1
    rest = sum(shots[1:]) + 6
    assert (
        f"3 to judge (1 judged before, 0 unreadable): {rest} request(s)"
        in estimate_run(session, tail).summary()
    )


def test_the_totals_are_the_replies_usage_priced(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tail: list[Path]
) -> None:
    priced = profile.model_copy(update={"price_input_per_mtok": 1.0, "price_output_per_mtok": 4.0})
    session = JudgeSession(make_judge("outcome"), priced, ChatTransport(priced))
    started = time.monotonic()
    outcomes = session.judge_folders(tail)
    totals = run_totals(outcomes, session.transport.counts(), priced, time.monotonic() - started)
    assert (totals.judged, totals.passed, totals.errors, totals.sent) == (4, 1, 0, 4)
    assert totals.prompt_tokens == sum(o.cost.prompt_tokens for o in outcomes) > 0
    assert totals.cost == (totals.prompt_tokens * 1.0 + totals.completion_tokens * 4.0) / 1e6
    assert "4 judged (1 success, 3 failure)" in totals.summary()
