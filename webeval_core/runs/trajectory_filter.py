"""Which trajectories a list keeps (`TrajectoryFilter`), the labels it selects by, and how a URL
names one: the one rule the Trajectories page, the list walked from a trajectory and the review
queue form all build their filter by (`filter_from_params`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from webeval_core.scoring.verdicts import ABORTED, NO_ANSWER, SCORING_ERROR

# Per-trajectory result labels: the cells of the tasks x runs matrix.
PASS, FAIL = "pass", "fail"
UNSCORED, UNREADABLE = "unscored", "unreadable"
UNFINISHED = "unfinished"
"""A task still running (or silent since) in a run that goes on: neither a failure nor aborted."""
RESULTS = (PASS, FAIL, NO_ANSWER, ABORTED, SCORING_ERROR, UNSCORED, UNFINISHED, UNREADABLE)
# Outcome groups: answered / no answer / aborted / scoring error / unfinished (and folders we could not read).
ANSWERED = "answered"
OUTCOME_GROUPS = (ANSWERED, NO_ANSWER, ABORTED, SCORING_ERROR, UNFINISHED, UNREADABLE)
VERDICT_OUTCOME_GROUPS = frozenset({SCORING_ERROR})
"""Outcome groups that only a verdict tells (a scoring error); the others are read from the folder."""


class TrajectoryFilter(BaseModel):
    """Which rows of a trajectory frame to keep: every criterion given must match.

    The values of one criterion are alternatives; an empty criterion keeps everything, and
    `UNKNOWN` matches a missing value.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    runs: frozenset[str] = frozenset()
    """Run keys (the `run` column)."""
    task_ids: frozenset[str] = frozenset()
    """Task ids (every attempt at these tasks, in any run)."""
    sites: frozenset[str] = frozenset()
    """Site keys as the official summary groups them, e.g. "gitlab" or "reddit-shopping"."""
    task_types: frozenset[str] = frozenset()
    """Task types: retrieve, mutate, navigate."""
    intent_templates: frozenset[str] = frozenset()
    """Intent templates, as the catalog writes them."""
    outcome_groups: frozenset[str] = frozenset()
    """Outcome groups (`OUTCOME_GROUPS`): answered, no answer, aborted, scoring error, unreadable."""
    results: frozenset[str] = frozenset()
    """Result labels (`RESULTS`): pass, fail, no answer, aborted..."""
    statuses: frozenset[str] = frozenset()
    """WebArena-Verified verdict statuses: success, failure, error."""
    tags: frozenset[str] = frozenset()
    """Failure tags; a row carrying any of them is kept."""
    text: str = ""
    """A case-insensitive substring of the task id, intent or answer; blank keeps everything."""
    judges_disagree: bool = False
    """Keep only trajectories whose judges disagree on pass or fail."""
    failure_codes: frozenset[str] = frozenset()
    """Error-taxonomy codes as "<judge>: <code named>" (`row_sql.code_choice`): a row one of whose judges
    gives the code, or a code under it ("2" keeps 2.3, "3.2" keeps 3.2.1), is kept. Read by the
    index's queries only (the pandas frame holds no codes)."""
    keys: frozenset[str] = frozenset()
    """Summary keys (the folders under the root) of a list named one by one (a judges-disagree cell,
    a query's rows); read by the index's queries only."""

    @property
    def uses_verdicts(self) -> bool:
        """Whether keeping a row depends on a verdict, score, tag or judge's code (the criteria a
        blind pass may not use: `review.queues`).
        """
        return bool(
            self.results
            or self.statuses
            or self.tags
            or self.judges_disagree
            or self.failure_codes
            or self.outcome_groups & VERDICT_OUTCOME_GROUPS
        )


CHOICE_PARAMS: Mapping[str, str] = {
    "runs": "runs",
    "tasks": "task_ids",
    "sites": "sites",
    "types": "task_types",
    "templates": "intent_templates",
    "outcomes": "outcome_groups",
    "results": "results",
    "statuses": "statuses",
    "tags": "tags",
    "codes": "failure_codes",
}
"""Each URL parameter of a list's choices (several values each) and the filter field it sets."""
SEARCH_PARAM, DISAGREE_PARAM, JUDGE_PARAM = "search", "disagree", "judge"
"""The list's text search, its judges-disagree switch, and whose verdicts it is listed by."""
FILTER_PARAMS = (JUDGE_PARAM, SEARCH_PARAM, DISAGREE_PARAM, *CHOICE_PARAMS)
"""Every URL parameter that describes a list."""


def filter_from_params(
    params: Mapping[str, Sequence[str]],
    run_labels: Mapping[str, str] | None = None,
    *,
    keys: Sequence[str] | None = None,
    verdicts: bool = True,
) -> TrajectoryFilter:
    """The filter a list's parameters name (`FILTER_PARAMS`; others are ignored).

    `run_labels`: run key -> label; a run may be named by either (a bound picker writes its label
    into the URL, a link the key). `keys`: a list named trajectory by trajectory. `verdicts=False`
    (a blind pass) drops every criterion that selects by a verdict.
    """
    by_label = {label: key for key, label in (run_labels or {}).items()}
    chosen = {field: frozenset(params.get(name, ())) for name, field in CHOICE_PARAMS.items()}
    chosen["runs"] = frozenset(by_label.get(value, value) for value in chosen["runs"])
    criteria = TrajectoryFilter(
        text=(list(params.get(SEARCH_PARAM, ())) or [""])[0],
        judges_disagree=(list(params.get(DISAGREE_PARAM, ())) or [""])[0].lower() == "true",
        keys=frozenset(keys or ()),
        **chosen,
    )
    return criteria if verdicts else without_verdicts(criteria)


def without_verdicts(criteria: TrajectoryFilter) -> TrajectoryFilter:
    """`criteria` less whatever selects by a verdict, score, tag or judge's code."""
    return criteria.model_copy(
        update={
            "results": frozenset(),
            "statuses": frozenset(),
            "tags": frozenset(),
            "failure_codes": frozenset(),
            "judges_disagree": False,
            "outcome_groups": criteria.outcome_groups - VERDICT_OUTCOME_GROUPS,
        }
    )
