"""`webeval show DIR`: one trajectory as text, JSON or a standalone HTML page."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from webeval_core.cli._output import complain, print_json, say, shorten, size, table
from webeval_core.cli._redaction import add_redaction_arguments, redactor_for, write_report
from webeval_core.cli._roots import local_root

if TYPE_CHECKING:
    from webeval_core.cli._output import Subparsers
    from webeval_core.presentation import Redactor
    from webeval_core.reading import Task, Trajectory, VerifierOutput


def add_parser(sub: Subparsers) -> None:
    """`show DIR [--json | --html FILE [--force]]`."""
    show = sub.add_parser("show", help="summarise one trajectory folder")
    show.add_argument("dir", help="a trajectory folder")
    shape = show.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="print one JSON object")
    shape.add_argument(
        "--html", metavar="FILE", help="write the whole trajectory as one standalone HTML page"
    )
    show.add_argument("--force", action="store_true", help="with --html: overwrite FILE if it exists")
    add_redaction_arguments(show)
    show.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """One trajectory as text, JSON or a standalone HTML page; 1 when it cannot be read or written."""
    from webeval_core.reading import load_trajectory, trajectory_json
    from webeval_core.support import UnreadableError

    folder = local_root(args.dir, "show")
    if folder is None:
        return 1
    try:
        trajectory = load_trajectory(folder)
    except UnreadableError as exc:
        complain("show", exc.path, exc.reason)
        return 1
    if args.html:
        redactor = redactor_for(args, "show")
        if redactor is None:
            return 1
        return _write_html(trajectory, Path(args.html), args.force, redactor, out)
    if args.json:
        print_json({**trajectory_json(trajectory), "verifiers": _verifiers_json(trajectory)}, out)
    else:
        say(out, *_format_trajectory(trajectory))
    return 0


def _format_trajectory(t: Trajectory) -> list[str]:
    lines = [
        f"Task {t.task_id}  ({t.layout} layout, {t.log_generation or 'no'} log)",
        f"Folder:   {t.path}",
        *_task_lines(t),
        f"Outcome:  {t.outcome}",
        f"Steps:    {len(t.steps)}    Screenshots: {len(t.screenshots)}"
        + (f"    Duration: {t.duration_s:.1f} s" if t.duration_s is not None else ""),
    ]
    usage = t.token_usage
    if usage.prompt_tokens or usage.completion_tokens:
        lines.append(f"Tokens:   {usage.prompt_tokens} prompt, {usage.completion_tokens} completion")
    lines.append(f"Answer:   {shorten(t.final_answer_text, 300) or '(none)'}")
    for name, score_file in sorted(t.scores.items()):
        lines.append(f"Score:    {name} = {score_file.score}")
    lines += _failure_lines(t)
    if t.steps:
        # The action column as wide as its longest name (pause_and_memorize_fact), so no row loses
        # its alignment.
        rows = [
            (
                str(s.index),
                s.action,
                shorten(json.dumps(s.arguments, ensure_ascii=False), 48),
                shorten(s.url, 60),
            )
            for s in t.steps
        ]
        lines += ["", *table(("#", "action", "arguments", "url"), rows, right=(0,))]
    errors = t.error_lines
    if errors:
        lines.append("")
        lines.append(f"core.log errors ({len(errors)}):")
        lines.extend(f"  line {e.line}: {shorten(e.message, 120)}" for e in errors)
    if t.warnings:
        lines.append("")
        lines.append(f"Warnings ({len(t.warnings)}):")
        lines.extend(f"  {w}" for w in t.warnings)
    return lines


def _task_lines(t: Trajectory) -> list[str]:
    """The task as the agent was given it: the folder's task_data.json, else the WebArena catalog's."""
    from webeval_core.reading import site_of

    if t.task_text is not None:
        site = site_of(t.task_data)
        return [f"Task:     {t.task_text.text}", *([f"Site:     {site}"] if site else [])]
    task = _catalog_task(t.task_id)
    if task is None:
        return ["Task:     (not stated by the folder, nor in the WebArena-Verified catalog)"]
    return [f"Task:     {task.intent}", f"Site:     {', '.join(task.sites)}"]


def _catalog_task(task_id: str) -> Task | None:
    from webeval_core.reading import load_catalog
    from webeval_core.support import UnreadableError

    try:
        return load_catalog().get(task_id)
    except UnreadableError:  # no catalog installed: the task is then only its id
        return None


def _failure_lines(t: Trajectory) -> list[str]:
    """The verdicts: the official one (any status) with why it failed and its failed assertions,
    "not scored" as the app's header says it, then each verifier's verdict, earliest failure and
    task verification.
    """
    return [*_official_lines(t), *(line for output in _verifiers(t) for line in _verifier_lines(output))]


def _official_lines(t: Trajectory) -> list[str]:
    from webeval_core.presentation import NOT_SCORED, verdict_badges
    from webeval_core.scoring import failure_reason, read_verdict_with_result, stored_evaluation

    found = read_verdict_with_result(t.scores, t.eval_result)
    if found is None:
        unscored = verdict_badges(t.scores, t.eval_result)[0].text == NOT_SCORED
        return [f"Verdict:  {NOT_SCORED}"] if unscored else []
    verdict, result = found
    tags = f" ({', '.join(verdict.tags)})" if verdict.tags else ""
    score = f", score {verdict.score:g}" if verdict.score is not None else ""
    lines = [f"Verdict:  {verdict.status}{tags}{score}, from {verdict.source}"]
    source = t.scores.get(verdict.source)
    evaluation = stored_evaluation(source.path) if source is not None else None
    if evaluation is not None:  # our score file: its reason names the assertions that failed
        return [*lines, f"Why:      {failure_reason(evaluation)}"] if verdict.status != "success" else lines
    for evaluator in result.evaluators_results:  # the official CLI's eval_result.json
        for assertion in evaluator.assertions or ():
            if assertion.status.value != "success":
                said = "; ".join(assertion.assertion_msgs or ()) or assertion.error_msg or ""
                lines.append(f"  {evaluator.evaluator_name} {assertion.assertion_name}: {shorten(said, 200)}")
    return lines


def _verifiers(t: Trajectory) -> list[VerifierOutput]:
    from webeval_core.reading import verifier_outputs

    return list(verifier_outputs(t.scores)[0])


def _verifier_lines(output: VerifierOutput) -> list[str]:
    """A rubric verifier's verdict, its earliest point of failure (by step) and the task's checks."""
    from webeval_core.reading import code_label

    verdict = {True: "success", False: "failure", None: "no verdict"}[output.outcome_success]
    reasoning = shorten(output.outcome_reasoning, 300) or "(no reasoning)"
    lines = [f"Judge {output.judge}: {verdict}: {reasoning}"]
    point = output.first_failure
    if point is not None:
        code = code_label(point.error_code) if point.error_code else "no code"
        said = point.what_happened or ""
        lines.append(f"  first failure at step {point.step_numbers or '?'} [{code}]: {said}")
    for checked, label in (
        (output.task_verification, "task"),
        (output.task_verification_with_trajectory, "task, with the trajectory"),
    ):
        if checked is not None and (checked.is_ambiguous or checked.is_invalid):
            named = (("ambiguous", checked.is_ambiguous), ("invalid", checked.is_invalid))
            flags = [name for name, on in named if on]
            codes = ", ".join(code_label(code) for code in checked.codes) or "no code"
            lines.append(f"  {label}: {' and '.join(flags)} [{codes}]")
    return lines


def _verifiers_json(t: Trajectory) -> list[dict[str, object]]:
    """Each rubric verifier as `show --json` gives it: its verdict, first failure and every code it
    gives, each code with its taxonomy name (as the text and the app name them).
    """
    from webeval_core.reading import code_name

    def named(code: str | None) -> dict[str, str | None] | None:
        return {"code": code, "name": code_name(code)} if code else None

    found: list[dict[str, object]] = []
    for output in _verifiers(t):
        point = output.first_failure
        first = (
            {"steps": point.step_numbers, "error": named(point.error_code), "what": point.what_happened}
            if point is not None
            else None
        )
        found.append(
            {
                "judge": output.judge,
                "score": output.score,
                "outcome_success": output.outcome_success,
                "first_failure": first,
                "codes": [named(code) for code in output.codes],
            }
        )
    return found


def _html_target_problem(target: Path, folder: Path, force: bool) -> str | None:
    """Why the page cannot be written to `target`, checked before the (seconds-long) rendering."""
    if target.resolve().is_relative_to(folder.resolve()):
        return f"is inside the trajectory folder {folder}, which this tool only reads; write it elsewhere"
    if target.is_dir():
        return "is a folder; name the .html file to write"
    if not target.parent.is_dir():
        return f"cannot be written: the folder {target.parent} does not exist"
    if target.exists() and not force:
        return "already exists; pass --force to overwrite it"
    return None


def _refuse_html(target: Path, problem: str) -> int:
    complain("show", target, problem)
    return 1


def _write_html(trajectory: Trajectory, target: Path, force: bool, redactor: Redactor, out: TextIO) -> int:
    from webeval_core.presentation import (
        redacted_page,
        standalone_page,  # pandas (via explain): only `--html` pays for it
    )

    problem = _html_target_problem(target, trajectory.path, force)
    if problem is not None:
        return _refuse_html(target, problem)
    page = redacted_page(trajectory, standalone_page, redactor, trajectory.task_id).encode("utf-8")
    try:
        # "x" even after the check above: a file that appeared meanwhile is still not overwritten.
        with open(target, "wb" if force else "xb") as handle:
            handle.write(page)
    except OSError as exc:
        return _refuse_html(target, f"cannot be written ({exc.strerror})")
    said = write_report(redactor, target)
    say(out, f"Wrote {target} ({size(len(page))}, {len(trajectory.steps)} steps); {said}")
    return 0
