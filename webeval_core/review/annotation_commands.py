"""What `webeval annotations list | export | import | agreement | rename-reviewer` do
(`cli/annotations_command.py` parses arguments).

Each command opens the store (`--annotations PATH_OR_URL`, else `WEBEVAL_ANNOTATIONS`, else the
SQLite file), reads the root's index for the trajectories and their judges, and returns an exit
code. Problems go to `err` as one line naming the file (and line) or the store, password masked.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from webeval_core.policy.access import Write
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review.agreement_stats import agreement_report
from webeval_core.review.annotation_db import AnnotationStore, StoreError
from webeval_core.review.annotations import Annotation, Stage, reviewer_key
from webeval_core.review.corrections import corrections_as_tasks, proposals, read_corrections
from webeval_core.review.cuaverifierbench import write_tables
from webeval_core.review.exchange import ImportRejectedError, export_rows, read_import, rows_as_text, unseen
from webeval_core.review.failure_agreement import FailureAgreement, failure_report, read_failures
from webeval_core.review.judge_outcomes import judge_verdicts
from webeval_core.review.queues import reassign_queues
from webeval_core.review.store_opener import open_annotations
from webeval_core.runs.index import build_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_core.support.safe_output import strict_json, terminal_text
from webeval_core.support.vocabulary import agreement_figure

Command = Callable[[AnnotationStore, Path, TextIO], int]


def command_for(
    action: str,
    fmt: str = "csv",
    output: str | None = None,
    file: str = "",
    corrections: str | None = None,
    adjudicator: str | None = None,
    *,
    audit: str | None = None,
    names: tuple[str, str] = ("", ""),
) -> Command:
    """The command of a `webeval annotations` action and its options (`names`: rename-reviewer's)."""
    if action == "export":
        return export_command(fmt, output, corrections, audit)
    if action == "import":
        return import_command(Path(file))
    if action == "agreement":
        return agreement_command(as_json=fmt == "json", adjudicator=adjudicator)
    if action == "rename-reviewer":
        return rename_command(*names)
    return list_command


def run_command(command: Command, root: Path, location: str | None, out: TextIO, err: TextIO) -> int:
    """Open the store, run one command on it, report a store or input problem on `err`."""
    if not root.is_dir():
        err.write(f"webeval annotations: {root}: not a folder\n")
        return 1
    try:
        store, problems = open_annotations(location, root)
    except StoreError as exc:
        err.write(f"webeval annotations: {exc}\n")
        return 1
    err.writelines(f"webeval annotations: {terminal_text(str(problem))}\n" for problem in problems)
    try:
        return command(store, root, out)
    except StoreError as exc:
        err.write(f"webeval annotations: {exc}\n")
        return 1
    except ImportRejectedError as exc:
        err.writelines(
            f"webeval annotations import: {terminal_text(str(problem))}\n" for problem in exc.problems
        )
        err.write("webeval annotations import: nothing imported\n")
        return 1
    finally:
        store.close()


def list_command(store: AnnotationStore, root: Path, out: TextIO) -> int:
    """Every annotation of the root's trajectories, history included, one line each."""
    known = judge_verdicts(build_index(root))
    for a in store.annotations(OUTSIDE_REVIEW):
        if a.item in known:
            fields = (
                a.created.isoformat(),
                a.run,
                a.task_id,
                a.reviewer,
                a.stage,
                a.outcome,
                a.justification,
            )
            # Each field is made safe on its own: terminal_text would escape the tabs between them.
            out.write("\t".join(terminal_text(str(f)) for f in fields) + "\n")
    return 0


def export_command(
    fmt: str, output: str | None, corrections: str | None = None, audit: str | None = None
) -> Command:
    """`export`: the current annotations of the root's trajectories, with each judge's verdict.

    With `audit`, the store's whole history goes to that file as JSON lines (`AnnotationStore.audit`:
    every annotation and record, when, and the identity sign-in verified for its writer).

    With `corrections`, the corrected tasks go to that file as a JSON list of tasks in the official
    dataset's shape (revision raised by one), and every proposal (corrected, ambiguous, infeasible;
    reviewer, reason, time) to its sidecar `<name>.proposals.jsonl`, ready to file upstream.
    """
    if fmt == "cuaverifierbench":
        return cuaverifierbench_command(Path(output or "."))

    def run(store: AnnotationStore, root: Path, out: TextIO) -> int:
        text = rows_as_text(
            export_rows(store.annotations(OUTSIDE_REVIEW), judge_verdicts(build_index(root))), fmt
        )
        if output:
            Path(output).write_text(text, encoding="utf-8", newline="")
        else:
            out.write(text)
        if corrections:
            write_corrections(store, Path(corrections))
        if audit:
            lines = (strict_json(entry.model_dump(mode="json")) + "\n" for entry in store.audit())
            Path(audit).write_text("".join(lines), encoding="utf-8")
        return 0

    return run


def cuaverifierbench_command(folder: Path) -> Command:
    """`export --format cuaverifierbench -o DIR`: the two tables of CUAVerifierBench into DIR."""

    def run(store: AnnotationStore, root: Path, out: TextIO) -> int:
        index = build_index(root)
        paths = write_tables(folder, index, store.annotations(OUTSIDE_REVIEW), judge_verdicts(index))
        out.write("".join(f"Wrote {path}\n" for path in paths))
        return 0

    return run


def proposals_path(dataset_file: Path) -> Path:
    """The sidecar of a corrections file: every proposal, one JSON object per line."""
    return dataset_file.with_name(f"{dataset_file.stem}.proposals.jsonl")


def write_corrections(store: AnnotationStore, dataset_file: Path) -> None:
    """The corrected tasks to `dataset_file`, every proposal to its sidecar (`proposals_path`)."""
    store.policy.check(Write.TASK_FILE)  # a read-only process writes no task file either
    every = read_corrections(store)
    tasks = corrections_as_tasks(load_catalog(), every)
    dataset_file.write_text(json.dumps(tasks, indent=2) + "\n", encoding="utf-8")
    lines = (strict_json(p.model_dump(mode="json")) + "\n" for p in proposals(every))
    proposals_path(dataset_file).write_text("".join(lines), encoding="utf-8")


def import_command(file: Path) -> Command:
    """`import`: every row of a file or none; rows already stored are not added again."""

    def run(store: AnnotationStore, root: Path, out: TextIO) -> int:
        known = set(judge_verdicts(build_index(root)))
        rows = read_import(file, known)
        added = store.add_many(unseen(rows, store.annotations(OUTSIDE_REVIEW)))
        out.write(f"Imported {added} new annotation(s) of {len(rows)} row(s) from {file}\n")
        return 0

    return run


def rename_command(old: str, new: str) -> Command:
    """`rename-reviewer OLD NEW`: the annotations saved under a typed name become the reviewer
    NEW's (the identity they sign in as), said with the trajectories judged under both names in one
    stage (`annotations.current` then counts one of them, the other stays in the history).
    """

    def run(store: AnnotationStore, root: Path, out: TextIO) -> int:
        before = store.annotations(OUTSIDE_REVIEW)
        both = sorted(_judged(before, old) & _judged(before, new))
        moved, shown = store.rename_reviewer(old, new)
        name = store.reviewer_name(new)
        queues = reassign_queues(store, old, name)  # also when a first attempt stopped after the rows
        if not moved and not shown and not queues:
            out.write(terminal_text(f"No annotation or queue under the name {old!r}: nothing renamed") + "\n")
            return 1
        line = f"Renamed {old!r} to {name!r}: {moved} annotation(s), {shown} record(s) of what was shown"
        out.write(terminal_text(line) + "\n")
        if queues:
            out.write(terminal_text(f"  queues assigned to {name!r} now: {', '.join(queues)}") + "\n")
        for run_key, task_id, stage in both:
            kept = "the first counts, made blind" if stage == Stage.BLIND else "the newest counts"
            item = f"  {run_key} {task_id}: judged under both names ({stage}); {kept}"
            out.write(terminal_text(item) + "\n")
        return 0

    return run


def _judged(annotations: list[Annotation], reviewer: str) -> set[tuple[str, str, str]]:
    """The (run, task id, stage) a reviewer (any case) annotated."""
    key = reviewer_key(reviewer)
    return {(a.run, a.task_id, str(a.stage)) for a in annotations if a.reviewer_key == key}


def agreement_command(as_json: bool, adjudicator: str | None = None) -> Command:
    """`agreement`: reviewer pairs and judges against the reviewers' outcome, per stage."""

    def run(store: AnnotationStore, root: Path, out: TextIO) -> int:
        index = build_index(root)
        annotations = store.annotations(OUTSIDE_REVIEW)
        report = agreement_report(annotations, judge_verdicts(index), adjudicator)
        reviewed = {a.item for a in annotations}
        folders = {
            (s.run_key, s.task_id): s.path for s in index.summaries if (s.run_key, s.task_id) in reviewed
        }
        failures = failure_report(annotations, read_failures(folders))
        if as_json:
            content = report.model_dump(mode="json", include={"reviewers", "judges"})
            content["failures"] = [f.model_dump(mode="json") for f in failures]
            out.write(strict_json(content, indent=2) + "\n")
            return 0
        out.write("Reviewer pairs (Cohen's kappa of the outcome)\n")
        for pair in report.reviewers:
            line = f"  {pair.stage:9} {pair.a} ~ {pair.b}: n={pair.n} kappa={agreement_figure(pair.kappa)}"
            out.write(terminal_text(line) + "\n")
        rule = report.judges[0].rule if report.judges else "majority"
        out.write(f"Judges against the reviewers' outcome ({rule}; success = positive)\n")
        for judge in report.judges:
            figures = " ".join(
                f"{name}={agreement_figure(getattr(judge, name))}"
                for name in ("kappa", "accuracy", "precision", "recall", "f1", "false_positive_rate")
            )
            ties = f" (left out: {judge.ties} reviewer ties)" if judge.ties else ""
            settled = f" ({judge.settled} ties settled)" if judge.settled else ""
            line = f"  {judge.stage:9} {judge.judge}: n={judge.n}{settled} {figures}{ties}"
            out.write(terminal_text(line) + "\n")
        _write_failures(failures, out)
        return 0

    return run


def _write_failures(failures: tuple[FailureAgreement, ...], out: TextIO) -> None:
    if not failures:
        return
    out.write("Reviewers against each verifier's first point of failure (share agreeing, n)\n")
    for f in failures:
        figures = (
            f"has failure={agreement_figure(f.has_failure)} (n={f.has_failure_n})",
            f"category={agreement_figure(f.category)} (n={f.category_n})",
            f"first step exact={agreement_figure(f.step_exact)},",
            f"within one={agreement_figure(f.step_within_one)} (n={f.step_n})",
        )
        out.write(terminal_text(f"  {f.stage:9} {f.judge}: " + " ".join(figures)) + "\n")
