"""What a trajectory's HTML export says of its task and its judges, beyond the steps.

The task as the folder states it (task_data.json) when the WebArena-Verified catalog has none;
each score-file judge in full (the same tables the app's verifier view draws, from
`presentation.verifier_tables`); and, for a WebArena-Verified failure, the field-by-field comparison the
app shows: the response evaluator's fields (`tables.response_field_table`) and, for each network
check, the evaluator's one-sentence explanation and the compared request's fields, read from the
stored evaluation (never re-scored here). Every cell is escaped text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webeval_core.presentation.html import facts, table, text
from webeval_core.presentation.tables import (
    candidate_field_table,
    check_notes,
    compared_candidates,
    official_caption,
    response_field_table,
)
from webeval_core.presentation.verifier_tables import (
    critical_point_text,
    failure_points_table,
    rubric_items_table,
    score_text,
    task_verification_table,
    verdicts_table,
)
from webeval_core.reading.taskdata import site_of
from webeval_core.reading.verifier import verifier_outputs
from webeval_core.scoring import read_verdict, stored_evaluation

if TYPE_CHECKING:
    import pandas as pd

    from webeval_core.reading.trajectory_reader import Trajectory
    from webeval_core.reading.verifier import VerifierOutput
    from webeval_core.scoring import Evaluation, NetworkCheckTrace

__all__ = ["folder_task", "judges_section", "network_explanations", "official_diff", "official_evaluation"]


def frame_table(frame: pd.DataFrame | None) -> str:
    """A pandas frame as an HTML table of escaped text cells ("" for an empty or missing frame)."""
    if frame is None or frame.empty:
        return ""
    rows = [[text("" if _missing(v) else v) for v in row] for row in frame.itertuples(index=False)]
    return table([str(c) for c in frame.columns], rows)


def _missing(value: object) -> bool:
    import pandas as pd

    return bool(pd.isna(value)) if not isinstance(value, (list, tuple)) else False


def folder_task(trajectory: Trajectory) -> str:
    """The task as task_data.json states it, with its site and where it was read; "" when it does not."""
    found = trajectory.task_text
    if found is None:
        return ""
    site = site_of(trajectory.task_data)
    rows = [("Site", site)] if site else []
    rows.append(("Task text from", found.source))
    return f'<p class="intent">{text(found.text)}</p>{facts(rows)}'


def judges_section(trajectory: Trajectory) -> str:
    """Every score-file judge of the trajectory in full; "" when it has none."""
    outputs, _ = verifier_outputs(trajectory.scores)
    if not outputs:
        return ""
    return "<section><h2>Judges</h2>" + "".join(_judge(output) for output in outputs) + "</section>"


def _judge(output: VerifierOutput) -> str:
    parts = [f"<h3>{text(output.judge)}</h3>", f"<p>{text(score_text(output))}</p>"]
    critical = critical_point_text(output)
    if critical:
        parts.append(f"<p>{text(critical)}</p>")
    parts.append(frame_table(verdicts_table(output)))
    rubric = rubric_items_table(output)
    if rubric is not None:
        parts += ["<h4>Rubric</h4>", frame_table(rubric)]
    if output.failure is not None and output.failure.reasoning:
        parts += ["<h4>Failure analysis</h4>", f"<p>{text(output.failure.reasoning)}</p>"]
    if output.failure_points:
        parts += ["<h4>Failure points</h4>", frame_table(failure_points_table(output))]
    checks = task_verification_table(output)
    if checks is not None:
        parts += ["<h4>Task verification</h4>", frame_table(checks)]
    return "".join(parts)


def official_evaluation(trajectory: Trajectory) -> Evaluation | None:
    """The evaluation behind a trajectory's official verdict (its newest score file's), as every view
    of that verdict explains it; None without one (no verdict, or only the CLI's eval_result.json).
    """
    verdict = read_verdict(trajectory.scores, trajectory.eval_result)
    source = trajectory.scores.get(verdict.source) if verdict is not None else None
    return stored_evaluation(source.path) if source is not None else None


def network_explanations(trajectory: Trajectory) -> dict[int, str]:
    """Each network check's one-sentence explanation, by position, from the stored evaluation."""
    evaluation = official_evaluation(trajectory)
    return {trace.position: trace.explanation for trace in evaluation.network} if evaluation else {}


def official_diff(trajectory: Trajectory) -> str:
    """For a WebArena-Verified verdict that is not a success: the fields that differ, response and
    network, as the stored evaluation recorded them; "" otherwise.
    """
    evaluation = official_evaluation(trajectory)
    if evaluation is None or evaluation.result.status.value == "success":
        return ""
    parts = ["<h3>Field by field</h3>", _response_fields(evaluation)]
    parts += [_network_check(trace) for trace in evaluation.network]
    return "".join(parts)


def _response_fields(evaluation: Evaluation) -> str:
    fields = response_field_table(evaluation.result, evaluation.agent_response)
    if fields is None or fields.empty:
        return ""
    return "<h4>Response</h4>" + frame_table(fields)


def _network_check(trace: NetworkCheckTrace) -> str:
    notes = "".join(f"<p><em>{text(note)}</em></p>" for note in check_notes(trace))
    compared = "".join(
        f"<h5>Entry {c.har_index}{' (kept)' if c.kept else ' (matched, not kept)'}</h5>"
        + frame_table(candidate_field_table(c))
        for c in compared_candidates(trace)
    )
    caption = f"<p><small>{text(official_caption(trace))}</small></p>"
    return (
        f"<h4>Network check {trace.position}</h4>{caption}<p>{text(trace.explanation)}</p>{notes}{compared}"
    )
