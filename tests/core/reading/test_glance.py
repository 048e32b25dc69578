"""The index's light read: it says what the full reader says, on every folder we can build.

Parity is checked field by field against `load_trajectory` on the sample runs (both layouts), the
issue-13 hostile corpus and builder folders of every log generation; the documented differences
(screenshots counted by name, warnings a subset) are checked as such.
"""

from __future__ import annotations

import json
import math
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import fsspec
import pytest

from tests.harness.builders import (
    SOLVER_ACTIONS,
    fara_folder,
    png_bytes,
    record_opens,
    wav_folder,
    write_core_log,
    write_score,
)
from tests.harness.hostile import HostileRoot, hostile_root, snapshot_tree
from webeval_core.reading.formats import formats
from webeval_core.reading.glance import Glance, glance_trajectory
from webeval_core.reading.screenshots import set_image_source
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory
from webeval_core.reading.verifier import failure_codes
from webeval_core.remote import open_root
from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.scoring.verdicts import read_verdict
from webeval_core.support.diagnostics import UnreadableError

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "sample_runs"

# Hostile folders whose screenshot FILES differ from the usable screenshots, and why.
COUNTED_BY_NAME = {
    "fifo_screenshot": "a FIFO named like a screenshot counts (it is never opened)",
}


def full_fields(t: Trajectory) -> dict[str, object]:
    return {
        "task_id": t.task_id,
        "layout": t.layout,
        "outcome": t.outcome,
        "steps": len(t.steps),
        "duration_s": t.duration_s,
        "token_usage": t.token_usage,
        "final_answer_text": t.final_answer_text,
        "scores": {name: sf.score for name, sf in t.scores.items()},
        "eval_result": t.eval_result,
        "last_error": t.error_lines[-1].message if t.error_lines else None,
        "crash_reason": t.crash_reason,
        "verdict": read_verdict(t.scores, t.eval_result),
        "failure_codes": failure_codes(t.scores),
    }


def glance_fields(g: Glance) -> dict[str, object]:
    return {
        "task_id": g.task_id,
        "layout": g.layout,
        "outcome": g.outcome,
        "steps": g.steps,
        "duration_s": g.duration_s,
        "token_usage": g.token_usage,
        "final_answer_text": g.final_answer_text,
        "scores": {name: sf.score for name, sf in g.scores.items()},
        "eval_result": g.eval_result,
        "last_error": g.last_error,
        "crash_reason": g.crash_reason,
        "verdict": read_verdict(g.scores, g.eval_result),
        "failure_codes": failure_codes(g.scores),
    }


def assert_parity(folder: Path, *, screenshots_by_name: bool = False) -> Glance | None:
    """The glance equals the full read on every field (same reason when unreadable); returns it."""
    try:
        full = load_trajectory(folder)
    except UnreadableError as exc:
        reason = exc.reason
    else:
        reason = None
    if reason is not None:
        with pytest.raises(UnreadableError) as raised:
            glance_trajectory(folder)
        assert raised.value.reason == reason, folder
        return None
    glance = glance_trajectory(folder)
    expected = full_fields(full)
    if full.layout == "agentlab":  # its answer is in a step pickle, never opened by a glance (`Glance`)
        expected["final_answer_text"] = None
    assert glance_fields(glance) == expected, folder
    # A cube-harness episode's screenshots are inside its step files, never decompressed by a glance.
    if not screenshots_by_name and full.layout != "cube-harness":
        assert glance.screenshots == len(full.screenshots), folder
    full_warnings = Counter(str(w) for w in full.warnings)
    assert Counter(str(w) for w in glance.warnings) <= full_warnings, folder
    return glance


def sample_folders() -> list[Path]:
    return sorted(iter_trajectory_dirs(SAMPLE))


def test_sample_runs_hold_every_format() -> None:
    layouts = {load_trajectory(folder).layout for folder in sample_folders()}
    assert layouts == {f.name for f in formats()}  # every registered format (via-other-harnesses/ holds four)


