"""Review data as CUAVerifierBench publishes it: a trajectories table and an annotations table.

CUAVerifierBench (Fara's verifier benchmark) ships two tables joined on the task id: the
trajectories, and one annotation row per (task, reviewer) with an outcome label, a process label
and a justification, its stage named "UV-blind" (the verifier's verdict hidden) or "UV-informed".
Writing ours in that shape lets a team compute and publish figures comparable to the published
ones (kappa, accuracy, F1, false-positive rate) with the same scripts. Our trajectories are keyed
by (run, task id), so both tables carry the run beside the task id and a `trajectory_id` joining
the two unambiguously when several runs hold one task.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from webeval_core.review.annotations import Annotation, Outcome, Stage, current
from webeval_core.runs.summary import RootIndex
from webeval_core.support.safe_output import spreadsheet_row

STAGE_LABELS: dict[Stage, str] = {Stage.BLIND: "UV-blind", Stage.INFORMED: "UV-informed"}
"""How CUAVerifierBench names our stages."""

TRAJECTORY_COLUMNS = ("trajectory_id", "task_id", "run", "steps", "final_answer")
"""The trajectories table's fixed columns; one `<judge>_outcome` column per judge follows."""

ANNOTATION_COLUMNS = (
    "trajectory_id",
    "task_id",
    "run",
    "annotator",
    "stage",
    "outcome",
    "process",
    "justification",
    "failing_steps",
    "error_codes",
    "task_codes",
)
"""The annotations table's columns: CUAVerifierBench's, then the failure in Fara's taxonomy (our
addition, comma-separated; empty when the reviewer did not give it)."""

TABLES = ("trajectories.csv", "annotations.csv")
"""The files written into the output folder."""


def trajectory_id(run: str, task_id: str) -> str:
    """The key joining the two tables: the run and the task id."""
    return f"{run}/{task_id}"


def trajectory_rows(
    index: RootIndex, judged: Mapping[tuple[str, str], Mapping[str, Outcome]]
) -> list[dict[str, Any]]:
    """One row per readable trajectory of the root, with each judge's outcome (empty when it has none)."""
    judges = sorted({name for verdicts in judged.values() for name in verdicts})
    rows = []
    for summary in sorted(index.summaries, key=lambda s: (s.run_key, s.task_id)):
        item = (summary.run_key, summary.task_id)
        if item not in judged:
            continue
        verdicts = judged[item]
        fixed = (trajectory_id(*item), summary.task_id, summary.run_key, summary.steps, summary.final_answer)
        rows.append(
            dict(zip(TRAJECTORY_COLUMNS, fixed, strict=True))
            | {f"{name}_outcome": verdicts[name].value if name in verdicts else None for name in judges}
        )
    return rows


def annotation_rows(
    annotations: Iterable[Annotation], known: Iterable[tuple[str, str]]
) -> list[dict[str, Any]]:
    """One row per (trajectory, reviewer, stage) of the `known` trajectories: the current judgement."""
    wanted = set(known)
    latest = current(annotations)
    rows = []
    for key in sorted(latest, key=lambda k: (k[0], k[1], k[2], str(k[3]))):
        a = latest[key]
        if a.item not in wanted:
            continue
        values = (
            trajectory_id(a.run, a.task_id),
            a.task_id,
            a.run,
            key[2],
            STAGE_LABELS[a.stage],
            a.outcome.value,
            a.process.value if a.process else None,
            a.justification,
            ",".join(str(step) for step in a.failing_steps),
            ",".join(a.error_codes),
            ",".join(a.task_codes),
        )
        rows.append(dict(zip(ANNOTATION_COLUMNS, values, strict=True)))
    return rows


def write_tables(
    folder: Path,
    index: RootIndex,
    annotations: Iterable[Annotation],
    judged: Mapping[tuple[str, str], Mapping[str, Outcome]],
) -> tuple[Path, Path]:
    """Write `trajectories.csv` and `annotations.csv` into `folder` (made when missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    trajectories = trajectory_rows(index, judged)
    notes = annotation_rows(annotations, judged)
    paths = (folder / TABLES[0], folder / TABLES[1])
    _write_csv(paths[0], trajectories, TRAJECTORY_COLUMNS)
    _write_csv(paths[1], notes, ANNOTATION_COLUMNS)
    return paths


def _write_csv(path: Path, rows: list[dict[str, Any]], columns: tuple[str, ...]) -> None:
    # Cells a spreadsheet would run as formulas are quoted (`spreadsheet_row`), as in every export.
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=list(rows[0]) if rows else list(columns), lineterminator="\n"
        )
        writer.writeheader()
        writer.writerows(spreadsheet_row(row) for row in rows)
