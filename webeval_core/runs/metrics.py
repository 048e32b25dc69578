"""Aggregation over a root index: one tidy row per trajectory, headline numbers, breakdowns, the
failure taxonomy and run comparisons. UI-free (pandas only).

The app's overview and lists count with SQL on the index file instead (runs/listing/queries.py, tested
equal to these); the frame serves one run's report, two runs compared and review queues.

Counting follows the upstream (Fara) rules: aborted trajectories (crashed tasks, which left only
core.log, included) and unreadable ones and evaluator errors are left out of success rates; a
trajectory that ran out of budget without answering is counted, as a failure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from webeval_core.runs.index_columns import (
    ROW_COLUMNS,
    TRAJECTORY_COLUMNS,
    RowSource,
    StoredFolder,
    row_values,
)
from webeval_core.runs.judges import (
    OFFICIAL,
    available_judges,
    default_judge,
    judge_passes,
    judge_scores,
    judges_disagree,
)
from webeval_core.runs.listing.list_columns import (
    frame_facts,
    list_columns,
    rows_of,
    tags_of,
    verdict_columns,
)
from webeval_core.runs.trajectory_filter import (
    ANSWERED,
    FAIL,
    OUTCOME_GROUPS,
    PASS,
    UNFINISHED,
    UNREADABLE,
    UNSCORED,
    TrajectoryFilter,
)
from webeval_core.scoring.verdicts import ABORTED, CORE_LOG_PREFIX, NO_ANSWER, SCORING_ERROR, TAGS
from webeval_core.support.vocabulary import UNKNOWN

# pandas (most of a second to import) is imported where a frame is made: pages that only pick
# runs and filter (TrajectoryFilter, run_labels) never load it.
if TYPE_CHECKING:
    import pandas as pd

    from webeval_core.reading.task_catalog import TaskCatalog
    from webeval_core.runs.discovery import Run
    from webeval_core.runs.index_db import IndexStore
    from webeval_core.runs.listing.answers import TrajectoryPage
    from webeval_core.runs.listing.list_columns import ListedTrajectory
    from webeval_core.runs.summary import RootIndex

# Changes between two runs on one task.
PASS_TO_FAIL, FAIL_TO_PASS = "pass → fail", "fail → pass"
BOTH_PASS, BOTH_FAIL = "both pass", "both fail"
NOT_COMPARABLE, ONLY_A, ONLY_B = "not comparable", "only in A", "only in B"
CHANGES = (PASS_TO_FAIL, FAIL_TO_PASS, BOTH_PASS, BOTH_FAIL, NOT_COMPARABLE, ONLY_A, ONLY_B)
NOT_RUN = "not run"
"""The comparison's cell of a task a run never attempted (an empty cell was drawn "unknown",
which reads as a trajectory left unscored)."""

# --- the tidy frame -------------------------------------------------------------------------
# A frame's columns are the list's (`listing.list_columns`): each column takes one fact of a row,
# an index column of the trajectory as it is, or one of the facts `_frame_row` computes per judge
# (the same as the row SQL computes, held so by test_queries).

_INDEX_FACTS = tuple(c.name for c in TRAJECTORY_COLUMNS if not c.bookkeeping and c.name != "summary")
"""The index columns a frame row is made of (every fact of a trajectory; not the summary's JSON)."""
_ROW_NAMES = tuple(c.name for c in ROW_COLUMNS)
_NOT_SEEN = StoredFolder(dir_mtime_ns=0, scores_mtime_ns=-1, files_print=None)


def trajectory_frame(
    index: RootIndex, catalog: TaskCatalog | None = None, judge: str | None = None
) -> pd.DataFrame:
    """One row per trajectory (columns: `list_columns.column_names()`), tasks described from the
    catalog when it knows them.

    `judge` (see `judges`): whose score every row takes, so rates never mix judges; a trajectory
    that judge did not score is unscored. None: the root's default judge (`judges.default_judge`).
    """
    judge = judge if judge is not None else default_judge(available_judges(index))
    pick = itemgetter(*frame_facts())
    rows = []
    for s in index.summaries:
        # The row the index would hold of this summary (the same reading of every column).
        facts = dict(zip(_ROW_NAMES, row_values(RowSource(s.key, _NOT_SEEN, s, "")), strict=True))
        facts["path"] = str(s.path)
        rows.append(pick(_judged(facts, judge_scores(s), catalog, judge)))
    return _typed_frame(rows)


def stored_frame(
    store: IndexStore, catalog: TaskCatalog | None = None, judge: str | None = None
) -> pd.DataFrame:
    """`trajectory_frame` of what a root's index file holds, read as columns (no summary is parsed)."""
    judge = judge if judge is not None else default_judge(store.judges())
    found, scores = store.frame_rows(_INDEX_FACTS)
    pick = itemgetter(*frame_facts())
    rows = []
    for values in found:
        facts = dict(zip(_INDEX_FACTS, values, strict=True))
        facts["path"] = store.path_text(facts["rel"])
        rows.append(pick(_judged(facts, scores.get(facts["key"], {}), catalog, judge)))
    return _typed_frame(rows)


def listed_frame(rows: Iterable[ListedTrajectory]) -> pd.DataFrame:
    """Rows the index's queries listed (`IndexQueries.page`) as a trajectory frame: pandas as an
    adapter over the SQL's answer, holding only the rows asked for (the app's tables, downloads).
    """
    return _typed_frame(rows_of(rows))


def page_frame(page: TrajectoryPage) -> pd.DataFrame:
    """A page of a list (`IndexQueries.page`) as a trajectory frame, without the columns that bear a
    verdict when its verdicts were withheld (`TrajectoryPage.withheld`, runs.viewing).
    """
    frame = listed_frame(page.rows)
    if page.withheld is None:
        return frame
    return frame.drop(columns=sorted(verdict_columns() & set(frame.columns)))


def _judged(
    facts: dict[str, Any], scores: dict[str, float | None], catalog: TaskCatalog | None, judge: str | None
) -> dict[str, Any]:
    """A trajectory's index facts with those the judge used makes of them (in place)."""
    task = catalog.get(facts["task_id"]) if catalog is not None else None
    used = judge
    official = used == OFFICIAL and OFFICIAL in scores
    score = scores.get(used) if used is not None else None
    status = facts["verdict_status"] if official else None
    result, value = _result(facts["unreadable"], facts["outcome"], status, _as_pass(used, score))
    facts.update(
        task_type=task.task_type if task else None,
        intent_template=task.intent_template if task else None,
        outcome_group=_outcome_group(result, facts["outcome"]),
        status=status,
        score=score,
        result=result,
        value=value,
        counted=value is not None,
        tokens=(facts["prompt_tokens"] or 0) + (facts["completion_tokens"] or 0) or None,
        tags=tags_of(facts["verdict_tags"] if official else None, facts["outcome"], facts["core_error"]),
        judge=used if used in scores else None,
        judges_disagree=judges_disagree(scores),
        scores=dict(scores),
    )
    return facts


def _typed_frame(rows: list[tuple[Any, ...]]) -> pd.DataFrame:
    import pandas as pd

    columns = list_columns()
    frame = pd.DataFrame.from_records(rows, columns=[column.name for column in columns])
    # Text columns typed as text even when every value is missing (a few rows read from the index):
    # a frame of some rows then equals the same rows of the whole frame.
    return frame.astype({column.name: column.dtype for column in columns if column.dtype is not None})


def _as_pass(judge: str | None, score: float | None) -> float | None:
    """A judge's score as what it adds to a success rate: 1 for a pass by its own mark, else 0."""
    if judge is None or score is None:
        return score
    return 1.0 if judge_passes(judge, score) else 0.0


def _result(
    unreadable: str | None, outcome: str | None, status: str | None, score: float | None
) -> tuple[str, float | None]:
    """Result label and the value it adds to the success rate (None: left out, upstream's rule)."""
    if unreadable or outcome is None:
        return UNREADABLE, None
    if outcome in (ABORTED, UNFINISHED):
        return outcome, None
    if outcome == "no_answer":
        return NO_ANSWER, score if score is not None and status != "error" else 0.0
    if status == "error":
        return SCORING_ERROR, None
    if score is None:
        return UNSCORED, None
    return (PASS if score >= 1.0 else FAIL), score


def _outcome_group(result: str, outcome: str | None) -> str:
    if result in (UNREADABLE, ABORTED, NO_ANSWER, SCORING_ERROR, UNFINISHED):
        return result
    return ANSWERED if outcome == "answered" else UNREADABLE


# --- headline numbers and breakdowns --------------------------------------------------------


@dataclass(frozen=True)
class Headline:
    """The numbers at the top of the overview, for one set of trajectories."""

    trajectories: int
    """How many trajectories the set holds, whatever their result."""
    counted: int
    """How many enter the success rate (not aborted, unreadable, unscored or scoring errors)."""
    passed: int
    """How many counted trajectories scored full marks."""
    success_rate: float | None
    """Mean value over counted trajectories (0 to 1); None when none is counted."""
    no_answer: int
    """How many ran out of budget without answering (counted, as failures)."""
    aborted: int
    """How many runs were aborted (left out of the success rate)."""
    scoring_errors: int
    """How many the evaluator could not score (left out of the success rate)."""
    unscored: int
    """How many answered but have no verdict or single score yet (left out of the success rate)."""
    unreadable: int
    """How many folders could not be loaded (left out of the success rate)."""
    unfinished: int = 0
    """How many tasks have not finished yet, in a run that goes on (left out of the success rate,
    neither failures nor aborted)."""
    crashed: int = 0
    """How many of the aborted crashed (`reading.task_state`: their last attempt raised)."""

    @property
    def finished(self) -> int:
        """How many tasks are finished (`reading.task_state`): answered or out of budget, scored or not."""
        return self.trajectories - self.aborted - self.unfinished - self.unreadable


def headline(frame: pd.DataFrame) -> Headline:
    """The headline numbers of the rows of a trajectory frame."""
    counted = frame[frame["counted"]]
    results = frame["result"].value_counts()
    return Headline(
        trajectories=len(frame),
        counted=len(counted),
        passed=int((counted["value"] >= 1.0).sum()),
        success_rate=float(counted["value"].mean()) if len(counted) else None,
        no_answer=int(results.get(NO_ANSWER, 0)),
        aborted=int(results.get(ABORTED, 0)),
        scoring_errors=int(results.get(SCORING_ERROR, 0)),
        unscored=int(results.get(UNSCORED, 0)),
        unreadable=int(results.get(UNREADABLE, 0)),
        unfinished=int(results.get(UNFINISHED, 0)),
        crashed=int(((frame["result"] == ABORTED) & frame["crash_reason"].notna()).sum()),
    )


def headlines(frame: pd.DataFrame) -> dict[str, Headline]:
    """Headline numbers of each run, in the frame's run order."""
    return {str(run): headline(group) for run, group in frame.groupby("run", sort=False)}


def breakdown(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Success per run and value of `by` (site, task_type, intent_template, ...).

    Columns: run, <by>, trajectories, counted, passed, success_rate (None when nothing counted).
    """
    data = frame.assign(**{by: frame[by].fillna(UNKNOWN), "passed": frame["value"] >= 1.0})
    grouped = data.groupby(["run", by], sort=False)
    table = grouped.agg(
        trajectories=("task_id", "size"),
        counted=("counted", "sum"),
        passed=("passed", "sum"),
        success_rate=("value", "mean"),
    ).reset_index()
    return table.astype({"counted": "int64", "passed": "int64"}).sort_values(["run", by], kind="stable")


def outcome_breakdown(frame: pd.DataFrame) -> pd.DataFrame:
    """Trajectories per run and outcome group (answered / no answer / aborted / scoring error ...)."""
    return _counts(frame, "outcome_group", OUTCOME_GROUPS)


def _counts(frame: pd.DataFrame, column: str, order: Sequence[str]) -> pd.DataFrame:
    counts = frame.groupby(["run", column], sort=False).size().rename("trajectories").reset_index()
    rank = {name: i for i, name in enumerate(order)}
    counts["_rank"] = counts[column].map(rank)
    return counts.sort_values(["run", "_rank"], kind="stable").drop(columns="_rank").reset_index(drop=True)


def taxonomy(frame: pd.DataFrame) -> pd.DataFrame:
    """Trajectories per run and failure tag (a trajectory can carry several).

    Verdict and outcome tags come first, then core.log error types; most frequent first in each.
    """
    import pandas as pd

    exploded = frame[["run", "tags"]].explode("tags").dropna(subset=["tags"])
    if exploded.empty:
        return pd.DataFrame({"run": [], "tag": [], "trajectories": []})
    counts = exploded.groupby(["run", "tags"], sort=False).size().rename("trajectories").reset_index()
    counts = counts.rename(columns={"tags": "tag"})
    order = counts.assign(
        _log=counts["tag"].str.startswith(CORE_LOG_PREFIX),
        _total=counts.groupby("tag")["trajectories"].transform("sum"),
    )
    return (
        order.sort_values(
            ["_log", "_total", "tag", "run"], ascending=[True, False, True, True], kind="stable"
        )
        .drop(columns=["_log", "_total"])
        .reset_index(drop=True)
    )


# --- filtering ------------------------------------------------------------------------------


FILTER_COLUMNS = {
    "runs": "run",
    "task_ids": "task_id",
    "sites": "site",
    "task_types": "task_type",
    "intent_templates": "intent_template",
    "outcome_groups": "outcome_group",
    "results": "result",
    "statuses": "status",
}
"""`TrajectoryFilter` criterion -> the column its values match, in the frame and in the index's
rows (`queries`); a missing value matches as `UNKNOWN`."""
_TEXT_COLUMNS = ("task_id", "intent", "answer")


def filter_frame(
    frame: pd.DataFrame, criteria: TrajectoryFilter | None = None, /, **named: Iterable[str] | str | bool
) -> pd.DataFrame:
    """The rows of `frame` matching `criteria`.

    Args:
        frame: A trajectory frame (`trajectory_frame`).
        criteria: What to keep; None keeps everything but what `named` asks for.
        **named: Criteria given by their `TrajectoryFilter` field names (`runs=[...]`, `text="..."`),
            added to `criteria`; an unknown name raises a `pydantic.ValidationError`.
    """
    import pandas as pd

    wanted = criteria or TrajectoryFilter()
    if named:
        wanted = TrajectoryFilter.model_validate({**wanted.model_dump(exclude_defaults=True), **named})
    mask = pd.Series(True, index=frame.index)
    for name, column in FILTER_COLUMNS.items():
        values: frozenset[str] = getattr(wanted, name)
        if values:
            mask &= frame[column].fillna(UNKNOWN).isin(values)
    if wanted.tags:
        mask &= frame["tags"].map(lambda row: not wanted.tags.isdisjoint(row)).astype(bool)
    needle = wanted.text.strip().casefold()
    if needle:
        mask &= _text_mask(frame, needle)
    if wanted.judges_disagree:
        mask &= frame["judges_disagree"]
    return frame[mask]


def _text_mask(frame: pd.DataFrame, needle: str) -> pd.Series:
    import pandas as pd

    found = pd.Series(False, index=frame.index)
    for column in _TEXT_COLUMNS:
        found |= frame[column].fillna("").astype(str).str.casefold().str.contains(needle, regex=False)
    return found


def tag_options(frame: pd.DataFrame) -> list[str]:
    """Tags present in the frame: taxonomy tags in their order, then core.log error types."""
    present = {tag for row in frame["tags"] for tag in row}
    return [t for t in TAGS if t in present] + sorted(present - set(TAGS))


def run_labels(runs: Iterable[Run]) -> dict[str, str]:
    """Short names for pickers and legends: each run's label, or its key where labels collide."""
    runs = list(runs)
    seen: dict[str, int] = {}
    for run in runs:
        seen[run.label] = seen.get(run.label, 0) + 1
    return {run.key: run.label if seen[run.label] == 1 else run.key for run in runs}


# --- comparing runs -------------------------------------------------------------------------


def task_matrix(frame: pd.DataFrame, runs: Sequence[str]) -> pd.DataFrame:
    """Tasks x runs: the result label of each task in each run (`NOT_RUN` when a run lacks the task)."""
    data = frame[frame["run"].isin(runs)].drop_duplicates(["run", "task_id"], keep="last")
    matrix = data.pivot(index="task_id", columns="run", values="result")
    matrix = matrix.reindex(columns=list(runs))
    matrix = matrix.reindex(sorted(matrix.index, key=_task_order))
    matrix.columns.name = None
    return matrix.fillna(NOT_RUN)


def compare_runs(frame: pd.DataFrame, run_a: str, run_b: str) -> pd.DataFrame:
    """One row per task in either run: task facts, each side's result and the change from A to B.

    Columns: task_id, site, task_type, intent, result_a, result_b, change. Only results that
    enter the success rate are compared; a task aborted, unscored or errored on a side is
    "not comparable"; a side that never ran the task reads `NOT_RUN`.
    """
    import pandas as pd

    data = frame.drop_duplicates(["run", "task_id"], keep="last")
    a = data[data["run"] == run_a].set_index("task_id")
    b = data[data["run"] == run_b].set_index("task_id")
    task_ids = sorted(set(a.index) | set(b.index), key=_task_order)
    facts = pd.concat([b[["site", "task_type", "intent"]], a[["site", "task_type", "intent"]]])
    facts = facts[~facts.index.duplicated(keep="last")].reindex(task_ids)
    table = facts.assign(
        result_a=a["result"].reindex(task_ids),
        result_b=b["result"].reindex(task_ids),
        passed_a=(a["value"] >= 1.0).where(a["counted"]).reindex(task_ids),
        passed_b=(b["value"] >= 1.0).where(b["counted"]).reindex(task_ids),
    )
    table["change"] = [
        _change(ra, rb, pa, pb)
        for ra, rb, pa, pb in zip(
            table["result_a"], table["result_b"], table["passed_a"], table["passed_b"], strict=True
        )
    ]
    table.index.name = "task_id"
    table[["result_a", "result_b"]] = table[["result_a", "result_b"]].fillna(NOT_RUN)
    return table.drop(columns=["passed_a", "passed_b"]).reset_index()


def _change(result_a: Any, result_b: Any, passed_a: Any, passed_b: Any) -> str:
    import pandas as pd

    if pd.isna(result_a):
        return ONLY_B
    if pd.isna(result_b):
        return ONLY_A
    if pd.isna(passed_a) or pd.isna(passed_b):
        return NOT_COMPARABLE
    if passed_a and passed_b:
        return BOTH_PASS
    if passed_a:
        return PASS_TO_FAIL
    return FAIL_TO_PASS if passed_b else BOTH_FAIL


def change_counts(comparison: pd.DataFrame) -> dict[str, int]:
    """How many tasks fall in each change, every change listed (zero when absent)."""
    counts = comparison["change"].value_counts()
    return {change: int(counts.get(change, 0)) for change in CHANGES}


def _task_order(task_id: object) -> tuple[int, int, str]:
    text = str(task_id)
    # Only short ASCII digit runs are numbers: int() refuses "²" and numbers of thousands of digits.
    return (0, int(text), "") if text.isascii() and text.isdigit() and len(text) < 19 else (1, 0, text)
