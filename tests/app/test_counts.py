"""One run, one count (issue 49): a run's task states (finished, aborted, crashed, unfinished) and
what its rate counts are the same on the Overview, the Live page, the Results page, Compare (its
rate), `ls --json`, `report --format json`, `watch` and the bundle's data, for every sample run
and for a run a writer is still writing.

The expected counts come from the files, by the one rule (`reading.task_state.task_progress`, the
live writer's own truth for the live run), and the rate's from the root's default judge
(`runs.judges.default_judge`); every view must say exactly those.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.core.cli.helpers import run_cli
from tests.harness.live_writer import LiveWriter, Script
from webeval_core.presentation.charts import DETAILED_RUNS
from webeval_core.reading import RUNNING_WINDOW_S, load_catalog
from webeval_core.reading.task_state import count_states, task_progress
from webeval_core.runs import available_judges, default_judge
from webeval_core.runs.index import build_index
from webeval_core.runs.metrics import headlines, run_labels, trajectory_frame
from webeval_core.support.vocabulary import percent
from webeval_ui.page_links import PAGES
from webeval_ui.state import Key

pytestmark = pytest.mark.slow  # every sample run through every view, and a run written live

OpenPage = Callable[..., AppTest]
_OVER = re.compile(r"(\d+) of \d+(?: seen)? over \((\d+) finished, (\d+) aborted(?: \((\d+) crashed\))?\)")
_STILL = re.compile(r"· (\d+) running · (\d+) stalled")
_RATE = re.compile(r"success so far [\d.]+% of (\d+) finished tasks? counted")
_CRASHED = re.compile(r"\((\d+) crashed")


@dataclass(frozen=True)
class Counts:
    """What every view must say of one run."""

    trajectories: int
    finished: int
    aborted: int
    crashed: int
    unfinished: int
    counted: int
    passed: int | None = None
    """Passes among the counted (None where a view does not say them)."""


def truth(root: Path) -> dict[str, Counts]:
    """Each run's counts: its folders' states by the one rule, its rate under the root's default judge."""
    index = build_index(root)
    judge = default_judge(available_judges(index))
    heads = headlines(trajectory_frame(index, load_catalog(), judge))
    found = {}
    for run in index.runs:
        members = [s for s in index.summaries if s.run_key == run.key]
        states = count_states(task_progress(s.path).state for s in members)
        head = heads[run.key]
        found[run.key] = Counts(
            trajectories=len(members),
            finished=states.finished,
            aborted=states.aborted,
            crashed=states.crashed,
            unfinished=states.unfinished,
            counted=head.counted,
            passed=head.passed,
        )
    return found


def from_overview(app: OpenPage, root: Path, runs: list[str]) -> dict[str, Counts]:
    """Each run's row of metrics, the Overview opened on at most DETAILED_RUNS runs at a time (with
    more it pools them in one row)."""
    labels = run_labels(build_index(root).runs)
    found: dict[str, Counts] = {}
    for first in range(0, len(runs), DETAILED_RUNS):
        chunk = runs[first : first + DETAILED_RUNS]
        at = app(PAGES["overview"], root=root, shown_runs=[labels[run] for run in chunk])
        found |= _overview_rows(at, chunk)
    return found


def _overview_rows(at: AppTest, runs: list[str]) -> dict[str, Counts]:
    shown = [(m.label, str(m.value), m.proto.help) for m in at.main.metric]
    starts = [i for i, (label, _, _) in enumerate(shown) if label == "Trajectories"]
    assert len(starts) == len(runs)  # a row of metrics per run, in the runs' order
    found = {}
    for run, start, end in zip(runs, starts, [*starts[1:], len(shown)], strict=True):
        row = {label: (value, help_) for label, value, help_ in shown[start:end]}
        passed, counted = row["Passed"][0].split(" / ")
        crashed = _CRASHED.search(row["Aborted"][1])
        found[run] = Counts(
            trajectories=int(row["Trajectories"][0]),
            finished=int(row["Finished"][0]),
            aborted=int(row["Aborted"][0]),
            crashed=int(crashed.group(1)) if crashed else -1,
            unfinished=int(row.get("Unfinished", ("0", ""))[0]),
            counted=int(counted),
            passed=int(passed),
        )
    return found


