"""The figures a team publishes: every rate as scored and as published, and what separates them.

*As scored* is the index's rate under the judge in use (`runs.listing.queries`). *As published* applies
the team's decisions on top: a verdict edit in force replaces the machine's verdict (and counts the
trajectory even where the machine could not score it), an exclusion in force leaves the trajectory
out. Every line carries the counts of edits, edits to re-check and exclusions that separate the two
figures, so no one reads a published figure without knowing it differs. This module decides both
figures for every view and export: the overview, the results table, the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from webeval_core.reading import FINISHED_OUTCOMES, SCORES_DIR
from webeval_core.review.annotation_db import AnnotationStore
from webeval_core.review.exclusions import Exclusion, excluded_by, exclusions_in_force, read_exclusions
from webeval_core.review.verdict_edits import (
    EditAction,
    EditInForce,
    MachineVerdict,
    PublishedStatus,
    VerdictEdit,
    in_force,
    read_edits,
    save_edit,
)
from webeval_core.runs import (
    FAIL,
    OFFICIAL,
    PASS,
    UNFINISHED,
    IndexQueries,
    ListedTrajectory,
    TrajectoryFilter,
    bootstrap_rate_interval,
    wilson_interval,
)
from webeval_core.scoring import ABORTED, EngineInfo, stored_engine
from webeval_core.support.vocabulary import UNKNOWN, percent


class GroupBy(StrEnum):
    """What one line of a results table stands for."""

    RUN = "run"
    SITE = "site"


class PublishedTrajectory(BaseModel):
    """One trajectory's verdict as scored and as published."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    row: ListedTrajectory
    """The index's row under the judge in use (its verdict as scored)."""
    machine: MachineVerdict
    """Its verdict in force (judge, eval hash, status, score): what an edit written now replaces."""
    edit: EditInForce | None
    """The verdict edit in force; None when the machine's verdict is published."""
    exclusion: Exclusion | None
    """The exclusion in force that leaves it out; None when it counts."""

    @property
    def published_value(self) -> float | None:
        """What it adds to the published rate; None when left out."""
        if self.exclusion is not None:
            return None
        return self.edit.edit.value if self.edit is not None else self.row.value

    @property
    def verdict_in_words(self) -> str:
        """The published verdict in words, with what decided it and who."""
        return self.verdict_said(names=True)

    def verdict_said(self, *, names: bool) -> str:
        """The published verdict in words, with what decided it; who only when `names` (a shared
        site says who edited a verdict only when asked).
        """
        if self.exclusion is not None:
            return f"excluded ({self.exclusion.reason})"
        if self.edit is not None:
            marker = ", to re-check" if self.edit.recheck else ""
            said = PASS if self.edit.edit.status == "success" else FAIL  # the list's words for a result
            by = f" by {self.edit.edit.author}" if names else ""
            return f"{said}{by} (edit{marker})"
        return self.row.result or UNKNOWN  # None: verdicts withheld (runs.viewing)


class Rate(BaseModel):
    """One success rate with what it counts and its 95% intervals."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    counted: int
    """Trajectories it counts."""
    total: float
    """The sum of their values (passes, partial scores added as they are)."""
    wilson: tuple[float, float] | None
    """Wilson's interval (`runs.intervals`); None when nothing is counted."""
    bootstrap: tuple[float, float] | None
    """The bootstrap interval; None when nothing is counted."""

    @property
    def rate(self) -> float | None:
        """Total / counted; None when nothing is counted."""
        return self.total / self.counted if self.counted else None


