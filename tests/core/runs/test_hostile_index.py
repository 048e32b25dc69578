"""The index, discovery and metrics on the issue-13 corpus: every folder listed, once, under a
unique key; nothing outside the root read or changed; output strict JSON; crashed tasks aborted."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.builders import fara_folder
from tests.harness.hostile import HostileRoot, hostile_root, lock_folder, snapshot_tree
from webeval_core.runs import metrics
from webeval_core.runs.discovery import discover_runs, iter_trajectory_dirs, natural_key, run_of
from webeval_core.runs.index import build_index, index_as_json

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[HostileRoot]:
    with hostile_root(tmp_path) as corpus:
        yield corpus


def test_every_folder_is_listed_once_with_a_unique_key(hostile: HostileRoot, tmp_path: Path) -> None:
    before = snapshot_tree(hostile.outside)
    index = build_index(hostile.root, cache_dir=tmp_path / "cache")
    listed = {s.path for s in index.summaries}
    assert listed == set(hostile.folders)
    assert len(index.summaries) == len(hostile.folders)
    keys = [s.key for s in index.summaries]
    assert len(set(keys)) == len(keys)
    assert all(
        (hostile.root / key).resolve() == s.path.resolve()
        for key, s in zip(keys, index.summaries, strict=True)
    )
    assert index.unreadable == ()
    normal = [s for s in index.summaries if s.path in hostile.normal]
    assert [(s.task_id, s.outcome, s.steps, s.screenshots) for s in normal] == [
        (task, "answered", 5, 6) for task in ("0", "1", "2")
    ]
    json.dumps(index_as_json(index), allow_nan=False)
    assert snapshot_tree(hostile.outside) == before


def test_duplicate_task_ids_keep_distinct_keys(hostile: HostileRoot, tmp_path: Path) -> None:
    index = build_index(hostile.root, cache_dir=tmp_path / "cache")
    same = [s for s in index.summaries if s.task_id == "0"]
    assert sorted(s.key.rsplit("/", 1)[1] for s in same) == ["0", "dup_a", "dup_b"]
    frame = metrics.trajectory_frame(index)
    assert frame["key"].is_unique and (frame["task_id"] == "0").sum() == 3


def test_a_crashed_task_is_listed_as_aborted_and_left_out_of_rates(
    hostile: HostileRoot, tmp_path: Path
) -> None:
    index = build_index(hostile.root, cache_dir=tmp_path / "cache")
    crashed = next(s for s in index.summaries if s.path == hostile.cases["crashed"])
    assert crashed.outcome == "aborted" and crashed.unreadable is None
    assert (
        crashed.crash_reason == "playwright._impl._errors.TimeoutError: Page.goto: Timeout 30000ms exceeded."
    )
    assert crashed.core_error == "TimeoutError"
    frame = metrics.trajectory_frame(index)
    row = frame[frame["key"] == crashed.key].iloc[0]
    assert row["result"] == metrics.ABORTED and not row["counted"]


def test_an_exception_while_summarising_stays_with_its_folder(
    hostile: HostileRoot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(scores: object, eval_result: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr("webeval_core.runs.summary.read_verdict", broken)
    # The quick summary declines what raises: the folder then fails the full way, with its reason.
    monkeypatch.setattr("webeval_core.runs.quicksummary.read_verdict", broken)
    index = build_index(hostile.root, cache_dir=tmp_path / "cache", use_cache=False)
    assert len(index.summaries) == len(hostile.folders)
    crashed_or_not = {s.unreadable for s in index.summaries}
    assert crashed_or_not == {"could not be summarised: unexpected ZeroDivisionError: boom"}


def test_discovery_walks_a_deep_tree_without_recursion(hostile: HostileRoot) -> None:
    found = list(iter_trajectory_dirs(hostile.root))
    assert hostile.cases["deep"] in found
    assert found.index(hostile.normal[0]) < found.index(hostile.normal[1])


def test_natural_order_survives_digits_int_refuses() -> None:
    names = ["10", "\u00b2", "9", "x" + "1" * 5000, "a2"]
    assert sorted(names, key=natural_key)[:2] == ["9", "10"]


def test_run_metadata_comes_only_from_under_the_root(tmp_path: Path) -> None:
    run = tmp_path / "runs" / "WebSurfer" / "fara-7b" / "someone" / "WebArena_hf" / "3"
    folder = fara_folder(run / "traj", "7")
    assert run_of(tmp_path, folder).model == "fara-7b"
    inside = run_of(run / "traj", folder)
    assert (inside.system, inside.model, inside.user, inside.benchmark, inside.run_id) == (None,) * 5
    assert run_of(run, folder).model is None  # the run folder itself: its parents are above the root
    assert [r.key for r in discover_runs(run / "traj")] == ["traj"]


def _unprivileged() -> list[str] | None:
    if os.geteuid() != 0:
        return []
    for tool in (
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"],
        ["runuser", "-u", "nobody", "--"],
    ):
        if shutil.which(tool[0]):
            return tool
    return None


@pytest.fixture
def world_readable_root() -> Iterator[HostileRoot]:
    base = Path(tempfile.mkdtemp(prefix="webeval-locked-"))
    try:
        with hostile_root(base) as hostile:
            base.chmod(0o755)
            yield hostile
            for folder in hostile.normal:
                folder.chmod(0o755)
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False)


def test_a_folder_the_user_cannot_read_is_listed_with_the_system_reason(
    world_readable_root: HostileRoot,
) -> None:
    """Class 4: mode 000, read as an unprivileged user (tests run as root, who reads anything)."""
    prefix = _unprivileged()
    if prefix is None:
        pytest.skip("neither setpriv nor runuser is available to drop root privileges")
    hostile = world_readable_root
    locked = lock_folder(hostile.normal[1])
    code = (
        "import json, sys; from pathlib import Path;"
        "from webeval_core.runs.index import build_index, index_as_json;"
        "print(json.dumps(index_as_json(build_index(Path(sys.argv[1]), use_cache=False)), allow_nan=False))"
    )
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO), "HOME": "/nonexistent"}
    result = subprocess.run(
        [*prefix, sys.executable, "-c", code, str(hostile.root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
    unreadable = {Path(u["path"]): u["reason"] for u in listing["unreadable"]}
    assert unreadable[locked] == "the folder cannot be listed (Permission denied)"
    listed = {Path(t["path"]) for run in listing["runs"] for t in run["trajectories"]}
    assert hostile.normal[0] in listed and hostile.normal[2] in listed
    assert len(listed) + len(unreadable) == len(hostile.folders)


def test_text_that_is_not_unicode_never_stops_the_index(tmp_path: Path) -> None:
    r"""A JSON "\ud800" escape (which `json` reads, UTF-8 cannot hold) and a folder name that is
    not UTF-8: the index is still built, from every other folder, and says what it changed.
    """
    run = tmp_path / "root" / "run" / "traj"
    fara_folder(run, "good")
    odd = fara_folder(run, "odd")
    answer = next(odd.glob("*_final_answer.json"))
    answer.write_text(answer.read_text().replace("The longest trail is Half Dome.", "Half \\ud800 Dome"))
    (odd / "task_data.json").write_text('{"task_proposal": "Find \\udfff trails"}')
    named = os.fsencode(run) + b"/na\xffme"
    shutil.copytree(run / "good", os.fsdecode(named))
    # A judge's score file named in such bytes: the judge is kept, its name shown with U+FFFD.
    (odd / "scores").mkdir()
    Path(os.fsdecode(os.fsencode(odd) + b"/scores/ju\xffdge.json")).write_text('{"score": 1}')
    for workers in (1, 2):  # in this process, and in workers that send rows back
        index = build_index(tmp_path / "root", cache_dir=tmp_path / f"cache{workers}", workers=workers)
        summaries = {s.key: s for s in index.summaries}
        assert sorted(summaries) == ["run/traj/good", "run/traj/odd"]  # the other name cannot be kept
        assert summaries["run/traj/odd"].final_answer == "Half \ufffd Dome"
        assert summaries["run/traj/odd"].task_text == "Find \ufffd trails"
        # A warning for each file read (the answer, task_data.json), one for the judge's name.
        assert summaries["run/traj/odd"].warnings == summaries["run/traj/good"].warnings + 3
        assert summaries["run/traj/odd"].scores == {"ju\ufffddge": 1.0}
        json.dumps(index_as_json(index), allow_nan=False)
