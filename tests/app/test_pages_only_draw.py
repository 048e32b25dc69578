"""Pages only draw: what a list keeps, an outcome, a majority, a rule of who may see what is the
core's. These read the app's source (pages/, webeval_ui/, app.py) for the two ways such a rule
comes back: a filter built by hand, or a function of the same name as one of the core's."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import webeval_core
from webeval_core import presentation, reading, review, runs, scoring
from webeval_ui.state import Key

REPO = Path(__file__).resolve().parents[2]
APP_FILES = sorted([REPO / "app.py", *(REPO / "pages").glob("*.py"), *(REPO / "webeval_ui").rglob("*.py")])


def _trees() -> Iterator[tuple[Path, ast.Module]]:
    for path in APP_FILES:
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_no_app_module_builds_a_trajectory_filter_itself() -> None:
    """runs.filter_from_params is the one way a list's parameters become a filter."""
    built = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "TrajectoryFilter"
    ]
    assert len(APP_FILES) > 40
    assert built == []


def test_no_app_function_restates_a_core_rule() -> None:
    """A function the core exports (a rule: filters, outcomes, majority, disclosure) is defined once."""
    core_names = {
        name
        for facade in (webeval_core, reading, scoring, runs, review, presentation)
        for name in facade.__all__
        if name[:1].islower()
    }
    restated = [
        f"{path.relative_to(REPO)}:{node.lineno} {node.name}"
        for path, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name in core_names
    ]
    assert len(core_names) > 100
    assert restated == []


def test_the_list_parameters_are_the_cores_names() -> None:
    """The pages' widget keys bound to a list's URL parameters are the names the core reads."""
    assert {name for name in runs.FILTER_PARAMS if name not in set(Key)} == set()