class ResultLine(BaseModel):
    """One line of a results table: a run, or a site (over the runs shown)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    group: str
    """The run key or the site."""
    trajectories: int
    """Trajectories in the group."""
    finished: int
    """How many are finished (`reading.task_state`: answered, or out of budget), as every view counts."""
    aborted: int = 0
    """How many are aborted (crashed included): over without a usable answer, left out of rates."""
    crashed: int = 0
    """How many of the aborted crashed (their last attempt raised)."""
    unfinished: int = 0
    """How many are still running, or silent since: left out until they finish."""
    excluded: int
    """How many an exclusion in force leaves out of the published rate."""
    edits: int
    """How many carry a verdict edit in force."""
    recheck: int
    """How many of those edits are to re-check (the machine verdict changed since)."""
    scored: Rate
    """The rate as scored (the judge's verdicts)."""
    published: Rate
    """The rate as published (edits and exclusions applied)."""
    judges: tuple[str, ...]
    """The judges whose verdicts it counts (official, gpt_eval, ...)."""
    sources: tuple[str, ...]
    """Where its official verdicts were read: eval hashes (score file stems), eval_result.json."""

    @property
    def differs(self) -> bool:
        """Whether the published figure counts anything differently from the scored one."""
        return bool(self.excluded or self.edits)


def machine_verdict(row: ListedTrajectory, sources: Mapping[str, str]) -> MachineVerdict:
    """The verdict in force of one row (judge, status, score), with the official verdict's source
    (`IndexQueries.verdict_sources`: its eval hash) when the official evaluator is the judge.
    """
    source = sources.get(row.key) if row.judge == OFFICIAL else None
    return MachineVerdict(judge=row.judge, source=source, status=row.status, score=row.score)


def published(
    rows: Sequence[ListedTrajectory],
    sources: Mapping[str, str],
    edits: Iterable[VerdictEdit],
    exclusions: Iterable[Exclusion],
) -> list[PublishedTrajectory]:
    """Every row with the edit and the exclusion in force on it (`sources`: `machine_verdict`'s)."""
    machine = {(r.run, r.task_id): machine_verdict(r, sources) for r in rows}
    edited = in_force(edits, machine)
    left_out = exclusions_in_force(exclusions)
    return [
        PublishedTrajectory(
            row=r,
            machine=machine[(r.run, r.task_id)],
            edit=edited.get((r.run, r.task_id)),
            exclusion=excluded_by(left_out, r.run, r.task_id),
        )
        for r in rows
    ]


def published_root(
    queries: IndexQueries,
    judge: str | None,
    store: AnnotationStore | None,
    criteria: TrajectoryFilter | None = None,
) -> list[PublishedTrajectory]:
    """Every trajectory of a root under `judge` (those `criteria` keeps), with the store's edits and
    exclusions in force (none without a store: the published figures are then the scored ones).
    """
    rows = queries.page(judge, criteria).rows
    edits = read_edits(store) if store is not None else []
    exclusions = read_exclusions(store) if store is not None else []
    return published(rows, queries.verdict_sources(), edits, exclusions)


def published_runs(
    queries: IndexQueries, judge: str | None, store: AnnotationStore | None, runs: Iterable[str]
) -> list[PublishedTrajectory]:
    """`published_root` of some runs only (what an overview of chosen runs counts)."""
    return published_root(queries, judge, store, TrajectoryFilter(runs=frozenset(runs)))


def published_one(
    queries: IndexQueries, store: AnnotationStore | None, run: str, key: str
) -> PublishedTrajectory | None:
    """One trajectory's published verdict (its summary `key`); None when the index lacks it."""
    found = published_root(
        queries, None, store, TrajectoryFilter(runs=frozenset({run}), keys=frozenset({key}))
    )
    return found[0] if found else None


def write_edit(
    store: AnnotationStore,
    trajectory: PublishedTrajectory,
    action: EditAction,
    reason: str,
    author: str,
    *,
    status: PublishedStatus | None = None,
    score: float | None = None,
) -> VerdictEdit:
    """Set, confirm or withdraw the edit of a trajectory against its verdict in force now.

    Raises:
        ValueError: When the edit is not well formed (a set without a status, a blank reason...).
        StoreError: When the store refuses it (read-only server, role, identity).
    """
    edit = VerdictEdit(
        run=trajectory.row.run,
        task_id=trajectory.row.task_id,
        action=action,
        status=status,
        score=score,
        reason=reason,
        author=author,
        replaced=trajectory.machine,
    )
    save_edit(store, edit)
    return edit


def rate_of(values: Sequence[float | None]) -> Rate:
    """The rate of the values that count (None: left out)."""
    counted = [v for v in values if v is not None]
    return Rate(
        counted=len(counted),
        total=sum(counted),
        wilson=wilson_interval(sum(counted), len(counted)),
        bootstrap=bootstrap_rate_interval(counted),
    )


def results(trajectories: Sequence[PublishedTrajectory], by: GroupBy = GroupBy.RUN) -> list[ResultLine]:
    """A results table: one line per run (or site), in run (or site) order, then "all" when several."""
    key: Callable[[PublishedTrajectory], str] = (
        (lambda t: t.row.run) if by == GroupBy.RUN else (lambda t: t.row.site or UNKNOWN)
    )
    groups: dict[str, list[PublishedTrajectory]] = {}
    for item in trajectories:
        groups.setdefault(key(item), []).append(item)
    lines = [result_line(name, groups[name]) for name in sorted(groups)]
    if len(lines) > 1:
        lines.append(result_line("all", trajectories))
    return lines


def result_line(group: str, items: Sequence[PublishedTrajectory]) -> ResultLine:
    """One line of a results table over `items`."""
    return ResultLine(
        group=group,
        trajectories=len(items),
        finished=sum(t.row.outcome in FINISHED_OUTCOMES for t in items),
        aborted=sum(t.row.result == ABORTED for t in items),
        crashed=sum(t.row.result == ABORTED and t.row.crash_reason is not None for t in items),
        unfinished=sum(t.row.result == UNFINISHED for t in items),
        excluded=sum(t.exclusion is not None for t in items),
        edits=sum(t.edit is not None for t in items),
        recheck=sum(t.edit is not None and t.edit.recheck for t in items),
        scored=rate_of([t.row.value for t in items]),
        published=rate_of([t.published_value for t in items]),
        judges=tuple(sorted({t.row.judge for t in items if t.row.judge})),
        sources=tuple(sorted({t.machine.source for t in items if t.machine.source})),
    )


def counted_by(
    trajectories: Sequence[PublishedTrajectory], line: ResultLine, by: GroupBy
) -> list[PublishedTrajectory]:
    """The trajectories one line counts (its figure's list), in table order."""
    if line.group == "all":
        return list(trajectories)
    if by == GroupBy.RUN:
        return [t for t in trajectories if t.row.run == line.group]
    return [t for t in trajectories if (t.row.site or UNKNOWN) == line.group]


def figures_in_words(line: ResultLine) -> str:
    """Both figures in one sentence, with what separates them: what every view says of a rate."""
    scored = percent(line.scored.rate)
    if not line.differs and not line.scored.counted:
        return "none yet: nothing counted (as scored; no edits or exclusions)"
    if not line.differs:
        return f"{scored} of {line.scored.counted} (as scored; no edits or exclusions)"
    said = f"{percent(line.published.rate)} of {line.published.counted} as published"
    said += f" · {scored} of {line.scored.counted} as scored"
    parts = [f"{line.edits} edit{'s' if line.edits != 1 else ''}"]
    if line.recheck:
        parts.append(f"{line.recheck} to re-check")
    parts.append(f"{line.excluded} excluded")
    return f"{said} ({', '.join(parts)})"


def edited(trajectories: Iterable[PublishedTrajectory]) -> list[PublishedTrajectory]:
    """The trajectories whose verdict a person edited, those to re-check first (the Results page)."""
    found = [t for t in trajectories if t.edit is not None]
    return sorted(found, key=lambda t: not (t.edit and t.edit.recheck))


def engines_of(trajectories: Iterable[PublishedTrajectory]) -> dict[str, EngineInfo]:
    """The evaluator behind each eval hash the trajectories were scored under (library version,
    dataset checksum), read from one score file of each; eval_result.json and unreadable files
    give none.
    """
    found: dict[str, EngineInfo] = {}
    tried: set[str] = set()
    for item in trajectories:
        source = item.machine.source
        if source is None or source in tried:
            continue
        tried.add(source)
        engine = stored_engine(Path(item.row.path) / SCORES_DIR / f"{source}.json")
        if engine is not None:
            found[source] = engine
    return found


PUBLICATION_COLUMNS = (
    "published",
    "published_value",
    "edit_by",
    "edit_reason",
    "edit_to_recheck",
    "excluded_by",
    "excluded_reason",
)
"""The columns an export adds per trajectory: what it contributes as published, and why."""


def publication_columns(item: PublishedTrajectory) -> dict[str, object]:
    """One trajectory's `PUBLICATION_COLUMNS` (an export's cells)."""
    edit, exclusion = item.edit, item.exclusion
    return {
        "published": item.verdict_in_words,
        "published_value": item.published_value,
        "edit_by": edit.edit.author if edit else None,
        "edit_reason": edit.edit.reason if edit else None,
        "edit_to_recheck": edit.recheck if edit else None,
        "excluded_by": exclusion.author if exclusion else None,
        "excluded_reason": exclusion.reason if exclusion else None,
    }


def by_item(trajectories: Iterable[PublishedTrajectory]) -> Mapping[tuple[str, str], PublishedTrajectory]:
    """The trajectories by (run, task id)."""
    return {(t.row.run, t.row.task_id): t for t in trajectories}
