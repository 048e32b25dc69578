"""`webeval watch`: the progress of a run being written, in plain lines, until the run is over."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.live_writer import LiveWriter, Script

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_watch_follows_a_run_to_its_end_and_says_each_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "root"
    scripts: dict[str, Script] = {"1": "finish", "2": "crash", "3": "finish", "4": "resume"}
    writer = LiveWriter(root / "runs" / "live" / "0", "fara", scripts, pace=(0.1, 0.3), parallel=2).start()
    while not writer.truth:  # the run exists once its first task wrote a file
        time.sleep(0.02)
    code, out = run_cli("watch", str(root), "--every", "0.2", "--expected", "4")
    writer.join()
    assert code == 0
    lines = out.splitlines()
    progress = [line.strip() for line in lines if " over (" in line]
    assert len(progress) > 2  # said again as tasks finished
    assert progress[0].startswith("0 of 4 over") or " running" in progress[0]
    # Task 4 replays sample 156, an aborted answer: over, aborted, never counted.
    assert progress[-1].startswith("4 of 4 over (2 finished, 2 aborted (1 crashed)) · 0 running · 0 stalled")
    assert "runs/live/0 (over)" in lines
    assert any(line.strip() == "the run is over" for line in lines)
    # No rate ever counted a task before it finished: each rate line's count is at most the finished.
    for line in lines:
        if "success so far" in line and " of " in line and "none counted" not in line:
            counted = int(line.split(" of ")[1].split()[0])
            assert counted <= 2


def test_watch_once_on_the_samples(tmp_path: Path) -> None:
    code, out = run_cli("watch", str(REPO / "sample_runs"), "--once", "--run", "webarena-verified-cli")
    assert code == 0
    assert out.splitlines() == [
        "webarena-verified-cli (over)",
        "  5 of 5 seen over (5 finished, 0 aborted) · 0 running · 0 stalled (silent over 10 min)",
        (
            "  success so far 80.0% of 5 finished tasks counted (95% CI 37.6% – 96.4%)"
            " · verdicts of the official WebArena-Verified evaluator"
        ),
        "  the run is over",
    ]


def test_watch_says_what_it_cannot_follow(tmp_path: Path) -> None:
    assert run_cli("watch", str(tmp_path / "missing"))[0] == 1
    assert run_cli("watch", str(REPO / "sample_runs"), "--run", "nope")[0] == 1