def from_live(app: OpenPage, root: Path, run: str) -> Counts:
    at = app(PAGES["live"], root=root, **{Key.LIVE_RUN.value: run})
    metrics = {m.label: (str(m.value), m.proto.help) for m in at.main.metric}
    said = at.main.get("progress")[0].proto.text
    over = _OVER.search(said)
    assert over is not None, said
    rate = next((_RATE.search(c.value) for c in at.main.caption if _RATE.search(c.value)), None)
    crashed = _CRASHED.search(metrics["Aborted"][1])
    assert crashed is not None and int(crashed.group(1)) == int(over.group(4) or 0)
    return Counts(
        trajectories=int(over.group(1)) + int(metrics["Running"][0]) + int(metrics["Stalled"][0]),
        finished=int(metrics["Finished"][0]),
        aborted=int(metrics["Aborted"][0]),
        crashed=int(crashed.group(1)),
        unfinished=int(metrics["Running"][0]) + int(metrics["Stalled"][0]),
        counted=int(rate.group(1)) if rate else 0,
    )


def from_compare(app: OpenPage, root: Path, runs: list[str]) -> dict[str, str]:
    """The success rate Compare gives each run, as run A against the first other run."""
    found = {}
    for run in runs:
        other = next(r for r in runs if r != run)
        at = app(PAGES["compare"], root=root)
        at.selectbox(key=Key.RUN_A).set_value(run)
        at.selectbox(key=Key.RUN_B).set_value(other).run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.selectbox(key=Key.RUN_A).value == run
        found[run] = str(next(m.value for m in at.main.metric if m.label == "Success A"))
    return found


def from_results(app: OpenPage, root: Path) -> dict[str, tuple[int, int, int]]:
    """(trajectories, finished, counted as scored) of each run's line on the Results page."""
    at = app(PAGES["published"], root=root)
    table = at.main.dataframe[0].value
    return {
        str(row["run"]): (int(row["trajectories"]), int(row["finished"]), _counted(str(row["scored"])))
        for _, row in table.iterrows()
        if row["run"] != "all"
    }


def _counted(cell: str) -> int:
    return int(cell.split(" of ")[1]) if " of " in cell else 0


def from_ls(root: Path) -> dict[str, Counts]:
    code, text = run_cli("ls", str(root), "--json")
    assert code == 0
    found = {}
    for run in json.loads(text)["runs"]:
        c = run["counts"]
        assert len(run["trajectories"]) == c["finished"] + c["aborted"] + c["unfinished"]
        assert [t["state"] for t in run["trajectories"]].count("crashed") == c["crashed"]
        found[run["key"]] = Counts(
            len(run["trajectories"]), c["finished"], c["aborted"], c["crashed"], c["unfinished"], -1
        )
    return found


def from_report(root: Path) -> dict[str, Counts]:
    code, text = run_cli("report", str(root), "--format", "json")
    assert code == 0
    return {
        line["group"]: Counts(
            trajectories=line["trajectories"],
            finished=line["finished"],
            aborted=line["aborted"],
            crashed=line["crashed"],
            unfinished=line["unfinished"],
            counted=line["scored"]["counted"],
            passed=round(line["scored"]["total"]),
        )
        for line in json.loads(text)["lines"]
        if line["group"] != "all"
    }


def from_watch(root: Path) -> dict[str, Counts]:
    code, text = run_cli("watch", str(root), "--once")
    assert code == 0
    found: dict[str, Counts] = {}
    key = ""
    for line in text.splitlines():
        if not line.startswith(" "):
            key = line.removesuffix(" (over)")
        elif (over := _OVER.search(line)) is not None:
            still = _STILL.search(line)
            assert still is not None, line
            unfinished = int(still.group(1)) + int(still.group(2))
            found[key] = Counts(
                int(over.group(1)) + unfinished,
                int(over.group(2)),
                int(over.group(3)),
                int(over.group(4) or 0),
                unfinished,
                0,
            )
        elif line.strip().startswith("success so far"):
            rate = _RATE.search(line)
            found[key] = replace(found[key], counted=int(rate.group(1)) if rate else 0)
            assert "verdicts of the" in line or "none counted" in line  # the rate names its judge
    return found


