"""Submission packages made by `webarena-verified create-submission-pkg`, read as runs.

A package is a folder (`--no-tar`) or a `.tar.gz` holding `summary.json` and one
`<task_id>/{agent_response.json, network.har}` folder per packaged task: the official CLI's
layout, so each task folder loads as a trajectory. `summary.json` lists what the packager left
out or flagged (missing files, invalid HARs, empty responses, duplicates, unknown ids); those
entries are kept here, typed, so a viewer can list them beside the run.

A tar is never read in place: `extract_submission` unpacks it (data files only, no links or
paths leading out) into a folder the caller chooses, outside the input tree.
"""

from __future__ import annotations

import json
import tarfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from webeval_core.reading.folderfiles import read_file
from webeval_core.support.diagnostics import UnreadableError

__all__ = [
    "SUMMARY_NAME",
    "Submission",
    "SubmissionIssue",
    "extract_submission",
    "is_submission",
    "read_submission",
    "submission_from_summary",
]

SUMMARY_NAME = "summary.json"
_ISSUES = (
    ("missing_agent_response_only", "agent_response.json missing"),
    ("missing_network_har_only", "network trace missing"),
    ("missing_both_files", "agent_response.json and network trace missing"),
    ("invalid_har_files", "network trace invalid or empty"),
    ("empty_agent_response", "agent_response.json empty (packaged)"),
)


class SubmissionIssue(BaseModel):
    """One kind of problem the packager found, with the tasks it concerns."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    """The summary's name for it, e.g. "invalid_har_files" or "unknown_tasks"."""
    label: str
    """What it means, in plain words."""
    task_ids: tuple[int, ...]
    """The tasks concerned, ascending."""
    blocks_packaging: bool
    """Whether these tasks were left out of the package (an empty response is packaged anyway)."""


class Submission(BaseModel):
    """A submission package's summary: what was packaged and what was left out or flagged."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: Path
    """The package (folder or tar) or the summary file it was read from."""
    packaged: tuple[int, ...]
    """Task ids packaged, ascending."""
    expected: int
    """How many tasks the dataset holds (the packager's expected count)."""
    issues: tuple[SubmissionIssue, ...]
    """Every non-empty kind of problem, missing files first."""
    missing_from_output: tuple[int, ...]
    """Dataset tasks with no folder in the run's output at all."""

    @property
    def rejected(self) -> tuple[int, ...]:
        """Tasks the packager found but left out (missing or invalid files), ascending."""
        return tuple(sorted({t for i in self.issues if i.blocks_packaging for t in i.task_ids}))


def is_submission(path: Path) -> bool:
    """Whether `path` looks like a package: a `.tar.gz`, or a folder holding summary.json."""
    return path.name.endswith((".tar.gz", ".tgz")) or (path / SUMMARY_NAME).is_file()


def read_submission(path: Path) -> Submission:
    """The summary of a package folder or tar.

    Raises:
        UnreadableError: when there is no readable summary.json of the packager's shape.
    """
    path = Path(path)
    if path.is_dir():
        summary_path = path / SUMMARY_NAME
        try:
            data = read_file(summary_path)
        except OSError:
            raise UnreadableError(path, f"has no readable {SUMMARY_NAME}: not a submission package") from None
    else:
        data = _summary_in_tar(path)
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnreadableError(path, f"{SUMMARY_NAME} is not valid JSON ({exc})") from None
    return submission_from_summary(path, raw)


def submission_from_summary(path: Path, raw: Any) -> Submission:
    """A summary.json's content, typed.

    Raises:
        UnreadableError: when it is not the packager's shape.
    """
    try:
        return _Summary.model_validate(raw).typed(path)
    except ValidationError as exc:
        where = ".".join(str(p) for p in exc.errors()[0]["loc"])
        raise UnreadableError(
            path, f"{SUMMARY_NAME} is not a packager summary ({where}: {exc.errors()[0]['msg']})"
        ) from None


def extract_submission(tar_path: Path, into: Path) -> Path:
    """Unpack a package tar into `into` (created) and return it; only regular files and folders.

    Raises:
        UnreadableError: when the file is not a readable tar.
    """
    try:
        with tarfile.open(tar_path, "r:*") as archive:
            into.mkdir(parents=True, exist_ok=True)
            archive.extractall(into, filter="data")  # refuses links, devices and paths leading out
    except (tarfile.TarError, OSError) as exc:
        raise UnreadableError(tar_path, f"cannot be unpacked ({exc})") from None
    return into


def _summary_in_tar(path: Path) -> bytes:
    try:
        with tarfile.open(path, "r:*") as archive:
            member = archive.extractfile(SUMMARY_NAME)
            if member is None:
                raise KeyError(SUMMARY_NAME)
            return member.read()
    except KeyError:
        raise UnreadableError(path, f"holds no {SUMMARY_NAME}: not a submission package") from None
    except (tarfile.TarError, OSError) as exc:
        raise UnreadableError(path, f"is not a readable tar ({exc})") from None


class _Ids(BaseModel):
    model_config = ConfigDict(extra="ignore")

    task_ids: list[int]
    """The tasks of this entry."""


class _Packaged(_Ids):
    expected_count: int
    """How many tasks the dataset holds."""


class _Issues(BaseModel):
    model_config = ConfigDict(extra="ignore")

    missing_files: dict[str, _Ids]
    """Each missing-file category by its name."""
    duplicate_tasks: _Ids
    """Tasks found in several output folders (the first was packaged)."""
    unknown_tasks: _Ids
    """Task ids not in the dataset."""
    missing_from_output: _Ids
    """Dataset tasks without an output folder."""


class _Summary(BaseModel):
    """summary.json as the packager writes it (other keys ignored)."""

    model_config = ConfigDict(extra="ignore")

    packaged_tasks: _Packaged
    """The packaged tasks."""
    issues: _Issues
    """Everything left out or flagged."""

    def typed(self, path: Path) -> Submission:
        found = self.issues.missing_files
        issues = [
            SubmissionIssue(
                kind=kind,
                label=label,
                task_ids=tuple(sorted(found[kind].task_ids)),
                blocks_packaging=kind != "empty_agent_response",
            )
            for kind, label in _ISSUES
            if kind in found and found[kind].task_ids
        ]
        for kind, label, entry, blocks in (
            ("unknown_tasks", "task id not in the dataset (left out)", self.issues.unknown_tasks, True),
            (
                "duplicate_tasks",
                "task in several output folders (first kept)",
                self.issues.duplicate_tasks,
                False,
            ),
        ):
            if entry.task_ids:
                issues.append(
                    SubmissionIssue(
                        kind=kind,
                        label=label,
                        task_ids=tuple(sorted(entry.task_ids)),
                        blocks_packaging=blocks,
                    )
                )
        return Submission(
            path=path,
            packaged=tuple(sorted(self.packaged_tasks.task_ids)),
            expected=self.packaged_tasks.expected_count,
            issues=tuple(issues),
            missing_from_output=tuple(sorted(self.issues.missing_from_output.task_ids)),
        )
