"""What the index knows of one trajectory folder (`TrajectorySummary`), of a whole root
(`RootIndex`), and how one folder is summarised.

The models every other module of runs/ builds on: store writes and reads them, refresh makes
them, judges and metrics read them. Of runs/ this imports only discovery (what a run is), so
nothing here can lead back to them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

from webeval_core.reading.folderfiles import has_lone_surrogate, replace_lone_surrogates
from webeval_core.reading.folderreader import Listing
from webeval_core.reading.glance import glance_trajectory
from webeval_core.reading.trajectory_reader import Ending
from webeval_core.reading.verifier import failure_codes
from webeval_core.runs.discovery import Run
from webeval_core.scoring.verdicts import Verdict, read_verdict
from webeval_core.support.diagnostics import UnreadableError

__all__ = ["RootIndex", "TrajectorySummary", "summarize_trajectory"]

ANSWER_PREVIEW = 400
"""Characters of the agent's answer a summary keeps (`TrajectorySummary.final_answer`)."""
_EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Timeout|Interrupt|Exit))\b")
_ERROR_PREFIX = re.compile(r"^(\[(?:Execution|Evaluation)[^\]]*\]\s*)?(Error running task|Error)?\s*:?\s*")
_REASON_CHARS = 300


class TrajectorySummary(BaseModel):
    """What lists and charts need of one trajectory, without its steps."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run_key: str
    """The key of the run the folder belongs to (`Run.key`)."""
    key: str
    """The folder relative to the indexed root, "/"-separated (`discovery.trajectory_key`): unique
    under the root even when two folders of a run hold the same task id, so pick and link by it.
    Summaries made without a root are keyed by their full path."""
    path: Path
    """The trajectory folder."""
    task_id: str
    """The task's id (`Trajectory.task_id`; the folder's name when it could not be loaded)."""
    layout: str | None = None
    """The name of the format that read the folder (`reading.formats`: "fara", "webarena-verified", ...);
    None when the folder could not be loaded."""
    outcome: Ending | None = None
    """Answered, no answer or aborted; None when the folder could not be loaded."""
    steps: int = 0
    """How many actions the agent took."""
    screenshots: int = 0
    """How many screenshot files the folder holds, counted by name (`Glance.screenshots`: a file named
    like a screenshot that is not a PNG still counts; the trajectory page shows the usable ones)."""
    duration_s: float | None = None
    """How long the solver ran, in seconds; None when times.json does not say."""
    prompt_tokens: int = 0
    """LLM prompt tokens summed over every component."""
    completion_tokens: int = 0
    """LLM completion tokens summed over every component."""
    final_answer: str | None = None
    """The start of the agent's answer (its first 400 characters); None when it gave none."""
    task_text: str | None = None
    """The task as the folder states it (task_data.json's `task_proposal`...); None when it does not
    (WebArena-Verified tasks are described by the catalog instead)."""
    site: str | None = None
    """The task's website as task_data.json names it; None when it does not (the catalog's for WebArena)."""
    scores: dict[str, float | None] = {}
    """Each score file's score, by file stem (None where the file has no usable score)."""
    core_error: str | None = None
    """Error type of the last [ERROR] line of core.log; None when it logged no error."""
    crash_reason: str | None = None
    """`Trajectory.crash_reason`: why the task raised (its harness's record, or core.log's last error)."""
    verdict: Verdict | None = None
    """WebArena-Verified verdict from a score file or eval_result.json; None when not scored."""
    failure_codes: dict[str, tuple[str, ...]] = {}
    """Error-taxonomy codes each verifier gives (`reading.verifier.failure_codes`), by judge (score
    file stem): its failure points' codes, then the task's; judges giving none are left out."""
    warnings: int = 0
    """How many problems the index's light read of the folder met (`Glance.warnings`: those of its
    answer, times, core.log, score and eval files; the trajectory page lists every warning of the
    full reader, which also checks steps and screenshots)."""
    unreadable: str | None = None
    """Reason, when the folder could not be loaded at all; None otherwise."""

    @model_validator(mode="before")
    @classmethod
    def _key_from_path(cls, data: Any) -> Any:
        # A summary built outside an index (tests, tools) still gets a unique key: its path.
        if isinstance(data, dict) and "key" not in data and "path" in data:
            return {**data, "key": Path(data["path"]).as_posix()}
        return data

    @property
    def tokens(self) -> int | None:
        """Prompt plus completion tokens; None when the folder records none (every LLM call spends
        some, so a total of 0 means the writer kept no count; the index's `tokens` says the same).
        """
        return (self.prompt_tokens + self.completion_tokens) or None