@pytest.mark.parametrize("folder", sample_folders(), ids=lambda p: p.relative_to(SAMPLE).as_posix())
def test_parity_on_the_sample_runs(folder: Path) -> None:
    assert assert_parity(folder) is not None


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostileRoot]:
    with hostile_root(tmp_path_factory.mktemp("hostile")) as corpus:
        yield corpus


def test_parity_on_the_hostile_corpus(hostile: HostileRoot) -> None:
    differ = []
    for name, folder in {**{p.name: p for p in hostile.normal}, **hostile.cases}.items():
        glance = assert_parity(folder, screenshots_by_name=True)
        if glance is not None and glance.screenshots != len(load_trajectory(folder).screenshots):
            differ.append(name)
    assert sorted(differ) == sorted(COUNTED_BY_NAME)


def test_the_hostile_corpus_is_glanced_through_open_input_inside_the_root(
    hostile: HostileRoot, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot_tree(hostile.outside)
    opened = record_opens(monkeypatch)
    for folder in hostile.folders:
        try:
            glance_trajectory(folder)
        except UnreadableError:
            continue
    root = hostile.root.resolve()
    assert opened, "every read goes through open_input"
    assert all(path.is_relative_to(root) for path in opened)
    assert not [path for path in opened if path.suffix == ".png"]  # screenshots are counted, not read
    assert snapshot_tree(hostile.outside) == before


@pytest.mark.parametrize("generation", ["text", "fara-structured", "solver"])
@pytest.mark.parametrize("naming", ["fara", "solver"])
def test_parity_on_every_log_generation(tmp_path: Path, generation: str, naming: str) -> None:
    folder = fara_folder(tmp_path, generation=generation, naming=naming)  # type: ignore[arg-type]
    glance = assert_parity(folder)
    assert glance is not None
    assert glance.steps == (len(SOLVER_ACTIONS) if generation == "solver" else 5)


def test_no_answer_file_is_aborted(tmp_path: Path) -> None:
    glance = assert_parity(fara_folder(tmp_path, final_answer=None))
    assert glance is not None
    assert (glance.outcome, glance.final_answer_text) == ("aborted", None)
    assert glance.task_id == "alltrails_find_23"
    assert [w.file for w in glance.warnings] == ["*_final_answer.json"]


def test_aborted_and_no_answer(tmp_path: Path) -> None:
    aborted = assert_parity(fara_folder(tmp_path / "a", is_aborted=True))
    no_answer = assert_parity(fara_folder(tmp_path / "n", final_answer="<no_answer>"))
    assert aborted is not None and aborted.outcome == "aborted"
    assert no_answer is not None and (no_answer.outcome, no_answer.final_answer_text) == ("no_answer", None)


def test_nan_and_infinite_scores_are_none(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    write_score(folder, "nan_judge", math.nan, "fine")
    write_score(folder, "inf_judge", math.inf, "fine")
    write_score(folder, "good_judge", 0.5, json.dumps({"rubric": [1, 2]}))
    glance = assert_parity(folder)
    assert glance is not None
    assert {n: sf.score for n, sf in glance.scores.items()} == {
        "good_judge": 0.5,
        "inf_judge": None,
        "nan_judge": None,
    }
    # A rubric judge's text holds no engine key: it is left undecoded, which no verdict needs.
    assert glance.scores["good_judge"].response is None


def test_missing_times_json_gives_no_duration(tmp_path: Path) -> None:
    timed = assert_parity(fara_folder(tmp_path / "t"))
    untimed = assert_parity(fara_folder(tmp_path / "u", times=False))
    assert timed is not None and timed.duration_s == pytest.approx(178.74)
    assert untimed is not None and untimed.duration_s is None


CORE_LOG_ERROR = (
    "2025-11-14 14:35:10,001 [INFO] webeval.core.abc - Start\n"
    "2025-11-14 14:36:10,002 [ERROR] webeval.core.abc - [Execution abc] Error running task: boom\n"
    "Traceback (most recent call last):\n"
    "playwright._impl._errors.TimeoutError: Page.goto: Timeout 30000ms exceeded.\n"
    "2025-11-14 14:36:11,000 [INFO] webeval.core.abc - [ERROR] in a message is not a level\n"
)


def test_core_log_error_is_the_last_error_record(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path / "e")
    write_core_log(folder, CORE_LOG_ERROR)
    glance = assert_parity(folder)
    assert glance is not None and glance.last_error is not None
    assert glance.last_error.endswith("TimeoutError: Page.goto: Timeout 30000ms exceeded.")
    quiet = fara_folder(tmp_path / "q")
    write_core_log(quiet, "2025-11-14 14:35:10,001 [INFO] webeval.core.abc - Start\n")
    assert assert_parity(quiet) == glance_trajectory(quiet)
    assert glance_trajectory(quiet).last_error is None


def test_crashed_task_keeps_its_reason(tmp_path: Path) -> None:
    folder = tmp_path / "traj" / "7"
    folder.mkdir(parents=True)
    write_core_log(folder, CORE_LOG_ERROR)
    glance = assert_parity(folder)
    assert glance is not None
    assert (glance.layout, glance.outcome) == ("fara", "aborted")
    assert glance.crash_reason == (
        "playwright._impl._errors.TimeoutError: Page.goto: Timeout 30000ms exceeded."
    )


def test_webarena_verified_layout_and_its_eval_result(tmp_path: Path) -> None:
    folder = wav_folder(tmp_path, eval_result=True)
    glance = assert_parity(folder)
    empty = assert_parity(wav_folder(tmp_path / "e", response=" \n"))
    assert glance is not None and empty is not None
    assert (glance.layout, glance.outcome, glance.task_id) == ("webarena-verified", "answered", "108")
    assert glance.eval_result == json.loads((folder / "eval_result.json").read_text(encoding="utf-8"))
    assert (empty.outcome, empty.final_answer_text) == ("no_answer", None)


def test_screenshots_are_counted_by_name(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path)
    (folder / "screenshot3.png").write_bytes(b"not a png")
    (folder / "screenshot_9.png").write_bytes(png_bytes())  # the other naming is not counted
    glance = glance_trajectory(folder)
    assert glance.screenshots == 6
    assert len(load_trajectory(folder).screenshots) == 5


def test_unreadable_folders_give_the_full_readers_reason(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "a_file").write_text("x")
    for folder in (tmp_path / "empty", tmp_path / "a_file", tmp_path / "missing"):
        assert assert_parity(folder) is None


def test_a_remote_roots_mirror_glances_the_same_and_fetches_no_screenshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fsspec's in-process memory store takes the same code path as az://, s3:// and gs://.
    monkeypatch.setenv("WEBEVAL_REMOTE_CACHE", str(tmp_path / "remote-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    fs = fsspec.filesystem("memory")
    base = f"/glance{uuid.uuid4().hex[:12]}/runs"
    for path in SAMPLE.rglob("*"):
        if path.is_file():
            fs.pipe_file(f"{base}/{path.relative_to(SAMPLE).as_posix()}", path.read_bytes())
    try:
        opened = open_root(f"memory://{base}")
        local = {p.relative_to(SAMPLE): glance_trajectory(p) for p in iter_trajectory_dirs(SAMPLE)}
        mirrored = {
            p.relative_to(opened.path): glance_trajectory(p) for p in iter_trajectory_dirs(opened.path)
        }
        assert mirrored.keys() == local.keys()
        for key, glance in local.items():
            other = mirrored[key]
            assert glance_fields(other) | {"screenshots": other.screenshots} == glance_fields(glance) | {
                "screenshots": glance.screenshots
            }, key
        assert sum(g.screenshots for g in mirrored.values()) > 0
        assert not list(opened.path.rglob("*.png"))  # counted from the store's listing, none fetched
    finally:
        set_image_source(None)


def test_parity_on_a_universal_verifier_file(tmp_path: Path) -> None:
    from tests.harness.verifier_files import HAND_WRITTEN_CODES, JUDGE, write_hand_written

    folder = fara_folder(tmp_path)
    write_hand_written(folder)
    glance = assert_parity(folder)
    assert glance is not None and failure_codes(glance.scores) == {JUDGE: HAND_WRITTEN_CODES}
