"""Fixtures for every test folder: one copy of sample_runs/, scored once per session.

Scoring the sample with the official evaluator is the costly part of setting it up, and the app
tests, the browser tests, the CLI tests and the wheel test all want a scored copy. They share this
one and only read it; a test that writes into a root (score files, edited folders) works on a
copy of its own (`private_copy`), which is still scored and costs a file copy, not a scoring.
The repository's sample_runs/ is never written.
"""

from __future__ import annotations

import faulthandler
import fcntl
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.scoring import ScoreOutcome, score_trajectories

REPO = Path(__file__).resolve().parents[1]
SAMPLE_RUNS = REPO / "sample_runs"
QUICK_ENV = "WEBEVAL_TEST_QUICK"
"""Set by `python3 dev.py test --quick`: a service a test starts then fails it (it lacks its mark)."""
_SERVICE_FIXTURES = frozenset({"postgres", "azurite_sample", "cluster"})
"""Fixtures that start a real service (PostgreSQL, Azurite, a Dask cluster)."""
_CHROMIUM_FIXTURES = frozenset({"playwright_trace"})
"""Fixtures that start Chromium outside tests/browser (a Playwright trace recorded)."""
HANGS = REPO / "test-artifacts" / "hangs"
HUNG_AFTER_S = 900
"""A test still running after this long is hung (the slowest take about 200 s on a loaded machine)."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (`--dist loadgroup`)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it starts, from where it lives and what it asks for, so none can
    forget its mark: `browser` (Chromium: tests/browser and its Streamlit server, or a Playwright
    trace recorded), `service` (a PostgreSQL store, Azurite, a Dask cluster, the OpenID provider),
    `slow` (its own mark).

    A browser test file is also one `xdist_group`: under `--dist loadgroup` its tests run on one
    worker, so the Streamlit server its module starts is started once.
    """
    for item in items:
        parts = item.path.relative_to(REPO).parts
        if "browser" in parts:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.service)
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
        params = getattr(getattr(item, "callspec", None), "params", {})
        uses = set(getattr(item, "fixturenames", ()))
        if uses & _SERVICE_FIXTURES or params.get("location") == "postgresql":
            item.add_marker(pytest.mark.service)
        if uses & _CHROMIUM_FIXTURES:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """A hung test writes every thread's stack to `HANGS` and ends its process, so the run goes on
    (xdist reports the test as crashed) and says where it hung, instead of using up CI's time in
    silence. Not a thread of ours (faulthandler's watchdog is C's), so the test process runs none
    of its own (see `webeval_core.support.parallel`).
    """
    HANGS.mkdir(parents=True, exist_ok=True)
    with (HANGS / f"{os.getpid()}.txt").open("a", encoding="utf-8") as stacks:
        stacks.write(f"{item.nodeid} was still running after {HUNG_AFTER_S} s:\n")
        stacks.flush()
        faulthandler.dump_traceback_later(HUNG_AFTER_S, exit=True, file=stacks)
        try:
            return (yield)
        finally:
            faulthandler.cancel_dump_traceback_later()
            stacks.truncate(0)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The stacks of every test that hung in this run (written by its process as it ended), told
    by the run's controller (a worker that replaced the hung one would take them unseen)."""
    if hasattr(terminalreporter.config, "workerinput"):
        return
    for path in sorted(HANGS.glob("*.txt")) if HANGS.is_dir() else ():
        text = path.read_text(encoding="utf-8", errors="replace")
        if "Timeout (" in text:  # what faulthandler writes first
            terminalreporter.write_sep("=", f"hung: {path.name}")
            terminalreporter.write(text)
        path.unlink()


def refuse_in_quick_run(what: str, mark: str = "service") -> None:
    """Called by each service's starter: a quick run starts none (the test lacks its `mark`)."""
    if os.environ.get(QUICK_ENV) == "1":
        pytest.fail(f"a quick run starts no {what}: mark this test `{mark}` (tests/conftest.py)")


@dataclass(frozen=True)
class Sample:
    """A scored copy of sample_runs/."""

    root: Path
    """The copy (named sample_runs, like the original)."""
    outcomes: list[ScoreOutcome]
    """What scoring computed for every trajectory folder of the copy."""


def _snapshot(root: Path) -> dict[Path, tuple[int, int]]:
    """Size and modification time of every file and folder under `root`: enough to notice a write."""
    snapshot = {}
    for path in root.rglob("*"):
        stat = path.lstat()
        snapshot[path] = (stat.st_size, stat.st_mtime_ns)
    return snapshot


def private_copy(root: Path, target: Path) -> Path:
    """A copy of `root` at `target` for a test that writes into it; returns `target`."""
    shutil.copytree(root, target, symlinks=True)
    return target


@pytest.fixture(scope="session")
def scored_sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sample]:
    """The session's copy of sample_runs/, scored once with the official evaluator. Read-only.

    The session fails at the end if a test wrote into it, since later tests would see the write.
    """
    if not any(iter_trajectory_dirs(SAMPLE_RUNS)):
        pytest.fail("sample_runs/ holds no trajectories; run scripts/make_sample_runs.py")
    root, outcomes = _scored_once(tmp_path_factory)
    before = _snapshot(root)
    yield Sample(root=root, outcomes=outcomes)
    if _snapshot(root) != before:
        pytest.fail(f"a test wrote into the shared scored sample {root}; give it a private_copy")


def _scored_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[ScoreOutcome]]:
    """The scored copy and its outcomes. Under pytest-xdist the workers share one: the first to
    come scores it (on every core) while the others wait for it, rather than each scoring its own
    at once on the same cores."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's folder lies in the run's; without it, the run's is the session's.
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "scored-shared"
    shared.mkdir(exist_ok=True)
    root, saved = shared / "sample_runs", shared / "outcomes.jsonl"
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not saved.exists():
            private_copy(SAMPLE_RUNS, root)
            outcomes = score_trajectories(list(iter_trajectory_dirs(root)), jobs=2)
            saved.write_text("".join(o.model_dump_json() + "\n" for o in outcomes), encoding="utf-8")
    return root, [
        ScoreOutcome.model_validate_json(line) for line in saved.read_text(encoding="utf-8").splitlines()
    ]


@pytest.fixture(scope="session", autouse=True)
def no_password_in_any_argv() -> Iterator[None]:
    """For the whole run, no process's command line (what `ps` shows) holds the test store's
    password: servers, writers and commands get a store URL from the environment or a file."""
    from tests.harness.argv_watch import ArgvWatch
    from tests.harness.postgres_server import PASSWORD
    from tests.harness.scripted_llm import KEY

    # The scripted endpoint's key too: judges read it from the environment or a file (issue 51).
    watches = {"the store's password": ArgvWatch(PASSWORD).start(), "a judge's key": ArgvWatch(KEY).start()}
    yield
    for watch in watches.values():
        watch.stop()
    for what, watch in watches.items():
        if watch.seen:
            pytest.fail(f"{what} was in a process's argv: {sorted(watch.seen.values())}")


@pytest.fixture(scope="session")
def playwright_trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real Playwright trace zip, recorded by Chromium once per session (marks its tests
    `browser`); tests copy it where they need it, never change it."""
    from tests.harness.trace_recorder import record_trace

    workdir = tmp_path_factory.mktemp("trace")
    return record_trace(workdir, workdir / "trace.zip")