class RootIndex(BaseModel):
    """Runs found under a root and one summary per trajectory folder."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    root: Path
    """The folder that was indexed, as given."""
    runs: tuple[Run, ...]
    """Every run found under the root, ordered by key."""
    summaries: tuple[TrajectorySummary, ...]
    """One summary per trajectory folder, run by run in each run's folder order."""

    @property
    def unreadable(self) -> tuple[TrajectorySummary, ...]:
        """The summaries of folders that could not be loaded at all."""
        return tuple(s for s in self.summaries if s.unreadable)

    def run(self, key: str) -> Run | None:
        """The run with this key, or None when the root has none."""
        return next((r for r in self.runs if r.key == key), None)


def summarize_trajectory(
    run_key: str, trajectory_dir: Path, key: str | None = None, listing: Listing | None = None
) -> TrajectorySummary:
    """Glance at one folder (`glance_trajectory`) and keep what the overview needs; unreadable
    folders keep their reason (the same as `load_trajectory`'s).

    `key` is the folder's `trajectory_key` under the indexed root (default: its name); `listing`
    the folder's, when the caller has just listed it. Whatever goes wrong with one folder ends in
    its `unreadable` reason, never in an exception.
    """
    key = key if key is not None else trajectory_dir.name
    try:
        return _summary(run_key, trajectory_dir, key, listing)
    except UnreadableError as exc:
        reason = exc.reason
    except Exception as exc:  # one folder must never stop the index; it says what happened
        reason = f"could not be summarised: unexpected {type(exc).__name__}: {exc}"
    return TrajectorySummary(
        run_key=run_key,
        key=key,
        path=trajectory_dir,
        task_id=trajectory_dir.name,
        unreadable=reason[:_REASON_CHARS],
    )


def _summary(run_key: str, trajectory_dir: Path, key: str, listing: Listing | None) -> TrajectorySummary:
    glance = glance_trajectory(trajectory_dir, listing)
    answer = glance.final_answer_text
    return TrajectorySummary(
        run_key=run_key,
        key=key,
        path=trajectory_dir,
        task_id=glance.task_id,
        layout=glance.layout,
        outcome=glance.outcome,
        steps=glance.steps,
        screenshots=glance.screenshots,
        duration_s=glance.duration_s,
        prompt_tokens=glance.token_usage.prompt_tokens,
        completion_tokens=glance.token_usage.completion_tokens,
        final_answer=answer[:ANSWER_PREVIEW] if answer else None,
        task_text=glance.task_text,
        site=glance.site,
        scores={name: sf.score for name, sf in glance.scores.items()},
        core_error=error_type(glance.last_error) if glance.last_error is not None else None,
        crash_reason=glance.crash_reason,
        verdict=read_verdict(glance.scores, glance.eval_result),
        failure_codes=failure_codes(glance.scores),
        warnings=len(glance.warnings),
    )


def stored_document(summary: TrajectorySummary) -> tuple[TrajectorySummary, str]:
    """The summary as the index stores it, and its JSON (without `path`).

    Text no UTF-8 file or database can hold (a lone surrogate, which a JSON escape or a file
    name's bytes may still bring) becomes U+FFFD, counted as one more warning: one folder must
    never stop the index.
    """
    texts = (summary.final_answer, summary.task_text, summary.site, summary.core_error)
    named = (summary.task_id, summary.crash_reason, *summary.scores, *summary.failure_codes)
    if any(text is not None and has_lone_surrogate(text) for text in (*texts, *named)):
        data, _ = replace_lone_surrogates(summary.model_dump())  # "json" mode would mangle keys
        summary = TrajectorySummary.model_validate({**data, "warnings": summary.warnings + 1})
    return summary, summary.model_dump_json(exclude={"path"})


def error_type(message: str) -> str:
    """Group core.log errors as upstream's histogram does: by exception class when a traceback
    names one (`playwright..._errors.TimeoutError: ...` -> `TimeoutError`), else by the message
    without its `[Execution <id>]` prefix and details (`Network trace file not found`).
    """
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return "error"
    if len(lines) > 1:
        exception = _EXCEPTION_LINE.match(lines[-1])
        if exception:
            return exception.group(1).rsplit(".", 1)[-1]
    head = _ERROR_PREFIX.sub("", lines[0])
    return head.split(":", 1)[0].strip()[:60] or "error"