def from_bundle(root: Path, site: Path) -> dict[str, Counts]:
    code, _ = run_cli("bundle", str(root), "-o", str(site))
    assert code == 0
    text = (site / "data" / "runs.js").read_text(encoding="utf-8")
    data = json.loads(text[text.index(",") + 1 : text.rindex(");")])
    assert data["judge"] is not None and data["judge_label"]  # the figures name their judge
    return {
        run["key"]: Counts(
            run["trajectories"],
            run["finished"],
            run["aborted"],
            run["crashed"],
            run["unfinished"],
            run["counted"],
            run["passed"],
        )
        for run in data["runs"]
    }


def check_every_view(app: OpenPage, root: Path, expected: dict[str, Counts], site: Path) -> None:
    """Each view's counts of each run equal `expected`; a view that does not say a count is not
    asked it (-1 crashed, None passed, 0 counted for the views without a rate)."""
    runs = list(expected)

    def same(view: str, counts: Counts, run: str) -> None:
        want = expected[run]
        if counts.crashed == -1:
            counts = replace(counts, crashed=want.crashed)
        if counts.passed is None:
            counts = replace(counts, passed=want.passed)
        if counts.counted == -1:
            counts = replace(counts, counted=want.counted)
        assert counts == want, (view, run)

    for run, counts in from_overview(app, root, runs).items():
        same("Overview", counts, run)
    for run in runs:
        same("Live", from_live(app, root, run), run)
    if len(runs) > 1:
        for run, rate in from_compare(app, root, runs).items():
            want = expected[run]
            assert rate == percent(want.passed / want.counted if want.counted else None), ("Compare", run)
    results = from_results(app, root)
    assert set(results) == set(runs)
    for run, (trajectories, finished, counted) in results.items():
        want = expected[run]
        assert (trajectories, finished, counted) == (want.trajectories, want.finished, want.counted), run
    for view, found in (
        ("ls --json", from_ls(root)),
        ("report --format json", from_report(root)),
        ("watch", from_watch(root)),
        ("bundle", from_bundle(root, site)),
    ):
        assert set(found) == set(runs), view
        for run, counts in found.items():
            same(view, counts, run)


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' index and review store in the test's own folders."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_every_view_gives_a_sample_run_the_same_counts(app: OpenPage, sample, tmp_path: Path, cached) -> None:
    expected = truth(sample.root)
    fara = next(key for key in expected if "fara-7b" in key and "WebArenaVerified" in key)
    # Task 156: the harness gave up after two attempts and saved an aborted answer (times.json
    # written): aborted. Task 363: its last attempt raised, no times.json: crashed, aborted too.
    assert (expected[fara].finished, expected[fara].aborted, expected[fara].crashed) == (42, 2, 1)
    check_every_view(app, sample.root, expected, tmp_path / "site")


def test_every_view_gives_a_live_run_the_same_counts(app: OpenPage, tmp_path: Path, cached) -> None:
    root = tmp_path / "root"
    run_dir = root / "runs" / "live" / "0"
    scripts: dict[str, Script] = {"1": "finish", "2": "crash", "3": "finish", "4": "resume", "5": "hang"}
    writer = LiveWriter(run_dir, "fara", scripts, pace=(0.02, 0.05), parallel=3, scored=True).start()
    writer.join()
    now = time.time()
    states = count_states(t.state(now, RUNNING_WINDOW_S) for t in writer.truth.values())
    expected = truth(root)
    assert list(expected) == ["runs/live/0"]
    found = expected["runs/live/0"]
    # The writer's truth and the files' rule agree (task 4 replays sample 156: an aborted answer).
    assert (found.finished, found.aborted, found.crashed, found.unfinished) == (
        states.finished,
        states.aborted,
        states.crashed,
        states.unfinished,
    )
    assert found.unfinished == 1 and found.crashed == 1 and found.counted >= 1
    check_every_view(app, root, expected, tmp_path / "site")
