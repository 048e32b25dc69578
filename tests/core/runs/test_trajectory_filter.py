"""filter_from_params: the one rule by which a list's URL parameters (the Trajectories page's, a
walked list's, a queue form's) become a TrajectoryFilter."""

from __future__ import annotations

from webeval_core.runs.trajectory_filter import (
    FILTER_PARAMS,
    TrajectoryFilter,
    filter_from_params,
    without_verdicts,
)

LABELS = {"fara/WebArenaVerified/run_0": "fara-7b · WebArenaVerified · run 0"}


def test_every_parameter_sets_its_field() -> None:
    criteria = filter_from_params(
        {
            "search": ["gitlab"],
            "runs": ["fara-7b · WebArenaVerified · run 0", "other/run"],
            "sites": ["gitlab"],
            "types": ["navigate"],
            "templates": ["Open {{x}}"],
            "outcomes": ["answered"],
            "results": ["fail"],
            "statuses": ["failure"],
            "tags": ["wrong answer"],
            "codes": ["uv: 2"],
            "disagree": ["true"],
            "page": ["3"],  # not a list's parameter: ignored
        },
        LABELS,
        keys=["a/1", "a/2"],
    )
    assert criteria == TrajectoryFilter(
        text="gitlab",
        runs=frozenset({"fara/WebArenaVerified/run_0", "other/run"}),  # a label or a key names a run
        sites=frozenset({"gitlab"}),
        task_types=frozenset({"navigate"}),
        intent_templates=frozenset({"Open {{x}}"}),
        outcome_groups=frozenset({"answered"}),
        results=frozenset({"fail"}),
        statuses=frozenset({"failure"}),
        tags=frozenset({"wrong answer"}),
        failure_codes=frozenset({"uv: 2"}),
        judges_disagree=True,
        keys=frozenset({"a/1", "a/2"}),
    )
    assert criteria.uses_verdicts


def test_no_parameter_keeps_everything() -> None:
    assert filter_from_params({}) == TrajectoryFilter()
    assert filter_from_params({"disagree": ["false"], "search": [""]}) == TrajectoryFilter()


def test_a_blind_pass_drops_every_verdict_criterion_and_keeps_the_rest() -> None:
    params = {
        "sites": ["reddit"],
        "outcomes": ["answered", "scoring error"],
        "results": ["pass"],
        "statuses": ["success"],
        "tags": ["t"],
        "codes": ["uv: 1.1"],
        "disagree": ["true"],
    }
    blind = filter_from_params(params, verdicts=False)
    assert blind == TrajectoryFilter(sites=frozenset({"reddit"}), outcome_groups=frozenset({"answered"}))
    assert not blind.uses_verdicts
    assert without_verdicts(filter_from_params(params)) == blind


def test_the_parameters_are_named_once() -> None:
    assert len(set(FILTER_PARAMS)) == len(FILTER_PARAMS)
    assert {"judge", "search", "disagree", "runs", "sites", "codes"} <= set(FILTER_PARAMS)
