"""The index's quick summary gives exactly the full summary's row and stored document, or declines.

`quick_summary` reads an ordinary Fara folder by a shorter road than `summarize_trajectory` +
`summary.stored_document`. On every folder here it must never raise nor block, and either decline
(None) or give the same stored JSON document (byte for byte), the same `index_db.trajectory_row` (every
column, every judge's score, every taxonomy code) and the same outcome (which sets how long a
folder's files are watched).

The folders: every trajectory of a copy of sample_runs/, the issue-13 hostile corpus, verifier
folders, and ordinary folders with ONE change each (`tests.harness.folder_mutations`): the cases a shorter
road gets wrong are the ones the full reader coerces (pydantic's lax mode), reads with `json` where
orjson refuses, or warns about. So that a quick summary that always declines cannot pass, it must
be taken for every sample Fara folder with an answer file, the corpus's normal folders, every
verifier folder and every base folder unchanged.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.harness.builders import snapshot
from tests.harness.folder_mutations import BASES, MUTATIONS, UNREADABLE_BY_MODE, bases_for
from tests.harness.hostile import hostile_root
from tests.harness.verifier_files import SECOND_RESPONSE, odd_verifier_root
from webeval_core.reading.actionlog import count_steps, parse_action_log
from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.runs.index_db import StoredFolder, trajectory_row
from webeval_core.runs.quicksummary import quick_summary
from webeval_core.runs.summary import stored_document, summarize_trajectory

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "sample_runs"
SECONDS = 10  # per read: a FIFO opened without O_NONBLOCK blocks forever; this makes it a failure
SEEN = StoredFolder(1_763_127_310_000_000_000, -1, None)
RUN_KEY = "runs/WebSurfer/fara-7b"

# Odd verifier responses (cf. test_index_identity): keys at every depth, in lists, as None, beside
# an official evaluation's `engine`, and codes a verifier gives.
ODD_RESPONSES: dict[str, Any] = {
    "top": {"rubric_is_success": 1, "engine": {"name": "x"}},
    "codes": {"a": {"first_point_of_failure": {"step": 2, "error_code": "2.1"}}},
    "in_a_list": {"a": [{"task_verification": {"invalid_task_codes": ["8.1"]}}], "engine": {}},
    "none": {"verifier_success": None, "a": {"verifier_reasoning": None}},
    "scalar_values": {"a": 1, "b": "text", "c": 1.5, "d": True, "e": None, "f": [1, 2]},
    "array": [{"rubric_items": [], "error_code": None}],
}


class BlockedError(BaseException):
    """A read blocked. Not an Exception: the quick summary's catch-all, which declines on any
    surprise, must not turn a blocking read into a quiet None."""


@contextmanager
def deadline(seconds: int = SECONDS) -> Iterator[None]:
    """Fail rather than hang when a read blocks."""

    def hung(signum: int, frame: object) -> None:
        raise BlockedError(f"a summary blocked for {seconds} s (a FIFO opened?)")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check_contract(folder: Path, key: str = "the/key") -> bool:
    """Assert the quick summary's contract on one folder; whether it was taken."""
    before = snapshot(folder) if folder.is_dir() and os.access(folder, os.R_OK | os.X_OK) else None
    with deadline():
        quick = quick_summary(RUN_KEY, str(folder), key)  # must never raise: an exception fails here
        full = summarize_trajectory(RUN_KEY, folder, key)
    if quick is not None:
        summary, document = quick
        assert full.unreadable is None, f"quick summary of an unreadable folder: {full.unreadable}"
        assert full.warnings == 0, "quick summary taken where the full one warns"
        _, full_document = stored_document(full)
        assert json.loads(document) == json.loads(full_document), "stored documents differ"
        assert document == full_document, "stored documents differ in their text"
        assert trajectory_row("rel/x", SEEN, summary, document) == trajectory_row("rel/x", SEEN, full)
        assert summary.outcome == full.outcome
        log = folder / "web_surfer.log"
        if log.is_file():  # both roads count with `count_steps`: held to the full parse here
            data = log.read_bytes()
            assert count_steps(data) == len(parse_action_log(data).steps)
    if before is not None:
        assert snapshot(folder) == before, "a summary wrote into the folder"
    return quick is not None


def _check_all(folders: list[Path]) -> dict[Path, bool]:
    """`check_contract` on every folder; every folder that breaks it is named, not the first."""
    assert folders
    taken: dict[Path, bool] = {}
    broken: dict[str, str] = {}
    for folder in folders:
        try:
            taken[folder] = check_contract(folder)
        except AssertionError as exc:
            broken[str(folder)] = str(exc)
    assert broken == {}
    return taken


def test_every_sample_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(SAMPLE, tmp_path / "sample_runs", symlinks=True)
    monkeypatch.chdir(tmp_path)
    root = Path("sample_runs")  # relative, as `webeval index sample_runs` is given it
    taken = _check_all(list(iter_trajectory_dirs(root)))
    answered = [f for f in taken if any(f.glob("*_answer.json"))]
    # Every sample Fara folder with an answer file is ordinary (two have none: the full road's).
    assert len(answered) >= 90
    assert [f.name for f in answered if not taken[f]] == []


def test_every_hostile_folder(tmp_path: Path) -> None:
    with hostile_root(tmp_path / "hostile") as corpus:
        taken = _check_all(sorted({*iter_trajectory_dirs(corpus.root), *corpus.folders}))
        # The corpus's normal folders are ordinary Fara folders.
        assert [f.name for f in corpus.normal if not taken[f]] == []


def test_every_verifier_folder(tmp_path: Path) -> None:
    root = odd_verifier_root(tmp_path / "verifiers", ODD_RESPONSES, judges=(("second", 1, SECOND_RESPONSE),))
    taken = _check_all(list(iter_trajectory_dirs(root)))
    assert [f.name for f, quick in taken.items() if not quick] == []


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each base folder, built once; a case works on a copy."""
    root = tmp_path_factory.mktemp("bases")
    return {name: build(root / name) for name, build in BASES.items()}


def _copy(template: Path, run: Path) -> Path:
    """A copy of a base, alone in its run folder (so links "outside" land beside it, not in it)."""
    run.mkdir(parents=True)
    return Path(shutil.copytree(template, run / template.name, symlinks=True))


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_one_mutation(name: str, templates: dict[str, Path], tmp_path: Path) -> None:
    if name in UNREADABLE_BY_MODE and os.geteuid() == 0:
        # Root reads a mode-000 file or folder anyway: the case is not what its name says.
        pytest.skip("mode 000 does not stop root from reading")
    failures: dict[str, str] = {}
    for base in bases_for(name):
        folder = _copy(templates[base], tmp_path / base)
        MUTATIONS[name](folder)
        # Read through a linked parent: the score files' paths are the folder's as given.
        via = tmp_path / f"{base}-via"
        via.symlink_to(folder.parent, target_is_directory=True)
        try:
            taken = check_contract(via / folder.name)
        except AssertionError as exc:  # every base is tried: which ones fail says more than the first
            failures[base] = str(exc)
            continue
        finally:
            _restore_modes(folder)
        if name == "unchanged" and not taken:
            failures[base] = "the quick summary declines an ordinary folder"
    assert failures == {}


def _restore_modes(folder: Path) -> None:
    """Give back the modes a mutation took away, so pytest can remove the temporary folder."""
    if folder.is_dir() and not folder.is_symlink():
        folder.chmod(0o755)
        for path in folder.rglob("*"):
            if not path.is_symlink() and path.exists():
                path.chmod(0o755 if path.is_dir() else 0o644)
